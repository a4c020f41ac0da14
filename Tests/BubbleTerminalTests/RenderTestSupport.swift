import BubbleLayout
import BubbleText
import Foundation
@testable import BubbleTerminal
import BubbleTestSupport

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
    let layouts = rows.map { engine.layout($0, in: models, width: width) }
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

