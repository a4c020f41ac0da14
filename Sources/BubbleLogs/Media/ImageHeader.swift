/// A picture's type and size in px, read from the first bytes of its file: JPEG (the SOF segment,
/// turned by the EXIF orientation as viewers turn it), PNG (IHDR), GIF (the logical screen) and
/// WebP (VP8, VP8L or VP8X). The type is decided by magic bytes alone, never by a file name, so a
/// file that only claims to be a picture is not one.
///
/// Every read is bounds-checked: damaged or hostile bytes give nil, never a crash. A JPEG's size
/// may sit after large metadata segments; `prefixLength` bytes are always enough for the other
/// types and for JPEGs whose metadata fits in it.
package struct ImageHeader: Equatable, Sendable {
    package enum Kind: String, Sendable {
        case jpeg, png, gif, webp

        /// The media type a `data:` URL names.
        package var mediaType: String { "image/" + rawValue }
    }

    package var kind: Kind
    /// The size as a viewer shows it (a JPEG's EXIF orientation applied).
    package var width: Int
    package var height: Int

    /// How many bytes of a file are read to find its header.
    package static let prefixLength = 256 << 10

    /// The largest side accepted (JPEG's and WebP's own limits are 65,535 and 16,384).
    static let maximumSide = 1 << 16

    /// The header of the picture `bytes` starts, or nil when they start no picture we read.
    package static func read(_ bytes: ArraySlice<UInt8>) -> ImageHeader? {
        let b = Array(bytes.prefix(prefixLength))
        let found: ImageHeader?
        if b.starts(with: [0xFF, 0xD8, 0xFF]) {
            found = jpeg(b)
        } else if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            found = png(b)
        } else if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) {
            found = b.count >= 10 ? ImageHeader(kind: .gif, width: le16(b, 6), height: le16(b, 8)) : nil
        } else if b.count >= 16, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
            found = webp(b)
        } else {
            found = nil
        }
        guard let found, (1...maximumSide).contains(found.width), (1...maximumSide).contains(found.height) else { return nil }
        return found
    }

    package static func read(_ bytes: [UInt8]) -> ImageHeader? { read(bytes[...]) }

    private static func be16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) << 8 | Int(b[at + 1]) }
    private static func le16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    private static func be32(_ b: [UInt8], _ at: Int) -> Int { be16(b, at) << 16 | be16(b, at + 2) }
    private static func le24(_ b: [UInt8], _ at: Int) -> Int { le16(b, at) | Int(b[at + 2]) << 16 }

    /// The first frame header (SOF0–SOF15 but DHT, JPG and DAC), walking the segments from SOI;
    /// an APP1 `Exif` segment's orientation 5–8 swaps the sides.
    private static func jpeg(_ b: [UInt8]) -> ImageHeader? {
        var at = 2
        var swapped = false
        while at + 4 <= b.count {
            guard b[at] == 0xFF else { return nil }
            let marker = b[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image or scan before any frame
            let length = be16(b, at + 2)
            guard length >= 2 else { return nil }
            let body = at + 4
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                guard body + 5 <= b.count else { return nil }
                let height = be16(b, body + 1), width = be16(b, body + 3)
                return swapped ? ImageHeader(kind: .jpeg, width: height, height: width) : ImageHeader(kind: .jpeg, width: width, height: height)
            }
            if marker == 0xE1, body + 6 <= b.count, Array(b[body..<body + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                let end = min(b.count, at + 2 + length)
                if let orientation = exifOrientation(Array(b[(body + 6)..<max(body + 6, end)])) { swapped = orientation >= 5 }
            }
            at += 2 + length
        }
        return nil
    }

    /// Tag 0x0112 of the first IFD of a TIFF block, or nil.
    private static func exifOrientation(_ t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int { little ? le16(t, at) : be16(t, at) }
        func u32(_ at: Int) -> Int { little ? le16(t, at) | le16(t, at + 2) << 16 : be32(t, at) }
        let ifd = u32(4)
        guard ifd >= 8, ifd + 2 <= t.count else { return nil }
        let count = u16(ifd)
        for i in 0..<count {
            let entry = ifd + 2 + i * 12
            guard entry + 12 <= t.count else { return nil }
            if u16(entry) == 0x0112 { return u16(entry + 8) }
        }
        return nil
    }

    /// IHDR, which the format requires first.
    private static func png(_ b: [UInt8]) -> ImageHeader? {
        guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return ImageHeader(kind: .png, width: be32(b, 16), height: be32(b, 20))
    }

    /// The first chunk: lossy (`VP8 `, its key frame's start code then 14-bit sides), lossless
    /// (`VP8L`, signature 0x2F then 14-bit sides minus one) or extended (`VP8X`, the canvas's
    /// 24-bit sides minus one).
    private static func webp(_ b: [UInt8]) -> ImageHeader? {
        let chunk = Array(b[12..<16])
        if chunk == Array("VP8 ".utf8) {
            guard b.count >= 30, b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return ImageHeader(kind: .webp, width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        }
        if chunk == Array("VP8L".utf8) {
            guard b.count >= 25, b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ImageHeader(kind: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        }
        if chunk == Array("VP8X".utf8) {
            guard b.count >= 30 else { return nil }
            return ImageHeader(kind: .webp, width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        }
        return nil
    }
}
