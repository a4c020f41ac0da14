// libFuzzer harness: the signal-export importer (chat.md, or data.json's JSON Lines).
// Invariants (see `checkReader`): the input is refused whole with one error, or every message is
// one record, a message or a diagnostic, never both, never neither; messages are laid out.
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkReader(bytes: bytes, name: "chat.md", format: .signal)
    return 0
}
