import BubbleLayout
import BubbleText
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// Telegram Desktop's `forwarded_from` / `saved_from` and `spoiler` entities, read from an export
/// in the shape Telegram Desktop writes (`Corpora/exports/telegram/forwards`).
@Suite struct TelegramForwardTests {
    static let path = corpus("exports/telegram/forwards/result.json")

    @Test func aForwardKeepsItsOriginApartFromItsSender() throws {
        let result = try readAll(Self.path)
        #expect(result.diagnostics.isEmpty && result.counts.recordsIn == 8 && result.counts.reconciles)
        #expect(result.senders[0] == "Lena Vogel")
        #expect(result.records.map(\.forwardedFrom) == [
            "Alpine Weather Service", nil, "", "Aiko Tanaka", "Climbing crew 🧗", nil, nil, "Evil\u{1B}[2J\u{202E}Name\u{07}",
        ])
        // The text is the forwarded text alone: the origin is not written into it.
        #expect(result.texts[0].hasPrefix("Storm warning"))
        let photo = try #require(result.records[3] as? LogImageMessage)
        #expect(photo.caption == "the route topo" && photo.pixelWidth == 1280)
    }

    /// `reply_to_peer_id` names the chat of the message replied to when it is another chat's (a
    /// channel's post, answered in its discussion group): its number is that chat's, so it never
    /// quotes this chat's message of the same number.
    @Test func aReplyToAnotherChatsMessageQuotesNoMessageOfThisChat() throws {
        let result = try readAll(corpus("exports/telegram/reply-other-chat/result.json"))
        #expect(result.diagnostics.isEmpty && result.counts.reconciles)
        let ids = result.records.map(\.id)
        let replies = result.records.map(\.replyToID)
        #expect(replies[1] != nil && !ids.contains(replies[1]!))
        #expect(replies[2] == ids[0])
        // Read together with other chats, where ids carry the chat's: the same.
        let json = #"{"chats":{"list":[{"name":"a","type":"public_supergroup","id":77,"messages":[{"id":1,"type":"message","date_unixtime":"1718010000","from":"A","text":"one"},{"id":2,"type":"message","date_unixtime":"1718010001","from":"B","reply_to_message_id":1,"reply_to_peer_id":"channel76","text":"other"},{"id":3,"type":"message","date_unixtime":"1718010002","from":"B","reply_to_message_id":1,"reply_to_peer_id":"channel77","text":"same"}]},{"name":"b","type":"personal_chat","id":78,"messages":[]}]}}"#
        let full = try readAll(temporaryFile(Array(json.utf8), suffix: ".json"))
        let one = try #require(full.records.first { ($0 as? LogTextMessage)?.text == "one" })
        let other = try #require(full.records.first { ($0 as? LogTextMessage)?.text == "other" })
        let same = try #require(full.records.first { ($0 as? LogTextMessage)?.text == "same" })
        #expect(other.replyToID != nil && other.replyToID != one.id)
        #expect(same.replyToID == one.id)
    }

    @Test func aForwardOriginOfTheWrongTypeRejectsThatMessageAtItsLine() throws {
        let json = #"{"name":"x","type":"personal_chat","id":1,"messages":[{"id":1,"type":"message","date_unixtime":"1718010000","from":"A","forwarded_from":7,"text":"t"},{"id":2,"type":"message","date_unixtime":"1718010000","from":"A","text":"u"}]}"#
        let result = try readAll(temporaryFile(Array(json.utf8), suffix: ".json"))
        #expect(result.records.count == 1)
        #expect(result.diagnostics.map(\.reason) == ["wrong type: field \"forwarded_from\" must be a string or null, found a number (7)"])
        #expect(result.counts.reconciles)
    }

    @Test func aLongForwardOriginIsCutAsNamesAre() throws {
        let name = String(repeating: "é", count: 5000)
        let json = #"{"name":"x","type":"personal_chat","id":1,"messages":[{"id":1,"type":"message","date_unixtime":"1718010000","from":"A","forwarded_from":"\#(name)","text":"t"}]}"#
        let result = try readAll(temporaryFile(Array(json.utf8), suffix: ".json"))
        let origin = try #require(result.records.first?.forwardedFrom)
        #expect(origin.count == 257 && origin.hasSuffix("…"))
        #expect(result.diagnostics.count == 1 && result.diagnostics[0].isWarning)
    }

    @Test func convertWritesForwardedFromAndReadingItBackGivesTheSameRecords() throws {
        let records = try readAll(Self.path).records
        #expect(records[0].nativeLine.contains(#","forwardedFrom":"Alpine Weather Service","#))
        #expect(!records[1].nativeLine.contains("forwardedFrom"))
        // Controls in the origin are escaped in the JSON written.
        #expect(records[7].nativeLine.contains(#""forwardedFrom":"Evil\u001B[2J\u202EName\u0007""#))
        let back = try roundTrip(records)
        #expect(back.count == records.count)
        for (a, b) in zip(records, back) { #expect(a.isSameRecord(as: b)) }
        #expect(back.map(\.forwardedFrom) == records.map(\.forwardedFrom))
    }

    @Test func aNativeForwardedFromMustBeAString() throws {
        let log = #"{"id":"1","type":"text","date":1718010000,"forwardedFrom":["x"],"text":"t"}"# + "\n"
            + #"{"id":"2","type":"text","date":1718010000,"forwardedFrom":"Ann","text":"t"}"# + "\n"
        let result = try readAll(temporaryFile(Array(log.utf8)), format: .jsonl)
        #expect(result.records.map(\.forwardedFrom) == ["Ann"])
        #expect(result.diagnostics.map(\.line) == [1])
        #expect(result.diagnostics.first?.reason.contains("forwardedFrom") == true)
    }

    @Test func aForwardTakesTheQuoteRowSoItsHeightGrowsByOne() throws {
        let records = try readAll(Self.path).records
        let engine = LayoutEngine(measurer: CellMeasurer())
        let forwarded = records[0]
        var plain = try #require(forwarded as? LogTextMessage)
        plain.header.forwardedFrom = nil
        let withForward = try engine.decorate([forwarded])
        let without = try engine.decorate([plain])
        #expect(withForward[1].decoration.hasReplyQuote && !without[1].decoration.hasReplyQuote)
        for width in [16, 40, 80] {
            let a = engine.layout(withForward[1], in: [forwarded], width: width)
            let b = engine.layout(without[1], in: [plain], width: width)
            #expect(a.parts.contains(.replyQuote) && !b.parts.contains(.replyQuote))
            #expect(a.height == b.height + 1, "width \(width)")
        }
    }
}

