import BubbleFonts
import BubbleText
import Foundation

/// How fast the pixel measurer is: loading a font, preparing chat text in pixels, and laying the
/// prepared text out again at new widths. Run from a release build (`swift run -c release
/// bubbles-bench-pixels`); a debug build's figures mean nothing.
public enum PixelBenchmark {
    /// One phase's figure.
    public struct Row: Sendable {
        public var phase: String
        public var value: Double
        public var unit: String
    }

    /// Runs every phase over the chat texts of `corpus` (sweep-texts.tsv's Latin, Cyrillic and
    /// Greek messages, repeated to `scalars` scalars) with the fonts in `directory`, then prepare
    /// and re-layout again over `syntheticTexts` (the synthetic log's texts, in many scripts) with
    /// a chain of every committed script font.
    /// A file the benchmark needs (a test font, the sweep's texts) that could not be read.
    public struct MissingFile: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "cannot read \(path)" }
    }

    public static func run(fontsDirectory directory: String, scalars target: Int = 200_000,
                           syntheticTexts: [String] = [], sweepTexts: Bool = true, minimumSeconds: Double = 0.5) throws -> [Row] {
        var rows: [Row] = []
        // Loading: parsing a font file's tables from bytes already in memory (the file read is the
        // OS's business), per font.
        let files = ["NotoSans-Subset.ttf", "DejaVuSans-Subset.ttf", "NotoColorEmoji-Subset.ttf", "NotoSansCJK-Subset.ttc"]
        var bytes: [String: [UInt8]] = [:]
        for file in files {
            guard let data = FileManager.default.contents(atPath: directory + "/" + file) else {
                throw MissingFile(path: directory + "/" + file)
            }
            bytes[file] = [UInt8](data)
        }
        for file in files {
            let fontBytes = bytes[file]!
            let seconds = time(minimumSeconds) { _ = try? OpenTypeFont(bytes: fontBytes) }
            rows.append(Row(phase: "load \(file) (\(fontBytes.count / 1024) KiB)", value: seconds * 1e3, unit: "ms"))
        }
        // Whole fonts, when this machine has Debian's font packages (the subsets keep few glyphs).
        for path in systemFonts where FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let fontBytes = [UInt8](data)
            let seconds = time(minimumSeconds) { _ = try? OpenTypeFont(bytes: fontBytes) }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            rows.append(Row(phase: "load \(name) (\(fontBytes.count / 1024) KiB, whole)", value: seconds * 1e3, unit: "ms"))
        }
        let noto = try OpenTypeFont(bytes: bytes["NotoSans-Subset.ttf"]!)
        let emoji = try OpenTypeFont(bytes: bytes["NotoColorEmoji-Subset.ttf"]!)
        let chainSeconds = time(minimumSeconds) { _ = try? FontChain(fonts: [noto, emoji], size: 16) }
        rows.append(Row(phase: "font chain (Noto Sans, Noto Color Emoji) at 16 px", value: chainSeconds * 1e3, unit: "ms"))

        let texts = try chatTexts(directory: directory, scalars: target)
        let measurer = PixelMeasurer(chain: try FontChain(fonts: [noto, emoji], size: 16))
        if sweepTexts { rows += prepareAndLayout(texts, measurer: measurer, label: "", minimumSeconds: minimumSeconds) }
        if !syntheticTexts.isEmpty {
            // Each script's font before the emoji one, Latin first, as an app would list them.
            var fonts = [noto]
            for (file, face) in [("NotoSansCJK-Subset.ttc", 0), ("NotoSansHebrew-Subset.ttf", 0), ("NotoSansArabic-Subset.ttf", 0),
                                 ("NotoSansThai-Subset.ttf", 0), ("NotoSansDevanagari-Subset.ttf", 0)] {
                guard let data = FileManager.default.contents(atPath: directory + "/" + file) else {
                    throw MissingFile(path: directory + "/" + file)
                }
                fonts.append(try OpenTypeFont(bytes: [UInt8](data), faceIndex: face))
            }
            fonts.append(emoji)
            var synthetic: [String] = []
            var count = 0
            for text in syntheticTexts where count < target {
                synthetic.append(text)
                count += text.unicodeScalars.count
            }
            let all = PixelMeasurer(chain: try FontChain(fonts: fonts, size: 16))
            rows += prepareAndLayout(synthetic, measurer: all, label: "synthetic log: ", minimumSeconds: minimumSeconds)
        }
        return rows
    }

    /// Prepare `texts` (best of rounds): with every word new to the measurer (a new measurer each
    /// round, so its word cache starts empty), and with every word seen before (the same measurer,
    /// after one round to fill its cache); then re-layout them at two widths.
    static func prepareAndLayout(_ texts: [String], measurer: PixelMeasurer, label: String, minimumSeconds: Double) -> [Row] {
        var rows: [Row] = []
        let scalarCount = texts.reduce(0) { $0 + $1.unicodeScalars.count }
        var prepared: [PixelPreparedText] = []
        let coldSeconds = time(minimumSeconds, before: { prepared = [] }) {
            prepared = prepareCold(texts, PixelMeasurer(chain: measurer.chain, lineHeight: measurer.lineHeight))
        }
        rows.append(Row(phase: "\(label)prepare \(texts.count) texts, \(scalarCount) scalars, words new",
                        value: coldSeconds * 1e9 / Double(scalarCount), unit: "ns/scalar"))
        prepared = prepareCold(texts, measurer)
        let warmSeconds = time(minimumSeconds, before: { prepared = [] }) { prepared = prepareWarm(texts, measurer) }
        rows.append(Row(phase: "\(label)prepare \(texts.count) texts, \(scalarCount) scalars, words seen",
                        value: warmSeconds * 1e9 / Double(scalarCount), unit: "ns/scalar"))
        for width in [200, 300] {
            var lines = 0
            let layoutSeconds = time(minimumSeconds) {
                lines = 0
                for text in prepared { lines &+= measurer.measure(text, width: width * 64).lineCount }
            }
            rows.append(Row(phase: "\(label)re-layout at \(width) px (\(lines) lines)",
                            value: layoutSeconds * 1e9 / Double(scalarCount), unit: "ns/scalar"))
        }
        return rows
    }

    /// One round of prepare with a new measurer; its own function (not the same code as
    /// `prepareWarm`, which the optimiser would merge) so callgrind counts it apart.
    @inline(never)
    static func prepareCold(_ texts: [String], _ measurer: PixelMeasurer) -> [PixelPreparedText] {
        texts.map { measurer.prepare($0) }
    }

    /// One round of prepare with a measurer that has seen the words.
    @inline(never)
    static func prepareWarm(_ texts: [String], _ measurer: PixelMeasurer) -> [PixelPreparedText] {
        var prepared: [PixelPreparedText] = []
        prepared.reserveCapacity(texts.count)
        for text in texts { prepared.append(measurer.prepare(text)) }
        return prepared
    }

    /// Whole fonts timed too when present (Debian's fonts-noto-core, -cjk, -color-emoji, fonts-dejavu-core).
    static let systemFonts = ["/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
                              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                              "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
                              "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"]

    /// The benchmark's text: real chat messages from the sweep corpus, repeated to `scalars`.
    static func chatTexts(directory: String, scalars target: Int) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: directory + "/sweep-texts.tsv"),
              let tsv = String(data: data, encoding: .utf8) else {
            throw MissingFile(path: directory + "/sweep-texts.tsv")
        }
        let messages = tsv.split(separator: "\n").compactMap { line -> String? in
            let columns = line.split(separator: "\t", maxSplits: 2)
            guard columns.count == 3, ["latin", "cyrillic", "greek"].contains(String(columns[0])) else { return nil }
            return String(columns[2])
        }
        var texts: [String] = []
        var count = 0
        while count < target && !messages.isEmpty {
            let message = messages[texts.count % messages.count]
            texts.append(message)
            count += message.unicodeScalars.count
        }
        return texts
    }

    /// The best time of one round of `body` over rounds filling `minimumSeconds`.
    static func time(_ minimumSeconds: Double, before: () -> Void = {}, _ body: () -> Void) -> Double {
        var best = Double.infinity
        var total = 0.0
        var rounds = 0
        while total < minimumSeconds || rounds < 3 {
            before()
            let start = ContinuousClock.now
            body()
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            best = min(best, seconds)
            total += seconds
            rounds += 1
        }
        return best
    }

    /// The texts of `bubbles bench`'s synthetic log (its default seed), every record's text in log
    /// order: the "synthetic log" the pixel figures are measured on.
    public static func syntheticTexts(messageCount: Int = 10_000) -> [String] {
        SyntheticLog(messageCount: messageCount).lines().compactMap { line -> String? in
            let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return record?["text"] as? String
        }
    }

    /// The rows as an aligned table.
    public static func table(_ rows: [Row]) -> String {
        let width = rows.map(\.phase.count).max() ?? 0
        return rows.map { row in
            row.phase.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String(format: "%10.3f %@", row.value, row.unit)
        }.joined(separator: "\n") + "\n"
    }
}
