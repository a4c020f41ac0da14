import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rows of one document written so far, but for the last ones, kept in an unnamed temporary
/// file rather than in memory: writing a document holds about `threshold` bytes of its rows, not
/// the document.
///
/// Why a file: a document's head needs what only its end knows (an SVG's height for its
/// `viewBox`, the code points an embedded font subset must hold, whether a page embeds pictures),
/// and the head's length depends on them, so no room can be reserved to patch in later; the
/// output may be a pipe, which cannot be patched at all; and the input may be stdin, which cannot
/// be read a second time for a first pass. So the rows go out of memory as they are written, and
/// the head, once they are all in, is followed by them read back a piece at a time. A document
/// smaller than `threshold` never touches the disk. The file is unlinked as soon as it is made,
/// so nothing is left behind however the run ends; if it cannot be made or written, the rows stay
/// in memory (the document is the same, only larger in memory).
///
/// Copies of a document share one file: only one of them is to go on writing.
struct DocumentSpill {
    /// Bytes of rows a document keeps in memory before it spills them.
    static let defaultThreshold = 1 << 20

    var threshold = DocumentSpill.defaultThreshold
    /// The temporary file, once made; nil after a failure too (`failed`).
    private var file: FileHandle?
    /// Bytes in the file.
    private(set) var count = 0
    /// Whether making or writing the file failed: the rows then stay in memory.
    private(set) var failed = false
    /// The code points of the markup spilled so far (`DrawnScalars`), when the document collects them.
    var scalars: DrawnScalars?

    init(collectingScalars: Bool) {
        scalars = collectingScalars ? DrawnScalars() : nil
    }

    /// Moves `out`'s bytes (whole rows) to the file once they reach `threshold`.
    mutating func spillIfFull(_ out: inout MarkupBytes) {
        guard out.bytes.count >= threshold, !failed else { return }
        if file == nil {
            file = Self.makeFile()
            if file == nil {
                failed = true
                return
            }
        }
        do {
            try file!.write(contentsOf: Data(out.bytes))
        } catch {
            // The file may hold part of these bytes after the `count` spilled before them, which
            // stay good (only `count` bytes are read back); these stay in memory.
            failed = true
            return
        }
        scalars?.add(out.bytes)
        count += out.bytes.count
        out.removeAll()
    }

    /// Drops what was spilled (a new page).
    mutating func clear() {
        if let file, count > 0 {
            do {
                try file.truncate(atOffset: 0)
                try file.seek(toOffset: 0)
            } catch {
                self.file = nil
                failed = true
            }
        }
        count = 0
        if scalars != nil { scalars = DrawnScalars() }
    }

    /// The code points the document draws: those of the spilled markup, of `out` and of `extra`,
    /// sorted (`PictureFonts.drawnScalars` of the whole).
    func drawnScalars(followedBy out: MarkupBytes, _ extra: String = "") -> [UInt32] {
        var all = scalars ?? DrawnScalars()
        all.add(out.bytes)
        if !extra.isEmpty { all.add(Array(extra.utf8)) }
        return all.sorted
    }

    /// The spilled bytes followed by `out`'s, all in memory (for tests and small documents).
    func bytes(followedBy out: MarkupBytes) -> [UInt8] {
        var all: [UInt8] = []
        forEachPiece { (piece) throws(Never) in all.append(contentsOf: piece) }
        return all + out.bytes
    }

    /// Hands the spilled bytes to `write` in order, a piece at a time. Throws `ReadError` (as `E`
    /// when `E` can hold it, as `any Error` can) if the file cannot be read back.
    func forEachPiece<E: Error>(_ write: ([UInt8]) throws(E) -> Void) throws(E) {
        guard let file, count > 0 else { return }
        var done = 0
        do {
            try file.seek(toOffset: 0)
        } catch {
            throw Self.failure(ReadError(reason: "\(error)"), as: E.self)
        }
        while done < count {
            let piece: Data?
            do {
                piece = try file.read(upToCount: min(threshold, count - done))
            } catch {
                throw Self.failure(ReadError(reason: "\(error)"), as: E.self)
            }
            guard let piece, !piece.isEmpty else {
                throw Self.failure(ReadError(reason: "the file ended after \(done) of \(count) bytes"), as: E.self)
            }
            done += piece.count
            try write([UInt8](piece))
        }
        // Left at the end, where the rows still to come are spilled.
        _ = try? file.seekToEnd()
    }

    /// The spilled rows could not be read back from the temporary file.
    struct ReadError: Error, CustomStringConvertible {
        var reason: String
        var description: String { "cannot read back the document's rows from its temporary file: \(reason)" }
    }

    /// `error` as `E`; a writer whose error type cannot hold it has no way to hear of it, and the
    /// document cannot be finished: that stops the program.
    private static func failure<E: Error>(_ error: ReadError, as _: E.Type) -> E {
        guard let typed = error as? E else { fatalError(error.description) }
        return typed
    }

    /// A new file in the temporary folder (`TMPDIR`, else `/tmp`), open for reading and writing
    /// by us alone, already unlinked; nil if it cannot be made.
    private static func makeFile() -> FileHandle? {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        for _ in 0..<8 {
            let path = folder + "/bubbles-document-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                unlink(path)
                return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            }
            if errno != EEXIST { return nil }
        }
        return nil
    }
}
