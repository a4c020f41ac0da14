/// The pictures an export holds beside its messages: a WhatsApp archive's media (`_chat.txt`
/// and the files it attaches, zipped together), or the files beside a WhatsApp chat's `.txt` on
/// disk. The reader uses it to learn a picture's size from its file (`ImageHeader`) when the log
/// does not say; pictures and pages use it to embed the picture itself.
///
/// Only a plain file name is looked up (no `/`, no `..`), inside the export's folder; a folder
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
    /// Sizes already looked up, nil for a name that is no picture here.
    private var sizes: [String: (width: Int, height: Int)?] = [:]

    init(folder: ExportFolder) { self.folder = folder }

    /// The size of the picture named `name` when the export holds it as a picture file; the file's
    /// first `ImageHeader.prefixLength` bytes at most are read, once per name.
    public func size(ofPictureNamed name: String) -> (width: Int, height: Int)? {
        if let known = sizes[name] { return known }
        var found: (width: Int, height: Int)?
        if ExportNames.isSafeComponent(name), folder.kind(name) == .file,
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
        guard ExportNames.isSafeComponent(name), folder.kind(name) == .file,
              let size = folder.size(name), size <= maximumBytes,
              case .success(let bytes) = folder.read(name), bytes.count <= maximumBytes,
              let header = ImageHeader.read(bytes) else { return nil }
        return Picture(bytes: bytes, mediaType: header.kind.mediaType, width: header.width, height: header.height)
    }
}
