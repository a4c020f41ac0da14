#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an archive or one of its entries cannot be read.
struct ZipError: Error, Equatable, CustomStringConvertible {
    /// The archive as the user named it.
    var archive: String
    /// The entry's name inside the archive, when the problem is one entry's.
    var entry: String?
    var message: String

    /// `archive.zip` or `archive.zip:entry`, the way diagnostics name a place.
    var place: String { entry.map { archive + ":" + $0 } ?? archive }
    var description: String { "\(DiagnosticText.escaped(place)): \(message)" }
}

/// One file (or folder) listed in the central directory.
struct ZipEntry: Equatable {
    /// The name as stored, decoded as UTF-8 (invalid bytes become U+FFFD: names are matched, never
    /// used to open files).
    var name: String
    var method: Int
    var flags: Int
    var crc: UInt32
    var compressedSize: Int
    var size: Int
    var localHeaderOffset: Int
    /// The Unix mode when the entry was made on Unix (upper half of the external attributes), else nil.
    var unixMode: Int?

    var isFolder: Bool { name.hasSuffix("/") || unixMode.map { $0 & 0o170000 == 0o040000 } == true }
    var isSymbolicLink: Bool { unixMode.map { $0 & 0o170000 == 0o120000 } == true }
}

/// A zip archive's table of contents, read from its end, and a way to read its entries.
///
/// Every field is bounds-checked against the archive before it is used, so a damaged or hostile
/// archive gets a `ZipError`, never a crash. What is read:
/// - the end-of-central-directory record (after a comment of up to 65,535 bytes), and the Zip64
///   end record when a count, size or offset needs it;
/// - the central directory, with Zip64 extra fields for sizes and offsets past 4 GiB;
/// - each entry's local header, only to find where its data starts.
///
/// Stored (0) and deflate (8) entries are read, their CRC-32 checked. Encrypted entries, other
/// methods and archives split over several disks are refused with a reason. `ZipLimits` bounds the
/// entry count, each entry's size and compression ratio, and the total read.
final class ZipArchive {
    let name: String
    let entries: [ZipEntry]
    let limits: ZipLimits
    /// The archive's comment, as stored.
    let comment: [UInt8]
    private let bytes: ZipBytes
    /// Where the central directory starts: no entry's data may run into it.
    private let directoryOffset: Int
    /// Every local header offset, sorted: an entry's data must end before the next one starts.
    private let sortedOffsets: [Int]
    private(set) var totalRead = 0

    private static let endSignature: UInt32 = 0x0605_4B50
    private static let zip64EndSignature: UInt32 = 0x0606_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let centralSignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50

    init(name: String, bytes: ZipBytes, limits: ZipLimits = .standard) throws(ZipError) {
        self.name = name
        self.bytes = bytes
        self.limits = limits
        func fail(_ message: String) -> ZipError { ZipError(archive: name, entry: nil, message: message) }

        // The end record is the last 22 bytes plus a comment of up to 65,535: find the signature
        // whose comment length reaches exactly the end of the file.
        let size = bytes.count
        guard size >= 22 else { throw fail(size == 0 ? "empty file, not a zip archive" : "too short for a zip archive (\(size) bytes); truncated?") }
        let tailLength = min(size, 22 + 0xFFFF)
        guard let tail = bytes.read(at: size - tailLength, length: tailLength) else { throw fail("cannot read the end of the archive") }
        var endAt: Int?
        var at = tail.count - 22
        while at >= 0 {
            if tail.uint32(at) == Self.endSignature, at + 22 + Int(tail.uint16(at + 20)) == tail.count {
                endAt = at
                break
            }
            at -= 1
        }
        guard let endAt else {
            throw fail("no end-of-central-directory record: not a zip archive, or one cut off at the end")
        }
        let end = Array(tail[endAt...])
        comment = Array(end[22...])
        let endOffset = size - tailLength + endAt

        var disk = Int(end.uint16(4)), directoryDisk = Int(end.uint16(6))
        var entriesOnDisk = Int(end.uint16(8)), entryCount = Int(end.uint16(10))
        var directorySize = Int(end.uint32(12)), directoryOffset = Int(end.uint32(16))
        var directoryEnd = endOffset

        // Zip64: a locator just before the end record points at a larger end record.
        if endOffset >= 20, let locator = bytes.read(at: endOffset - 20, length: 20), locator.uint32(0) == Self.zip64LocatorSignature {
            let recordOffset = locator.uint64(8)
            guard endOffset >= 76, recordOffset <= UInt64(endOffset - 76),
                  let record = bytes.read(at: Int(recordOffset), length: 56), record.uint32(0) == Self.zip64EndSignature else {
                throw fail("damaged Zip64 end record (its locator points outside the archive or at something else)")
            }
            let counts = (record.uint64(24), record.uint64(32), record.uint64(40), record.uint64(48))
            guard counts.0 <= UInt64(Int32.max), counts.1 <= UInt64(Int32.max), counts.2 <= UInt64(size), counts.3 <= UInt64(size) else {
                throw fail("damaged Zip64 end record (counts or sizes larger than the archive)")
            }
            disk = Int(record.uint32(16))
            directoryDisk = Int(record.uint32(20))
            entriesOnDisk = Int(counts.0)
            entryCount = Int(counts.1)
            directorySize = Int(counts.2)
            directoryOffset = Int(counts.3)
            directoryEnd = Int(recordOffset)
        } else if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            throw fail("the end record says the sizes are in a Zip64 record, and there is none")
        }
        guard disk == 0, directoryDisk == 0, entriesOnDisk == entryCount else {
            throw fail("an archive split over several disks; join the parts into one file first")
        }
        guard entryCount <= limits.maximumEntries else {
            throw fail("\(entryCount) entries, more than the limit of \(limits.maximumEntries)")
        }
        guard directoryOffset <= directoryEnd, directorySize <= directoryEnd - directoryOffset else {
            throw fail("the central directory (\(directorySize) bytes at offset \(directoryOffset)) lies outside the archive; truncated or damaged")
        }
        guard let directory = bytes.read(at: directoryOffset, length: directorySize) else {
            throw fail("cannot read the central directory")
        }
        self.directoryOffset = directoryOffset

