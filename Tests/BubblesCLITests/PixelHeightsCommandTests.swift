import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubblesCLI

/// `bubbles heights --font …`: heights in px through the whole command (reader, decorations,
/// cells, streaming layout, output), checked against headless Chromium's layout of the same texts.
@Suite struct PixelHeightsCommandTests {
    static let notoSans = corpus("fonts/NotoSans-Subset.ttf")
    static let emoji = corpus("fonts/NotoColorEmoji-Subset.ttf")

    static func temporaryFile(_ name: String, _ contents: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixel-heights-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents).write(to: url)
        return url.path
    }

    static func records(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// Chromium laid out the sweep's texts in blocks 96…375 px wide (Corpora/fonts/chromium-sweep.json).
    /// A style with 1 px of padding and the whole container as the widest bubble makes the text's
    /// wrap width the container's less 2 px, so each row's line count and text height must be
    /// Chromium's for that width.
    @Test(arguments: ["20px", "normal"], ["noto", "dejavu"])
    func linesAndTextHeightsMatchChromiumThroughTheCommand(lineHeight: String, chain: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus("fonts/chromium-sweep.json")))
        let sweep = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let texts = try #require(sweep["texts"] as? [[String: Any]])
        let items = try #require(sweep["items"] as? [[Any]])
        var log = ""
        var ids: [String: Int] = [:]
        // (Texts with a web address are left out: we keep an address whole where Chromium breaks it;
        // URLKeepingPixelTests checks those.)
        for (t, text) in texts.enumerated() where ["latin", "emoji", "cyrillic", "greek"].contains(text["group"] as? String)
            && !((text["text"] as? String) ?? "").contains("://") {
            let record: [String: Any] = ["id": "t\(t)", "type": "text", "from": "Ana", "date": "2024-05-01T09:00:00Z",
                                         "text": try #require(text["text"] as? String)]
            log += String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self) + "\n"
            ids["t\(t)"] = t
        }
        // Named per case: the cases run in parallel.
        let logPath = try Self.temporaryFile("sweep-\(chain)-\(lineHeight).jsonl", Array(log.utf8))
        let stylePath = try Self.temporaryFile("tight-\(chain)-\(lineHeight).json", Array(#"{"maxWidthFraction": 1, "minimumMaxWidth": 1, "horizontalPadding": 1, "minimumContentWidth": 1}"#.utf8))
        let widths = [96, 140, 180, 217, 260, 300, 330, 375]
        let first = corpus(chain == "noto" ? "fonts/NotoSans-Subset.ttf" : "fonts/DejaVuSans-Subset.ttf")
        let run = bubbles("heights", logPath, "--font", first, "--font", Self.emoji, "--size", "16",
                          "--line-height", lineHeight == "20px" ? "20" : "normal", "--style", stylePath,
                          "--width", widths.map { String($0 + 2) }.joined(separator: ","))
        #expect(run.code == 0, "\(run.errors)")
        var expected: [String: (lines: Int, height: Int)] = [:]
        for item in items where item[1] as? String == chain && (item[2] as? NSNumber)?.doubleValue == 16 && item[3] as? String == lineHeight {
            expected["\(item[0])/\(item[4])"] = ((item[5] as! NSNumber).intValue, (item[6] as! NSNumber).intValue)
        }
        var checked = 0
        for record in try Self.records(run.output) where record["kind"] as? String == "text" {
            let id = try #require(record["id"] as? String)
            let t = try #require(ids[id])
            let width = try #require(record["width"] as? Int) - 2
            #expect(record["wrapWidth"] as? Int == width)
            let chromium = try #require(expected["\(t)/\(width)"])
            #expect(record["textLines"] as? Int == chromium.lines, "text \(t) at \(width) px")
            let textHeight = try #require((record["textHeight"] as? NSNumber)?.doubleValue)
            #expect(textHeight * 64 == Double(chromium.height), "text \(t) at \(width) px")
            checked += 1
        }
        #expect(checked == ids.count * widths.count)
        #expect(checked >= 380)
    }

    /// `--lang` and `--line-height 1.4em` reach what the sweep's tests set per group: Japanese and
    /// Chinese shaped as Han in their language (`locl`, `text-spacing-trim`), Korean as Hangul, and
    /// a line height that is a multiple of the size. Each row must be Chromium's (texts holding a
    /// web address aside).
    @Test(arguments: [("cjk", "cjk-jp", "1.4em", "1.4"), ("cjk-trim", "cjk-jp", "20", "20px"), ("cjk-space", "cjk-jp", "normal", "normal"),
                      ("korean", "cjk-kr", "23.9", "23.9px"), ("latin", "noto", "1.4em", "1.4")])
    func languagesAndLineHeightsReachChromiumThroughTheCommand(group: String, chain: String, lineHeight: String, sweepLineHeight: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus("fonts/chromium-sweep.json")))
        let sweep = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let texts = try #require(sweep["texts"] as? [[String: Any]])
        let items = try #require(sweep["items"] as? [[Any]])
        let fonts = try #require((sweep["fontsUsed"] as? [String: [[Any]]])?[chain])
        var log = ""
        var ids: [String: Int] = [:]
        var langs: Set<String> = []
        for (t, text) in texts.enumerated() where text["group"] as? String == group {
            // A text holding a web address is broken where we keep the address whole (`URLSpans`),
            // a tailoring Chromium does not make: left out (`URLKeepingPixelTests` checks it).
            guard URLSpans.find(in: Array(try #require(text["text"] as? String).utf8)).isEmpty else { continue }
            langs.insert(try #require(text["lang"] as? String))
            let record: [String: Any] = ["id": "t\(t)", "type": "text", "from": "Ana", "date": "2024-05-01T09:00:00Z",
                                         "text": try #require(text["text"] as? String)]
            log += String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self) + "\n"
            ids["t\(t)"] = t
        }
        let stylePath = try Self.temporaryFile("tight-lang-\(group).json", Array(#"{"maxWidthFraction": 1, "minimumMaxWidth": 1, "horizontalPadding": 1, "minimumContentWidth": 1}"#.utf8))
        let widths = [96, 140, 217, 300, 375]
        var checked = 0
        for lang in langs.sorted() {
            let logPath = try Self.temporaryFile("sweep-lang-\(group)-\(lang).jsonl", Array(log.utf8))
            var arguments = ["heights", logPath, "--size", "16", "--line-height", lineHeight, "--lang", lang, "--style", stylePath,
                             "--width", widths.map { String($0 + 2) }.joined(separator: ",")]
            for font in fonts {
                let name = try #require(font[0] as? String), face = try #require(font[1] as? Int)
                arguments += ["--font", corpus("fonts/" + name) + (name.hasSuffix(".ttc") ? "#\(face)" : "")]
            }
            let run = bubbles(arguments)
            #expect(run.code == 0, "\(run.errors)")
            var expected: [String: (lines: Int, height: Int)] = [:]
            for item in items where item[1] as? String == chain && (item[2] as? NSNumber)?.doubleValue == 16 && item[3] as? String == sweepLineHeight {
                expected["\(item[0])/\(item[4])"] = ((item[5] as! NSNumber).intValue, (item[6] as! NSNumber).intValue)
            }
            for record in try Self.records(run.output) where record["kind"] as? String == "text" {
                let id = try #require(record["id"] as? String)
                let t = try #require(ids[id])
                guard texts[t]["lang"] as? String == lang else { continue }
                let width = try #require(record["width"] as? Int) - 2
                let chromium = try #require(expected["\(t)/\(width)"])
                #expect(record["textLines"] as? Int == chromium.lines, "\(lang) text \(t) at \(width) px")
                let textHeight = try #require((record["textHeight"] as? NSNumber)?.doubleValue)
                #expect(Int((textHeight * 64).rounded()) == chromium.height, "\(lang) text \(t) at \(width) px")
                checked += 1
            }
        }
        #expect(checked == ids.count * widths.count)
    }

    @Test func theDefaultStyleAddsItsFixedPartsToTheTextHeight() throws {
        let log = """
            {"id":"a","type":"text","from":"Ana","date":"2024-05-01T09:00:00Z","text":"Hello!"}
            {"id":"b","type":"text","from":"Ben","date":"2024-05-01T09:01:00Z","text":"Are we still on for lunch tomorrow? I was thinking about that new ramen place near the station."}
            {"id":"c","type":"text","from":"Chloé","date":"2024-05-01T09:01:30Z","text":"yes 👍"}

            """
        let logPath = try Self.temporaryFile("lunch.jsonl", Array(log.utf8))
        let run = bubbles("heights", logPath, "--font", Self.notoSans, "--font", Self.emoji, "--size", "16",
                          "--line-height", "20", "--width", "375")
        #expect(run.code == 0, "\(run.errors)")
        let records = try Self.records(run.output)
        #expect(records.map { $0["kind"] as? String } == ["date", "text", "text", "text"])
        // The date row: the style's 28 px. Each bubble: 8 px of spacing (a new group), 2 × 8 px of
        // padding, an 18 px name line (three people talk), 20 px a line, a 16 px footer.
        #expect(records[0]["height"] as? Int == 28)
        for record in records.dropFirst() {
            let lines = try #require(record["textLines"] as? Int)
            #expect(record["textHeight"] as? Int == 20 * lines)
            #expect(record["height"] as? Int == 8 + 16 + 18 + 20 * lines + 16)
            #expect(record["wrapWidth"] as? Int == 375 * 3 / 4 - 24)
        }
        #expect(try #require(records[2]["textLines"] as? Int) > 1)
        #expect(run.errors.isEmpty)

        let csv = bubbles("heights", logPath, "--font", Self.notoSans, "--size", "13.5", "--width", "320", "--format", "csv")
        #expect(csv.code == 0)
        #expect(csv.outputLines.first == "row,id,kind,width,height,textHeight,textLines,wrapWidth,bubbleWidth,conversation")
        #expect(csv.outputLines.count == 5)
    }

    @Test func aBadFontOrStyleFileIsOneErrorNamingTheFile() throws {
        let log = try Self.temporaryFile("one.jsonl", Array(#"{"id":"a","type":"text","from":"Ana","date":"2024-05-01T09:00:00Z","text":"hi"}"#.utf8 + [0x0A]))
        let font = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.notoSans)))
        let truncated = try Self.temporaryFile("Truncated.ttf", Array(font.prefix(300)))
        let run = bubbles("heights", log, "--font", Self.notoSans, "--font", truncated)
        #expect(run.code == ExitCode.failure)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("bubbles: \(truncated): not a usable font: "), "\(run.errors)")
        #expect(run.errors.split(separator: "\n").count == 1)

        let missing = bubbles("heights", log, "--font", "/nonexistent/A.ttf")
        #expect(missing.code == ExitCode.failure)
        #expect(missing.errors == "bubbles: /nonexistent/A.ttf: cannot read the font file (cannot open: No such file or directory)\n")

        let noFace = bubbles("heights", log, "--font", corpus("fonts/NotoSansCJK-Subset.ttc") + "#2")
        #expect(noFace.code == ExitCode.failure)
        #expect(noFace.errors.contains("NotoSansCJK-Subset.ttc: not a usable font"), "\(noFace.errors)")
        let secondFace = bubbles("heights", log, "--font", corpus("fonts/NotoSansCJK-Subset.ttc") + "#1")
        #expect(secondFace.code == 0, "\(secondFace.errors)")

        let style = try Self.temporaryFile("bad-style.json", Array(#"{"padding": 4}"#.utf8))
        let badStyle = bubbles("heights", log, "--font", Self.notoSans, "--style", style)
        #expect(badStyle.code == ExitCode.failure)
        #expect(badStyle.errors.hasPrefix("bubbles: \(style): unknown key 'padding'"), "\(badStyle.errors)")
    }

    @Test func aFontOrStyleFileThatCannotBeReadSaysWhy() throws {
        let log = try Self.temporaryFile("why.jsonl", Array(#"{"id":"a","type":"text","from":"Ana","date":"2024-05-01T09:00:00Z","text":"hi"}"#.utf8 + [0x0A]))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-font-folder-\(UUID().uuidString).ttf").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fontFolder = bubbles("heights", log, "--font", folder)
        #expect(fontFolder.code == ExitCode.failure)
        #expect(fontFolder.errors == "bubbles: \(folder): cannot read the font file (a folder)\n")
        let styleFolder = bubbles("heights", log, "--font", Self.notoSans, "--style", folder)
        #expect(styleFolder.errors == "bubbles: \(folder): a folder\n")
        let missingStyle = bubbles("heights", log, "--font", Self.notoSans, "--style", "/nonexistent/style.json")
        #expect(missingStyle.code == ExitCode.failure)
        #expect(missingStyle.errors == "bubbles: /nonexistent/style.json: cannot open: No such file or directory\n")
    }

    @Test func aStyleFileThatIsNotJSONIsNamedByLineAndColumn() throws {
        let log = try Self.temporaryFile("lc.jsonl", Array(#"{"id":"a","type":"text","from":"Ana","date":"2024-05-01T09:00:00Z","text":"hi"}"#.utf8 + [0x0A]))
        let style = try Self.temporaryFile("broken-style.json", Array("{\n  \"nameHeight\": 20,\n  \"footerHeight\": 1O\n}\n".utf8))
        let run = bubbles("heights", log, "--font", Self.notoSans, "--style", style)
        #expect(run.code == ExitCode.failure)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("bubbles: \(style):3:20: not valid JSON: "), "\(run.errors)")
        #expect(!run.errors.contains("around character"))
        #expect(run.errors.split(separator: "\n").count == 1)
    }

    @Test func wrongPixelFlagsAreUsageErrors() {
        let cases: [([String], String)] = [
            (["--size", "16"], "--size needs --font"),
            (["--line-height", "20"], "--line-height needs --font"),
            (["--lang", "ja"], "--lang needs --font"),
            (["--font", Self.notoSans, "--lang", "j"], "invalid value 'j' for --lang"),
            (["--font", Self.notoSans, "--lang", "ja--JP"], "invalid value 'ja--JP' for --lang"),
            (["--font", Self.notoSans, "--line-height", "em"], "invalid value 'em' for --line-height"),
            (["--style", "s.json"], "--style needs --font"),
            (["--font", Self.notoSans, "--size", "0"], "invalid value '0' for --size"),
            (["--font", Self.notoSans, "--size", "big"], "invalid value 'big' for --size"),
            (["--font", Self.notoSans, "--line-height", "tall"], "invalid value 'tall' for --line-height"),
            // Swift reads these as Doubles; people do not write px so, and below 1/64 px is nothing.
            (["--font", Self.notoSans, "--size", "0x10"], "invalid value '0x10' for --size"),
            (["--font", Self.notoSans, "--size", "1e-300"], "invalid value '1e-300' for --size"),
            (["--font", Self.notoSans, "--size", " 16"], "invalid value ' 16' for --size"),
            (["--font", Self.notoSans, "--line-height", "1e-9"], "invalid value '1e-9' for --line-height"),
            (["--font", Self.notoSans, "--line-height", "0.01"], "invalid value '0.01' for --line-height"),
            (["--font", Self.notoSans + "#x"], "the face index after '#' must be a number"),
            (["--font", Self.notoSans + "#"], "the face index after '#' must be a number"),
            (["--font", ""], "invalid value '' for --font"),
            (["--width", "99999999999999999999"], "expected 1 to"),
            (["--font", Self.notoSans, "--cell-widths", "wcwidth"], "--cell-widths applies to cells"),
            (["--font", Self.notoSans, "--ambiguous-wide"], "--ambiguous-wide applies to cells"),
            (["--font"], "option '--font' needs a value"),
        ]
        for (arguments, message) in cases {
            let run = BubblesCommandLine.run(["heights", corpus("logs/sample.jsonl")] + arguments, context: CommandContext(
                output: StringSink(), errors: StringSink(), environment: [:]))
            #expect(run == ExitCode.usage, "\(arguments)")
            let errors = StringSink()
            _ = BubblesCommandLine.run(["heights", corpus("logs/sample.jsonl")] + arguments,
                                       context: CommandContext(output: StringSink(), errors: errors, environment: [:]))
            #expect(errors.text.contains(message), "\(arguments): \(errors.text)")
            #expect(errors.text.contains("usage: bubbles heights"))
        }
        #expect(bubbles("heights", "--help").output.contains("--font FILE"))
    }
}
