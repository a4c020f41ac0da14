import BubbleLayout
import BubbleText
import Foundation
@testable import BubbleTerminal
import BubbleTestSupport

let utc = TimeZone(identifier: "UTC")!

/// Rendered rows with the layouts they were drawn from.
struct RenderedTimeline {
    var rows: [DecoratedRow]
    var layouts: [RowLayout]
    var lines: [[String]]

    var text: String { lines.flatMap { $0 }.joined(separator: "\n") }
    var bytes: [UInt8] { Array(lines.flatMap { $0 }.map { $0 + "\n" }.joined().utf8) }
}

/// Decorates, lays out (through the engine and its cache) and draws `models`.
func render(_ models: [any MessageModel], width: Int, color: ColorDepth = .none, ascii: Bool = false,
            engine: LayoutEngine<CellMeasurer> = LayoutEngine(), parties: Int? = nil) throws -> RenderedTimeline {
    let rows = try engine.decorate(models, options: DecorationOptions(timeZone: utc, otherParties: parties))
    var renderer = TranscriptRenderer(
        engine: engine, options: RenderOptions(width: width, colorDepth: color, asciiBorders: ascii, timeZone: utc))
    let pool = CellPool()
    let layouts = rows.map { engine.layout($0, in: models, width: width, pool: pool) }
    let lines = zip(rows, layouts).map { row, layout in
        renderer.lines(for: row, model: row.isDateSeparator ? nil : models[row.messageIndex], layout: layout)
    }
    return RenderedTimeline(rows: rows, layouts: layouts, lines: lines)
}

/// `line` without SGR sequences `ESC [ (digits;)* m`; other escapes are left in place.
func stripSGR(_ line: String) -> String {
    var out = String.UnicodeScalarView()
    let scalars = Array(line.unicodeScalars)
    var i = 0
    while i < scalars.count {
        if scalars[i] == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
            var j = i + 2
            while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
            if j < scalars.count, scalars[j] == "m" {
                i = j + 1
                continue
            }
        }
        out.append(scalars[i])
        i += 1
    }
    return String(out)
}

/// Offsets of bytes that break the output rules: with colour off any ESC, C0 other than LF, DEL,
/// C1 scalar or bidi control; with colour on, the same except ESC starting an SGR sequence.
func unsafeOutput(_ output: String, colorOn: Bool) -> [String] {
    var problems: [String] = []
    let scalars = Array(output.unicodeScalars)
    var i = 0
    while i < scalars.count {
        let v = scalars[i].value
        if v == 0x1B && colorOn {
            var j = i + 1
            if j < scalars.count, scalars[j] == "[" {
                j += 1
                while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
                if j < scalars.count, scalars[j] == "m" {
                    i = j + 1
                    continue
                }
            }
            problems.append("non-SGR escape at scalar \(i)")
        } else if (v < 0x20 && v != 0x0A) || v == 0x7F || (0x80...0x9F).contains(v) {
            problems.append(String(format: "control U+%04X at scalar %d", v, i))
        } else if v == 0x061C || v == 0x200E || v == 0x200F || (0x202A...0x202E).contains(v)
                    || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029 {
            problems.append(String(format: "bidi/separator U+%04X at scalar %d", v, i))
        }
        i += 1
    }
    return problems
}

/// Random multilingual chat timelines: several senders, me, images with and without size,
/// notices, replies (to known and unknown ids), edits, statuses and day changes.
struct TimelineGenerator {
    var random: SeededGenerator

    static let fragments = [
        "Hi!", "ok", "See you at 10", "Привет, как дела?", "こんにちは世界", "你好，我们明天见面吧。",
        "مرحبا بالعالم", "שלום עולם", "안녕하세요", "Ελληνικά κείμενα", "नमस्ते दुनिया", "ສະບາຍດີ",
        "👋", "👍🏽", "👩‍👩‍👧‍👦", "🏳️‍🌈", "❤️", "1️⃣", "🇯🇵🇫🇷", "e\u{301}t\u{E9}", "ｆｕｌｌｗｉｄｔｈ",
        "https://example.com/a/very/long/path/that/will/not/fit/on/one/line?query=string&and=more",
        "supercalifragilisticexpialidocious", "tab\there", "line one\nline two", "CR\r\nLF",
        "a\u{1B}[31mred", "bell\u{07}", "\u{202E}reversed", "ﷺ", "…", "×", "😀😀😀😀😀😀😀😀😀😀😀😀",
        "   spaced   out   ", "",
    ]
    static let senders = ["Alice", "Bob", "陈伟", "José 👩🏽‍💻", "Zoë"]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func text() -> String {
        (0..<int(1...6)).map { _ in Self.fragments.randomElement(using: &random)! }.joined(separator: " ")
    }

    mutating func timeline(count: Int) -> [any MessageModel] {
        var models: [any MessageModel] = []
        var time = may1.timeIntervalSince1970 + Double(int(0...86_000))
        for i in 0..<count {
            time += [5.0, 40, 200, 900, 20_000, 90_000][int(0...5)]
            let date = Date(timeIntervalSince1970: time)
            let outgoing = chance(35)
            let sender: String? = outgoing ? "Me" : (chance(3) ? nil : Self.senders.randomElement(using: &random)!)
            let direction: MessageDirection = outgoing ? .outgoing : .incoming
            let status: DeliveryStatus? = outgoing ? DeliveryStatus.allCases.randomElement(using: &random)
                : (chance(10) ? .read : nil)
            let reply: String? = chance(20) ? (chance(80) && i > 0 ? "m\(int(0...i - 1))" : "missing\(i)") : nil
            let edited = chance(15)
            switch int(0...9) {
            case 0...5:
                models.append(TextNote(id: "m\(i)", senderName: sender, direction: direction, date: date,
                                          status: status, isEdited: edited, replyToID: reply, text: text()))
            case 6...7:
                let sized = chance(70)
                let names = ["IMG_0001.jpg", "a very long photo name from the holidays 2024.heic", "写真.png",
                             "evil\u{1B}]0;pwned\u{07}.jpg"]
                models.append(Picture(
                    id: "m\(i)", senderName: sender, direction: direction, date: date, status: status,
                    isEdited: edited, replyToID: reply,
                    pixelWidth: sized ? [1280, 720, 4000, 1, 300][int(0...4)] : nil,
                    pixelHeight: sized ? [720, 1280, 100, 3000, 300][int(0...4)] : nil,
                    imageName: names.randomElement(using: &random)!, caption: chance(50) ? text() : nil))
            default:
                models.append(Notice(id: "m\(i)", direction: direction, date: date,
                                            notice: (sender ?? "Someone") + " " + text()))
            }
        }
        return models
    }
}
