// libFuzzer harness: the Google Hangouts (Takeout Hangouts.json) importer.
// Invariants (see `checkReader`): the input is refused whole with one error, or every event of
// every conversation is one record, a message or a diagnostic, never both, never neither;
// messages are laid out.
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkReader(bytes: bytes, name: "Hangouts.json", format: .hangouts)
    return 0
}
