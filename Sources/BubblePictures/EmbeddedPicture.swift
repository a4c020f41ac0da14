import Foundation

/// A picture's file to be drawn in its image box: the bytes as the export holds them, drawn
/// scaled to the box (they are not re-encoded: the toolchain has no image codec), as a base64
/// `data:` URL. Only the four types a browser draws everywhere are accepted, by their magic bytes
/// (the caller's reader decides), so the URL's media type is always one of ours.
public struct EmbeddedPicture: Sendable {
    public let bytes: [UInt8]
    /// `image/jpeg`, `image/png`, `image/gif` or `image/webp`.
    public let mediaType: String

    /// Nil for another media type, or a file larger than `maximumBytes`.
    public init?(bytes: [UInt8], mediaType: String) {
        guard Self.mediaTypes.contains(mediaType), bytes.count <= Self.maximumBytes else { return nil }
        self.bytes = bytes
        self.mediaType = mediaType
    }

    static let mediaTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp"]

    /// The largest file embedded: 4 MiB (a phone's photo as WhatsApp sends it is well under).
    public static let maximumBytes = 4 << 20

    /// The most picture bytes one document embeds: 32 MiB. Past it, pictures are drawn as their
    /// labelled placeholders, so a long chat's page stays a file a browser opens.
    public static let maximumBytesPerDocument = 32 << 20

    /// The `data:` URL (ASCII only: base64 and the media type).
    var dataURL: String { "data:\(mediaType);base64," + Data(bytes).base64EncodedString() }
}
