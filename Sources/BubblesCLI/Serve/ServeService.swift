import BubbleFonts
import BubbleLayout
import BubbleLogs
import BubbleText
import Dispatch
import Foundation

/// The state `bubbles serve` keeps between requests: the open conversations, each on a serial
/// queue of its own (requests on one conversation are answered in order; different conversations
/// are laid out in parallel), under one memory budget.
///
/// Budget: the messages of every open conversation are always kept (a conversation is never lost
/// while open; an `append` that would take them past the budget is refused). The layout state
/// (cache, prepared texts, rows) of the least recently used conversations is dropped while the
/// total is over the budget, and laid out again from the messages on the next request.
final class ServeService: @unchecked Sendable {
    /// What `open` uses when a request does not say: the time zone from `--tz` or the system.
    let defaultTimeZone: TimeZone
    /// The budget in bytes (`--memory`).
    let budget: Int

    private let lock = NSLock()
    private var slots: [String: Slot] = [:]
    private var clock = 0
    /// Layout states dropped to keep within the budget, since the start.
    private var layoutsDropped = 0
    /// Counters of conversations closed, so `stats` covers the whole run.
    private var closedStatistics = CacheStatistics()
    private let pending = DispatchGroup()
    private let statsPending = DispatchGroup()

    /// One open conversation. Its fields other than `queue` are read and written with the
    /// service's lock held; `layout` only on `queue`.
    final class Slot: @unchecked Sendable {
        let queue: DispatchQueue
        var layout: (any ServedLayout)?
        var lastUse = 0
        var layoutBytes = 0
        var messageBytes = 0
        var messages = 0
        var isLaidOut = false
        var statistics = CacheStatistics()
        /// How the conversation's records are read (`me`, the time zone), fixed at `open`.
        let readOptions: LogReadOptions

        init(name: String, readOptions: LogReadOptions) {
            queue = DispatchQueue(label: "bubbles.serve")
            self.readOptions = readOptions
        }
    }

    init(defaultTimeZone: TimeZone, budget: Int) {
        self.defaultTimeZone = defaultTimeZone
        self.budget = budget
    }

    /// Answers request line `line`; `reply` gets each response line (without its line end), on
    /// whichever thread answers it. A notification (no id) gets no response, even an error.
    func handle(_ line: [UInt8], reply: @escaping @Sendable (String) -> Void) {
        let request: ServeRequest
        switch ServeRequest.parse(line) {
        case .success(let parsed): request = parsed
        case .failure(let failure):
            reply(ServeResponse.error(id: failure.id, failure.error))
            return
        }
        let answer: @Sendable (Result<String, ServeError>) -> Void = { result in
            guard let id = request.id else { return }
            switch result {
            case .success(let json): reply(ServeResponse.result(id: id, json))
            case .failure(let error): reply(ServeResponse.error(id: id, error))
            }
        }
        do {
            try dispatch(request, answer: answer)
        } catch {
            answer(.failure(error))
        }
    }

    /// Waits until every request handed in so far is answered.
    func drain() {
        pending.wait()
        statsPending.wait()
    }

