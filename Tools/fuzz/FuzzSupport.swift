// Shared by every harness in Tools/fuzz (compiled into each): invariant failures and the reader
// checks. Not part of the library: `Tools/fuzz/run.sh` builds it.
import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Stops the run on a broken invariant: libFuzzer saves the input as a crash file, which is the
/// reproducer to turn into a regression test.
/// Inlined, so a check that holds costs its comparison alone: called as a function it cost 4% of
/// the renderer harness (a frame and the autoclosures' contexts, which ASan allocates on its own
/// stack, for every scalar and line checked).
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if !condition { invariantFailed(message(), file: file, line: line) }
}

@inline(never)
func invariantFailed(_ message: String, file: StaticString, line: UInt) -> Never {
    fputs("invariant failed (\(file):\(line)): \(message)\n", stderr)
    abort()
}

/// A cheap hash of the input, so that options derived from it are the same on every replay.
func inputHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

/// What a reader gave for one input.
struct ReadOutcome {
    /// The reader refused the whole input with one error (nothing else is then expected).
    var refused = false
    var messages: [any LogRecord] = []
    var messagePositions: [LogPosition] = []
    /// Rejected records (each one record of the input).
    var diagnostics: [LogDiagnostic] = []
    /// Warnings about records that were read anyway (a name cut to 256 characters): not records.
    var warnings: [LogDiagnostic] = []
    var counts = LogCounts()
}

/// Made once, as the decoration options below.
let utcReading = LogReadOptions(timeZone: TimeZone(identifier: "UTC")!)

/// Reads `bytes` as `format`, from memory as a file named `name` (`LogSource.open(bytes:name:)`
/// reads them as the file holding them would be read: LogSourceBytesTests), and checks what
/// every reader promises (see `checkReader(expectedRecords:open:)`).
@discardableResult
func checkReader(bytes: UnsafeRawBufferPointer, name: String, format: LogFormat, expectedRecords: Int? = nil) -> ReadOutcome {
    checkReader(expectedRecords: expectedRecords) { () throws(LogInputError) in
        try LogSource.open(bytes: Array(bytes), name: name, format: format, options: utcReading)
    }
}

/// Reads what `open` opens and checks what every reader promises: each record is a message or a
/// diagnostic, never both and never neither (the entries handed out agree with the counts and,
/// when the caller knows it, with the number of records in the input); and every message is
/// laid out (each has exactly one row in the engine's batch layout).
@discardableResult
func checkReader(expectedRecords: Int? = nil, open: () throws(LogInputError) -> LogReader) -> ReadOutcome {
    var outcome = ReadOutcome()
    let reader: LogReader
    do {
        reader = try open()
    } catch {
        require(!error.description.isEmpty, "an input error with no message")
        outcome.refused = true
        return outcome
    }
    for entry in reader {
        switch entry {
        case .message(let record, let position):
            outcome.messages.append(record)
            outcome.messagePositions.append(position)
        case .diagnostic(let diagnostic):
            require(!diagnostic.reason.isEmpty, "a diagnostic with no reason at \(diagnostic.position)")
            if diagnostic.isWarning { outcome.warnings.append(diagnostic) } else { outcome.diagnostics.append(diagnostic) }
        }
    }
    let counts = reader.counts
    outcome.counts = counts
    require(counts.messagesOut == outcome.messages.count,
            "\(outcome.messages.count) messages handed out, \(counts.messagesOut) counted")
    require(counts.rejected == outcome.diagnostics.count,
            "\(outcome.diagnostics.count) diagnostics handed out, \(counts.rejected) counted")
    require(counts.reconciles, "counts do not reconcile: \(counts)")
    if let expectedRecords {
        require(counts.recordsIn == expectedRecords,
                "\(expectedRecords) records in the input, \(counts.recordsIn) read: \(counts)")
    }
    checkLaidOut(outcome.messages)
    return outcome
}

/// Made once: building it reads the process environment (TZ), a few per cent of a small input.
let utcDecoration = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)

/// Every message gets exactly one row in a batch layout, at a width taken from its count.
func checkLaidOut(_ messages: [any LogRecord]) {
    guard !messages.isEmpty else { return }
    let engine = LayoutEngine()
    let models: [any MessageModel] = messages
    let batch: BatchLayout
    do {
        batch = try engine.layoutBatch(models, widths: [12 + messages.count % 60], options: utcDecoration)
    } catch {
        require(false, "a read message could not be laid out: \(error)")
        return
    }
    var rowsPerMessage = [Int](repeating: 0, count: messages.count)
    for (index, row) in batch.rows.enumerated() where !row.isDateSeparator {
        rowsPerMessage[row.messageIndex] += 1
        require(batch.layout(row: index, widthIndex: 0).height > 0, "message \(row.messageIndex) laid out with no height")
    }
    require(rowsPerMessage.allSatisfy { $0 == 1 }, "messages without exactly one row: \(rowsPerMessage)")
}

/// The number of elements of the array at `path` in a JSON document, by Foundation's parser
/// (independent of ours); nil when Foundation cannot read it or the path is not an array.
func foundationArrayCount(_ bytes: UnsafeRawBufferPointer, path: [String]) -> Int? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
        return nil
    }
    var value: Any = object
    for key in path {
        guard let dictionary = value as? [String: Any], let next = dictionary[key] else { return nil }
        value = next
    }
    return (value as? [Any])?.count
}