        var entries: [ZipEntry] = []
        entries.reserveCapacity(entryCount)
        var p = 0
        for index in stride(from: 1, through: entryCount, by: 1) {
            guard p <= directory.count - 46, directory.uint32(p) == Self.centralSignature else {
                throw fail("central directory entry \(index) of \(entryCount) is damaged or missing")
            }
            let nameLength = Int(directory.uint16(p + 28)), extraLength = Int(directory.uint16(p + 30))
            let commentLength = Int(directory.uint16(p + 32))
            let next = p + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else { throw fail("central directory entry \(index) runs past the directory's end") }
            let nameBytes = directory[(p + 46)..<(p + 46 + nameLength)]
            let entryName = String(decoding: nameBytes, as: UTF8.self)
            var entry = ZipEntry(
                name: entryName, method: Int(directory.uint16(p + 10)), flags: Int(directory.uint16(p + 8)),
                crc: directory.uint32(p + 16), compressedSize: Int(directory.uint32(p + 20)),
                size: Int(directory.uint32(p + 24)), localHeaderOffset: Int(directory.uint32(p + 42)),
                unixMode: directory[p + 5] == 3 ? Int(directory.uint32(p + 38) >> 16) : nil)
            let entryDisk = Int(directory.uint16(p + 34))
            // Fields at their maximum are in the Zip64 extra field, in this order.
            var wanted: [WritableKeyPath<ZipEntry, Int>] = []
            if entry.size == 0xFFFF_FFFF { wanted.append(\.size) }
            if entry.compressedSize == 0xFFFF_FFFF { wanted.append(\.compressedSize) }
            if entry.localHeaderOffset == 0xFFFF_FFFF { wanted.append(\.localHeaderOffset) }
            if !wanted.isEmpty {
                guard let extra = Self.zip64Extra(directory[(p + 46 + nameLength)..<(p + 46 + nameLength + extraLength)]),
                      extra.count >= wanted.count * 8 else {
                    throw ZipError(archive: name, entry: entryName, message: "sizes or offset marked as Zip64, but no Zip64 extra field holds them")
                }
                for (k, path) in wanted.enumerated() {
                    let value = extra.uint64(k * 8)
                    guard value <= UInt64(Int.max / 4) else { throw ZipError(archive: name, entry: entryName, message: "impossible Zip64 size or offset") }
                    entry[keyPath: path] = Int(value)
                }
            }
            guard entryDisk == 0 || entryDisk == 0xFFFF else { throw fail("an archive split over several disks; join the parts into one file first") }
            entries.append(entry)
            p = next
        }
        // A writer without Zip64 may have cut a count over 65,535 down to 16 bits: more entries
        // follow the ones counted. Reading only those would lose the rest without a word.
        if p <= directory.count - 4, directory.uint32(p) == Self.centralSignature {
            throw fail("the end record counts \(entryCount) entries, but the central directory holds more (a count over 65,535 written without Zip64?)")
        }
        self.entries = entries
        sortedOffsets = entries.map(\.localHeaderOffset).sorted()
    }

    /// The data of the Zip64 extended-information extra field (id 0x0001), if present and well formed.
    private static func zip64Extra(_ extra: ArraySlice<UInt8>) -> [UInt8]? {
        let fields = Array(extra)
        var p = 0
        while p + 4 <= fields.count {
            let id = fields.uint16(p), length = Int(fields.uint16(p + 2))
            guard p + 4 + length <= fields.count else { return nil }
            if id == 0x0001 { return Array(fields[(p + 4)..<(p + 4 + length)]) }
            p += 4 + length
        }
        return nil
    }

    /// The first entry with exactly this name.
    func entry(named name: String) -> ZipEntry? { entries.first { $0.name == name } }

    /// The first `prefix` bytes of the entry, without counting the entry towards the archive's
    /// total: for looking at a candidate before choosing it. The whole entry is still decoded and
    /// checked (its limits and CRC-32 apply), a chunk at a time, so memory holds about `prefix`.
    func peek(_ entry: ZipEntry, prefix: Int) throws(ZipError) -> [UInt8] {
        let reader = try open(entry)
        var kept: [UInt8] = []
        var chunk: [UInt8] = []
        while try reader.read(appendingTo: &chunk) {
            if kept.count < prefix { kept += chunk.prefix(prefix - kept.count) }
            chunk.removeAll(keepingCapacity: true)
        }
        return kept
    }

    /// At most the first `count` bytes of a stored or deflate entry, decoding about that much (a
    /// chunk) and without its CRC-32 checked: for reading a file's header. Not counted towards the
    /// total read. Nil for an entry `read` would refuse outright; damaged data gives the bytes
    /// decoded before the damage.
    func prefix(of entry: ZipEntry, count: Int) -> [UInt8]? {
        guard let reader = try? open(entry) else { return nil }
        var kept: [UInt8] = []
        while kept.count < count {
            do { guard try reader.read(appendingTo: &kept) else { break } } catch { break }
        }
        return kept.count > count ? Array(kept[..<count]) : kept
    }

    /// The entry's bytes, decompressed and checked against its CRC-32 and the limits, held whole.
    func read(_ entry: ZipEntry) throws(ZipError) -> [UInt8] {
        let reader = try open(entry)
        totalRead += entry.size
        var data: [UInt8] = []
        data.reserveCapacity(entry.size)
        while try reader.read(appendingTo: &data) {}
        return data
    }

    /// The entry as a stream to read as many times as needed: it is decoded and checked once here
    /// (the limits, the deflate data, its size and CRC-32), a chunk at a time, and each call of the
    /// returned function starts a new pass over it. Memory holds a chunk and the deflate window
    /// per pass, whatever the entry's size. A pass that then fails (the file changed under us)
    /// ends early with `readError` set to `EIO`.
    func stream(_ entry: ZipEntry) throws(ZipError) -> () -> ByteSource {
        let first = try open(entry)
        totalRead += entry.size
        var chunk: [UInt8] = []
        while try first.read(appendingTo: &chunk) { chunk.removeAll(keepingCapacity: true) }
        return { [self] in
            do throws(ZipError) { return ZipEntrySource(try self.open(entry)) } catch { return ZipEntrySource(nil) }
        }
    }

    /// A reader of the entry's bytes, after every check that needs no decoding: its method, its
    /// limits, where its data lies.
    private func open(_ entry: ZipEntry) throws(ZipError) -> ZipEntryReader {
        func fail(_ message: String) -> ZipError { ZipError(archive: name, entry: entry.name, message: message) }
        guard entry.flags & 0x41 == 0 else { throw fail("encrypted; remove the password and zip it again") }
        guard entry.method == 0 || entry.method == 8 else {
            let known = [1: "shrink", 6: "implode", 9: "deflate64", 12: "bzip2", 14: "LZMA", 93: "Zstandard", 95: "xz", 98: "PPMd"]
            throw fail("compressed with \(known[entry.method].map { "\($0) (method \(entry.method))" } ?? "method \(entry.method)"); only stored and deflate entries are read")
        }
        guard entry.size <= limits.maximumEntrySize else {
            throw fail("\(byteCount(entry.size)) uncompressed, more than the limit of \(byteCount(limits.maximumEntrySize)) for one entry")
        }
        if entry.size > limits.ratioAppliesAbove, entry.size / max(entry.compressedSize, 1) > limits.maximumRatio {
            throw fail("expands \(entry.size / max(entry.compressedSize, 1)):1 (\(byteCount(entry.compressedSize)) to \(byteCount(entry.size))), more than the limit of \(limits.maximumRatio):1; a zip bomb?")
        }
        guard entry.size <= limits.maximumTotal - totalRead else {
            throw fail("reading it would bring the total read from this archive past the limit of \(byteCount(limits.maximumTotal))")
        }
        if entry.method == 0 && entry.compressedSize != entry.size {
            throw fail("stored, but its compressed size (\(entry.compressedSize)) is not its size (\(entry.size))")
        }

        // The local header repeats the name and has its own extra field; only its lengths matter.
        let offset = entry.localHeaderOffset
        guard offset <= directoryOffset - 30, let local = bytes.read(at: offset, length: 30), local.uint32(0) == Self.localSignature else {
            throw fail("its local header (at offset \(offset)) is missing or damaged")
        }
        let dataStart = offset + 30 + Int(local.uint16(26)) + Int(local.uint16(28))
        // The next entry's header (or the directory) bounds this one's data, so entries cannot
        // share compressed data: that is how the most compact zip bombs multiply their output.
        var lower = 0, upper = sortedOffsets.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if sortedOffsets[middle] <= offset { lower = middle + 1 } else { upper = middle }
        }
        let bound = lower < sortedOffsets.count ? sortedOffsets[lower] : directoryOffset
        if lower >= 2 && sortedOffsets[lower - 2] == offset {
            throw fail("shares its local header with another entry; a zip bomb?")
        }
        guard dataStart <= bound, entry.compressedSize <= bound - dataStart else {
            throw fail("its data (\(entry.compressedSize) bytes from offset \(dataStart)) runs into the next entry or past the archive; truncated, damaged or a zip bomb")
        }
        return ZipEntryReader(archive: name, entry: entry, bytes: bytes, dataStart: dataStart)
    }
}

