/// Why a font file could not be read: the table (or "file") and the byte offset where reading
/// stopped, and what was wrong there. Fonts are untrusted input: every read is checked against the
/// bounds of its table before it is trusted, and a damaged file gets this error, never a crash.
public struct FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The table tag being read (`cmap`, `GPOS`), or "file" for the header and directory.
    public var table: String
    /// Offset from the start of that table (or the file) where the problem is.
    public var offset: Int
    /// What was wrong there.
    public var reason: String

    package init(table: String, offset: Int, reason: String) {
        self.table = table
        self.offset = offset
        self.reason = reason
    }

    /// "TABLE at byte OFFSET: REASON".
    public var description: String { "\(table) at byte \(offset): \(reason)" }
}

/// A bounds-checked, big-endian view of one table (or of the whole file). Offsets are relative to
/// the view's start; every read checks `offset + size <= count` and throws `FontError` otherwise.
struct FontBytes: Sendable {
    /// The whole file, shared by every view.
    let file: [UInt8]
    /// Where this view starts in `file`.
    let base: Int
    /// Bytes in this view.
    let count: Int
    /// The tag named in errors.
    let table: String

    /// The whole file as one view.
    init(file: [UInt8]) {
        self.file = file
        base = 0
        count = file.count
        table = "file"
    }

    private init(file: [UInt8], base: Int, count: Int, table: String) {
        self.file = file
        self.base = base
        self.count = count
        self.table = table
    }

    func error(_ offset: Int, _ reason: String) -> FontError {
        FontError(table: table, offset: offset, reason: reason)
    }

    /// Throws unless `size` bytes at `offset` lie inside the view.
    @inline(__always)
    func check(_ offset: Int, _ size: Int) throws(FontError) {
        guard offset >= 0, size >= 0, offset <= count, size <= count - offset else {
            // Say how far past: the read's size alone read as the overrun ("reads 0 bytes past").
            throw error(offset, offset < 0 || offset > count || size < 0
                ? "starts outside the table (it has \(count) bytes)"
                : "a read of \(size) bytes runs \(size - (count - offset)) past the end (the table has \(count))")
        }
    }

    func u8(_ offset: Int) throws(FontError) -> UInt8 {
        try check(offset, 1)
        return file[base + offset]
    }

    func u16(_ offset: Int) throws(FontError) -> UInt16 {
        try check(offset, 2)
        let at = base + offset
        return UInt16(file[at]) << 8 | UInt16(file[at + 1])
    }

    func i16(_ offset: Int) throws(FontError) -> Int16 { Int16(bitPattern: try u16(offset)) }

    func u24(_ offset: Int) throws(FontError) -> UInt32 {
        try check(offset, 3)
        let at = base + offset
        return UInt32(file[at]) << 16 | UInt32(file[at + 1]) << 8 | UInt32(file[at + 2])
    }

    func u32(_ offset: Int) throws(FontError) -> UInt32 {
        try check(offset, 4)
        let at = base + offset
        return UInt32(file[at]) << 24 | UInt32(file[at + 1]) << 16 | UInt32(file[at + 2]) << 8 | UInt32(file[at + 3])
    }

    /// A four-letter tag, printable ASCII kept, anything else shown as `?` (tags come from the file).
    func tag(_ offset: Int) throws(FontError) -> String {
        try check(offset, 4)
        let bytes = file[(base + offset)..<(base + offset + 4)]
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// The view of `length` bytes at `offset`, named `table` in errors.
    func slice(_ offset: Int, _ length: Int, table: String? = nil) throws(FontError) -> FontBytes {
        try check(offset, length)
        return FontBytes(file: file, base: base + offset, count: length, table: table ?? self.table)
    }

    /// The view from `offset` to this view's end: for subtables found by offset whose length is
    /// known only from their own fields.
    func from(_ offset: Int) throws(FontError) -> FontBytes {
        try check(offset, 0)
        return FontBytes(file: file, base: base + offset, count: count - offset, table: table)
    }

    /// A 16-bit offset field at `field`, followed from `origin` (both within this view); nil when the
    /// offset is 0, which OpenType uses for "absent".
    func subtable(at field: Int, from origin: Int = 0) throws(FontError) -> FontBytes? {
        let offset = Int(try u16(field))
        guard offset != 0 else { return nil }
        return try from(origin + offset)
    }
}
