import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// Zipped exports on the command line: drawn as the unzipped file is, and a bomb is exit 3.
@Suite struct ZipInputCLITests {
    @Test func aZippedChatRendersAsTheChatItHolds() {
        let zipped = bubbles("render", corpus("exports/zip/WhatsApp Chat - Camille.zip"), "--width", "50", "--me", "Camille", "--tz", "UTC")
        let plain = bubbles("render", corpus("exports/whatsapp/ios-fr_FR.txt"), "--width", "50", "--me", "Camille", "--tz", "UTC")
        #expect(zipped.code == 0 && plain.code == 0)
        #expect(!zipped.output.isEmpty && zipped.output == plain.output)
    }

    @Test func aZipBombIsOneWholeFileErrorWithExitThree() {
        let path = corpus("zip/bomb.zip")
        let run = bubbles("heights", path)
        #expect(run.code == 3)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("bubbles: \(path):_chat.txt: expands "))
        #expect(run.errors.hasSuffix("more than the limit of 200:1; a zip bomb?\n"))
    }

    @Test func aSlackChannelWithoutAFolderIsAWarningNotARejection() throws {
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-slack-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: export) }
        try FileManager.default.createDirectory(atPath: export + "/general", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: export + "/channels.json", contents: Data(#"[{"id":"C1","name":"general"},{"id":"C2","name":"quiet"}]"#.utf8))
        _ = FileManager.default.createFile(atPath: export + "/general/2024-05-01.json", contents: Data(#"[{"type":"message","user":"U1","text":"hi","ts":"1714557600.000100"}]"#.utf8))
        let run = bubbles("heights", export, "--width", "40")
        #expect(run.code == 0)
        #expect(run.errors.contains("bubbles: warning: \(export)/channels.json:1: channel #quiet has no folder in the export, so no messages\n"))
    }
}
