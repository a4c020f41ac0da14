// libFuzzer harness: the Messenger and Instagram importer (one thread file, Meta's mojibake undone).
// Invariants (see `checkReader`): the input is refused whole with one error, or every element of
// "messages" is one record, a message or a diagnostic, never both, never neither; messages are
// laid out.
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkReader(bytes: bytes, name: "message_1.json", format: .messenger,
                expectedRecords: foundationArrayCount(bytes, path: ["messages"]))
    return 0
}
