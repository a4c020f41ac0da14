import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// `convert` writes native JSON Lines that read back to the same timeline.
@Suite struct ConvertTests {
    @Test(arguments: ["exports/telegram/single/result.json", "exports/whatsapp/android-en_US-12h.txt",
                      "exports/discord/channel.json", "exports/slack/export"])
    func convertedExportsLayOutExactlyLikeTheOriginal(_ export: String) throws {
        let converted = bubbles("convert", corpus(export), "--tz", "UTC")
        #expect(converted.code == 0)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-convert-\(UUID().uuidString).jsonl")
        try converted.output.write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let original = bubbles("heights", corpus(export), "--width", "70", "--tz", "UTC")
        let roundTrip = bubbles("heights", url.path, "--width", "70", "--tz", "UTC")
        #expect(roundTrip.code == 0)
        #expect(original.output == roundTrip.output)
    }

    @Test func meStillDecidesWhoseMessagesAreOutgoingAfterAConvert() throws {
        let converted = bubbles("convert", corpus("exports/whatsapp/ios-fr_FR.txt"), "--tz", "UTC")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-convert-\(UUID().uuidString).jsonl")
        try converted.output.write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let original = bubbles("heights", corpus("exports/whatsapp/ios-fr_FR.txt"), "--me", "Camille", "--width", "70", "--tz", "UTC")
        let roundTrip = bubbles("heights", url.path, "--me", "Camille", "--width", "70", "--tz", "UTC")
        #expect(original.output == roundTrip.output)
        let drawn = bubbles("render", url.path, "--me", "Camille", "--width", "70", "--tz", "UTC")
        #expect(!drawn.output.contains("Camille\n"), "Camille's own messages carry no name line")
    }
}
