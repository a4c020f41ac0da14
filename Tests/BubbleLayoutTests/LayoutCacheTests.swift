import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

@Suite struct LayoutCacheTests {
    let base = Date(timeIntervalSince1970: 1_714_557_600)

    /// A conversation of alternating small groups: Alice ×3, Bob ×2, me ×1, …
    func conversation(_ count: Int) -> [TextNote] {
        (0..<count).map { i in
            let cycle = i % 6
            let who = cycle < 3 ? "Alice" : cycle < 5 ? "Bob" : "Me"
            return TextNote(id: "m\(i)", senderName: who, direction: who == "Me" ? .outgoing : .incoming,
                            date: base.addingTimeInterval(Double(i) * minute),
                            text: "message number \(i) " + String(repeating: "lorem ipsum ", count: i % 9))
        }
    }

    func fakeLayout(_ n: Int) -> RowLayout {
        RowLayout(kind: .text, alignment: .left, compactLevel: .full, parts: [], footer: .none, spacingAbove: 0,
                  x: 0, bubbleWidth: n % 100, wrapWidth: 10, textLines: n)
    }

    func key(_ id: String, content: UInt64 = 0, width: Int = 80) -> LayoutKey {
        LayoutKey(id: id, content: ContentStamp(rawValue: content), width: width, styleID: 0, decoration: RowDecoration())
    }

