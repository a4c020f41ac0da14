import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

@Suite struct DecorationTests {
    let engine = LayoutEngine()
    let base = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z

    func note(_ id: String, _ from: String?, at minutes: Double, out: Bool = false) -> TextNote {
        TextNote(id: id, senderName: from, direction: out ? .outgoing : .incoming,
                 date: base.addingTimeInterval(minutes * minute), text: "message \(id)")
    }

    func messageRows(_ rows: [DecoratedRow]) -> [RowDecoration] { rows.filter { !$0.isDateSeparator }.map(\.decoration) }

    @Test func aGroupIsOneSenderWithinTheGap() throws {
        let models: [any MessageModel] = [note("1", "Alice", at: 0), note("2", "Alice", at: 4), note("3", "Alice", at: 9.5),
                                          note("4", "Bob", at: 10), note("5", "Bob", at: 16)]
        let d = messageRows(try engine.decorate(models, options: options()))
        #expect(d.map(\.startsGroup) == [true, false, true, true, true])
        #expect(d.map(\.endsGroup) == [false, true, true, true, true])
        let wide = messageRows(try engine.decorate(models, options: DecorationOptions(groupGap: 600, timeZone: utc)))
        #expect(wide.map(\.startsGroup) == [true, false, false, true, false])
    }

    @Test func aMessageStampedSlightlyEarlierStillContinuesTheGroup() throws {
        let models: [any MessageModel] = [note("1", "Alice", at: 0), note("2", "Alice", at: -0.004), note("3", "Alice", at: -7)]
        let d = messageRows(try engine.decorate(models, options: options()))
        #expect(d.map(\.startsGroup) == [true, false, true])
        #expect(d.map(\.showsName) == [false, false, false])
    }

    @Test func aGroupBreaksOnDirectionAndOnANotice() throws {
        let models: [any MessageModel] = [note("1", "Me", at: 0, out: true), note("2", "Me", at: 1),
                                          note("3", "Me", at: 2), Notice(id: "n", date: base.addingTimeInterval(150), notice: "pin"),
                                          note("4", "Me", at: 3)]
        let d = messageRows(try engine.decorate(models, options: options()))
        #expect(d.map(\.startsGroup) == [true, true, false, true, true])
    }

    @Test func namesShowOnAGroupsFirstIncomingMessageWithSeveralParties() throws {
        let models: [any MessageModel] = [note("1", "Alice", at: 0), note("2", "Alice", at: 1), note("3", "Bob", at: 2),
                                          note("4", "Me", at: 3, out: true)]
        let d = messageRows(try engine.decorate(models, options: options()))
        #expect(d.map(\.showsName) == [true, false, true, false])
        let oneOnOne: [any MessageModel] = [note("1", "Alice", at: 0), note("4", "Me", at: 3, out: true), note("5", "Alice", at: 4)]
        #expect(messageRows(try engine.decorate(oneOnOne, options: options())).allSatisfy { !$0.showsName })
        // A given party count wins over counting.
        #expect(messageRows(try engine.decorate(oneOnOne, options: options(parties: 3))).map(\.showsName) == [true, false, true])
    }

    @Test func theNameLineAddsARowAndSpacingOnlyOpensAGroup() throws {
        let models: [any MessageModel] = [note("1", "Alice", at: 0), note("2", "Alice", at: 1), note("3", "Bob", at: 2)]
        let batch = try engine.layoutBatch(models, widths: [80], options: options())
        let rows = (0..<batch.rows.count).map { batch.layout(row: $0, widthIndex: 0) }
        #expect(rows.map(\.kind) == [.date, .text, .text, .text])
        #expect(rows.map(\.spacingAbove) == [0, 1, 0, 1])
        #expect(rows.map { $0.parts.contains(.nameLine) } == [false, true, false, true])
        #expect(rows.map { $0.parts.contains(.tail) } == [false, false, true, true])
        #expect(rows[1].height == 1 + 1 + 2 + rows[1].textLines)
        #expect(rows[2].height == 2 + rows[2].textLines)
    }

