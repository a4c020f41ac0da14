import BubbleFonts
import BubbleLayout
import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// An app and the command line cannot disagree: a `Conversation` holding a fixture's messages,
/// its rows written through the command's own record writer (`RowRecord` with `heights`' fields),
/// gives `bubbles heights`' output byte for byte, in cells and in px (`--font`), at each width.
@Suite struct HeightsThroughConversationTests {
    static let fixtures = ["logs/sample.jsonl", "exports/telegram/single/result.json",
                           "exports/whatsapp/ios-en_US-notices.txt"]
    static let widths = [28, 40, 80]
    static let pixelWidths = [240, 375]
    static let font = corpus("fonts/NotoSans-Subset.ttf")

    static func models(_ path: String) throws -> [any MessageModel] {
        let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: TimeZone(identifier: "UTC")!))
        var models: [any MessageModel] = []
        for entry in reader { if case .message(let record, _) = entry { models.append(record) } }
        return models
    }

    /// `heights`' records for every row of `conversations` (one per width, all holding
    /// `models`): each row's records, one per width, in row order.
    static func records<M>(_ conversations: [Conversation<M>], widths: [Int], models: [any MessageModel],
                           fields: (Conversation<M>, Int, Int) -> (kind: RowKind, fields: [(String, String)])) -> String {
        var out = OutputBuffer()
        let first = conversations[0]
        for row in 0..<first.rowCount {
            // A date separator is named by its day and belongs to the message below it.
            let message = first.messageIndex(ofRow: row) ?? first.messageIndex(ofRow: row + 1)!
            let id = first.messageIndex(ofRow: row) == nil ? "date:" + first[message: message].day.isoString : models[message].id
            for (conversation, width) in zip(conversations, widths) {
                let (kind, values) = fields(conversation, row, width)
                RowRecord(number: row, conversation: models[message].conversationID, id: id,
                          kind: conversation.engine.registry.name(of: kind), fields: values).appendJSON(to: &out)
                out.append("\n")
            }
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test(arguments: fixtures)
    func cellsAsTheCommandPrintsThem(fixture: String) throws {
        let path = corpus(fixture)
        let models = try Self.models(path)
        let options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)
        let conversations = Self.widths.map { Conversation(width: $0, options: options) }
        for conversation in conversations { try conversation.append(contentsOf: models) }
        let expected = Self.records(conversations, widths: Self.widths, models: models) { conversation, row, width in
            let layout = conversation.layout(ofRow: row)
            return (layout.kind, HeightsWriter.fields(of: layout, width: width))
        }
        let run = bubbles(["heights", path, "--tz", "UTC"] + Self.widths.flatMap { ["--width", String($0)] })
        #expect(run.code == 0, "\(run.errors)")
        #expect(models.count > 5 && conversations[0].rowCount > models.count)
        #expect(run.output == expected)
    }

    @Test(arguments: fixtures)
    func pixelsAsTheCommandPrintsThem(fixture: String) throws {
        let path = corpus(fixture)
        let models = try Self.models(path)
        let options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)
        let pixels = PixelOptions(fonts: [(Self.font, 0)], size: 16, lineHeight: .normal, language: .none, stylePath: nil)
        let (measurer, style) = try #require(try pixels.load(errors: CollectedText()))
        let conversations = Self.pixelWidths.map { Conversation(measurer: measurer, style: style, width: $0, options: options) }
        for conversation in conversations { try conversation.append(contentsOf: models) }
        let expected = Self.records(conversations, widths: Self.pixelWidths, models: models) { conversation, row, width in
            let pixelRow = conversation.pixelRow(ofRow: row)!
            #expect(pixelRow.height64 == conversation.height(ofRow: row))
            return (pixelRow.layout.kind, HeightsCommand.PixelRowFormatter.fields(of: pixelRow, width: width))
        }
        let run = bubbles(["heights", path, "--tz", "UTC", "--font", Self.font, "--size", "16"]
                          + Self.pixelWidths.flatMap { ["--width", String($0)] })
        #expect(run.code == 0, "\(run.errors)")
        #expect(run.output == expected)
    }
}
