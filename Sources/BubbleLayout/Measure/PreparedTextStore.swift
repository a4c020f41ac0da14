import BubbleText
import Synchronization

/// Prepared texts by message id, for the message's current revision. Laying a message out again
/// at a new width reuses its prepared text, so the Unicode work is done once per revision.
///
/// On a hit the stored source text is compared with the text asked for, so a model that changed
/// its text without bumping its revision gets a fresh preparation, never a stale one.
///
/// Bounded in messages (`capacity`) and in bytes (`maxBytes`), with CLOCK eviction: a message used
/// since the eviction hand last passed it keeps its texts, so the messages in use stay and the
/// ones not asked for longest go first (and are prepared again if asked for again). A message
/// costs `PreparedText.memoryFootprint` per text (a 2–5 byte record a segment: under a byte a
/// scalar for ASCII prose, about 2 for CJK), its texts' UTF-8 when not stored inline, and `messageOverhead` of
/// bookkeeping. Sharded behind mutexes: safe from any number of tasks.
package final class PreparedTextStore<Measurer: TextMeasurer>: Sendable {
    struct Part: Sendable {
        var index: Int
        var source: String
        var language: String?
        var prepared: Measurer.Prepared
    }

    struct Slot: Sendable {
        var id: String
        var revision: Int
        var parts: [Part]
        var bytes: Int
        var referenced: Bool
    }

    struct Shard: Sendable {
        var slots: [Slot?] = []
        var byID: [String: Int] = [:]
        var free: [Int] = []
        var hand = 0
        var bytes = 0
        var preparations = 0
        var evictions = 0

        mutating func evictOne() {
            while true {
                if hand >= slots.count { hand = 0 }
                let s = hand
                hand += 1
                guard let slot = slots[s] else { continue }
                if slot.referenced {
                    slots[s]!.referenced = false
                    continue
                }
                remove(slot: s)
                evictions += 1
                return
            }
        }

        mutating func remove(slot s: Int) {
            guard let slot = slots[s] else { return }
            byID[slot.id] = nil
            bytes -= slot.bytes
            slots[s] = nil
            free.append(s)
        }
    }

    final class ShardBox: Sendable {
        let state = LayoutLock(Shard())
    }

    /// Bookkeeping bytes per message held: its slot, its id's hash-table entry, its parts array.
    package static var messageOverhead: Int { MemoryLayout<Slot?>.stride + 48 + 32 }

    /// The measurer doing the Unicode (or font) work.
    package let measurer: Measurer
    /// Most messages kept.
    package let capacity: Int
    /// Most bytes kept (prepared forms, texts not stored inline, bookkeeping).
    package let maxBytes: Int
    private let shards: [ShardBox]
    private let perShardCapacity: Int
    private let perShardBytes: Int

    /// A store of at most `capacity` messages and `maxBytes` bytes, in `shardCount` shards.
    package init(measurer: Measurer, capacity: Int = 1 << 20, maxBytes: Int = 512 << 20, shardCount: Int = 16) {
        self.measurer = measurer
        self.capacity = max(1, capacity)
        self.maxBytes = max(1, maxBytes)
        let count = max(1, shardCount)
        shards = (0..<count).map { _ in ShardBox() }
        perShardCapacity = max(1, (self.capacity + count - 1) / count)
        perShardBytes = max(1, self.maxBytes / count)
    }

    private func shard(for id: String) -> ShardBox {
        shards[Int(truncatingIfNeeded: ((identityHash(id) >> 32) &* UInt64(shards.count)) >> 32)]
    }

    /// Bytes `prepared` (of `source`) holds: its `memoryFootprint` when it is a `PreparedText`,
    /// else its inline size; plus the source's UTF-8 when longer than a `String` holds inline.
    static func bytes(of prepared: Measurer.Prepared, source: String) -> Int {
        let own = (prepared as? PreparedText)?.memoryFootprint ?? MemoryLayout<Measurer.Prepared>.size
        let n = source.utf8.count
        return own + (n > 15 ? n + 32 : 0) + MemoryLayout<Part>.stride
    }

    /// The prepared form of `text`, part `part` of message `id` at `revision`, in `language` (a
    /// BCP 47 tag; nil for the measurer's own); prepared now if the store does not hold it.
    @_specialize(where Measurer == CellMeasurer)
    package func prepared(id: String, revision: Int, part: Int, text: String, language: String? = nil) -> Measurer.Prepared {
        let box = shard(for: id)
        let found: Measurer.Prepared? = box.state.withLock { shard in
            guard let s = shard.byID[id], let slot = shard.slots[s], slot.revision == revision else { return nil }
            for stored in slot.parts where stored.index == part && stored.source == text && stored.language == language {
                if !slot.referenced { shard.slots[s]!.referenced = true }
                return stored.prepared
            }
            return nil
        }
        if let found { return found }
        let prepared = measurer.prepare(text, language: language)
        let partBytes = Self.bytes(of: prepared, source: text)
        let capacity = perShardCapacity, maxBytes = perShardBytes
        box.state.withLock { shard in
            shard.preparations += 1
            var slot = Slot(id: id, revision: revision, parts: [], bytes: Self.messageOverhead, referenced: false)
            if let s = shard.byID[id], let old = shard.slots[s] {
                if old.revision == revision { slot = old }
                shard.remove(slot: s)
            }
            if let i = slot.parts.firstIndex(where: { $0.index == part }) {
                slot.bytes -= Self.bytes(of: slot.parts[i].prepared, source: slot.parts[i].source)
                slot.parts.remove(at: i)
            }
            slot.parts.append(Part(index: part, source: text, language: language, prepared: prepared))
            slot.bytes += partBytes
            while shard.byID.count > 0 && (shard.byID.count >= capacity || shard.bytes + slot.bytes > maxBytes) {
                shard.evictOne()
            }
            let s: Int
            if let reused = shard.free.popLast() {
                s = reused
                shard.slots[s] = slot
            } else {
                s = shard.slots.count
                shard.slots.append(slot)
            }
            shard.byID[id] = s
            shard.bytes += slot.bytes
        }
        return prepared
    }

    /// Drops the prepared texts of message `id` (it was deleted).
    package func remove(id: String) {
        shard(for: id).state.withLock { shard in
            if let s = shard.byID[id] { shard.remove(slot: s) }
        }
    }

    private func sum(_ value: (Shard) -> Int) -> Int {
        shards.reduce(0) { total, box in total + box.state.withLock { value($0) } }
    }

    /// Messages held.
    package var count: Int { sum { $0.byID.count } }

    /// Bytes held: prepared forms, texts not stored inline, and `messageOverhead` per message.
    package var bytes: Int { sum { $0.bytes } }

    /// Messages dropped to stay within `capacity` or `maxBytes`.
    package var evictions: Int { sum { $0.evictions } }

    /// Texts prepared so far: each is one pass of Unicode work.
    package var preparations: Int { sum { $0.preparations } }
}

