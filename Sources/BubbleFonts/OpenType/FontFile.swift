/// The table directory of one face in an OpenType file (`.ttf`, `.otf`) or collection (`.ttc`).
struct FontFile: Sendable {
    /// Tables by tag, each a view already checked to lie inside the file.
    let tables: [String: FontBytes]
    /// True for CFF-flavoured fonts (`OTTO`): outlines in `CFF `/`CFF2`, advances still in `hmtx`.
    let isCFF: Bool
    /// Faces in the file: 1 for a single font, the collection's count for a `.ttc`.
    let faceCount: Int

    /// Reads the directory of face `faceIndex` (0 for a single font).
    init(bytes: [UInt8], faceIndex: Int = 0) throws(FontError) {
        let file = FontBytes(file: bytes)
        let tag = try file.tag(0)
        var directory = 0
        if tag == "ttcf" {
            let count = Int(try file.u32(8))
            faceCount = count
            guard count > 0 else { throw file.error(8, "the collection holds no fonts") }
            guard faceIndex >= 0 && faceIndex < count else {
                throw file.error(8, "face \(faceIndex) asked for, the collection has \(count) (0…\(count - 1))")
            }
            directory = Int(try file.u32(12 + 4 * faceIndex))
        } else {
            guard faceIndex == 0 else { throw file.error(0, "face \(faceIndex) asked for, but this is not a collection") }
            faceCount = 1
        }
        let version = try file.u32(directory)
        switch version {
        case 0x0001_0000, 0x7472_7565: isCFF = false  // 1.0, or 'true' (old Apple TrueType)
        case 0x4F54_544F: isCFF = true  // 'OTTO'
        default:
            throw file.error(directory, "not an OpenType font (starts with \(try file.tag(directory)))")
        }
        let tableCount = Int(try file.u16(directory + 4))
        var tables: [String: FontBytes] = [:]
        for i in 0..<tableCount {
            let record = directory + 12 + 16 * i
            let tableTag = try file.tag(record)
            let offset = Int(try file.u32(record + 8))
            let length = Int(try file.u32(record + 12))
            guard tables[tableTag] == nil else { continue }  // the first record of a tag wins
            guard offset <= bytes.count, length <= bytes.count - offset else {
                throw FontError(table: tableTag, offset: 0,
                                reason: "the table (\(length) bytes at \(offset)) lies past the end of the file (\(bytes.count) bytes)")
            }
            tables[tableTag] = try file.slice(offset, length, table: tableTag)
        }
        self.tables = tables
    }

    /// The table `tag`, or an error naming it when a font must have it.
    func required(_ tag: String) throws(FontError) -> FontBytes {
        guard let table = tables[tag] else { throw FontError(table: tag, offset: 0, reason: "the font has no \(tag) table") }
        return table
    }
}
