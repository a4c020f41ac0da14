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
    /// The file name extension: `svg`, `html`.
    var fileExtension: String { get }
}

extension TranscriptDocument {
    public func documentBytes(width: Int) -> [UInt8] { Array(document(width: width).utf8) }
}

extension TranscriptSVG: TranscriptDocument {
    public var fileExtension: String { "svg" }
}
