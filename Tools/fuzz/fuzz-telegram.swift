// libFuzzer harness: the Telegram Desktop importer (one chat or a full export).
// Invariants (see `checkReader`): the input is refused whole with one error, or every element of
// every chat's message list is one record (a full export adds one heading per chat with messages
// when it has more than one chat), a message or a diagnostic, never both and never neither; messages are laid out.
import BubbleLogs
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkReader(bytes: bytes, name: "result.json", format: .telegram, expectedRecords: expectedRecords(bytes))
    return 0
}

/// Records in the export by Foundation's reading of it; nil when Foundation cannot tell (it does
/// not take Telegram's \xHH escapes) or the export would be refused.
private func expectedRecords(_ bytes: UnsafeRawBufferPointer) -> Int? {
    guard let root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return nil }
    if let chats = root["chats"] as? [String: Any], let list = chats["list"] as? [Any] {
        var all = list
        if let left = root["left_chats"] as? [String: Any], let leftList = left["list"] as? [Any] { all += leftList }
        var count = 0, headed = 0
        for chat in all {
            guard let messages = (chat as? [String: Any])?["messages"] as? [Any] else { return nil }
            count += messages.count
            if !messages.isEmpty { headed += 1 }
        }
        return count + (all.count > 1 ? headed : 0)
    }
    if root["chats"] == nil, let messages = root["messages"] as? [Any] { return messages.count }
    return nil
}
