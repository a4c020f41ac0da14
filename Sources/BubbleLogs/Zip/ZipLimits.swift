/// Bounds on what one zip archive may make us read, so a zip bomb (a small archive that expands
/// to gigabytes, or many entries sharing one compressed body) stops with an error instead of
/// exhausting memory. Each limit is checked against the sizes the central directory states
/// before anything is decompressed, and decompression never writes past the stated size.
public struct ZipLimits: Sendable, Hashable {
    /// Entries in the central directory.
    public var maximumEntries: Int
    /// Uncompressed bytes of one entry.
    public var maximumEntrySize: Int
    /// Uncompressed bytes over compressed bytes, for an entry larger than `ratioAppliesAbove`
    /// (tiny entries compress absurdly well and harm no one).
    public var maximumRatio: Int
    public var ratioAppliesAbove: Int
    /// Uncompressed bytes of all the entries read from one archive together.
    public var maximumTotal: Int
    /// An archive read from a pipe or standard input is held in memory (a zip is read from its
    /// end); at most this many bytes.
    public var maximumStreamedArchive: Int

    /// 100,000 entries, 1 GiB per entry, 4 GiB in all, 200:1 above 1 MiB, 2 GiB from a pipe.
    public static let standard = ZipLimits(
        maximumEntries: 100_000, maximumEntrySize: 1 << 30, maximumRatio: 200, ratioAppliesAbove: 1 << 20,
        maximumTotal: 4 << 30, maximumStreamedArchive: 2 << 30)

    public init(maximumEntries: Int, maximumEntrySize: Int, maximumRatio: Int, ratioAppliesAbove: Int,
                maximumTotal: Int, maximumStreamedArchive: Int) {
        self.maximumEntries = maximumEntries
        self.maximumEntrySize = maximumEntrySize
        self.maximumRatio = maximumRatio
        self.ratioAppliesAbove = ratioAppliesAbove
        self.maximumTotal = maximumTotal
        self.maximumStreamedArchive = maximumStreamedArchive
    }
}

/// "1.5 GiB", "12 MiB", "900 bytes": sizes in limit errors.
func byteCount(_ n: Int) -> String {
    if n >= 1 << 30 { return sizeText(Double(n) / Double(1 << 30)) + " GiB" }
    if n >= 1 << 20 { return sizeText(Double(n) / Double(1 << 20)) + " MiB" }
    if n >= 1 << 10 { return sizeText(Double(n) / Double(1 << 10)) + " KiB" }
    return "\(n) byte\(n == 1 ? "" : "s")"
}

private func sizeText(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
}