    @Test func aLookupHitsOnlyTheExactKey() {
        let cache = LayoutCache()
        cache.insert(fakeLayout(1), for: key("a"))
        #expect(cache.layout(for: key("a")) == fakeLayout(1))
        #expect(cache.layout(for: key("a", content: 1)) == nil)
        #expect(cache.layout(for: key("a", width: 81)) == nil)
        #expect(cache.layout(for: LayoutKey(id: "a", content: ContentStamp(rawValue: 0), width: 80, styleID: 1,
                                            decoration: RowDecoration())) == nil)
        #expect(cache.layout(for: LayoutKey(id: "a", content: ContentStamp(rawValue: 0), width: 80, styleID: 0,
                                            decoration: RowDecoration(showsName: true))) == nil)
        let stats = cache.statistics
        #expect(stats.hits == 1 && stats.misses == 4 && stats.count == 1)
    }

    @Test func anEntryUsedSinceTheHandPassedSurvivesEviction() {
        let cache = LayoutCache(maxEntries: 3, shardCount: 1)
        for i in 0..<3 { cache.insert(fakeLayout(i), for: key("k\(i)")) }
        _ = cache.layout(for: key("k0"))  // k1 is now the oldest
        cache.insert(fakeLayout(3), for: key("k3"))
        #expect(cache.layout(for: key("k1")) == nil)
        #expect(cache.layout(for: key("k0")) == fakeLayout(0))
        #expect(cache.layout(for: key("k3")) == fakeLayout(3))
        #expect(cache.statistics.evictions == 1 && cache.statistics.count == 3)
    }

    @Test func theByteCapBoundsTheCache() {
        let cache = LayoutCache(maxEntries: 1_000_000, maxBytes: 64 * 1024, shardCount: 1)
        for i in 0..<10_000 { cache.insert(fakeLayout(i), for: key("id-\(i)")) }
        let stats = cache.statistics
        #expect(stats.bytes <= 64 * 1024)
        #expect(stats.evictions == 10_000 - stats.count)
        #expect(stats.count > 500)
        // The most recent entries survive.
        #expect(cache.layout(for: key("id-9999")) == fakeLayout(9999))
    }

    @Test func aTextRowEntryCostsAtMostSixtyFourBytesIndexIncluded() {
        let cache = LayoutCache(shardCount: 1)
        var worst = 0.0
        for i in 0..<100_000 {
            cache.insert(fakeLayout(i), for: key("\(i)"))
            if i >= 1_000 && i % 97 == 0 { worst = max(worst, cache.statistics.bytesPerEntry) }
        }
        // 48-byte entries (by allocated capacity, which grows by an eighth) plus the index
        // (4 bytes a slot, 62–80% full), at every size on the way, not just at the end.
        #expect(worst <= 64)
        #expect(cache.statistics.bytesPerEntry >= 48 + 4)
    }

    @Test func reservingRoomGrowsOnceAndStaysWithinTheByteCap() {
        let cache = LayoutCache(shardCount: 4)
        cache.reserveCapacity(additional: 10_000)
        let reserved = cache.statistics.bytes
        for i in 0..<10_000 { cache.insert(fakeLayout(i), for: key("r\(i)")) }
        #expect(cache.statistics.bytes == reserved)  // no growth while filling the room
        #expect(cache.statistics.bytesPerEntry <= 64)

        let capped = LayoutCache(maxBytes: 100_000, shardCount: 2)
        capped.reserveCapacity(additional: 1_000_000)
        #expect(capped.statistics.bytes <= 100_000)
        for i in 0..<5_000 { capped.insert(fakeLayout(i), for: key("c\(i)")) }
        #expect(capped.statistics.bytes <= 100_000 && capped.statistics.evictions > 0)
    }

    @Test func idsTooLongToStoreInlineAreCountedApart() {
        let cache = LayoutCache(shardCount: 1)
        for i in 0..<1_000 { cache.insert(fakeLayout(i), for: key("\(i)")) }
        let short = cache.statistics.bytes
        for i in 0..<1_000 { cache.insert(fakeLayout(i), for: key("a-rather-long-message-id-\(i)")) }
        #expect(cache.statistics.bytes - short >= 1_000 * (48 + 25))
        #expect(cache.layout(for: key("a-rather-long-message-id-7")) == fakeLayout(7))
    }

    @Test func everyLayoutComesBackExactlyEvenOnesThatDoNotPack() {
        let cache = LayoutCache(shardCount: 2)
        var rng = SeededGenerator(seed: 11)
        var stored: [(LayoutKey, RowLayout)] = []
        for i in 0..<3_000 {
            func pick(_ limit: UInt64) -> Int { Int(rng.next() % limit) }
            let huge = i % 50 == 0
            let layout = RowLayout(kind: RowKind(rawValue: UInt8(pick(256))),
                                   alignment: [.left, .right, .center][pick(3)],
                                   compactLevel: [.full, .noSideBorders, .plain][pick(3)],
                                   parts: ChromeParts(rawValue: UInt8(pick(huge ? 256 : 128))),
                                   footer: [.none, .inBottomBorder, .ownLine][pick(3)],
                                   spacingAbove: pick(256), x: pick(65_536), bubbleWidth: pick(65_536),
                                   wrapWidth: pick(65_536), textLines: huge ? 20_000_000 + pick(1000) : pick(5_000),
                                   imageColumns: pick(65_536), imageRows: huge ? 300 + pick(65_000) : pick(256))
            let k = LayoutKey(id: "id\(i)", content: ContentStamp(rawValue: rng.next()), width: 1 + pick(65_000),
                              styleID: UInt16(pick(4)), decoration: RowDecoration(rawValue: UInt32(truncatingIfNeeded: rng.next())))
            cache.insert(layout, for: k)
            stored.append((k, layout))
        }
        for (k, layout) in stored { #expect(cache.layout(for: k) == layout) }
        #expect(cache.statistics.hits == stored.count)
    }

    @Test func keysSharingAHashNeverReturnEachOthersLayouts() {
        // Twelve keys whose real table hashes share the home slot and the tag in the first index
        // (16 slots): only the full comparison (id, content stamp, width, style, decoration)
        // tells them apart. Found by search, so the hashes are the ones the table must be given.
        var table = LayoutTable(maxEntries: 1_000, maxBytes: 1 << 20)
        func place(_ key: LayoutKey) -> (Int, UInt32) {
            let hash = LayoutTable.tableHash(of: key)
            return (LayoutTable.home(hash, size: 16), LayoutTable.tag(hash))
        }
        var keys: [LayoutKey] = []
        var n = 0
        while keys.count < 12 {
            let candidate = LayoutKey(id: n % 2 == 0 ? "same" : "id\(n)", content: ContentStamp(rawValue: UInt64(n / 2)),
                                      width: 80 + n % 3, styleID: 0, decoration: RowDecoration(showsName: n % 5 == 0))
            if keys.isEmpty || place(candidate) == place(keys[0]) { keys.append(candidate) }
            n += 1
        }
        #expect(keys.contains { $0.id == "same" } && Set(keys.map(\.id)).count > 1)
        for (i, k) in keys.enumerated() { table.insert(fakeLayout(i), for: k, hash: LayoutTable.tableHash(of: k)) }
        for (i, k) in keys.enumerated() { #expect(table.lookup(k, hash: LayoutTable.tableHash(of: k)) == fakeLayout(i)) }
        let other = LayoutKey(id: "other", content: ContentStamp(rawValue: 0), width: 80, styleID: 0, decoration: RowDecoration())
        #expect(table.lookup(other, hash: LayoutTable.tableHash(of: other)) == nil)
    }

    @Test func theTableAgreesWithADictionaryUnderRandomOperations() {
        var table = LayoutTable(maxEntries: 1 << 20, maxBytes: 1 << 30)
        var reference: [LayoutKey: RowLayout] = [:]
        var rng = SeededGenerator(seed: 5)
        for step in 0..<40_000 {
            let n = Int(rng.next() % 3_000)
            let k = key("m\(n % 1_000)", content: UInt64(n / 1_000), width: 40 + Int(rng.next() % 3))
            let hash = k.tableHash(idHash: identityHash(k.id))
            switch rng.next() % 10 {
            case 0..<5:
                table.insert(fakeLayout(step), for: k, hash: hash)
                reference[k] = fakeLayout(step)
            case 5..<9:
                #expect(table.lookup(k, hash: hash) == reference[k])
            default:
                table.removeAll(id: k.id)
                reference = reference.filter { $0.key.id != k.id }
            }
        }
        #expect(table.count == reference.count)
        for (k, layout) in reference { #expect(table.lookup(k, hash: k.tableHash(idHash: identityHash(k.id))) == layout) }
    }

    @Test func underACapEveryHitIsStillTheRightLayout() {
        var table = LayoutTable(maxEntries: 500, maxBytes: 1 << 30)
        var reference: [LayoutKey: RowLayout] = [:]
        var rng = SeededGenerator(seed: 9)
        var hits = 0
        for step in 0..<30_000 {
            let k = key("m\(rng.next() % 2_000)")
            let hash = k.tableHash(idHash: identityHash(k.id))
            if let found = table.lookup(k, hash: hash) {
                hits += 1
                #expect(found == reference[k])
            } else {
                table.insert(fakeLayout(step), for: k, hash: hash)
                reference[k] = fakeLayout(step)
            }
            #expect(table.count <= 500)
        }
        #expect(hits > 0 && table.evictions > 0)
    }

    /// Keys compare ids with `String`'s `==`, so an id's hash is taken over its NFC form: a layout
    /// stored under one spelling of an id is found under a canonically equivalent one.
    @Test func aLayoutIsFoundUnderAnIdStringCallsEqual() {
        let cache = LayoutCache(shardCount: 16)
        let pairs = [("caf\u{E9}", "cafe\u{301}"), ("\u{212A}-7", "K-7"), ("\u{AC00}", "\u{1100}\u{1161}"),
                     ("q\u{307}\u{323}-a-longer-id", "q\u{323}\u{307}-a-longer-id")]
        for (i, (a, b)) in pairs.enumerated() {
            cache.insert(fakeLayout(i + 1), for: key(a))
            #expect(cache.layout(for: key(b)) == fakeLayout(i + 1))
        }
        cache.removeAll(id: "K-7")
        #expect(cache.layout(for: key("\u{212A}-7")) == nil)
    }

    @Test func removingAnIdDropsAllItsLayoutsAndNothingElse() {
        let cache = LayoutCache(shardCount: 2)
        for w in [40, 80] {
            cache.insert(fakeLayout(w), for: key("gone", width: w))
            cache.insert(fakeLayout(w), for: key("kept", width: w))
        }
        cache.removeAll(id: "gone")
        #expect(cache.statistics.count == 2)
        #expect(cache.layout(for: key("gone", width: 40)) == nil)
        #expect(cache.layout(for: key("kept", width: 80)) == fakeLayout(80))
        // Freed slots are reused.
        for i in 0..<50 { cache.insert(fakeLayout(i), for: key("new\(i)")) }
        #expect(cache.statistics.count == 52)
    }

    @Test func anEditMissesOnlyTheEditedRow() throws {
        let engine = LayoutEngine()
        var models = conversation(60)
        _ = try engine.layoutBatch(models, widths: [80], options: options(parties: 2))
        engine.cache.resetCounters()
        models[20].text += " (edited)"
        models[20].revision += 1
        models[20].isEdited = true  // also widens its footer: still only this row's decoration
        let after = try engine.layoutBatch(models, widths: [80], options: options(parties: 2))
        let stats = engine.cache.statistics
        #expect(stats.misses == 1 && stats.hits == 59)
        let row = after.rows.firstIndex { $0.messageIndex == 20 }!
        #expect(after.layout(row: row, widthIndex: 0).textLines
            == lines(models[20].text, width: after.layout(row: row, widthIndex: 0).wrapWidth))
    }

    @Test func aDeleteMissesOnlyNeighboursWhoseDecorationChanged() throws {
        let engine = LayoutEngine()
        var models = conversation(60)
        _ = try engine.layoutBatch(models, widths: [80], options: options(parties: 2))
        // m7 is the middle of Alice's group m6 m7 m8: neither neighbour's decoration changes.
        engine.cache.resetCounters()
        models.remove(at: 7)
        engine.forget(id: "m7")
        _ = try engine.layoutBatch(models, widths: [80], options: options(parties: 2))
        #expect(engine.cache.statistics.misses == 0)
        // m10 ends Bob's group m9 m10: m9 now ends the group and gets the tail.
        engine.cache.resetCounters()
        models.removeAll { $0.id == "m10" }
        _ = try engine.layoutBatch(models, widths: [80], options: options(parties: 2))
        #expect(engine.cache.statistics.misses == 1)
        // m12 opens Alice's group m12 m13 m14: m13 now opens it, with the name line.
        engine.cache.resetCounters()
        models.removeAll { $0.id == "m12" }
        _ = try engine.layoutBatch(models, widths: [80], options: options(parties: 2))
        #expect(engine.cache.statistics.misses == 1)
    }

    @Test func aWidthChangeMissesButNeverRepeatsUnicodeWork() throws {
        let measurer = CountingMeasurer()
        let engine = LayoutEngine(measurer: measurer)
        let models = conversation(200)
        let first = try engine.layoutBatch(models, widths: [40], options: options(parties: 2))
        // A date separator's label is prepared by each batch that lays it out (it has no id to
        // keep it by); the messages' texts are prepared once.
        let separators = first.rows.filter(\.isDateSeparator).count
        #expect(measurer.count == 200 + separators)
        engine.cache.resetCounters()
        let second = try engine.layoutBatch(models, widths: [60, 100], options: options(parties: 2))
        #expect(engine.cache.statistics.misses == 400)
        #expect(measurer.count == 200 + 2 * separators)
        #expect(engine.texts.preparations == 200)
        for r in 0..<second.rows.count where !second.rows[r].isDateSeparator {
            let layout = second.layout(row: r, widthIndex: 1)
            #expect(layout.textLines == lines(models[second.rows[r].messageIndex].text, width: layout.wrapWidth))
        }
        #expect(first.rows == second.rows)
    }

    @Test func preparedTextIsReplacedWhenItsSourceChanges() {
        let store = PreparedTextStore(measurer: CellMeasurer())
        _ = store.prepared(id: "a", revision: 0, part: 0, text: "hello")
        _ = store.prepared(id: "a", revision: 0, part: 0, text: "hello")
        #expect(store.preparations == 1)
        // Same id and revision, different text: compared on the hit, so prepared afresh.
        #expect(store.prepared(id: "a", revision: 0, part: 0, text: "hello world").naturalWidth == 11)
        _ = store.prepared(id: "a", revision: 1, part: 0, text: "hello world")
        #expect(store.preparations == 3 && store.count == 1)
        store.remove(id: "a")
        #expect(store.count == 0)
    }

    @Test func concurrentTasksShareTheCacheSafely() async {
        let cache = LayoutCache(maxEntries: 4_000, shardCount: 8)
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var rng = SeededGenerator(seed: UInt64(task) + 1)
                    var wrong = 0
                    for _ in 0..<40_000 {
                        let n = Int(rng.next() % 6_000)
                        let k = LayoutKey(id: "row-\(n)", content: ContentStamp(rawValue: UInt64(n % 3)),
                                          width: 40 + n % 50, styleID: 0,
                                          decoration: RowDecoration())
                        if let found = cache.layout(for: k) {
                            if found != self.fakeLayout(n) { wrong += 1 }
                        } else {
                            cache.insert(self.fakeLayout(n), for: k)
                        }
                        if n % 997 == 0 { cache.removeAll(id: "row-\(n)") }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        let stats = cache.statistics
        #expect(mismatches == 0)
        #expect(stats.hits + stats.misses == 8 * 40_000)
        #expect(stats.count <= 4_000 && stats.hits > 0 && stats.evictions > 0)
    }

    @Test func batchLayoutOnAllCoresKeepsInputOrderAndSharesTheCache() throws {
        let engine = LayoutEngine()
        let models = conversation(2_500)
        let parallel = try engine.layoutBatch(models, widths: [30, 80], options: options(parties: 2))
        let sequential = LayoutEngine()
        let rows = try sequential.decorate(models, options: options(parties: 2))
        let expected = [30, 80].flatMap { width in rows.map { sequential.layout($0, in: models, width: width) } }
        #expect(parallel.rows == rows)
        #expect(parallel.layouts == expected)
        #expect(engine.cache.statistics.misses == 5_000)
        _ = try engine.layoutBatch(models, widths: [30, 80], options: options(parties: 2))
        #expect(engine.cache.statistics.hits == 5_000)
    }
}
