import BubbleTestSupport
import BubbleLayout
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

/// A small fixed transcript at width 60, so a person can read what the output looks like.
@Suite struct GoldenTranscriptTests {
    static func minutes(_ m: Double) -> Date { may1.addingTimeInterval(m * 60) }

    static let transcript: [any MessageModel] = [
        Notice(id: "1", date: minutes(0), notice: "Alice created the group"),
        TextNote(id: "2", senderName: "Alice", date: minutes(2), text: "Hi! 👋"),
        TextNote(id: "3", senderName: "Alice", date: minutes(3),
                    text: "Are we still on for lunch tomorrow? I found a place that does great ramen 🍜"),
        TextNote(id: "4", senderName: "Me", direction: .outgoing, date: minutes(5), status: .read,
                    text: "Yes! 12:30?"),
        TextNote(id: "5", senderName: "Bob", date: minutes(7), isEdited: true, replyToID: "3",
                    text: "Count me in"),
        Picture(id: "6", senderName: "Me", direction: .outgoing, date: minutes(9), status: .delivered,
                     pixelWidth: 1280, pixelHeight: 720, imageName: "IMG_0001.jpg", caption: "The menu"),
        TextNote(id: "7", senderName: "Me", direction: .outgoing, date: minutes(60 * 24), status: .failed,
                    text: "Running late"),
    ]

    func rendered(ascii: Bool) throws -> String {
        try render(Self.transcript, width: 60, ascii: ascii).text
    }

    @Test func unicodeBordersAtWidth60() throws {
        let expected = """
                            ── Wed 1 May 2024 ──

                       ── Alice created the group ──

        Alice
        ╭────────╮
        │ Hi! 👋 │
        ╰──10:02─╯
        ╭────────────────────────────────────────╮
        │ Are we still on for lunch tomorrow? I  │
        │ found a place that does great ramen 🍜 │
        └──────────────────────────────── 10:03 ─╯

                                                     ╭─────────────╮
                                                     │ Yes! 12:30? │
                                                     ╰── 10:05 ✓✓ ─┘

        Bob
        ╭──────────────────╮
        │ ↩ Alice: Are we… │
        │ Count me in      │
        └─── 10:07 edited ─╯

                       ╭───────────────────────────────────────────╮
                       │ ┌───────────────────────────────────────┐ │
                       │ │                                       │ │
                       │ │                                       │ │
                       │ │                                       │ │
                       │ │                                       │ │
                       │ │            📷 IMG_0001.jpg            │ │
                       │ │               1280×720                │ │
                       │ │                                       │ │
                       │ │                                       │ │
                       │ │                                       │ │
                       │ │                                       │ │
                       │ └───────────────────────────────────────┘ │
                       │ The menu                                  │
                       ╰──────────────────────────────── 10:09 ✓✓ ─┘

                            ── Thu 2 May 2024 ──

                                                    ╭──────────────╮
                                                    │ Running late │
                                                    ╰──── 10:00 ✗ ─┘
        """
        #expect(try rendered(ascii: false) == expected)
    }

    @Test func asciiBordersAtWidth60() throws {
        let expected = #"""
                            -- Wed 1 May 2024 --

                       -- Alice created the group --

        Alice
        +--------+
        | Hi! 👋 |
        +--10:02-+
        +----------------------------------------+
        | Are we still on for lunch tomorrow? I  |
        | found a place that does great ramen 🍜 |
        \-------------------------------- 10:03 -+

                                                     +-------------+
                                                     | Yes! 12:30? |
                                                     +-- 10:05 VV -/

        Bob
        +------------------+
        | > Alice: Are ... |
        | Count me in      |
        \--- 10:07 edited -+

                       +-------------------------------------------+
                       | +---------------------------------------+ |
                       | |                                       | |
                       | |                                       | |
                       | |                                       | |
                       | |                                       | |
                       | |          [img] IMG_0001.jpg           | |
                       | |               1280x720                | |
                       | |                                       | |
                       | |                                       | |
                       | |                                       | |
                       | |                                       | |
                       | +---------------------------------------+ |
                       | The menu                                  |
                       +-------------------------------- 10:09 vv -/

                            -- Thu 2 May 2024 --

                                                    +--------------+
                                                    | Running late |
                                                    +---- 10:00 x -/
        """#
        #expect(try rendered(ascii: true) == expected)
    }
}