/// Sizes the texts of one message revision through a `PreparedTextStore`; with `known` texts (a
/// conversation row's, from an earlier layout) it measures those directly, touching neither the
/// store's lock nor Unicode data, and with a `recorder` it remembers the texts it used.
struct PreparedTextSizing<Measurer: TextMeasurer>: TextSizing {
    let store: PreparedTextStore<Measurer>
    let id: String
    let revision: Int
    /// Borrowed for the duration of one layout (no copy: copying prepared texts retains each of
    /// their arrays).
    var known: Borrowed<RowTexts<Measurer.Prepared>>? = nil
    var recorder: RowTextsRecorder<Measurer.Prepared>? = nil
    /// Prepares texts without looking in or adding to the store (a one-pass batch, whose
    /// messages are each laid out once, has nothing to find there later).
    var bypassesStore = false
    /// The language of the message's text (part 0), a BCP 47 tag; nil for the measurer's own.
    var language: String? = nil

    @_specialize(where Measurer == CellMeasurer)
    func metrics(of text: String, part: Int, width: Int) -> TextMetrics {
        if let known, let metrics = known.value.metrics(part: part, text: text, width: width, measurer: store.measurer) {
            return metrics
        }
        let language = part == 0 ? self.language : nil
        let prepared = bypassesStore ? store.measurer.prepare(text, language: language)
            : store.prepared(id: id, revision: revision, part: part, text: text, language: language)
        recorder?.texts.record(part: part, source: text, prepared: prepared)
        return store.measurer.measure(prepared, width: width)
    }

    func width(of text: String) -> Int { store.measurer.width(of: text) }
}

/// The prepared texts one message revision was laid out with, by part: what a conversation row
/// keeps so that laying it out at a new width needs neither Unicode work nor a store lookup.
/// The source is kept and compared (in O(1) when it is the same string) so a stale text is never
/// measured. Parts are shared objects: copying `RowTexts` costs one retain, not one per array
/// inside a prepared text.
struct RowTexts<Prepared: Sendable> {
    final class Part {
        let index: Int
        let source: String
        let prepared: Prepared

        init(index: Int, source: String, prepared: Prepared) {
            self.index = index
            self.source = source
            self.prepared = prepared
        }
    }

    /// Most messages have one text part; more go to `others`.
    var first: Part?
    var others: [Part] = []
    /// True once a layout has filled these in (a message may have no text at all).
    var isRecorded = false

    init() {}

    /// Measures part `part` at `width` in place, when it is known and its source is `text`.
    @inline(__always)
    func metrics<M: TextMeasurer>(part: Int, text: String, width: Int, measurer: M) -> TextMetrics?
        where M.Prepared == Prepared {
        if let first, first.index == part, first.source == text { return measurer.measure(first.prepared, width: width) }
        for stored in others where stored.index == part && stored.source == text {
            return measurer.measure(stored.prepared, width: width)
        }
        return nil
    }

    mutating func record(part: Int, source: String, prepared: Prepared) {
        let new = Part(index: part, source: source, prepared: prepared)
        if first == nil || first?.index == part {
            first = new
        } else if let i = others.firstIndex(where: { $0.index == part }) {
            others[i] = new
        } else {
            others.append(new)
        }
    }
}

/// Collects the texts a first layout used (a class: `TextSizing` methods are not mutating).
final class RowTextsRecorder<Prepared: Sendable> {
    var texts = RowTexts<Prepared>()
}
