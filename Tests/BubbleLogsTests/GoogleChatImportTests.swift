import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct GoogleChatImportTests {
    static let takeout = "exports/googlechat/Takeout"
    static let zip = "exports/googlechat/takeout-20240305T101200Z-001.zip"
    static let space = "exports/googlechat/Takeout/Google Chat/Groups/Space AAAAq3bX0cM"

    static let expectedTexts = [
        "Google Chat “Ana Lima”", "Hi Lena! Do you still have my harness?",
        "> Ana Lima: Do you still have my harness?\nYes, I'll bring it", "(a message from an account that no longer exists)",
        "Google Chat “Climbing crew”", "Climbing on Saturday? 🧗\n[reactions: 👍 Ben Okafor, Lena Vogel]", "Yes, at 10",
        "File-IMG_2041.jpg", "Meet at 9:30", "File-5066917023354741092_account_id=1.png",
        "Route guide: https://gym.example/routes\n[Drive file: Gear list]", "Message deleted",
        "[video call: https://meet.google.com/abc-defg-hij]",
    ]

    @Test(arguments: [takeout, zip])
    func takeoutReadsEveryGroupInTimeOrder(path: String) throws {
        let result = try readAll(corpus(path))
        #expect(result.format == .googlechat)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == Self.expectedTexts)
        #expect(result.kinds == ["system", "text", "text", "text", "system", "text", "text", "image", "text", "image", "text", "text", "text"])
        #expect(result.counts.recordsIn == 13 && result.counts.reconciles)
        // The owner (user_info.json) is me, by email.
        #expect(result.records.filter { $0.direction == .outgoing }.map(\.senderName) == ["Lena Vogel", "Lena Vogel", "Lena Vogel", "Lena Vogel"])
        // A quote of a message of the group is a reply to it; an edit is marked.
        #expect(result.records[6].header.replyToID == "Space AAAAq3bX0cM/AAAAq3bX0cM/Jk2mQ0aXb1c/Jk2mQ0aXb1c")
        #expect(result.records[8].header.isEdited)
        #expect((result.records[9] as? LogImageMessage)?.caption == "[file: waiver.pdf]")
        #expect((result.records[7] as? LogImageMessage)?.caption == "the wall")
        #expect((result.records[11] as? LogTextMessage)?.textStyle == .notice)
        // Both date forms: month first with U+202F before PM, day first on a 24-hour clock.
        #expect(result.records[5].date == utcDate(2024, 3, 2, 18, 3, 12))
        #expect(result.records[1].date == utcDate(2024, 3, 1, 9, 15))
        #expect(result.records[1].header.conversationID == "DM 9wH1sIAAAAE")
    }

    @Test func aGroupsFolderAndItsMessagesJSONReadAlone() throws {
        let folder = try readAll(corpus(Self.space))
        #expect(folder.format == .googlechat)
        #expect(folder.texts == Array(Self.expectedTexts[5...]))
        #expect(folder.records[1].header.replyToID == "AAAAq3bX0cM/Jk2mQ0aXb1c/Jk2mQ0aXb1c")
        let file = try readAll(corpus(Self.space + "/messages.json"))
        #expect(file.format == .googlechat)
        #expect(file.texts == folder.texts)
        var options = LogReadOptions(timeZone: utc)
        options.me = "ana.lima@example.com"
        #expect(try readAll(corpus(Self.space + "/messages.json"), options: options).records.filter { $0.direction == .outgoing }.count == 3)
    }

    @Test func oneGroupIsChosenByNameOrFolder() throws {
        var options = LogReadOptions(timeZone: utc)
        options.conversation = "Climbing crew"
        #expect(try readAll(corpus(Self.takeout), options: options).texts == Array(Self.expectedTexts[5...]))
        options.conversation = "DM 9wH1sIAAAAE"
        #expect(try readAll(corpus(Self.zip), options: options).texts == Array(Self.expectedTexts[1...3]))
    }

    @Test func damagedGroupsAndMessagesAreEachOneRejection() throws {
        let result = try readAll(corpus("exports/googlechat/damaged"))
        #expect(result.format == .googlechat)
        #expect(result.texts == ["Google Chat “Ana Lima and Lena Vogel”", "ok"])
        #expect(result.counts.rejected == 3 && result.counts.reconciles)
        #expect(result.diagnosticLines.contains { $0.contains("Space AAAAcut00/messages.json:") && $0.contains("truncated JSON") })
        #expect(result.diagnosticLines.contains { $0.contains("DM AAAAbad00/messages.json:3: message 1: unreadable date \"sometime in March\"") })
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        let result = try readAll(corpus(Self.takeout))
        #expect(try roundTrip(result.records).map(\.nativeLine) == result.records.map(\.nativeLine))
    }

    @Test func takeoutDatesInBothOrders() {
        #expect(GoogleChatDate.microseconds("Thursday, November 3, 2016 at 11:59:50 AM UTC") == 1_478_174_390_000_000)
        #expect(GoogleChatDate.microseconds("Thursday, November 3, 2016 at 12:05:00\u{202F}AM UTC") == 1_478_131_500_000_000)
        #expect(GoogleChatDate.microseconds("Tuesday, 14 March 2021 at 22:41:03 UTC") == 1_615_761_663_000_000)
        #expect(GoogleChatDate.microseconds("Tuesday, 14 March 2021 at 22:41:03 UTC+1") == 1_615_758_063_000_000)
        for bad in ["", "March 2021", "Tuesday, 31 February 2021 at 10:00:00 UTC", "Tuesday, 14 March 2021 at 13:00:00 PM UTC",
                    "Tuesday, 14 March 2021 at 22:41:03 CET", "Tuesday, 14 March 2021 at -1:41:03 UTC"] {
            #expect(GoogleChatDate.microseconds(bad) == nil, "\(bad)")
        }
    }
}
