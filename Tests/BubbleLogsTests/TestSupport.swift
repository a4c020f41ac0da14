import BubbleText
import BubbleLayout
import BubbleTestSupport
@testable import BubbleLogs
import Foundation


/// Everything one read produced, split apart for checking.
struct ReadResult {
    var records: [any LogRecord] = []
    var positions: [LogPosition] = []
    var diagnostics: [LogDiagnostic] = []
    /// Problems said on opening that lose no record (`LogReader.warnings`).
    var warnings: [LogDiagnostic] = []
    var entries: [LogEntry] = []
    var counts = LogCounts()
    var format = LogFormat.auto
    var stoppedEarly = false
    /// Notes said on opening (`LogReader.notes`).
    var notes: [String] = []

    var texts: [String] { records.map { ($0 as? LogTextMessage)?.text ?? ($0 as? LogSystemMessage)?.notice ?? ($0 as? LogImageMessage)?.imageName ?? "" } }
    var kinds: [String] { records.map { type(of: $0).nativeType } }
    var senders: [String?] { records.map(\.senderName) }
    var diagnosticLines: [String] { diagnostics.map(\.description) }
}

func readAll(_ path: String, format: LogFormat = .auto, options: LogReadOptions = LogReadOptions(timeZone: utc)) throws -> ReadResult {
    let reader = try LogSource.open(path: path, format: format, options: options)
    var result = ReadResult()
    for entry in reader {
        result.entries.append(entry)
        switch entry {
        case .message(let record, let position):
            result.records.append(record)
            result.positions.append(position)
        case .diagnostic(let diagnostic):
            result.diagnostics.append(diagnostic)
        }
    }
    result.counts = reader.counts
    result.warnings = reader.warnings
    result.format = reader.format
    result.stoppedEarly = reader.stoppedEarly
    result.notes = reader.notes
    return result
}

/// The error `LogSource.open` throws, or nil when it opens.
func openError(_ path: String, format: LogFormat = .auto, options: LogReadOptions = LogReadOptions(timeZone: utc)) -> LogInputError? {
    do {
        _ = try LogSource.open(path: path, format: format, options: options)
        return nil
    } catch {
        return error
    }
}

func utcDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) -> Date {
    var components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    components.timeZone = utc
    return Calendar(identifier: .gregorian).date(from: components)!
}

/// A temporary file holding `bytes`. The caller may remove it; whatever is left (a test that
/// stopped before its clean-up, or had none) goes when the test process exits, so runs do not
/// pile files up in the temporary directory.
func temporaryFile(_ bytes: [UInt8], suffix: String = ".jsonl") -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bubblelogs-\(UUID().uuidString)\(suffix)").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    TemporaryFiles.shared.remember(path)
    return path
}

/// The files `temporaryFile` made in this process, removed at exit.
final class TemporaryFiles: @unchecked Sendable {  // `paths` only under `lock`
    static let shared: TemporaryFiles = {
        atexit { TemporaryFiles.shared.removeAll() }
        return TemporaryFiles()
    }()

    private let lock = NSLock()
    private var paths: [String] = []

    func remember(_ path: String) {
        lock.withLock { paths.append(path) }
    }

    func removeAll() {
        for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// Converts every record to native lines and reads them back.
func roundTrip(_ records: [any LogRecord]) throws -> [any LogRecord] {
    let text = records.map(\.nativeLine).joined(separator: "\n") + "\n"
    let path = temporaryFile(Array(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let back = try readAll(path, format: .jsonl)
    precondition(back.diagnostics.isEmpty, "\(back.diagnostics)")
    return back.records
}
