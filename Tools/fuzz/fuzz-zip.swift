// libFuzzer harness: zip archives as input (the central directory, local headers, inflate, the
// limits, then WhatsApp's chat or a Slack export inside).
// Invariants (see `checkReader`): the archive is refused whole with one error, or every record of
// what it holds is a message or a diagnostic, never both, never neither; messages are laid out.
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkReader(bytes: bytes, name: "export.zip", format: .auto)
    return 0
}
