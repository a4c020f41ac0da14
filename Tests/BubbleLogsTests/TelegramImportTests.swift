import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct TelegramImportTests {
    @Test func singleChatExportReadsEveryMessage() throws {
        let result = try readAll(corpus("exports/telegram/single/result.json"))
        #expect(result.format == .telegram)
        #expect(result.diagnostics.isEmpty)
        #expect(result.counts.recordsIn == 20 && result.counts.reconciles)
        #expect(result.kinds == [
            "system", "text", "text", "text", "image", "image", "text", "text", "text", "text",
            "system", "system", "text", "text", "system", "system", "system", "text", "system", "system",
        ])
        #expect(result.texts == [
            "Lena Vogel created the group “Climbing crew 🧗” with Lena Vogel, Marco Rossi and Aiko Tanaka",
            "Bouldering on Saturday? 🧗‍♀️",
            "Yes! 10:00 at the new gym (https://example.com/gym), see https://example.com/map",
            "行きます！ (edited: I'm in)",
            "photo_1@02-03-2024_18-06-00.jpg",
            "photo (not included in the export)",
            "[voice message 0:12]",
            "[sticker 💪]",
            "[file: gym-waiver.pdf]\nPlease sign before Saturday",
            "[video 1:05]",
            "Lena Vogel added Sam Carter and Priya Patel",
            "Lena Vogel pinned a message",
            "a message from a deleted account",
            "control bytes as Telegram writes them: \u{1B}[31m and a bell \u{07} end",
            "Marco Rossi called (2:05)",
            "Missed call from Aiko Tanaka",
            "Lena Vogel changed the group name to “Climbing crew 🧗 Saturdays”",
            "[location 47.3769, 8.5417]",
            "Sam Carter left the group",
            "Lena Vogel: some future action",
        ])
        #expect(result.senders[1] == "Lena Vogel")
        #expect(result.senders[12] == nil)
        #expect(result.records[0].date == utcDate(2024, 3, 2, 18, 0))
        #expect(result.records[2].replyToID == "2")
        #expect(result.records[3].isEdited)
        #expect(result.records[11].replyToID == "2", "a pin points at the pinned message")
        let photo = try #require(result.records[4] as? LogImageMessage)
        #expect(photo.pixelWidth == 1280 && photo.pixelHeight == 960 && photo.caption == "Last week's route")
        let missing = try #require(result.records[5] as? LogImageMessage)
        #expect(missing.pixelWidth == 720 && missing.pixelHeight == 1280 && missing.caption == nil)
        #expect(result.positions[1] == LogPosition(file: corpus("exports/telegram/single/result.json"), line: 19, messageIndex: 2))
    }

    @Test func meMarksOutgoingMessages() throws {
        let result = try readAll(corpus("exports/telegram/single/result.json"), options: LogReadOptions(me: "Marco Rossi", timeZone: utc))
        #expect(result.records.filter { $0.direction == .outgoing }.map(\.id) == ["3", "6", "8", "10"])
    }

    @Test func fullExportReadsEveryChatAndDefaultsMeToTheExportingAccount() throws {
        let result = try readAll(corpus("exports/telegram/full/result.json"))
        #expect(result.format == .telegram)
        #expect(result.diagnostics.isEmpty)
        #expect(result.records.count == 8)
        #expect(result.counts.recordsIn == 8 && result.counts.reconciles)
        #expect(result.records.map(\.id) == ["333/conversation", "333/100", "333/101", "333/102", "777/conversation", "777/1", "777/2", "777/3"])
        #expect(result.texts[0] == "Telegram chat “Aiko Tanaka”")
        #expect(result.texts[4] == "Telegram chat “Family 👨‍👩‍👧”")
        // Matched by from_id too: "Sam C." is the same account under an old name.
        #expect(result.records.map(\.direction) == [.incoming, .incoming, .outgoing, .outgoing, .incoming, .incoming, .incoming, .outgoing])
        #expect(result.records[3].replyToID == "333/100")
        #expect(result.records[0].date == result.records[1].date)
    }

    /// A chat with no messages (an export limited to a date range lists many) is said once as a
    /// warning at its line, with no heading row: it has no date to be placed at, and was shown
    /// dated 1 Jan 1970. A heading takes the date of its chat's first message read with one, past
    /// a rejected one; a chat whose messages are all rejected keeps its heading (its messages are
    /// reported under it), dated as the record before it, else as the first message of a later
    /// chat. Chosen alone, an empty chat is warned about too.
    @Test func chatsWithNoMessagesAreWarnedAboutAndHaveNoHeading() throws {
        let path = corpus("exports/telegram/empty-chats/result.json")
        let result = try readAll(path)
        #expect(result.warnings.map(\.description) == [
            "\(path):15: chat \"Old Friend\" has no messages in this export",
            "\(path):39: chat \"Saved Messages\" has no messages in this export",
        ])
        #expect(result.records.map(\.id) == ["444/conversation", "333/conversation", "333/100"])
        #expect(result.records.map(\.date) == [utcDate(2024, 4, 1, 8, 0), utcDate(2024, 4, 1, 8, 0), utcDate(2024, 4, 1, 8, 0)])
        #expect(result.diagnosticLines == [
            "\(path):26: message 1: unreadable date_unixtime \"later\" (expected Unix seconds)",
            "\(path):27: message 2: wrong type: a message must be an object, found a number (7)",
            "\(path):35: message 1: unreadable date_unixtime \"soon\" (expected Unix seconds)",
        ])
        #expect(result.counts.recordsIn == 6 && result.counts.rejected == 3 && result.counts.reconciles)
        let alone = try readAll(path, options: LogReadOptions(timeZone: utc, conversation: "Old Friend"))
        #expect(alone.records.isEmpty && alone.diagnostics.isEmpty)
        #expect(alone.warnings.map(\.description) == ["\(path):15: chat \"Old Friend\" has no messages in this export"])
    }

    @Test func oneChatOfAFullExportCanBeChosen() throws {
        let result = try readAll(corpus("exports/telegram/full/result.json"), options: LogReadOptions(timeZone: utc, conversation: "777"))
        #expect(result.records.map(\.id) == ["1", "2", "3"])
        #expect(result.records[2].replyToID == "2")
        let error = openError(corpus("exports/telegram/full/result.json"), options: LogReadOptions(timeZone: utc, conversation: "Nobody"))
        #expect(error?.message == "no chat named or numbered \"Nobody\"; the export has 2: \"Aiko Tanaka\", \"Family 👨‍👩‍👧\"")
    }

    @Test func damagedMessagesAreReportedWithTheirIndexAndLine() throws {
        let path = corpus("exports/telegram/damaged/result.json")
        let result = try readAll(path, format: .telegram)
        // A message without an id is named by its line, not rejected.
        #expect(result.records.map(\.id) == ["1", "line10", "8"])
        #expect(result.diagnosticLines == [
            "\(path):7: message 2: missing field \"date_unixtime\"",
            "\(path):8: message 3: wrong type: field \"text\" must be a string or an array, found a number (42)",
            "\(path):9: message 4: wrong type: a message must be an object, found a string (\"not a message\")",
            "\(path):11: message 6: unknown message type \"poll_result\" (expected message or service)",
            "\(path):12: message 7: unreadable date_unixtime \"soon\" (expected Unix seconds)",
        ])
        #expect(result.counts.recordsIn == 8 && result.counts.rejected == 5 && result.counts.reconciles)
    }

    @Test func everyRejectedMessageOfAFullExportNamesTheLineWhereItStarts() throws {
        let path = corpus("exports/telegram/damaged-full/result.json")
        let result = try readAll(path, format: .telegram)
        #expect(result.diagnosticLines == [
            "\(path):11: message 2: wrong type: a message must be an object, found a number (7)",
            "\(path):14: message 4: wrong type: a message must be an object, found null",
            "\(path):14: message 5: wrong type: a message must be an object, found a string (\"two strays on one line\")",
            "\(path):14: message 6: wrong type: a message must be an object, found an array",
            // An object is named by the line of its "{", not of the field that is wrong.
            "\(path):15: message 7: wrong type: field \"text\" must be a string or an array, found an object",
            "\(path):31: message 1: wrong type: a message must be an object, found a string (\"a stray before the first message\")",
        ])
        #expect(result.diagnostics.allSatisfy { $0.line != nil && $0.position.messageIndex != nil })
        #expect(result.records.map(\.id) == ["10/conversation", "10/1", "10/3", "10/8", "20/conversation", "20/1"])
        #expect(result.positions.map(\.line) == [9, 10, 12, 23, 31, 32])
        #expect(result.records[3].direction == .outgoing, "the exporting account is still found")
        // Two chat headers and ten list elements: six read, six rejected, none lost.
        #expect(result.counts.recordsIn == 12 && result.counts.rejected == 6 && result.counts.reconciles)
        #expect(result.records.count + result.diagnostics.count == result.counts.recordsIn)
    }

    @Test func aChatThatIsNotAnObjectIsReportedAtItsLineAndTheRestRead() throws {
        let path = corpus("exports/telegram/stray-chat/result.json")
        let result = try readAll(path, format: .telegram)
        #expect(result.diagnosticLines == ["\(path):8: unknown schema: chat 2 of \"left_chats\" is a string; expected an object with a \"messages\" array; its messages are not read"])
        #expect(result.counts.recordsIn == 1 && result.counts.rejected == 1 && result.counts.reconciles)
    }

    @Test func aChatWithoutMessagesIsReportedAndTheOtherChatsRead() throws {
        let text = #"""
        {"personal_information": {"user_id": 5, "first_name": "Ana"},
         "chats": {"list": [
          {"name": "Ben", "type": "personal_chat", "id": 10, "messages": [
           {"id": 1, "type": "message", "date_unixtime": "1714557720", "from": "Ben", "from_id": "user10", "text": "hi"}]},
          {"name": "Broken", "type": "personal_chat", "id": 11, "messages": {"not": "a list"}},
          {"messages": [
           {"id": 2, "type": "message", "date_unixtime": "1714557780", "from": "Cy", "from_id": "user12", "text": "yo"}],
           "name": "Cy", "type": "personal_chat", "id": 12}
         ]}}
        """#
        let reader = try LogSource.open(bytes: Array(text.utf8), name: "result.json", format: .telegram)
        var ids: [String] = []
        var diagnostics: [String] = []
        for entry in reader {
            switch entry {
            case .message(let record, _): ids.append(record.id)
            case .diagnostic(let diagnostic): diagnostics.append(diagnostic.description)
            }
        }
        #expect(diagnostics == ["result.json:5: unknown schema: chat \"Broken\" has no \"messages\" array; its messages are not read"])
        // The header fields after a chat's messages are read as well as before them.
        #expect(ids == ["10/conversation", "10/1", "12/conversation", "12/2"])
        #expect(reader.counts.rejected == 1)
    }

    @Test func truncatedExportIsOneWholeFileError() throws {
        let path = corpus("exports/telegram/truncated/result.json")
        let error = try #require(openError(path, format: .telegram))
        #expect(error.description.hasPrefix("\(path):80: truncated JSON at column 17: the text ends where the closing '\"' of a string was expected; expected one complete JSON document"))
        #expect(error.description.hasSuffix("expected one complete JSON document"))
        // Detection reaches the same verdict.
        #expect(openError(path)?.message == error.message)
    }

    @Test func unknownSchemaSaysWhatWasExpected() {
        let path = corpus("exports/telegram/unknown-schema.json")
        #expect(openError(path, format: .telegram)?.description == "\(path): unknown schema: expected a Telegram Desktop export, with \"messages\" (one chat) or \"chats\": {\"list\": […]} (a full export)")
        #expect(openError(path)?.message.hasPrefix("unknown JSON schema: expected a Telegram Desktop result.json") == true)
    }

    @Test func exportConvertsToNativeAndReadsBackTheSame() throws {
        for path in ["exports/telegram/single/result.json", "exports/telegram/full/result.json"] {
            let records = try readAll(corpus(path)).records
            let back = try roundTrip(records)
            #expect(back.count == records.count)
            for (a, b) in zip(records, back) { #expect(a.isSameRecord(as: b), "\(a) vs \(b)") }
        }
    }
}
