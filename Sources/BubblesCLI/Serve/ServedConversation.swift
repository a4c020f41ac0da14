import BubbleLayout
import BubbleLogs
import BubbleText

/// One conversation that `bubbles serve` holds open, whatever it measures in: what the service
/// asks of it. Each is used by one thread at a time (its slot's serial queue).
protocol ServedLayout: AnyObject {
    /// Messages (not rows: a day's first message has a date row above it) held.
    var messageCount: Int { get }
    /// The container width rows are laid out at.
    var width: Int { get }
    /// Bytes the service counts against its budget while the layout state is held (an estimate:
    /// the cache's own count, the prepared texts and a fixed cost a row).
    var layoutBytes: Int { get }
    /// Bytes of the messages themselves, kept even while the layout state is dropped.
    var messageBytes: Int { get }
    /// Whether the layout state is held (false after `dropLayout` until the next request).
    var isLaidOut: Bool { get }
    /// Cache counters of the layout state now held, and of every state dropped before it.
    var statistics: CacheStatistics { get }

    /// Adds `models` after the last message; returns the rows laid out anew.
    func append(_ models: [any MessageModel]) throws(ServeError) -> ServedRows
    /// Replaces each message with the same id; returns the rows laid out anew.
    func update(_ models: [any MessageModel]) throws(ServeError) -> ServedRows
    /// Removes the messages; returns the rows laid out anew (the removed ones are gone).
    func remove(ids: [String]) throws(ServeError) -> ServedRows
    /// Lays every row out at `width`.
    func resize(width: Int) throws(ServeError)
    /// Rows `range` of the timeline (date rows counted), clamped to it.
    func rows(in range: Range<Int>) throws(ServeError) -> ServedRows
    /// The rows of messages `ids` (each with its date row, when it has one), in timeline order.
    func rows(ids: [String]) throws(ServeError) -> ServedRows
    /// Frees the layout state; the messages stay, and the next request lays them out again.
    func dropLayout()
}

/// Rows as a response carries them: each a JSON object as `heights` prints its record, plus the
/// timeline's totals after the change.
struct ServedRows {
    var objects: [String] = []
    /// Rows in the whole timeline (date rows included).
    var rowCount = 0
    /// The timeline's height in rows, in cells; nil in points (each row's px height is its own record's).
    var totalHeight: String?
}

/// A `Conversation` served at one width: the messages in order (kept while the layout state is
/// dropped), the live conversation over them, and where each message's rows start in the
/// timeline `heights` prints, where date separators are rows of their own.
final class ServedConversation<Measurer: TextMeasurer>: ServedLayout {
    /// How a laid-out row reads in a response: the fields after `kind`, as `heights` writes them.
    typealias RowFields = (_ layout: RowLayout, _ model: (any MessageModel)?, _ width: Int, _ engine: LayoutEngine<Measurer>) -> [(String, String)]
    /// How a row's height reads (px or rows), for the timeline's total.
    typealias Height = (Int) -> String

    private let makeEngine: () -> LayoutEngine<Measurer>
    private let options: DecorationOptions
    private let fields: RowFields
    private let formatTotal: Height?
    private(set) var width: Int
    private var models: [any MessageModel] = []
    private var live: Conversation<Measurer>?
    /// For each message row, the timeline row of its first row (its date row when it has one);
    /// valid below `startsValid`.
    private var starts: [Int] = []
    private var startsValid = 0
    private var dropped = CacheStatistics()
    private(set) var messageBytes = 0

    init(width: Int, options: DecorationOptions, makeEngine: @escaping () -> LayoutEngine<Measurer>,
         fields: @escaping RowFields, total: Height?) {
        self.width = width
        self.options = options
        self.makeEngine = makeEngine
        self.fields = fields
        self.formatTotal = total
    }

    var messageCount: Int { models.count }
    var isLaidOut: Bool { live != nil }

    var layoutBytes: Int {
        guard let live else { return 0 }
        let stats = live.engine.cache.statistics
        return stats.bytes + stats.contentBytes + live.engine.texts.bytes + models.count * Self.rowBytes + 2 * messageBytes
    }

