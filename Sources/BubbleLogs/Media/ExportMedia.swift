/// The pictures an export holds beside its messages: a WhatsApp archive's media (`_chat.txt`
/// and the files it attaches, zipped together), or the files beside a WhatsApp chat's `.txt` on
/// disk. The reader uses it to learn a picture's size from its file (`ImageHeader`) when the log
/// does not say; pictures and pages use it to embed the picture itself.
///
/// Only a plain file name is looked up (no `/`, no `..`), inside the export's folder (or a
/// relative path of safe components, for an export that writes its pictures' paths); a folder
/// follows no symbolic link out of itself and an archive follows none (`ExportFolder`). A file is
/// a picture only by its magic bytes: JPEG, PNG, GIF or WebP.
public final class ExportMedia {
    /// A picture's file, read whole: its bytes, type and size in px.
    public struct Picture: Sendable {
        public var bytes: [UInt8]
        /// `image/jpeg`, `image/png`, `image/gif` or `image/webp`, from the magic bytes.
        public var mediaType: String
        public var width: Int
        public var height: Int
    }

    private let folder: ExportFolder
    /// Whether names are paths inside the folder (`attachments/12/IMG_0001.jpeg`) rather than
    /// plain file names beside the chat.
    private let namesArePaths: Bool
    /// Sizes already looked up, nil for a name that is no picture here.
    private var sizes: [String: (width: Int, height: Int)?] = [:]

    /// With `namesArePaths`, a name is looked up only as a relative path of at least two parts,
    /// each a safe component (no `..`, no absolute path): an export that writes its pictures'
    /// paths (imessage-exporter's HTML) never has a plain name matched to some file beside it.
    init(folder: ExportFolder, namesArePaths: Bool = false) {
        self.folder = folder
        self.namesArePaths = namesArePaths
    }

    /// Whether `name` may be looked up in the folder.
    private func isSafe(_ name: String) -> Bool {
        guard namesArePaths else { return ExportNames.isSafeComponent(name) }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { ExportNames.isSafeComponent(String($0)) }
    }

    /// The size of the picture named `name` when the export holds it as a picture file; the file's
    /// first `ImageHeader.prefixLength` bytes at most are read, once per name.
    public func size(ofPictureNamed name: String) -> (width: Int, height: Int)? {
        if let known = sizes[name] { return known }
        var found: (width: Int, height: Int)?
        if isSafe(name), folder.kind(name) == .file,
           let prefix = folder.prefix(name, count: ImageHeader.prefixLength), let header = ImageHeader.read(prefix) {
            found = (header.width, header.height)
        }
        sizes[name] = found
        return found
    }

    /// The picture named `name`, read whole, when the export holds it as a picture file of at most
    /// `maximumBytes` bytes (the size an archive states, or the file's, is checked before reading);
    /// nil otherwise: no such file, larger, unreadable or damaged, or no picture by its bytes.
    public func picture(named name: String, maximumBytes: Int) -> Picture? {
        guard isSafe(name), folder.kind(name) == .file,
              let size = folder.size(name), size <= maximumBytes,
              case .success(let bytes) = folder.read(name), bytes.count <= maximumBytes,
              let header = ImageHeader.read(bytes) else { return nil }
        return Picture(bytes: bytes, mediaType: header.kind.mediaType, width: header.width, height: header.height)
    }
}