    @Test func dateSeparatorsMarkEachDayInTheChosenZone() throws {
        // 22:30Z and 23:30Z on 1 May, then 03:30Z on 2 May: two days in UTC; one day in New York
        // (UTC−4: 18:30, 19:30, 23:30 on 1 May); one day in Tokyo (UTC+9: all on 2 May).
        let dates = [Date(timeIntervalSince1970: 1_714_602_600), Date(timeIntervalSince1970: 1_714_606_200),
                     Date(timeIntervalSince1970: 1_714_620_600)]
        let models: [any MessageModel] = dates.enumerated().map { TextNote(id: "\($0.offset)", date: $0.element, text: "x") }
        func separators(_ zone: String) throws -> [String] {
            try engine.decorate(models, options: options(zone: TimeZone(identifier: zone)!))
                .filter(\.isDateSeparator).map { $0.id(in: models) }
        }
        #expect(try separators("UTC") == ["date:2024-05-01", "date:2024-05-02"])
        #expect(try separators("America/New_York") == ["date:2024-05-01"])
        #expect(try separators("Asia/Tokyo") == ["date:2024-05-02"])
        let rows = try engine.decorate(models, options: options())
        #expect(rows.map(\.isDateSeparator) == [true, false, false, true, false])
        #expect(rows[0].decoration.isFirstRow && !rows[3].decoration.isFirstRow)
    }

    @Test func aGroupNeverSpansMidnight() throws {
        let models: [any MessageModel] = [TextNote(id: "1", date: Date(timeIntervalSince1970: 1_714_607_940), text: "a"),
                                          TextNote(id: "2", date: Date(timeIntervalSince1970: 1_714_608_060), text: "b")]
        let d = messageRows(try engine.decorate(models, options: options()))
        #expect(d.map(\.startsGroup) == [true, true])
    }

    @Test func footersFollowTheOption() throws {
        let models: [any MessageModel] = [note("1", "Alice", at: 0), note("2", "Alice", at: 1),
                                          TextNote(id: "3", date: base.addingTimeInterval(120), isEdited: true, text: "x"),
                                          note("4", "Alice", at: 3)]
        let every = messageRows(try engine.decorate(models, options: options()))
        #expect(every.allSatisfy { $0.showsFooter })
        #expect(every.map(\.footerWidth) == [5, 5, 12, 5])
        var lastOnly = options()
        lastOnly.footerOnEveryMessage = false
        #expect(messageRows(try engine.decorate(models, options: lastOnly)).map(\.showsFooter) == [false, false, true, true])
    }

    @Test func streamingDecorationMatchesBatchDecoration() throws {
        var rng = SeededGenerator(seed: 7)
        var models: [any MessageModel] = []
        var t = 0.0
        for i in 0..<300 {
            t += Double(rng.next() % 900)
            let who = ["Alice", "Bob", "Me"][Int(rng.next() % 3)]
            models.append(TextNote(id: "\(i)", senderName: who, direction: who == "Me" ? .outgoing : .incoming,
                                   date: base.addingTimeInterval(t), text: "m"))
        }
        let batch = try engine.decorate(models, options: options(parties: 2))
        var decorator = Decorator(options: options(parties: 2), registry: .standard, footerWidths: engine.footerWidths)
        var streamed: [DecoratedRow] = []
        for (i, m) in models.enumerated() { streamed += try decorator.push(m, index: i) }
        streamed += decorator.finish()
        #expect(streamed == batch)
    }

    @Test func theEnvironmentZoneDefaultsToUTC() {
        let zone = ZoneClock.environmentTimeZone
        if ProcessInfo.processInfo.environment["TZ"] == nil { #expect(zone.secondsFromGMT(for: base) == 0) }
        var clock = ZoneClock(timeZone: TimeZone(identifier: "Asia/Kolkata")!)
        #expect(clock.clockTime(of: base) == "15:30")
    }
}
