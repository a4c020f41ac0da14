/// An export inside a zip archive, rooted at a folder of it ("" for the archive's root).
///
/// Entry names are only ever looked up, never used as file-system paths, so a hostile name such as
/// `../x` cannot reach outside. Folders are the explicit `name/` entries and every prefix of an
/// entry's name. Symbolic links stored in the archive are reported, not followed.
final class ZipExportFolder: ExportFolder {
    let archive: ZipArchive
    /// The root's path inside the archive, "" or ending in "/".
    let root: String
    private var files: [String: ZipEntry] = [:]
    private var folders: Set<String> = [""]
    /// The names directly inside each folder, so listing one does not scan the whole archive.
    private var children: [String: Set<String>] = [:]

    init(archive: ZipArchive, root: String) {
        self.archive = archive
        self.root = root
        for entry in archive.entries where entry.name.hasPrefix(root) {
            var name = String(entry.name.dropFirst(root.count))
            if entry.isFolder {
                while name.hasSuffix("/") { name.removeLast() }
                folders.insert(name)
            } else if files[name] == nil {
                files[name] = entry
            }
            // Every folder on the way is a folder, listed or not, and holds the next name down.
            var parts = name.split(separator: "/", omittingEmptySubsequences: false)
            while let last = parts.popLast() {
                let parent = parts.joined(separator: "/")
                guard !last.isEmpty else { continue }
                children[parent, default: []].insert(String(last))
                folders.insert(parent)
            }
        }
    }

    var display: String { root.isEmpty ? archive.name : archive.name + ":" + root }

    /// The channel a folder of day files read alone is named after: the root's last folder
    /// (`general/`), or for day files at the archive's root the archive's name without `.zip`.
    var channelName: String {
        if let last = root.split(separator: "/").last { return String(last) }
        let file = archive.name.split(separator: "/").last.map(String.init) ?? archive.name
        let stem = file.lowercased().hasSuffix(".zip") ? String(file.dropLast(4)) : file
        // Standard input (`<stdin>`) names no channel.
        return stem.isEmpty || stem.hasPrefix("<") ? "channel" : stem
    }

    func place(_ relative: String) -> String {
        relative.isEmpty ? display : archive.name + ":" + root + relative
    }

    func kind(_ relative: String) -> ExportItemKind {
        if folders.contains(relative) { return .folder }
        guard let entry = files[relative] else { return .missing }
        return entry.isSymbolicLink ? .archivedLink : .file
    }

    func list(_ relative: String) -> [(name: String, kind: ExportItemKind)] {
        (children[relative] ?? []).sorted().map { ($0, kind(ExportNames.join(relative, $0))) }
    }

    func size(_ relative: String) -> Int? {
        kind(relative) == .file ? files[relative]?.size : nil
    }

    func read(_ relative: String) -> Result<[UInt8], ExportReadError> {
        let kind = kind(relative)
        guard kind == .file, let entry = files[relative] else { return .failure(ExportReadError(message: kind.description)) }
        do {
            return .success(try archive.read(entry))
        } catch {
            return .failure(ExportReadError(message: error.message))
        }
    }

    func prefix(_ relative: String, count: Int) -> [UInt8]? {
        guard kind(relative) == .file, let entry = files[relative] else { return nil }
        return archive.prefix(of: entry, count: count)
    }
}
