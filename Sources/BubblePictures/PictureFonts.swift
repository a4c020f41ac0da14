import Foundation

/// The fonts a picture was measured with, as CSS `@font-face` rules: one family per font file,
/// named `bubbles-0`, `bubbles-1`… in the chain's order, so the viewer falls back from font to
/// font as the measurer did. Each rule points at the file (a `file:` URL), or holds the whole file
/// as a base64 `data:` URL when embedded, so the picture does not depend on installed fonts.
public struct PictureFonts: Sendable {
    /// A font file: its path, and its bytes when it is to be embedded.
    public struct Source: Sendable {
        public var path: String
        public var embeddedBytes: [UInt8]?

        public init(path: String, embeddedBytes: [UInt8]? = nil) {
            self.path = path
            self.embeddedBytes = embeddedBytes
        }
    }

    public let sources: [Source]

    public init(_ sources: [Source]) { self.sources = sources }

    /// `font-family` naming every face, first first; a generic family last for what no file covers.
    public var familyList: String {
        (sources.indices.map { "\"bubbles-\($0)\"" } + ["sans-serif"]).joined(separator: ",")
    }

    /// The `@font-face` rules. Only ASCII letters, digits and `/._~:%+=-` reach the CSS (the path is
    /// percent-encoded beyond that), so the rules need no escaping in XML or in HTML's `<style>`.
    public var faceRules: String {
        var css = ""
        for (index, source) in sources.enumerated() {
            let url: String
            if let bytes = source.embeddedBytes {
                url = "data:\(Self.mediaType(of: bytes));base64," + Data(bytes).base64EncodedString()
            } else {
                url = Self.fileURL(source.path)
            }
            css += "@font-face{font-family:\"bubbles-\(index)\";src:url(\"\(url)\")}\n"
        }
        return css
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