extension TelegramForwardTests {
    @Test func theBubbleWidensToHoldTheForwardLineUpToItsMaximum() throws {
        let records = try readAll(Self.path).records
        let engine = LayoutEngine(measurer: CellMeasurer())
        let rows = try engine.decorate(records)
        let saved = try #require(rows.first { $0.messageIndex == 4 })  // "Bring the 60 m rope", saved from a chat
        let line = "↪ Forwarded from Climbing crew 🧗"
        #expect(saved.decoration.quoteWidth == CellMeasurer().width(of: line))
        for width in [20, 40, 80] {
            let layout = engine.layout(saved, in: records, width: width)
            let maximum = BubbleFrame(containerWidth: width, style: engine.style, drawsBubble: true).maxContentWidth
            #expect(layout.contentWidth(in: engine.style) == min(maximum, CellMeasurer().width(of: line)), "width \(width)")
        }
        // A message that is not forwarded asks for no width.
        #expect(rows.first { $0.messageIndex == 1 }?.decoration.quoteWidth == 0)
    }
}

extension TelegramForwardTests {
    /// A Telegram message that is forwarded (or saved) and a reply: the quote row holds the
    /// forward's line whole and the reply's quote at its minimum, so the bubble widens for both
    /// (up to its maximum), and the row is as tall as the same reply not forwarded (one quote row).
    @Test func aForwardThatIsAlsoAReplyWidensForBothOnItsOneQuoteRow() throws {
        let json = #"{"name":"x","type":"personal_chat","id":1,"messages":["#
            + #"{"id":1,"type":"message","date_unixtime":"1718010000","from":"Ann","text":"the original"},"#
            + #"{"id":2,"type":"message","date_unixtime":"1718010060","from":"Bob","reply_to_message_id":1,"forwarded_from":"Carol","text":"fwd reply short"},"#
            + #"{"id":3,"type":"message","date_unixtime":"1718010120","from":"Bob","reply_to_message_id":1,"saved_from":"Climbing crew 🧗","text":"saved reply"}]}"#
        let records = try readAll(temporaryFile(Array(json.utf8), suffix: ".json")).records
        #expect(records.count == 3 && records[1].replyToID == "1" && records[2].replyToID == "1")
        let engine = LayoutEngine(measurer: CellMeasurer())
        let rows = try engine.decorate(records)
        let replies = try readAll(temporaryFile(Array(json.replacingOccurrences(of: #""forwarded_from":"Carol","#, with: "")
            .replacingOccurrences(of: #""saved_from":"Climbing crew 🧗","#, with: "").utf8), suffix: ".json")).records
        #expect(replies.allSatisfy { $0.forwardedFrom == nil })
        let replyEngine = LayoutEngine(measurer: CellMeasurer())
        let replyRows = try replyEngine.decorate(replies)
        for (index, label) in [(1, "↪ Forwarded from Carol"), (2, "↪ Forwarded from Climbing crew 🧗")] {
            let row = try #require(rows.first { $0.messageIndex == index })
            #expect(row.decoration.quoteAddsReply && row.decoration.hasReplyQuote)
            #expect(row.decoration.quoteWidth == CellMeasurer().width(of: label) + 3)  // " · "
            // The same reply, not forwarded: one quote row either way.
            let alone = try #require(replyRows.first { $0.messageIndex == index })
            #expect(alone.decoration.hasReplyQuote && !alone.decoration.quoteAddsReply && alone.decoration.quoteWidth == 0)
            for width in 1...100 {
                let layout = engine.layout(row, in: records, width: width)
                let maximum = BubbleFrame(containerWidth: width, style: engine.style, drawsBubble: true).maxContentWidth
                guard layout.parts.contains(.replyQuote) else { continue }
                #expect(layout.contentWidth(in: engine.style)
                        == min(maximum, row.decoration.quoteWidth + engine.style.replyQuoteMinimumWidth), "width \(width)")
                let reply = replyEngine.layout(alone, in: replies, width: width)
                #expect(layout.height == reply.height, "width \(width)")
            }
        }
    }
}

@Suite struct TelegramSpoilerTests {
    @Test func spoilersAreHiddenByDefault() throws {
        let result = try readAll(TelegramForwardTests.path)
        #expect(result.texts[5] == "The crux is [spoiler], and the top has a view")
        // A message with text_entities alone (no "text") is read from them, spoilers hidden too.
        #expect(result.texts[6] == "[spoiler] at the hut")
        #expect(!result.records.map(\.nativeLine).joined().contains("undercling"))
    }

    @Test func spoilersAreShownWhenRevealed() throws {
        var options = LogReadOptions(timeZone: utc)
        options.revealsSpoilers = true
        let result = try readAll(TelegramForwardTests.path, options: options)
        #expect(result.texts[5] == "The crux is a hidden undercling on the left, and the top has a view")
        #expect(result.texts[6] == "surprise cake 🎂 at the hut")
    }
}
