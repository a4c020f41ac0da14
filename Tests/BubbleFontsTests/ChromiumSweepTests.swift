import Foundation
import Testing
import BubbleText
@testable import BubbleFonts

/// The pixel measurer against what headless Chromium did (Corpora/fonts/chromium-sweep.json, made
/// by Tools/fonts/chromium-sweep.py): natural widths, line counts and heights, per script.
@Suite struct ChromiumSweepTests {
    struct Sweep: Decodable {
        struct Text: Decodable { var group: String; var lang: String; var text: String }
        var texts: [Text]
        var fontsUsed: [String: [[FontChainEntry]]]
        var natural: [[Value]]
        var items: [[Value]]
    }

    enum FontChainEntry: Decodable {
        case name(String), face(Int)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let i = try? c.decode(Int.self) { self = .face(i) } else { self = .name(try c.decode(String.self)) }
        }
    }

    enum Value: Decodable {
        case int(Int), double(Double), string(String)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let i = try? c.decode(Int.self) { self = .int(i) }
            else if let d = try? c.decode(Double.self) { self = .double(d) }
            else { self = .string(try c.decode(String.self)) }
        }
        var int: Int { if case .int(let i) = self { return i }; if case .double(let d) = self { return Int(d) }; return 0 }
        var double: Double { if case .int(let i) = self { return Double(i) }; if case .double(let d) = self { return d }; return 0 }
        var string: String { if case .string(let s) = self { return s }; return "" }
    }

    static let sweep: Sweep? = {
        let url = FontFixtures.directory.appendingPathComponent("chromium-sweep.json")
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Sweep.self, from: data)
    }()

    static func chain(_ name: String, size: Double, sweep: Sweep) throws -> FontChain {
        let entries = try #require(sweep.fontsUsed[name])
        var fonts: [OpenTypeFont] = []
        for entry in entries {
            guard case .name(let file) = entry[0], case .face(let face) = entry[1] else { continue }
            fonts.append(try FontFixtures.font(file, face: face))
        }
        return try FontChain(fonts: fonts, size: size)
    }

    /// Score lines per group: "group: matched/total".
    static func report(_ scores: [String: (Int, Int)]) -> String {
        scores.keys.sorted().map { "\($0) \(scores[$0]!.0)/\(scores[$0]!.1)" }.joined(separator: ", ")
    }

    /// The script/chain groups whose natural widths equal Chromium's on every item.
    static let exactNaturalWidths = ["latin/noto", "cyrillic/noto", "cyrillic/dejavu", "greek/noto", "cjk/cjk-jp"]

    @Test func naturalWidthsMatchChromium() throws {
        let sweep = try #require(Self.sweep)
        var scores: [String: (Int, Int)] = [:]
        var misses: [String] = []
        var chains: [String: FontChain] = [:]
        for row in sweep.natural {
            let text = sweep.texts[row[0].int]
            let chainName = row[1].string, size = row[2].double
            let key = "\(chainName)@\(size)"
            let chain = try chains[key] ?? Self.chain(chainName, size: size, sweep: sweep)
            chains[key] = chain
            let measured = PixelMeasurer(chain: chain).width(of: text.text)
            let group = text.group + "/" + chainName
            let ok = measured == row[3].int
            scores[group, default: (0, 0)].0 += ok ? 1 : 0
            scores[group, default: (0, 0)].1 += 1
            if !ok && misses.count < 12 { misses.append("\(chainName) \(size)px \(text.text.prefix(30)): \(measured) vs \(row[3].int)") }
        }
        print("natural widths: " + Self.report(scores))
        for miss in misses { print("  miss: " + miss) }
        #expect(scores.values.reduce(0) { $0 + $1.1 } == sweep.natural.count)
        // Exact today; the other groups are measured and reported (README), not yet exact.
        for group in Self.exactNaturalWidths {
            let score = try #require(scores[group])
            #expect(score.0 == score.1, "\(group): \(score.0)/\(score.1)")
        }
    }
}
