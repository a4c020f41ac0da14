import BubbleLayout
@testable import BubbleLogs
import Foundation
import Testing

/// The record types keep their fields in one shared object (`LogTextMessage.storage`); they must
/// still behave as plain values.
@Suite struct LogRecordStorageTests {
    private let header = LogMessageHeader(
        id: "7", senderName: "Bob", direction: .outgoing, date: Date(timeIntervalSince1970: 1_714_553_502.25),
        status: .read, isEdited: true, replyToID: "6")

    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = LogTextMessage(header: header, text: "hello")
        var copy = original
        copy.text = "changed"
        copy.header.senderName = "Alice"
        copy.textStyle = .notice
        #expect(original.text == "hello" && original.senderName == "Bob" && original.textStyle == .body)
        #expect(copy.text == "changed" && copy.senderName == "Alice" && copy.textStyle == .notice)
        #expect(copy.id == "7" && copy.replyToID == "6" && copy.status == .read && copy.isEdited)
        #expect(original != copy)

        let image = LogImageMessage(header: header, pixelWidth: 4, pixelHeight: 3, imageName: "a.jpg", caption: nil)
        var changedImage = image
        changedImage.pixelWidth = nil
        changedImage.caption = "hi"
        changedImage.imageName = "b.jpg"
        #expect(image.pixelWidth == 4 && image.caption == nil && image.imageName == "a.jpg")
        #expect(changedImage.pixelWidth == nil && changedImage.pixelHeight == 3 && changedImage.caption == "hi"
            && changedImage.imageName == "b.jpg")

        let notice = LogSystemMessage(header: header, notice: "Bob pinned a message")
        var changedNotice = notice
        changedNotice.notice = "Bob left"
        changedNotice.header.id = "8"
        #expect(notice.notice == "Bob pinned a message" && notice.id == "7")
        #expect(changedNotice.notice == "Bob left" && changedNotice.id == "8")
    }

    @Test func recordsBuiltApartWithEqualFieldsAreEqualAndHashAlike() {
        let pairs: [(any LogRecord, any LogRecord)] = [
            (LogTextMessage(header: header, text: "x"), LogTextMessage(header: header, text: "x")),
            (LogImageMessage(header: header, pixelWidth: nil, pixelHeight: 9, imageName: "i", caption: "c"),
             LogImageMessage(header: header, pixelWidth: nil, pixelHeight: 9, imageName: "i", caption: "c")),
            (LogSystemMessage(header: header, notice: "n"), LogSystemMessage(header: header, notice: "n")),
        ]
        for (a, b) in pairs {
            #expect(a.isSameRecord(as: b))
            #expect(AnyHashable(a) == AnyHashable(b) && AnyHashable(a).hashValue == AnyHashable(b).hashValue)
        }
        var other = header
        other.conversationID = "c1"
        #expect(!LogTextMessage(header: header, text: "x").isSameRecord(as: LogTextMessage(header: other, text: "x")))
        #expect(LogTextMessage(header: header, text: "x") != LogTextMessage(header: header, text: "x", textStyle: .notice))
        #expect(LogImageMessage(header: header, pixelWidth: 1, pixelHeight: 9, imageName: "i", caption: nil)
            != LogImageMessage(header: header, pixelWidth: nil, pixelHeight: 9, imageName: "i", caption: nil))
        #expect(!pairs[0].0.isSameRecord(as: pairs[2].0))
    }

    @Test func aRecordFitsAnExistentialWithoutABox() {
        // One reference: what lets `any LogRecord` and `any MessageModel` hold it inline.
        #expect(MemoryLayout<LogTextMessage>.size == MemoryLayout<AnyObject>.size)
        #expect(MemoryLayout<LogImageMessage>.size == MemoryLayout<AnyObject>.size)
        #expect(MemoryLayout<LogSystemMessage>.size == MemoryLayout<AnyObject>.size)
    }

    @Test func theFastDecoderGivesTheConversationAndDropsASystemNoticesSender() throws {
        let fast = NativeFastDecoder(me: "Me")
        func decode(_ line: String) -> (any LogRecord)? {
            Array(line.utf8).withByteView { fast.decode($0) }
        }
        let text = try #require(decode(#"{"id":"1","conversation":"c9","type":"text","from":"Me","date":5,"replyTo":3,"text":"hé"}"#) as? LogTextMessage)
        #expect(text.conversationID == "c9" && text.replyToID == "3" && text.direction == .outgoing && text.text == "hé")
        #expect(text.date == Date(timeIntervalSince1970: 5))
        let notice = try #require(decode(#"{"id":"2","type":"system","from":"Me","date":6,"text":"pinned"}"#) as? LogSystemMessage)
        #expect(notice.senderName == nil && notice.header.senderName == nil && notice.notice == "pinned")
    }
}
