import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An export that is a folder on disk.
///
/// Each path is resolved (`realpath`) and must stay inside the folder's own resolved path, so a
/// symbolic link anywhere on the way that leads out is refused. Files are opened without blocking
/// and checked to be regular files after opening, so a FIFO put in place of a day file, or swapped
/// in between the check and the open, is reported instead of waited on.
final class DirectoryExportFolder: ExportFolder {
    let display: String
    private let root: String
    private let resolvedRoot: String?

    init(path: String) {
        display = path
        root = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        resolvedRoot = Self.resolve(path)
    }

    /// The folder's own name, from its resolved path: the name of `.` or `general/..` is the
    /// folder's real one. Nil when the path does not resolve or is the root.
    var resolvedName: String? {
        guard let last = resolvedRoot?.split(separator: "/").last else { return nil }
        return String(last)
    }

    func place(_ relative: String) -> String {
        relative.isEmpty ? display : ExportNames.join(root, relative)
    }

    /// The target's resolved path when `relative` lies inside the export, or the kind saying why not.
    private enum Resolution {
        case inside(String)
        case refused(ExportItemKind)
    }

    private func resolved(_ relative: String) -> Resolution {
        let path = place(relative)
        var info = stat()
        guard lstat(path, &info) == 0 else { return .refused(.missing) }
        guard let target = Self.resolve(path) else {
            return .refused(info.st_mode & S_IFMT == S_IFLNK ? .danglingLink : .missing)
        }
        guard let resolvedRoot, target == resolvedRoot || target.hasPrefix(resolvedRoot == "/" ? "/" : resolvedRoot + "/") else {
            return .refused(.linkOutside)
        }
        return .inside(target)
    }

    func kind(_ relative: String) -> ExportItemKind {
        switch resolved(relative) {
        case .refused(let kind): return kind
        case .inside(let target):
            var info = stat()
            guard stat(target, &info) == 0 else { return .missing }
            return FileBytes.kind(mode: info.st_mode)
        }
    }

    func list(_ relative: String) -> [(name: String, kind: ExportItemKind)] {
        guard case .inside(let target) = resolved(relative),
              let names = try? FileManager.default.contentsOfDirectory(atPath: target) else { return [] }
        return names.sorted().map { ($0, kind(ExportNames.join(relative, $0))) }
    }

    func size(_ relative: String) -> Int? {
        guard case .inside(let target) = resolved(relative) else { return nil }
        var info = stat()
        guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    func read(_ relative: String) -> Result<[UInt8], ExportReadError> {
        let target: String
        switch resolved(relative) {
        case .refused(let kind): return .failure(ExportReadError(message: kind.description))
        case .inside(let path): target = path
        }
        return FileBytes.read(target).mapError { ExportReadError(message: $0.reason) }
    }

    func prefix(_ relative: String, count: Int) -> [UInt8]? {
        guard case .inside(let target) = resolved(relative) else { return nil }
        return try? FileBytes.read(target, atMost: count).get()
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
