// libFuzzer harness: the Slack export importer. The input is one day file of channel "general"
// beside the committed users.json and channels.json; or, split at lines "--8<--", the users.json,
// the channels.json and the day file.
// Invariants (see `checkReader`): the export is refused whole with one error, or every element of
// the day file is one record (a file our parser refuses is one diagnostic), a message or a
// diagnostic, never both and never neither; messages are laid out.
// The export is held in memory (`MemoryExportFolder`), not written to a folder for every input:
// the input reaches only the importer, never the file names, so the folder reader has nothing
// to learn here (its links, FIFOs and names outside the export are SlackExportSafetyTests').
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
    let export = MemoryExportFolder(display: "slack", files: [
        "users.json": users, "channels.json": channels, "general/2024-05-01.json": day,
    ])
    let expected = day.withUnsafeBytes { bytes -> Int? in
        // A day file our parser refuses is one diagnostic for the whole file (Foundation reads
        // some of those, trailing commas included, so its count applies only to files we read).
        // Foundation first: a file it cannot count needs no parse by ours (instrumented, that
        // parse was 7% of the harness).
        guard parts.isEmpty, let count = foundationArrayCount(bytes, path: []),
              (try? JSONParser().parse(day)) != nil else { return nil }
        return count
    }
    checkReader(expectedRecords: expected) { () throws(LogInputError) in
        // As `LogSource.open(path:)` opens a Slack export folder.
        let opened = try SlackExport.producer(export: export, options: utcReading)
        let reader = LogReader(file: export.display, format: .slack, strict: utcReading.strict, producer: opened.producer)
        reader.warnings = opened.warnings
        return reader
    }
    return 0
}

/// An export folder held in memory: files by their paths relative to the root, and the folders
/// those paths imply. It answers as `DirectoryExportFolder` answers for the same tree on disk.
final class MemoryExportFolder: ExportFolder {
    let display: String
    private let files: [String: [UInt8]]

    init(display: String, files: [String: [UInt8]]) {
        self.display = display
        self.files = files
    }

    func place(_ relative: String) -> String { relative.isEmpty ? display : ExportNames.join(display, relative) }

    func kind(_ relative: String) -> ExportItemKind {
        if files[relative] != nil { return .file }
        if relative.isEmpty || files.keys.contains(where: { $0.hasPrefix(relative + "/") }) { return .folder }
        return .missing
    }

    func list(_ relative: String) -> [(name: String, kind: ExportItemKind)] {
        guard kind(relative) == .folder else { return [] }
        let prefix = relative.isEmpty ? "" : relative + "/"
        let names = Set(files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count).split(separator: "/")[0]) })
        return names.sorted().map { ($0, kind(prefix + $0)) }
    }

    func size(_ relative: String) -> Int? { files[relative]?.count }

    func read(_ relative: String) -> Result<[UInt8], ExportReadError> {
        if let bytes = files[relative] { return .success(bytes) }
        return .failure(ExportReadError(message: kind(relative).description))
    }

    func prefix(_ relative: String, count: Int) -> [UInt8]? { files[relative].map { Array($0.prefix(count)) } }
}
