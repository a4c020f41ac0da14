/// What a cached row layout depends on, all of it: the message's identity and revision, the
/// container width, the style (interned by `LayoutCache.styleID(for:)`) and the decoration the
/// timeline decided. Two keys are equal only when every field is; ids are compared in full, so
/// no hash collision can return another message's layout. 32 bytes (the cache stores it in 32 too,
/// beside a 16-byte packed layout).
public struct LayoutKey: Hashable, Sendable {
    public var id: String
    public var revision: Int
    public var width: UInt16
    public var styleID: UInt16
    public var decoration: RowDecoration

    public init(id: String, revision: Int, width: Int, styleID: UInt16, decoration: RowDecoration) {
        self.id = id
        self.revision = revision
        self.width = UInt16(clamping: min(max(1, width), BubbleStyle.maximumContainerWidth))
        self.styleID = styleID
        self.decoration = decoration
    }

    @inlinable
    public static func == (a: LayoutKey, b: LayoutKey) -> Bool {
        a.revision == b.revision && a.width == b.width && a.styleID == b.styleID
            && a.decoration == b.decoration && a.id == b.id
    }

    /// The bucket hash, from the id's hash and the other fields.
    @inline(__always)
    func tableHash(idHash: UInt64) -> UInt64 {
        Self.tableHash(idHash: idHash, revision: revision, width: width, styleID: styleID,
                       decoration: decoration.rawValue)
    }

    @inline(__always)
    static func tableHash(idHash: UInt64, revision: Int, width: UInt16, styleID: UInt16,
                          decoration: UInt32) -> UInt64 {
        let small = UInt64(width) | UInt64(styleID) << 16 | UInt64(decoration) << 32
        return mixHash(idHash ^ (UInt64(bitPattern: Int64(revision)) &* 0x9E37_79B9_7F4A_7C15) ^ (small &* 0xC2B2_AE3D_27D4_EB4F))
    }
}
