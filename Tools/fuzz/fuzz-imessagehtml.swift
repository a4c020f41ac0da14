// libFuzzer harness: the imessage-exporter HTML reader (its tokenizer, message blocks, threads).
// Invariants (see `checkReader`): the input is refused whole with one error, or every message
// block (and every thread reply without an id) is one record, a message or a diagnostic, never
// both, never neither; messages are laid out.
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkReader(bytes: bytes, name: "chat.html", format: .imessage)
    return 0
}
