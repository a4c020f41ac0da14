/// What a name inside an export folder is, as far as reading it goes.
enum ExportItemKind: Equatable, Sendable {
    case file
    case folder
    case missing
    /// A symbolic link whose target does not exist (or loops).
    case danglingLink
    /// A symbolic link (or a path through one) that leads out of the export: never followed.
    case linkOutside
    /// A symbolic link stored in an archive: we never follow links inside archives.
    case archivedLink
    /// A named pipe: opening it could wait forever for a writer.
    case fifo
    /// A socket or a device.
    case special(String)

    /// "a folder", "a dangling symbolic link", …: how a diagnostic says what was found.
    var description: String {
        switch self {
        case .file: "a file"
        case .folder: "a folder"
        case .missing: "missing"
        case .danglingLink: "a dangling symbolic link"
        case .linkOutside: "a symbolic link leading out of the export (not followed)"
        case .archivedLink: "a symbolic link stored in the archive (not followed)"
        case .fifo: "a FIFO (named pipe), not opened"
        case .special(let what): what
        }
    }
}

/// An export delivered as a tree of files: a folder on disk or a zip archive. Importers read it
/// through this, by paths relative to its root joined with "/", so they never build file-system
/// paths from names found in the export, and diagnostics name the place the same way whatever
/// holds it (`export/general/2024-05-01.json`, `export.zip:general/2024-05-01.json`).
///
/// Nothing outside the root is ever reached: a folder follows no symbolic link that leads out of
/// it, and an archive follows none at all.
protocol ExportFolder: AnyObject {
    /// The export as the user named it.
    var display: String { get }
    /// How a diagnostic names `relative` (use `place("")` for the export itself).
    func place(_ relative: String) -> String
    func kind(_ relative: String) -> ExportItemKind
    /// The names directly inside the folder at `relative`, sorted, with their kinds.
    func list(_ relative: String) -> [(name: String, kind: ExportItemKind)]
    /// The bytes of the file at `relative`, or why it cannot be read.
    func read(_ relative: String) -> Result<[UInt8], ExportReadError>
    /// At most the first `count` bytes of the file at `relative` (a header), or nil; an archive's
    /// entry is decompressed only that far and not checked against its CRC.
    func prefix(_ relative: String, count: Int) -> [UInt8]?
    /// The size of the file at `relative` as known before reading it (a zip states it), or nil.
    func size(_ relative: String) -> Int?
}

/// Why a file of an export could not be read; `message` says what it is or what failed.
struct ExportReadError: Error, Equatable {
    var message: String
}

enum ExportNames {
    /// True when a name taken from inside an export can be used as one path component there:
    /// not empty, not `.` or `..`, and without a path separator or NUL.
    static func isSafeComponent(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0 == "\0" }
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }
}