    private func dispatch(_ request: ServeRequest, answer: @escaping @Sendable (Result<String, ServeError>) -> Void) throws(ServeError) {
        switch request.method {
        case "open":
            // Made here, on the reading thread, so a later request on the same name finds the
            // conversation open or never opened: the fonts (for points) are read now.
            let opening = try ServeOpening(request, defaultTimeZone: defaultTimeZone)
            let layout = try opening.makeLayout()
            let width = layout.width
            let slot = try register(opening.conversation, readOptions: opening.readOptions, layout: layout)
            run(on: slot, name: opening.conversation, answer: answer) { _ in
                "{\"conversation\":\(JSONString.quoted(opening.conversation)),\"width\":\(width)}"
            }
        case "append", "update":
            let name = try request.string("conversation")!
            let slot = try find(name)
            let messages = try request.array("messages")!
            let isAppend = request.method == "append"
            run(on: slot, name: name, answer: answer) { [self] layout throws(ServeError) in
                let decoded = ServeRecords.decode(messages, options: slot.readOptions)
                if isAppend {
                    let adding = decoded.models.reduce(0) { $0 + ServeRecords.bytes(of: $1) }
                    try checkRoom(for: adding, name: name)
                }
                let rows = isAppend ? try layout.append(decoded.models) : try layout.update(decoded.models)
                return Self.rowsJSON(rows, rejected: decoded.rejected)
            }
        case "remove":
            let name = try request.string("conversation")!
            let slot = try find(name)
            let ids = try request.strings("ids")
            run(on: slot, name: name, answer: answer) { layout throws(ServeError) in
                Self.rowsJSON(try layout.remove(ids: ids), rejected: [])
            }
        case "resize":
            let name = try request.string("conversation")!
            let slot = try find(name)
            let width = try request.integer("width", in: 1...ServeOpening.maximumWidth)!
            run(on: slot, name: name, answer: answer) { layout throws(ServeError) in
                try layout.resize(width: width)
                let rows = try layout.rows(in: 0..<0)
                return "{\"width\":\(width),\"count\":\(rows.rowCount)" + (rows.totalHeight.map { ",\"height\":\($0)" } ?? "") + "}"
            }
        case "rows":
            let name = try request.string("conversation")!
            let slot = try find(name)
            let ids = request.params["ids"] == nil ? nil : try request.strings("ids")
            let from = try request.integer("from", in: 0...Int(Int32.max), optional: true) ?? 0
            let to = try request.integer("to", in: 0...Int(Int32.max), optional: true) ?? Int(Int32.max)
            if ids != nil, request.params["from"] != nil || request.params["to"] != nil {
                throw .invalidParams("ids: give ids or from/to, not both")
            }
            guard from <= to else { throw .invalidParams("to: must not be below from (\(from))") }
            run(on: slot, name: name, answer: answer) { layout throws(ServeError) in
                let rows = if let ids { try layout.rows(ids: ids) } else { try layout.rows(in: from..<to) }
                return Self.rowsJSON(rows, rejected: [])
            }
        case "close":
            let name = try request.string("conversation")!
            let slot = try find(name)
            // Closed for every later request at once; what was sent before runs first, in order.
            lock.withLock { _ = slots.removeValue(forKey: name) }
            run(on: slot, name: name, answer: answer) { [self] layout throws(ServeError) in
                let statistics = layout.statistics
                lock.withLock {
                    closedStatistics.hits += statistics.hits
                    closedStatistics.misses += statistics.misses
                    closedStatistics.evictions += statistics.evictions
                }
                slot.layout = nil
                return "{\"conversation\":\(JSONString.quoted(name)),\"closed\":true}"
            }
        case "stats":
            // Answered once every request sent before it is, so its counts include theirs.
            statsPending.enter()
            pending.notify(queue: .global()) { [self] in
                answer(.success(statsJSON()))
                statsPending.leave()
            }
        default:
            throw .methodNotFound("method: no method '\(request.method.prefix(64))' (open, append, update, remove, resize, rows, stats, close)")
        }
    }

    /// A new slot for `name`, or the error for a name already open.
    private func register(_ name: String, readOptions: LogReadOptions, layout: any ServedLayout) throws(ServeError) -> Slot {
        lock.lock()
        defer { lock.unlock() }
        guard slots[name] == nil else {
            throw .invalidParams("conversation: \"\(name)\" is already open (close it first)")
        }
        let slot = Slot(name: name, readOptions: readOptions)
        slot.layout = layout
        clock += 1
        slot.lastUse = clock
        slots[name] = slot
        return slot
    }

    private func find(_ name: String) throws(ServeError) -> Slot {
        lock.lock()
        defer { lock.unlock() }
        guard let slot = slots[name] else { throw .unknownConversation("conversation: no open conversation \"\(name)\"") }
        clock += 1
        slot.lastUse = clock
        return slot
    }

