// libFuzzer harness: the Skype export importer (messages.json, and the export's .tar).
// Invariants (see `checkReader`): the input is refused whole with one error, or every message of
// every conversation is one record, a message or a diagnostic, never both, never neither;
// messages are laid out. The first byte chooses whether the input is read as messages.json or as
// a .tar (the rest of the input).
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if size > 0, bytes[0] == UInt8(ascii: "T") {
        checkReader(bytes: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), name: "export.tar", format: .skype)
    } else {
        checkReader(bytes: bytes, name: "messages.json", format: .skype)
    }
    return 0
}
