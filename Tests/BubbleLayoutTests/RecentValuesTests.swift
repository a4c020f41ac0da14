@testable import BubbleLayout
import Testing

/// `RecentValues`: the last `capacity` distinct keys, the oldest forgotten first.
@Suite struct RecentValuesTests {
    @Test func theKeyStoredLongestAgoIsForgottenFirst() {
        var recent = RecentValues<Int, String>(capacity: 3)
        for key in 1...3 { recent.store("v\(key)", for: key) }
        recent.store("v4", for: 4)
        #expect(recent[1] == nil)
        #expect(recent[2] == "v2" && recent[3] == "v3" && recent[4] == "v4")
        recent.store("v5", for: 5)
        #expect(recent[2] == nil && recent[5] == "v5")
    }

    @Test func storingAKnownKeyAgainReplacesItsValueAndKeepsItsPlace() {
        var recent = RecentValues<Int, String>(capacity: 2)
        recent.store("a", for: 1)
        recent.store("b", for: 2)
        recent.store("a2", for: 1)
        #expect(recent[1] == "a2")
        recent.store("c", for: 3)
        // 1 was stored first: storing it again did not make it newer.
        #expect(recent[1] == nil && recent[2] == "b" && recent[3] == "c")
    }

    @Test func memoryStaysWithinTheCapacityOverAnyNumberOfKeys() {
        var recent = RecentValues<Int, Int>(capacity: 0)
        #expect(recent.capacity == 1)
        for key in 0..<10_000 { recent.store(key, for: key) }
        #expect(recent[9_999] == 9_999)
        #expect((0..<9_999).allSatisfy { recent[$0] == nil })
    }
}
