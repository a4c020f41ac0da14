import BubblePictures
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// `render --format svg|html` on an export that holds its pictures (a WhatsApp archive made by
/// Info-ZIP's `zip`, its JPEG, WebP and PNG encoded by Chromium): each real picture is embedded as
/// a `data:` URL holding the file's own bytes, in a box of the row's size, of the picture's aspect;
/// a file that is no picture by its bytes, or is missing, keeps its labelled placeholder.
@Suite struct EmbeddedPictureTests {
    static let fixture = corpus("exports/zip/whatsapp-with-media.zip")
    static let fonts = ["--font", corpus("fonts/NotoSans-Subset.ttf")]

    /// The archive's files as Info-ZIP's `unzip` takes them out.
    static func unzipped(_ name: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-p", fixture, name]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// The real pictures by message id: file name, media type and the size Chromium shows.
    static let pictures: [String: (file: String, type: String, width: Int, height: Int)] = [
        "L2": ("00000001-PHOTO-2024-03-01-10-00-05.jpg", "image/jpeg", 160, 120),
        "L3": ("00000002-PHOTO-2024-03-01-10-00-06.jpg", "image/jpeg", 90, 120),
        "L4": ("00000003-PHOTO-2024-03-01-10-01-00.webp", "image/webp", 100, 50),
        "L5": ("00000004-PHOTO-2024-03-01-10-01-30.png", "image/png", 48, 64),
        "L6": ("00000005-GIF-2024-03-01-10-02-00.gif", "image/gif", 40, 24),
    ]

    @Test(arguments: [200, 360])
    func svgEmbedsEachRealPictureInItsRowsBox(width: Int) throws {
        let heights = try PictureCommandTests.heights(Self.fixture, width: width, fonts: Self.fonts)
        let run = bubbles(["render", Self.fixture, "--format", "svg", "--width", String(width), "--embed-fonts"] + Self.fonts)
        #expect(run.code == 0, "\(run.errors)")
        let svg = try PictureCommandTests.Elements.parse(run.output)
        var row: String?
        var embedded: [String: [String: String]] = [:]
        for element in svg.elements {
            if element.name == "g", element.attributes["class"] == "row" {
                row = element.attributes["data-id"]
                if let id = row, let record = heights[id] {
                    #expect(Double(element.attributes["data-height"] ?? "") == (record["height"] as! NSNumber).doubleValue, "\(id)")
                }
            }
            if element.name == "image", let row { embedded[row] = element.attributes }
        }
        #expect(Set(embedded.keys) == Set(Self.pictures.keys))
        for (id, picture) in Self.pictures {
            let a = try #require(embedded[id])
            let href = try #require(a["href"])
            let prefix = "data:\(picture.type);base64,"
            #expect(href.hasPrefix(prefix), "\(id)")
            #expect([UInt8](Data(base64Encoded: String(href.dropFirst(prefix.count))) ?? Data()) == (try Self.unzipped(picture.file)), "\(id)")
            // The box is the row's, of the picture's own aspect (to the px the layout rounds to).
            let w = try #require(Double(a["width"] ?? "")), h = try #require(Double(a["height"] ?? ""))
            #expect(w <= Double(width) && w > 0 && h > 0)
            #expect(abs(w * Double(picture.height) / Double(picture.width) - h) <= 1.5, "\(id): \(w)x\(h)")
        }
        // The others keep their labels; nothing reaches outside the document.
        for file in ["00000006-PHOTO-2024-03-01-10-03-00.jpg", "00000007-PHOTO-2024-03-01-10-03-30.png", "00000008-PHOTO-2024-03-01-10-04-00.jpg"] {
            #expect(svg.text.contains(String(file.prefix(14))), "\(file) keeps its placeholder")
        }
        let outside = run.output.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!outside.contains("http:") && !outside.contains("https:") && !outside.contains("file:/"))
    }

    @Test func htmlEmbedsThemAsImgAndItsPolicyAllowsOnlyDataImages() throws {
        let run = bubbles(["render", Self.fixture, "--format", "html", "--width", "360"] + Self.fonts)
        #expect(run.code == 0, "\(run.errors)")
        #expect(run.output.contains("img-src data:\""))
        let sources = run.output.components(separatedBy: "<img ").dropFirst().map { tag in
            String(tag.split(separator: ">")[0])
        }
        #expect(sources.count == Self.pictures.count)
        for tag in sources {
            #expect(tag.contains(" src=\"data:image/"))
            #expect(tag.hasPrefix("alt=\""))
        }
    }

    /// Without media (a plain log) the page's policy and style are as before: no image source.
    @Test func aPageWithoutPicturesAllowsNoImages() throws {
        let run = bubbles(["render", corpus("logs/sample.jsonl"), "--format", "html", "--width", "360"] + Self.fonts)
        #expect(run.code == 0)
        #expect(!run.output.contains("img-src") && !run.output.contains("<img"))
    }

    @Test func onlyPictureTypesWithinTheBudgetAreEmbedded() {
        #expect(EmbeddedPicture(bytes: [1, 2, 3], mediaType: "image/jpeg") != nil)
        #expect(EmbeddedPicture(bytes: [1, 2, 3], mediaType: "image/svg+xml") == nil)
        #expect(EmbeddedPicture(bytes: [1, 2, 3], mediaType: "text/html") == nil)
        #expect(EmbeddedPicture(bytes: [UInt8](repeating: 0, count: EmbeddedPicture.maximumBytes + 1), mediaType: "image/png") == nil)
    }
}
