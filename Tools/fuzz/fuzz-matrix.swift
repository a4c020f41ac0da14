// libFuzzer harness: the Element (Matrix) export importer.
// Invariants (see `checkReader`): the input is refused whole with one error, or every event that
// is not an edit or a reaction (which change the event they concern) is one record, a message or a
// diagnostic, never both, never neither; messages are laid out.
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkReader(bytes: bytes, name: "export.json", format: .matrix)
    return 0
}