    /// Runs `work` on `slot`'s queue with its layout, answers with its result, then updates the
    /// slot's share of the budget and drops other conversations' layouts while over it.
    private func run(on slot: Slot, name: String, answer: @escaping @Sendable (Result<String, ServeError>) -> Void,
                     _ work: @escaping @Sendable (any ServedLayout) throws(ServeError) -> String) {
        pending.enter()
        slot.queue.async { [self] in
            defer { pending.leave() }
            let result: Result<String, ServeError>
            if let layout = slot.layout {
                do throws(ServeError) {
                    result = .success(try work(layout))
                } catch {
                    result = .failure(error)
                }
            } else {
                // Opening failed, or the conversation was closed before this request ran.
                result = .failure(.unknownConversation("conversation: no open conversation \"\(name)\""))
            }
            account(slot)
            answer(result)
            keepWithinBudget(except: slot)
        }
    }

    /// Records `slot`'s bytes and counters (on its queue).
    private func account(_ slot: Slot) {
        guard let layout = slot.layout else { return }
        let layoutBytes = layout.layoutBytes, messageBytes = layout.messageBytes
        let statistics = layout.statistics, laidOut = layout.isLaidOut, messages = layout.messageCount
        lock.withLock {
            slot.layoutBytes = layoutBytes
            slot.messageBytes = messageBytes
            slot.statistics = statistics
            slot.isLaidOut = laidOut
            slot.messages = messages
        }
    }

    /// Refuses an append of `adding` bytes of messages that would take the kept messages past the budget.
    private func checkRoom(for adding: Int, name: String) throws(ServeError) {
        lock.lock()
        let kept = slots.values.reduce(0) { $0 + $1.messageBytes }
        lock.unlock()
        if kept + adding > budget {
            throw .overBudget("messages: the open conversations' messages would take \((kept + adding) >> 20) MB, over the budget of \(budget >> 20) MB (--memory); close conversations or raise it")
        }
    }

    /// Drops the layout state of the least recently used conversations (never `current`'s) while
    /// the total is over the budget.
    private func keepWithinBudget(except current: Slot) {
        let victims: [Slot] = lock.withLock {
            var total = slots.values.reduce(0) { $0 + $1.layoutBytes + $1.messageBytes }
            var chosen: [Slot] = []
            for slot in slots.values.filter({ $0 !== current && $0.isLaidOut }).sorted(by: { $0.lastUse < $1.lastUse }) {
                guard total > budget else { break }
                total -= slot.layoutBytes
                slot.isLaidOut = false
                chosen.append(slot)
            }
            return chosen
        }
        for slot in victims {
            pending.enter()
            slot.queue.async { [self] in
                defer { pending.leave() }
                slot.layout?.dropLayout()
                lock.withLock { layoutsDropped += 1 }
                account(slot)
            }
        }
    }

    private func statsJSON() -> String {
        lock.withLock {
            var statistics = closedStatistics
            var layoutBytes = 0, messageBytes = 0, laidOut = 0, messages = 0
            for slot in slots.values {
                statistics.hits += slot.statistics.hits
                statistics.misses += slot.statistics.misses
                statistics.evictions += slot.statistics.evictions
                statistics.count += slot.statistics.count
                statistics.bytes += slot.statistics.bytes
                layoutBytes += slot.layoutBytes
                messageBytes += slot.messageBytes
                messages += slot.messages
                if slot.isLaidOut { laidOut += 1 }
            }
            return "{\"conversations\":\(slots.count),\"laidOut\":\(laidOut),\"messages\":\(messages),"
                + "\"cache\":{\"hits\":\(statistics.hits),\"misses\":\(statistics.misses),\"evictions\":\(statistics.evictions),"
                + "\"entries\":\(statistics.count),\"bytes\":\(statistics.bytes)},"
                + "\"bytes\":\(layoutBytes + messageBytes),\"layoutBytes\":\(layoutBytes),\"messageBytes\":\(messageBytes),"
                + "\"budget\":\(budget),\"layoutsDropped\":\(layoutsDropped)}"
        }
    }

    static func rowsJSON(_ rows: ServedRows, rejected: [ServeRecords.Rejection]) -> String {
        var json = "{\"rows\":[" + rows.objects.joined(separator: ",") + "],\"count\":\(rows.rowCount)"
        if let height = rows.totalHeight { json += ",\"height\":\(height)" }
        if !rejected.isEmpty {
            json += ",\"rejected\":[" + rejected.map { "{\"index\":\($0.index),\"reason\":\(JSONString.quoted($0.reason))}" }.joined(separator: ",") + "]"
        }
        return json + "}"
    }
}