/// One pass over an entry's data: stored bytes read in chunks, or deflate data decoded in chunks,
/// with the CRC-32 and the size checked at the end.
final class ZipEntryReader {
    private let archive: String
    private let entry: ZipEntry
    private let bytes: ZipBytes
    private let dataStart: Int
    private let inflater: InflateStream?
    private var crc = CRC32()
    /// Stored bytes read so far.
    private var done = 0
    private var ended = false

    fileprivate init(archive: String, entry: ZipEntry, bytes: ZipBytes, dataStart: Int) {
        self.archive = archive
        self.entry = entry
        self.bytes = bytes
        self.dataStart = dataStart
        inflater = entry.method == 8 ? InflateStream(compressedCount: entry.compressedSize, size: entry.size) { offset, length in
            bytes.read(at: dataStart + offset, length: length)
        } : nil
    }

    private func fail(_ message: String) -> ZipError { ZipError(archive: archive, entry: entry.name, message: message) }

    /// Appends the next bytes (about 64 KiB) to `buffer`; false, having appended nothing, at the
    /// end, once the CRC-32 has been checked.
    func read(appendingTo buffer: inout [UInt8]) throws(ZipError) -> Bool {
        guard !ended else { return false }
        let before = buffer.count
        if let inflater {
            do {
                _ = try inflater.read(appendingTo: &buffer)
            } catch {
                ended = true
                if error.message == InflateStream.cannotRead { throw fail("cannot read its data") }
                throw fail("damaged deflate data: \(error.message)")
            }
        } else if done < entry.size {
            let length = min(InflateStream.outputChunk, entry.size - done)
            guard let chunk = bytes.read(at: dataStart + done, length: length) else {
                ended = true
                throw fail("cannot read its data")
            }
            buffer += chunk
            done += length
        }
        if buffer.count > before {
            buffer[before...].withByteView { crc.update($0) }
            return true
        }
        ended = true
        guard crc.value == entry.crc else {
            throw fail("CRC-32 mismatch (\(hex(crc.value)), the directory says \(hex(entry.crc))): the data is damaged")
        }
        return false
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// A pass over a checked zip entry as a `ByteSource` (see `ZipArchive.stream`).
final class ZipEntrySource: ByteSource {
    private let reader: ZipEntryReader?
    private(set) var readError: Int32?

    init(_ reader: ZipEntryReader?) {
        self.reader = reader
        if reader == nil { readError = EIO }
    }

    func read(appendingTo buffer: inout [UInt8]) -> Bool {
        guard let reader, readError == nil else { return false }
        do {
            return try reader.read(appendingTo: &buffer)
        } catch {
            readError = EIO
            return false
        }
    }
}

fileprivate extension Array where Element == UInt8 {
    /// Little-endian reads; the caller has checked the bounds.
    func uint16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func uint32(_ at: Int) -> UInt32 { UInt32(uint16(at)) | UInt32(uint16(at + 2)) << 16 }
    func uint64(_ at: Int) -> UInt64 { UInt64(uint32(at)) | UInt64(uint32(at + 4)) << 32 }
}
