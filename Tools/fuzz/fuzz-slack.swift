// libFuzzer harness: the Slack export importer. The input is one day file of channel "general"
// beside the committed users.json and channels.json; or, split at lines "--8<--", the users.json,
// the channels.json and the day file.
// Invariants (see `checkReader`): the export is refused whole with one error, or every element of
// the day file is one record (a file our parser refuses is one diagnostic), a message or a
// diagnostic, never both and never neither; messages are laid out.
@testable import BubbleLogs
import Foundation

private let defaultUsers = #"[{"id":"U1","name":"alice","real_name":"Alice","profile":{"display_name":"Alice"}},{"id":"U2","name":"bob","profile":{"display_name":""}}]"#
private let defaultChannels = #"[{"id":"C1","name":"general"}]"#

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let separator = Array("\n--8<--\n".utf8)
    var parts: [[UInt8]] = []
    var start = 0
    var index = 0
    while index + separator.count <= input.count, parts.count < 2 {
        if input[index..<index + separator.count].elementsEqual(separator) {
            parts.append(Array(input[start..<index]))
            index += separator.count
            start = index
        } else {
            index += 1
        }
    }
    let day = Array(input[start...])
    let users = parts.count == 2 ? parts[0] : Array(defaultUsers.utf8)
    let channels = parts.count == 2 ? parts[1] : Array(defaultChannels.utf8)
    let folder = scratchDirectory + "/slack"
    try? FileManager.default.removeItem(atPath: folder)
    scratchFolders.removeAll()
    users.withUnsafeBytes { _ = scratchFile("slack/users.json", $0) }
    channels.withUnsafeBytes { _ = scratchFile("slack/channels.json", $0) }
    let expected = day.withUnsafeBytes { bytes -> Int? in
        _ = scratchFile("slack/general/2024-05-01.json", bytes)
        // A day file our parser refuses is one diagnostic for the whole file (Foundation reads
        // some of those, trailing commas included, so its count applies only to files we read).
        guard parts.isEmpty, (try? JSONParser().parse(Array(bytes.bindMemory(to: UInt8.self)))) != nil else { return nil }
        return foundationArrayCount(bytes, path: [])
    }
    checkReader(path: folder, format: .slack, expectedRecords: expected)
    return 0
}
