/// What a cached row layout depends on, all of it: the message's identity and exact content (its
/// `ContentStamp`, which the cache hands out for the content compared in full), the container
/// width, the style (interned by `LayoutCache.styleID(for:)`) and the decoration the timeline
/// decided. Two keys are equal only when every field is; ids are compared in full, so no hash
/// collision can return another message's layout, and two different contents never share a stamp,
/// so no repeated id or unchanged revision can either. 32 bytes (the cache stores it in 32 too,
/// beside a 16-byte packed layout).
package struct LayoutKey: Hashable, Sendable {
    /// The message's id.
    package var id: String
    /// The content the layout was made from.
    package var content: ContentStamp
    /// The container width the layout is for, clamped to `BubbleStyle.maximumContainerWidth`.
    package var width: UInt16
    /// The cache's number for the `BubbleStyle` the layout was made with.
    package var styleID: UInt16
    /// What the row shows besides its content (name, quote, footer, grouping).
    package var decoration: RowDecoration

    /// The key of `id`'s layout made from `content` at `width` with style `styleID` and `decoration`.
    package init(id: String, content: ContentStamp, width: Int, styleID: UInt16, decoration: RowDecoration) {
        self.id = id
        self.content = content
        self.width = UInt16(clamping: min(max(1, width), BubbleStyle.maximumContainerWidth))
        self.styleID = styleID
        self.decoration = decoration
    }

    /// Equal keys name the same layout; the content stamp is compared first, as it differs most.
    @inlinable
    package static func == (a: LayoutKey, b: LayoutKey) -> Bool {
        a.content == b.content && a.width == b.width && a.styleID == b.styleID
            && a.decoration == b.decoration && a.id == b.id
    }

    /// The bucket hash, from the id's hash and the other fields.
    @inline(__always)
    func tableHash(idHash: UInt64) -> UInt64 {
        Self.tableHash(idHash: idHash, stamp: content.rawValue, width: width, styleID: styleID,
                       decoration: decoration.rawValue)
    }

    @inline(__always)
    static func tableHash(idHash: UInt64, stamp: UInt64, width: UInt16, styleID: UInt16,
                          decoration: UInt32) -> UInt64 {
        let small = UInt64(width) | UInt64(styleID) << 16 | UInt64(decoration) << 32
        return mixHash(idHash ^ (stamp &* 0x9E37_79B9_7F4A_7C15) ^ (small &* 0xC2B2_AE3D_27D4_EB4F))
    }
}
