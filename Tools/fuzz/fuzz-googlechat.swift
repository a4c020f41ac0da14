// libFuzzer harness: the Google Chat (Takeout) importer, on one group's messages.json.
// Invariants (see `checkReader`): the input is refused whole with one error, or every element of
// "messages" (counted by Foundation) is one record, a message or a diagnostic, never both, never
// neither; messages are laid out.
import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkReader(bytes: bytes, name: "messages.json", format: .googlechat,
                expectedRecords: foundationArrayCount(bytes, path: ["messages"]))
    return 0
}
