// Reads the Unicode Character Database files the conformance tests check the tables against.
// They are committed in Corpora/unicode/ (with Corpora/unicode/LICENSE-UNICODE.txt); a missing
// copy falls back to Debian's /usr/share/unicode, and the tests that need a file skip when
// neither is there.

/// Where the Unicode conformance and data files live.
enum UnicodeTablesCorpus {
    static let directory: String = {
        var path = #filePath
        for _ in 0..<3 {  // Tests/BubbleTextTests/<file> → package root
            path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        }
        return path + "/Corpora/unicode"
    }()

    /// The text of a committed corpus file (e.g. "GraphemeBreakTest.txt" or
    /// "ucd/EastAsianWidth.txt"), else of the same file under /usr/share/unicode.
    static func text(_ name: String, systemPath: String? = nil) -> String? {
        if let text = readFile(directory + "/" + name) { return text }
        if let systemPath { return readFile("/usr/share/unicode/" + systemPath) }
        return nil
    }

    /// The lines of a corpus file, or nil when neither copy exists.
    static func lines(_ name: String, systemPath: String? = nil) -> [Substring]? {
        text(name, systemPath: systemPath)?.split(separator: "\n", omittingEmptySubsequences: false)
    }

    private static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One property file of the UCD, parsed into a value per code point.
struct UCDPropertyValues {
    /// Value per code point; nil where neither the file nor its `@missing` lines say anything.
    var values: [Substring?]
    /// True where a data line lists the code point explicitly (not through `@missing`).
    var listed: [Bool]
    var name: String

    /// Parses `name` (a path under Corpora/unicode/); `systemPath` is its place under /usr/share/unicode.
    /// The value is the first field after the range. Returns nil when the file is absent.
    init?(_ name: String, systemPath: String?, applyMissing: Bool = true) {
        guard let lines = UnicodeTablesCorpus.lines(name, systemPath: systemPath) else { return nil }
        self.name = name
        values = Array(repeating: nil, count: 0x110000)
        listed = Array(repeating: false, count: 0x110000)
        for line in lines {
            if line.hasPrefix("# @missing:") {
                guard applyMissing else { continue }
                let fields = line.dropFirst("# @missing:".count).split(separator: ";")
                let range = Self.range(fields[0])
                let value = Self.trimmed(fields[1])
                for cp in range { values[cp] = value }
                continue
            }
            let content = line.prefix { $0 != "#" }
            let fields = content.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { continue }
            let value = Self.trimmed(fields[1])
            for cp in Self.range(fields[0]) {
                values[cp] = value
                listed[cp] = true
            }
        }
    }

    /// The code points a binary-property file lists under `property`.
    static func binary(_ name: String, systemPath: String, property: String) -> [Bool]? {
        guard let lines = UnicodeTablesCorpus.lines(name, systemPath: systemPath) else { return nil }
        var result = [Bool](repeating: false, count: 0x110000)
        for line in lines {
            let fields = line.prefix { $0 != "#" }.split(separator: ";")
            guard fields.count >= 2, trimmed(fields[1]) == property else { continue }
            for cp in range(fields[0]) { result[cp] = true }
        }
        return result
    }

    static func trimmed(_ text: Substring) -> Substring {
        let start = text.firstIndex { $0 != " " } ?? text.endIndex
        let end = text.lastIndex { $0 != " " }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }

    static func range(_ text: Substring) -> ClosedRange<Int> {
        let bounds = text.filter { $0 != " " }.split(separator: ".", omittingEmptySubsequences: true)
        let low = Int(bounds[0], radix: 16)!
        return low...Int(bounds[bounds.count - 1], radix: 16)!
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
