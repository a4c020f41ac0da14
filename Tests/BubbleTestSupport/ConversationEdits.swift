import BubbleLayout
import Foundation

/// A row as a naive recomputation sees it: from a batch layout of the conversation's messages,
/// from scratch, in the conversation's units.
public struct NaiveRow: Equatable, CustomStringConvertible {
    /// The message's position, nil for a date separator.
    public var messageIndex: Int?
    public var height: Int
    /// The bubble's left and right edges, as the row's alignment fixes them.
    public var left: Int
    public var right: Int
    package var alignment: RowAlignment

    package init(messageIndex: Int?, height: Int, left: Int, right: Int, alignment: RowAlignment) {
        self.messageIndex = messageIndex
        self.height = height
        self.left = left
        self.right = right
        self.alignment = alignment
    }

    public var description: String { "row(message: \(messageIndex.map(String.init) ?? "date"), height: \(height), \(left)..<\(right), \(alignment))" }
}

/// Seeded random edit sequences (append, prepend, edit, remove, resize) applied to a
/// `Conversation` and mirrored in a plain array; after each, `check` compares every row's frame,
/// the row ↔ message mapping and the row at offsets with a naive recomputation.
public struct ConversationEdits<Random: RandomNumberGenerator> {
    public var generator: TimelineGenerator<Random>
    public private(set) var models: [any MessageModel] = []
    private var next = 0
    private var first = Date(timeIntervalSince1970: 1_714_557_600)
    private var last = Date(timeIntervalSince1970: 1_714_557_600)

    public init(random: Random) { generator = TimelineGenerator(random: random) }

    /// Seconds between messages: mostly within a group, sometimes across it or a day.
    private mutating func gap() -> Double { [30, 90, 200, 3_600, 86_400][generator.int(0...4)] }

    /// Applies one random change to `conversation` and the mirror; `widths` are the widths a
    /// resize picks from.
    package mutating func step<M>(_ conversation: Conversation<M>, widths: [Int]) throws {
        let roll = generator.int(0...99)
        if roll < 40 || models.isEmpty {
            if !models.isEmpty { last += gap() }
            let model = generator.message(next, date: last)
            next += 1
            try conversation.append(model)
            models.append(model)
        } else if roll < 55 {
            first -= gap()
            let model = generator.message(next, date: first)
            next += 1
            try conversation.prepend(model)
            models.insert(model, at: 0)
        } else if roll < 75 {
            let i = generator.int(0...models.count - 1)
            // The same id (`m<n>`, as the generator names message n), new content of any kind.
            let replacement = generator.message(Int(models[i].id.dropFirst())!, date: models[i].date)
            try conversation.replace(replacement)
            models[i] = replacement
        } else if roll < 92 {
            let i = generator.int(0...models.count - 1)
            try conversation.remove(id: models[i].id)
            models.remove(at: i)
        } else {
            conversation.resize(width: widths[generator.int(0...widths.count - 1)])
        }
    }

    /// Every row of `conversation` against `naive` (the rows recomputed from scratch), and
    /// the row at the top, the bottom and a random offset of each row, against a linear scan.
    package mutating func check<M>(_ conversation: Conversation<M>, against naive: [NaiveRow]) -> [String] {
        var problems: [String] = []
        if conversation.rowCount != naive.count { problems.append("rowCount \(conversation.rowCount) ≠ \(naive.count)") }
        if conversation.messageCount != models.count { problems.append("messageCount \(conversation.messageCount) ≠ \(models.count)") }
        var y = 0
        for (row, expected) in naive.enumerated() where row < conversation.rowCount {
            let frame = conversation.frame(ofRow: row)
            let actual = NaiveRow(messageIndex: conversation.messageIndex(ofRow: row), height: frame.height,
                                  left: frame.x, right: frame.x + frame.width, alignment: expected.alignment)
            if actual != expected || frame.y != y || conversation.offset(ofRow: row) != y
                || conversation.height(ofRow: row) != frame.height {
                problems.append("row \(row): \(actual) at \(frame.y), expected \(expected) at \(y)")
            }
            if let message = expected.messageIndex {
                if conversation.row(ofMessage: message) != row { problems.append("row(ofMessage: \(message)) ≠ \(row)") }
                if conversation.row(withID: models[message].id) != row { problems.append("row(withID:) of message \(message) ≠ \(row)") }
            }
            if expected.height > 0 {
                let inside = y + generator.int(0...expected.height - 1)
                for offset in [y, y + expected.height - 1, inside] where conversation.row(atOffset: offset) != row {
                    problems.append("row(atOffset: \(offset)) = \(conversation.row(atOffset: offset).map(String.init) ?? "nil"), expected \(row)")
                }
            }
            y += expected.height
        }
        if conversation.totalHeight != y { problems.append("totalHeight \(conversation.totalHeight) ≠ \(y)") }
        if conversation.row(atOffset: y) != nil || conversation.row(atOffset: -1) != nil { problems.append("a row outside 0..<\(y)") }
        return problems
    }
}

extension BatchLayout {
    /// Rows of this batch (one width) in cells, as `NaiveRow`s.
    package var naiveRowsInCells: [NaiveRow] {
        rows.indices.map { r in
            let layout = layout(row: r, widthIndex: 0)
            return NaiveRow(messageIndex: rows[r].modelIndex, height: layout.height, left: layout.x,
                            right: layout.x + layout.bubbleWidth, alignment: layout.alignment)
        }
    }
}
