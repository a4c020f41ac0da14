// libFuzzer harness: the WhatsApp .txt importer (its line parser, date orders and media lines).
// Invariants (see `checkReader`): the input is refused whole with one error, or each record is a
// message or a diagnostic, never both and never neither, each naming its own first line (no two
// records share one, and none lies past the end); messages are laid out.
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let outcome = checkReader(bytes: bytes, name: "chat.txt", format: .whatsapp)
    guard !outcome.refused else { return 0 }
    // WhatsApp lines end at LF, CRLF or a bare CR (old Mac files).
    var lineCount = 1
    for (i, byte) in bytes.enumerated() where byte == 0x0A || (byte == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) {
        lineCount += 1
    }
    let lines = outcome.messagePositions.map { $0.line ?? -1 } + outcome.diagnostics.map { $0.line ?? -1 }
    require(Set(lines).count == lines.count, "two records name one line: \(lines.sorted())")
    require(lines.allSatisfy { $0 >= 1 && $0 <= lineCount }, "a record outside lines 1...\(lineCount): \(lines.sorted())")
    return 0
}
