import Foundation

/// Reads the committed corpora (Corpora/ at the package root), found relative to this file.
enum LineBreakCorpus {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // BubbleTextTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Corpora")

    static func read(_ relativePath: String) throws -> String {
        let url = root.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Failure("\(url.path): cannot read the corpus file")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
