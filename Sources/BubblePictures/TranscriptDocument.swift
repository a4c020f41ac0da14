/// A document rows are written into, one under another: an SVG picture or an HTML page.
public protocol TranscriptDocument {
    /// The height of the rows written so far, in 1/64 px.
    var height64: Int { get }
    /// Appends `row` under the rows written so far.
    mutating func append(_ row: PictureRow)
    /// Drops the rows written so far (a new page).
    mutating func clear()
    /// The whole document, `width` px wide.
    func document(width: Int) -> String
    /// The whole document as UTF-8.
    func documentBytes(width: Int) -> [UInt8]
    /// Hands the whole document to `write` as UTF-8, in one piece or several.
    func writeDocument<E: Error>(width: Int, _ write: ([UInt8]) throws(E) -> Void) throws(E)
    /// The file name extension: `svg`, `html`.
    var fileExtension: String { get }
}

extension TranscriptDocument {
    public func documentBytes(width: Int) -> [UInt8] { Array(document(width: width).utf8) }

    public func writeDocument<E: Error>(width: Int, _ write: ([UInt8]) throws(E) -> Void) throws(E) {
        try write(documentBytes(width: width))
    }
}

extension TranscriptSVG: TranscriptDocument {
    public var fileExtension: String { "svg" }
}