    /// Bytes a row's entry, decoration and timeline slot take beside its texts.
    static var rowBytes: Int { 256 }

    var statistics: CacheStatistics {
        var total = dropped
        if let stats = live?.engine.cache.statistics {
            total.hits += stats.hits
            total.misses += stats.misses
            total.evictions += stats.evictions
            total.count += stats.count
            total.bytes += stats.bytes
            total.contents += stats.contents
            total.contentBytes += stats.contentBytes
        }
        return total
    }

    func dropLayout() {
        guard let live else { return }
        let stats = live.engine.cache.statistics
        dropped.hits += stats.hits
        dropped.misses += stats.misses
        dropped.evictions += stats.evictions
        self.live = nil
    }

    /// The live conversation, laid out again from the messages when it was dropped.
    private func conversation() throws(ServeError) -> Conversation<Measurer> {
        if let live { return live }
        let conversation = Conversation(engine: makeEngine(), width: width, options: options)
        do {
            try conversation.append(contentsOf: models)
        } catch {
            throw ServeError.invalidParams(error.description)
        }
        live = conversation
        startsValid = 0
        return conversation
    }

    func append(_ new: [any MessageModel]) throws(ServeError) -> ServedRows {
        let conversation = try conversation()
        var seen = Set<String>()
        for model in new {
            guard conversation.index(ofID: model.id) == nil, seen.insert(model.id).inserted else {
                throw ServeError.invalidParams("messages: id \"\(model.id)\" is already in the conversation (use update to change it)")
            }
        }
        var laidOut: [String] = []
        for model in new {
            do {
                try conversation.append(model)
            } catch {
                throw ServeError.invalidParams(error.description)
            }
            models.append(model)
            messageBytes += ServeRecords.bytes(of: model)
            laidOut += conversation.lastLaidOut
        }
        invalidateStarts(from: conversation.messageCount - new.count - 1)
        return try rows(ids: laidOut + new.map(\.id))
    }

    func update(_ changed: [any MessageModel]) throws(ServeError) -> ServedRows {
        let conversation = try conversation()
        for model in changed where conversation.index(ofID: model.id) == nil {
            throw ServeError.invalidParams("messages: no message \"\(model.id)\" in the conversation (use append to add it)")
        }
        var laidOut: [String] = []
        for model in changed {
            guard let row = conversation.index(ofID: model.id) else { continue }
            do {
                try conversation.replace(model)
            } catch {
                throw ServeError.invalidParams(error.description)
            }
            messageBytes += ServeRecords.bytes(of: model) - ServeRecords.bytes(of: models[row])
            models[row] = model
            laidOut += conversation.lastLaidOut
            invalidateStarts(from: row - 1)
        }
        return try rows(ids: laidOut)
    }

    func remove(ids: [String]) throws(ServeError) -> ServedRows {
        let conversation = try conversation()
        for id in ids where conversation.index(ofID: id) == nil {
            throw ServeError.invalidParams("ids: no message \"\(id)\" in the conversation")
        }
        var laidOut: [String] = []
        for id in ids {
            guard let row = conversation.index(ofID: id) else { continue }  // named twice
            do {
                try conversation.remove(id: id)
            } catch {
                throw ServeError.invalidParams(error.description)
            }
            messageBytes -= ServeRecords.bytes(of: models[row])
            models.remove(at: row)
            laidOut += conversation.lastLaidOut
            invalidateStarts(from: row - 1)
        }
        let removed = Set(ids)
        return try rows(ids: laidOut.filter { !removed.contains($0) })
    }

    func resize(width: Int) throws(ServeError) {
        self.width = width
        guard let live else { return }
        live.resize(width: width)
        startsValid = 0
    }

