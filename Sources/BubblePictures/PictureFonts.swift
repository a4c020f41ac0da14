import BubbleFonts
import Foundation

/// The fonts a picture was measured with, as CSS `@font-face` rules: one family per font file,
/// named `bubbles-0`, `bubbles-1`… in the chain's order, so the viewer falls back from font to
/// font as the measurer did. Each rule points at the file (a `file:` URL), or, when embedded,
/// holds a subset of the font (`FontSubset`: the glyphs of the code points the document draws,
/// glyph ids and layout tables kept) as a base64 `data:` URL, so the picture does not depend on
/// installed fonts and carries only what it shows.
public struct PictureFonts: Sendable {
    /// A font file: its path and face, and its bytes when it is to be embedded.
    public struct Source: Sendable {
        public var path: String
        public var embeddedBytes: [UInt8]?
        /// The face of a collection (`.ttc`) the measurer used; 0 for a single font.
        public var face: Int

        public init(path: String, embeddedBytes: [UInt8]? = nil, face: Int = 0) {
            self.path = path
            self.embeddedBytes = embeddedBytes
            self.face = face
        }
    }

    public let sources: [Source]

    public init(_ sources: [Source]) { self.sources = sources }

    /// `font-family` naming every face, first first; a generic family last for what no file covers.
    public var familyList: String {
        (sources.indices.map { "\"bubbles-\($0)\"" } + ["sans-serif"]).joined(separator: ",")
    }

    /// Whether any font is embedded: the writers then collect the code points they draw.
    public var embedsAny: Bool { sources.contains { $0.embeddedBytes != nil } }

    /// The `@font-face` rules, each embedded font cut down to `scalars` (the code points the
    /// document draws; see `drawnScalars`). Only ASCII letters, digits and `/._~:%+=-` reach the
    /// CSS (the path is percent-encoded beyond that), so the rules need no escaping in XML or in
    /// HTML's `<style>`.
    public func faceRules(drawing scalars: [UInt32] = []) -> String {
        var css = ""
        for (index, source) in sources.enumerated() {
            let url: String
            if let bytes = source.embeddedBytes {
                let embedded = Self.embedded(bytes, face: source.face, scalars: scalars)
                url = "data:\(Self.mediaType(of: embedded));base64," + Data(embedded).base64EncodedString()
            } else {
                url = Self.fileURL(source.path)
            }
            css += "@font-face{font-family:\"bubbles-\(index)\";src:url(\"\(url)\")}\n"
        }
        return css
    }

    /// What is embedded of face `face` of `font` for a document drawing `scalars`: the subset, or,
    /// for a font the subsetter cannot read (`subsetError`), the whole file.
    static func embedded(_ font: [UInt8], face: Int, scalars: [UInt32]) -> [UInt8] {
        (try? FontSubset(font: font, faceIndex: face, scalars: scalars))?.bytes ?? font
    }

    /// Why face `face` of `font` cannot be subset (it is then embedded whole), or nil.
    public static func subsetError(_ font: [UInt8], face: Int) -> String? {
        do {
            _ = try FontSubset(font: font, faceIndex: face, scalars: [])
            return nil
        } catch {
            return error.description
        }
    }

    /// The code points in the text of `markup` (our own SVG or HTML: text outside tags, the five
    /// entities we write decoded), sorted. Attribute values are not drawn, so they are left out.
    /// O(n) in the bytes.
    public static func drawnScalars(_ markup: [UInt8]) -> [UInt32] {
        var scalars = DrawnScalars()
        scalars.add(markup)
        return scalars.sorted
    }

    /// The media type of a font file by its first bytes.
    static func mediaType(of bytes: [UInt8]) -> String {
        let tag = bytes.prefix(4).map { Character(Unicode.Scalar($0)) }
        switch String(tag) {
        case "ttcf": return "font/collection"
        case "OTTO": return "font/otf"
        default: return "font/ttf"
        }
    }

    /// `path` as an absolute `file:` URL, every byte outside `A-Za-z0-9/._~-` percent-encoded.
    static func fileURL(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var url = "file://"
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "-"):
                url.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                url += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return url
    }
}

/// The code points drawn by markup of our own, collected a piece at a time (pieces of whole rows:
/// no tag, entity or scalar is split between two). See `PictureFonts.drawnScalars`.
struct DrawnScalars {
    private var ascii = [Bool](repeating: false, count: 128)
    private var others: Set<UInt32> = []

    /// Adds the code points in the text of `markup` (text outside tags, the five entities we write
    /// decoded). O(n) in the bytes.
    mutating func add(_ markup: [UInt8]) {
        var i = 0
        let count = markup.count
        while i < count {
            let byte = markup[i]
            if byte == UInt8(ascii: "<") {
                while i < count && markup[i] != UInt8(ascii: ">") { i += 1 }
                i += 1
                continue
            }
            if byte == UInt8(ascii: "&") {
                var end = i + 1
                while end < count && end < i + 8 && markup[end] != UInt8(ascii: ";") { end += 1 }
                switch String(decoding: markup[min(i + 1, count)..<min(end, count)], as: UTF8.self) {
                case "amp": ascii[0x26] = true
                case "lt": ascii[0x3C] = true
                case "gt": ascii[0x3E] = true
                case "quot": ascii[0x22] = true
                case "#39": ascii[0x27] = true
                default: ascii[0x26] = true
                }
                i = end + 1
                continue
            }
            if byte < 0x80 {
                ascii[Int(byte)] = true
                i += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var value = UInt32(byte) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
            for k in 1..<length where i + k < count { value = value << 6 | UInt32(markup[i + k] & 0x3F) }
            others.insert(value)
            i += length
        }
    }

    /// The code points so far, sorted (controls below U+0020 left out).
    var sorted: [UInt32] {
        (0..<128).filter { ascii[$0] && $0 >= 0x20 }.map(UInt32.init) + others.sorted()
    }
}
