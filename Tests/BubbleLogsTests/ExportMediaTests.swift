import BubbleSamples
import BubbleLayout
import BubbleTestSupport
@testable import BubbleLogs
import Foundation
import Testing

/// Pictures an export holds: their sizes read from the files' own headers (`ImageHeader`), on a
/// WhatsApp archive made by Info-ZIP's `zip` whose JPEG, WebP and PNG were encoded by Chromium
/// (Corpora/tools/make_media_fixture.py), and on the same export unzipped into a folder.
@Suite struct ExportMediaTests {
    static let fixture = corpus("exports/zip/whatsapp-with-media.zip")

    /// Each picture's size as Chromium shows it (`naturalWidth`×`naturalHeight`, the portrait
    /// JPEG turned by its EXIF orientation 6), by the message that attaches it; nil for a file that
    /// only claims to be a picture, and for one the archive does not hold.
    static let expected: [String: (Int, Int)?] = [
        "L2": (160, 120), "L3": (90, 120), "L4": (100, 50), "L5": (48, 64), "L6": (40, 24),
        "L7": nil, "L8": nil, "L9": nil,
    ]

    static func sizes(_ path: String) throws -> [String: (Int, Int)?] {
        var sizes: [String: (Int, Int)?] = [:]
        for record in try readAll(path, format: .whatsapp, options: LogReadOptions(timeZone: utc)).records {
            guard let image = record as? LogImageMessage else { continue }
            sizes.updateValue(image.pixelWidth.flatMap { w in image.pixelHeight.map { (w, $0) } }, forKey: image.header.id)
        }
        return sizes
    }

    static func expectExpected(_ sizes: [String: (Int, Int)?]) {
        #expect(sizes.count == expected.count)
        for (id, size) in expected {
            #expect(sizes.keys.contains(id), "\(id)")
            #expect((sizes[id] ?? nil).map { "\($0)x\($1)" } == size.map { "\($0)x\($1)" }, "\(id)")
        }
    }

    @Test func anArchiveGivesItsPicturesTheirFilesSizes() throws {
        Self.expectExpected(try Self.sizes(Self.fixture))
    }

    @Test func theSameExportUnzippedBesideItsChatGivesTheSameSizes() throws {
        let folder = try temporaryFolder()
        try unzip(Self.fixture, into: folder)
        Self.expectExpected(try Self.sizes(folder + "/_chat.txt"))
    }

    /// A symbolic link that leads out of the export is never followed, even to a real picture,
    /// and a name with a path in it is never looked up.
    @Test func nothingOutsideTheExportIsRead() throws {
        let outside = try temporaryFolder()
        try unzip(Self.fixture, into: outside)
        let export = try temporaryFolder()
        let chat = "[01/03/2024, 10:00:05] Ana: \u{200E}<attached: 00000009-PHOTO-2024-03-01-10-00-05.jpg>\n"
            + "[01/03/2024, 10:00:06] Ana: \u{200E}<attached: ../outside/00000001-PHOTO-2024-03-01-10-00-05.jpg>\n"
        try chat.write(toFile: export + "/_chat.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: export + "/00000009-PHOTO-2024-03-01-10-00-05.jpg",
                                                   withDestinationPath: outside + "/00000001-PHOTO-2024-03-01-10-00-05.jpg")
        let media = ExportMedia(folder: DirectoryExportFolder(path: export))
        #expect(media.size(ofPictureNamed: "00000009-PHOTO-2024-03-01-10-00-05.jpg") == nil)
        #expect(media.size(ofPictureNamed: "../" + URL(fileURLWithPath: outside).lastPathComponent + "/00000001-PHOTO-2024-03-01-10-00-05.jpg") == nil)
        let sizes = try Self.sizes(export + "/_chat.txt")
        #expect(sizes.values.allSatisfy { $0 == nil })
        // The same file inside the export is read.
        try FileManager.default.copyItem(atPath: outside + "/00000001-PHOTO-2024-03-01-10-00-05.jpg", toPath: export + "/real.jpg")
        #expect(media.size(ofPictureNamed: "real.jpg").map { "\($0.width)x\($0.height)" } == "160x120")
    }

    /// The whole file, checked and typed by its bytes, within its byte budget.
    @Test func aPictureIsReadWholeWithinItsBudget() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.fixture))
        let archive = try ZipArchive(name: "media.zip", bytes: MemoryZipBytes(bytes: [UInt8](bytes)))
        let media = ExportMedia(folder: ZipExportFolder(archive: archive, root: ""))
        let name = "00000004-PHOTO-2024-03-01-10-01-30.png"
        let picture = try #require(media.picture(named: name, maximumBytes: 1 << 20))
        #expect(picture.mediaType == "image/png")
        #expect(picture.bytes == (try archive.read(try #require(archive.entry(named: name)))))
        #expect(media.picture(named: name, maximumBytes: picture.bytes.count - 1) == nil)
        #expect(media.picture(named: "00000006-PHOTO-2024-03-01-10-03-00.jpg", maximumBytes: 1 << 20) == nil)
        #expect(media.picture(named: "_chat.txt", maximumBytes: 1 << 20) == nil)
    }

    /// Every prefix of every real picture, and the same bytes with one byte changed, read as
    /// nothing or as the whole file's size: never a crash, never a made-up size.
    @Test func damagedAndCutHeadersGiveNoSizeOrTheRightOne() throws {
        let folder = try temporaryFolder()
        try unzip(Self.fixture, into: folder)
        var rng = SeededGenerator(seed: 34)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasSuffix(".txt") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            let whole = ImageHeader.read(bytes)
            for count in 0...min(bytes.count, 700) {
                let header = ImageHeader.read(bytes[..<count])
                #expect(header == nil || header == whole, "\(name) cut to \(count)")
            }
            for _ in 0..<300 {
                var changed = bytes
                changed[Int(rng.next() % UInt64(min(bytes.count, 400)))] = UInt8(truncatingIfNeeded: rng.next())
                if let header = ImageHeader.read(changed) {
                    #expect((1...ImageHeader.maximumSide).contains(header.width) && (1...ImageHeader.maximumSide).contains(header.height))
                }
            }
        }
    }

    /// Python's zipfile at level 0 writes deflate streams of stored blocks over 64 KiB: a prefix
    /// ends inside one, and inside the input read for it.
    @Test(arguments: ["exports/zip/whatsapp-with-media.zip", "zip/python-zipfile.zip", "zip/info-zip.zip"])
    func aZipEntrysPrefixIsItsFirstBytes(fixture: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: corpus(fixture)))
        let archive = try ZipArchive(name: "media.zip", bytes: MemoryZipBytes(bytes: [UInt8](bytes)))
        for entry in archive.entries where !entry.isFolder {
            let whole = try archive.peek(entry, prefix: Int.max)
            for count in [0, 1, 17, 100, 1000, 70_000, 300_000, whole.count - 1, whole.count, whole.count + 10] where count >= 0 {
                #expect(archive.prefix(of: entry, count: count) == Array(whole.prefix(count)), "\(entry.name) \(count)")
            }
        }
    }

    func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "bubbles-media-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Info-ZIP's `unzip`: the files as another program takes them out of the archive.
    func unzip(_ archive: String, into folder: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-q", "-o", archive, "-d", folder]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