    func rows(in range: Range<Int>) throws(ServeError) -> ServedRows {
        let conversation = try conversation()
        let total = syncStarts(conversation)
        var result = ServedRows()
        let wanted = range.clamped(to: 0..<total)
        if !wanted.isEmpty {
            // The message row holding the first wanted row: the last whose start is at or before it.
            var low = 0, high = conversation.messageCount
            while high - low > 1 {
                let mid = (low + high) / 2
                if starts[mid] <= wanted.lowerBound { low = mid } else { high = mid }
            }
            var row = low
            while row < conversation.messageCount, starts[row] < wanted.upperBound {
                append(row: row, of: conversation, within: wanted, to: &result)
                row += 1
            }
        }
        finish(&result, conversation, total: total)
        return result
    }

    func rows(ids: [String]) throws(ServeError) -> ServedRows {
        let conversation = try conversation()
        let total = syncStarts(conversation)
        var rows = Set<Int>()
        for id in ids {
            if let row = conversation.index(ofID: id) { rows.insert(row) }
        }
        var result = ServedRows()
        for row in rows.sorted() { append(row: row, of: conversation, within: 0..<total, to: &result) }
        finish(&result, conversation, total: total)
        return result
    }

    /// Message row `row`'s rows (its date row, then its own) that fall in `wanted`, as records.
    private func append(row: Int, of conversation: Conversation<Measurer>, within wanted: Range<Int>, to result: inout ServedRows) {
        let item = conversation[message: row]
        var number = starts[row]
        if let separator = item.dateSeparator {
            if wanted.contains(number) {
                result.objects.append(record(number: number, id: "date:" + item.day.isoString, layout: separator, model: nil,
                                             engine: conversation.engine))
            }
            number += 1
        }
        if wanted.contains(number) {
            result.objects.append(record(number: number, id: item.model.id, layout: item.layout, model: item.model, engine: conversation.engine))
        }
    }

    private func record(number: Int, id: String, layout: RowLayout, model: (any MessageModel)?, engine: LayoutEngine<Measurer>) -> String {
        var out = OutputBuffer(capacity: 256)
        RowRecord(number: number, conversation: nil, id: id, kind: engine.registry.name(of: layout.kind),
                  fields: fields(layout, model, width, engine)).appendJSON(to: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private func finish(_ result: inout ServedRows, _ conversation: Conversation<Measurer>, total: Int) {
        result.rowCount = total
        result.totalHeight = formatTotal?(conversation.totalHeight)
    }

    private func invalidateStarts(from row: Int) {
        startsValid = min(startsValid, max(0, row))
    }

    /// Brings `starts` up to date from the first row a change may have moved; returns the
    /// timeline's row count. Linear in the rows after that one.
    private func syncStarts(_ conversation: Conversation<Measurer>) -> Int {
        let count = conversation.messageCount
        if starts.count > count { starts.removeLast(starts.count - count) }
        if starts.count < count { starts += repeatElement(0, count: count - starts.count) }
        var next = startsValid == 0 ? 0 : starts[startsValid - 1] + rowsOf(startsValid - 1, conversation)
        for row in startsValid..<count {
            starts[row] = next
            next += rowsOf(row, conversation)
        }
        startsValid = count
        return count == 0 ? 0 : starts[count - 1] + rowsOf(count - 1, conversation)
    }

    private func rowsOf(_ row: Int, _ conversation: Conversation<Measurer>) -> Int {
        conversation[message: row].dateSeparator == nil ? 1 : 2
    }
}

/// Why a request could not be answered: a JSON-RPC error code and a message naming the field.
enum ServeError: Error, Equatable {
    case parse(String)
    case invalidRequest(String)
    case methodNotFound(String)
    case invalidParams(String)
    case unknownConversation(String)
    case overBudget(String)

    var code: Int {
        switch self {
        case .parse: -32700
        case .invalidRequest: -32600
        case .methodNotFound: -32601
        case .invalidParams: -32602
        case .unknownConversation: -32001
        case .overBudget: -32002
        }
    }

    var message: String {
        switch self {
        case let .parse(text), let .invalidRequest(text), let .methodNotFound(text), let .invalidParams(text),
             let .unknownConversation(text), let .overBudget(text): text
        }
    }
}
