import BubbleSamples
import BubbleTestSupport
import BubbleText
@testable import BubbleLogs
import Foundation
import Testing

/// The zip reader against archives written by Info-ZIP's `zip` and Python's `zipfile`
/// (Corpora/zip, made by Corpora/tools/make_zip_fixtures.sh), and against damaged ones.
@Suite struct ZipArchiveTests {
    static func bytes(_ relative: String) -> [UInt8] { Array(FileManager.default.contents(atPath: corpus(relative))!) }
    static func archive(_ relative: String, limits: ZipLimits = .standard) throws -> ZipArchive {
        try ZipArchive(name: relative, bytes: MemoryZipBytes(bytes: bytes(relative)), limits: limits)
    }

    @Test func infoZipArchiveReadsBackEveryFileWithItsComment() throws {
        let zip = try Self.archive("zip/info-zip.zip")
        #expect(zip.entries.map(\.name) == ["logs/sample.jsonl", "unicode/GraphemeBreakTest.txt", "exports/whatsapp/ios-fr_FR.txt",
                                            "logs/hostile.jsonl", "exports/whatsapp/android-de_DE.txt"])
        #expect(zip.entries.map(\.method) == [8, 8, 8, 8, 0])
        #expect(String(decoding: zip.comment, as: UTF8.self) == "An archive comment written by zip -z.")
        for entry in zip.entries {
            #expect(try zip.read(entry) == Self.bytes(entry.name), "\(entry.name)")
        }
    }

    /// A streamed entry: checked once when asked for (counted once towards the total), then each
    /// pass gives the same bytes as a whole read, a chunk at a time; a peek keeps only its prefix
    /// and counts nothing; a damaged entry is refused before any pass.
    @Test func anEntryIsStreamedInPassesAndPeekedAtItsPrefix() throws {
        let zip = try Self.archive("zip/info-zip.zip")
        for entry in zip.entries {
            let before = zip.totalRead
            #expect(try zip.peek(entry, prefix: 100) == Array(Self.bytes(entry.name).prefix(100)))
            #expect(zip.totalRead == before)
            let pass = try zip.stream(entry)
            #expect(zip.totalRead == before + entry.size)
            for _ in 0..<2 {
                let source = pass()
                var bytes: [UInt8] = []
                var chunk: [UInt8] = []
                while source.read(appendingTo: &chunk) {
                    #expect(chunk.count <= InflateStream.outputChunk + 257)
                    bytes += chunk
                    chunk.removeAll()
                }
                #expect(source.readError == nil)
                #expect(bytes == Self.bytes(entry.name), "\(entry.name)")
            }
        }
        // The same archive with one byte of GraphemeBreakTest.txt's deflate data changed.
        var damaged = Self.bytes("zip/info-zip.zip")
        let broken = try ZipArchive(name: "d.zip", bytes: MemoryZipBytes(bytes: damaged))
        let entry = try #require(broken.entry(named: "unicode/GraphemeBreakTest.txt"))
        damaged[entry.localHeaderOffset + 30 + entry.name.utf8.count + entry.compressedSize / 2] ^= 0x55
        let changed = try ZipArchive(name: "d.zip", bytes: MemoryZipBytes(bytes: damaged))
        #expect(throws: ZipError.self) { _ = try changed.stream(entry) }
        #expect(throws: ZipError.self) { _ = try changed.peek(entry, prefix: 10) }
    }

    @Test func infoZipZip64ArchiveIsRead() throws {
        // zip -fz writes a Zip64 end record, its locator, and sizes in Zip64 extra fields.
        let raw = Self.bytes("zip/info-zip64.zip")
        #expect(raw.count > 98 && raw[(raw.count - 98)...].starts(with: [0x50, 0x4B, 0x06, 0x06]))
        let zip = try Self.archive("zip/info-zip64.zip")
        #expect(zip.entries.map(\.name) == ["logs/hostile.jsonl", "exports/whatsapp/ios-fr_FR.txt"])
        for entry in zip.entries { #expect(try zip.read(entry) == Self.bytes(entry.name)) }
    }

    @Test func pythonZipfileArchiveReadsBackEveryLevelAndStoredEntries() throws {
        let zip = try Self.archive("zip/python-zipfile.zip")
        #expect(String(decoding: zip.comment, as: UTF8.self) == "Written by Python's zipfile.")
        #expect(zip.entries.count == 9)
        for entry in zip.entries where entry.name != "empty.txt" {
            let original = String(entry.name.drop { $0 != "/" }.dropFirst())
            #expect(try zip.read(entry) == Self.bytes(original), "\(entry.name)")
        }
        #expect(try zip.read(try #require(zip.entry(named: "empty.txt"))) == [])
    }

    /// Written to a pipe, so the sizes follow each entry's data in a data descriptor (and Info-ZIP
    /// adds Zip64 fields): the central directory's sizes are the ones read.
    @Test func archivesWrittenToAPipeWithDataDescriptorsAreRead() throws {
        let infoZip = try Self.archive("zip/info-zip-streamed.zip")
        #expect(infoZip.entries.map(\.name) == ["-"])
        #expect(infoZip.entries[0].flags & 8 == 8)
        #expect(try infoZip.read(infoZip.entries[0]) == Self.bytes("logs/sample.jsonl"))
        let python = try Self.archive("zip/python-streamed.zip")
        #expect(python.entries.map(\.name) == ["logs/hostile.jsonl", "exports/whatsapp/ios-en_US.txt"])
        for entry in python.entries {
            #expect(entry.flags & 8 == 8)
            #expect(try python.read(entry) == Self.bytes(entry.name))
        }
    }

    @Test func aBombStopsAtTheRatioLimitBeforeInflating() throws {
        let zip = try Self.archive("zip/bomb.zip")
        let entry = try #require(zip.entry(named: "_chat.txt"))
        let error = try #require(throws: ZipError.self) { try zip.read(entry) }
        #expect(error.place == "zip/bomb.zip:_chat.txt")
        #expect(error.message.hasPrefix("expands 1"))
        #expect(error.message.hasSuffix("more than the limit of 200:1; a zip bomb?"))
        #expect(zip.totalRead == 0)
    }

    @Test func eachLimitGivesItsOwnError() throws {
        var limits = ZipLimits.standard
        limits.maximumRatio = 10_000
        limits.maximumEntrySize = 1 << 20
        let big = try Self.archive("zip/bomb.zip", limits: limits)
        #expect(throws: ZipError(archive: "zip/bomb.zip", entry: "_chat.txt", message: "20 MiB uncompressed, more than the limit of 1 MiB for one entry")) {
            try big.read(big.entries[0])
        }
        limits = .standard
        limits.maximumEntries = 4
        #expect(throws: ZipError(archive: "zip/info-zip.zip", entry: nil, message: "5 entries, more than the limit of 4")) {
            try Self.archive("zip/info-zip.zip", limits: limits)
        }
        limits = .standard
        limits.maximumTotal = 100_000
        let zip = try Self.archive("zip/info-zip.zip", limits: limits)
        _ = try zip.read(zip.entries[1])
        #expect(throws: ZipError(archive: "zip/info-zip.zip", entry: "logs/sample.jsonl", message: "reading it would bring the total read from this archive past the limit of 97.7 KiB")) {
            try zip.read(zip.entries[0])
        }
    }

    @Test func entriesSharingTheirDataAreRefused() throws {
        let zip = try Self.archive("zip/overlap.zip")
        for entry in zip.entries {
            #expect(throws: ZipError(archive: "zip/overlap.zip", entry: entry.name, message: "shares its local header with another entry; a zip bomb?")) {
                try zip.read(entry)
            }
        }
    }

    @Test func notAZipOrCutOffIsOneClearError() throws {
        #expect(throws: ZipError(archive: "x.zip", entry: nil, message: "empty file, not a zip archive")) {
            try ZipArchive(name: "x.zip", bytes: MemoryZipBytes(bytes: []))
        }
        #expect(throws: ZipError(archive: "x.zip", entry: nil, message: "no end-of-central-directory record: not a zip archive, or one cut off at the end")) {
            try ZipArchive(name: "x.zip", bytes: MemoryZipBytes(bytes: Array(Self.bytes("zip/info-zip.zip").dropLast(10))))
        }
    }

    @Test func aCountCutTo16BitsIsAnErrorNotASilentlyShortList() {
        var raw = Self.bytes("zip/info-zip.zip")
        // The end record's two entry counts, 5, become 4: one entry would go unlisted.
        let end = raw.count - 22 - 37
        #expect(raw[end] == 0x50 && raw[end + 8] == 5 && raw[end + 10] == 5)
        raw[end + 8] = 4
        raw[end + 10] = 4
        #expect(throws: ZipError(archive: "z", entry: nil, message: "the end record counts 4 entries, but the central directory holds more (a count over 65,535 written without Zip64?)")) {
            try ZipArchive(name: "z", bytes: MemoryZipBytes(bytes: raw))
        }
    }

    /// A lying size in the central directory is caught by inflate or the CRC, not trusted.
    @Test func aWrongStatedSizeIsCaught() throws {
        var raw = Self.bytes("zip/info-zip.zip")
        let zip = try ZipArchive(name: "z", bytes: MemoryZipBytes(bytes: raw))
        // Find the first central directory record and shrink its uncompressed size by one.
        let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        let found = (0..<(raw.count - 4)).first { (i: Int) -> Bool in Array(raw[i..<(i + 4)]) == signature }
        let at = try #require(found)
        let stated = Int(raw[at + 24]) | Int(raw[at + 25]) << 8
        #expect(zip.entries[0].size & 0xFFFF == stated)
        raw[at + 24] &-= 1
        let lying = try ZipArchive(name: "z", bytes: MemoryZipBytes(bytes: raw))
        #expect(throws: ZipError(archive: "z", entry: "logs/sample.jsonl", message: "damaged deflate data: decompresses to more than the size its header states")) {
            try lying.read(lying.entries[0])
        }
    }

    /// Every archive cut short, and seeded random damage to each fixture: each read ends in
    /// data that matches its CRC or in a `ZipError`, never a crash.
    @Test(arguments: ["zip/info-zip.zip", "zip/info-zip64.zip", "zip/info-zip-streamed.zip", "zip/python-zipfile.zip", "exports/zip/slack-export.zip"])
    func damagedArchivesNeverCrash(fixture: String) {
        let original = Self.bytes(fixture)
        var random = SeededGenerator(seed: 0x2132_0A5E)
        var damagedCopies: [[UInt8]] = []
        for length in stride(from: 0, to: original.count, by: max(1, original.count / 60)) {
            damagedCopies.append(Array(original[..<length]))
        }
        for _ in 0..<200 {
            var damaged = original
            // Half the time aim at the directory and end records, where the structure is.
            let tail = Int.random(in: 0...1, using: &random) == 0
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let low = tail ? max(0, damaged.count - 600) : 0
                damaged[Int.random(in: low..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            damagedCopies.append(damaged)
        }
        var readErrors = 0, openErrors = 0
        for damaged in damagedCopies {
            guard let zip = try? ZipArchive(name: "d.zip", bytes: MemoryZipBytes(bytes: damaged)) else {
                openErrors += 1
                continue
            }
            for entry in zip.entries {
                do {
                    let data = try zip.read(entry)
                    #expect(CRC32.checksum(data) == entry.crc && data.count == entry.size)
                } catch {
                    readErrors += 1
                    #expect(!error.message.isEmpty)
                }
            }
        }
        #expect(openErrors > 50 && readErrors > 0)
    }
}

/// Archives assembled byte by byte, for the cases no tool here writes on small inputs.
@Suite struct HandMadeZipTests {
    static func le(_ value: UInt64, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }

    /// One stored entry whose size, compressed size and offset all live in the Zip64 extra field,
    /// behind a Zip64 end record and locator, after 8 bytes of data that belong to no entry.
    static func zip64Archive(data: [UInt8]) -> [UInt8] {
        let name = Array("_chat.txt".utf8)
        let crc = UInt64(CRC32.checksum(data))
        var out: [UInt8] = Array(repeating: 0x20, count: 8)
        let localOffset = UInt64(out.count)
        out += le(0x0403_4B50, 4) + le(45, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4)
        out += le(UInt64(data.count), 4) + le(UInt64(data.count), 4) + le(UInt64(name.count), 2) + le(0, 2) + name + data
        let directoryOffset = UInt64(out.count)
        let extra = le(1, 2) + le(24, 2) + le(UInt64(data.count), 8) + le(UInt64(data.count), 8) + le(localOffset, 8)
        out += le(0x0201_4B50, 4) + le(0x031E, 2) + le(45, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4)
        out += le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(UInt64(name.count), 2) + le(UInt64(extra.count), 2)
        out += le(0, 2) + le(0, 2) + le(0, 2) + le(0o100644 << 16, 4) + le(0xFFFF_FFFF, 4) + name + extra
        let directorySize = UInt64(out.count) - directoryOffset
        let recordOffset = UInt64(out.count)
        out += le(0x0606_4B50, 4) + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4)
        out += le(1, 8) + le(1, 8) + le(directorySize, 8) + le(directoryOffset, 8)
        out += le(0x0706_4B50, 4) + le(0, 4) + le(recordOffset, 8) + le(1, 4)
        out += le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
        return out
    }

    @Test func zip64ExtraFieldsGiveSizesAndOffsetInOrder() throws {
        let data = Array("31/12/23, 21:05 - Ana: hello\n".utf8)
        let zip = try ZipArchive(name: "z.zip", bytes: MemoryZipBytes(bytes: Self.zip64Archive(data: data)))
        #expect(zip.entries.count == 1)
        #expect(zip.entries[0].localHeaderOffset == 8 && zip.entries[0].size == data.count && zip.entries[0].compressedSize == data.count)
        #expect(try zip.read(zip.entries[0]) == data)
    }

    @Test func zip64MarkersWithoutTheirRecordsAreErrors() throws {
        var bytes = Self.zip64Archive(data: Array("hi\n".utf8))
        // Break the locator's signature: the end record's 0xFFFF markers now point at nothing.
        let locator = bytes.count - 22 - 20
        bytes[locator] = 0
        #expect(throws: ZipError(archive: "z.zip", entry: nil, message: "the end record says the sizes are in a Zip64 record, and there is none")) {
            try ZipArchive(name: "z.zip", bytes: MemoryZipBytes(bytes: bytes))
        }
        // Drop the Zip64 extra field's id: the 0xFFFFFFFF sizes have nowhere to come from.
        bytes = Self.zip64Archive(data: Array("hi\n".utf8))
        let marker: [UInt8] = [1, 0, 24, 0]
        let found = (0..<(bytes.count - 4)).first { (i: Int) -> Bool in Array(bytes[i..<(i + 4)]) == marker }
        let extraID = try #require(found)
        bytes[extraID] = 9
        #expect(throws: ZipError(archive: "z.zip", entry: "_chat.txt", message: "sizes or offset marked as Zip64, but no Zip64 extra field holds them")) {
            try ZipArchive(name: "z.zip", bytes: MemoryZipBytes(bytes: bytes))
        }
    }
}
