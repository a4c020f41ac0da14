#if DEBUG
import Synchronization
#endif

/// The one place BubbleLogs and the command line keep mutable state without the run-time
/// exclusivity checks (`@exclusivity(unchecked)`): the state a reader of hostile input updates
/// for every record (counts, the lines it has read, the names it has met), where a check on each
/// access of a class's property would cost every record.
///
/// Invariant, the owner's to keep: no two accesses to `value` overlap. The owner is used by one
/// thread at a time (or touches `value` only with its lock held), and never starts an access
/// while a modification is under way (a reentrant call). Debug builds assert it: they count the
/// reads and the modification in progress, atomically, and stop at the first overlap, as the
/// run-time checks would; release builds trust it and pay nothing.
package final class ConfinedStorage<Value> {
    @exclusivity(unchecked) @usableFromInline var stored: Value
    #if DEBUG
    /// Reads in progress in the low 32 bits, modifications in progress above.
    @usableFromInline let accesses = Atomic<Int>(0)
    #endif

    @inlinable package init(_ value: Value) {
        stored = value
    }

    /// The state: read or modified in place, never copied out whole unless asked.
    @inlinable package var value: Value {
        @inline(__always) _read {
            #if DEBUG
            let now = accesses.wrappingAdd(1, ordering: .acquiring).newValue
            assert(now >> 32 == 0, "ConfinedStorage<\(Value.self)>: read during a modification")
            defer { accesses.wrappingSubtract(1, ordering: .releasing) }
            #endif
            yield stored
        }
        @inline(__always) _modify {
            #if DEBUG
            let now = accesses.wrappingAdd(1 << 32, ordering: .acquiring).newValue
            assert(now == 1 << 32, "ConfinedStorage<\(Value.self)>: overlapping accesses (another thread, or reentered)")
            defer { accesses.wrappingSubtract(1 << 32, ordering: .releasing) }
            #endif
            yield &stored
        }
    }
}

extension ConfinedStorage: @unchecked Sendable where Value: Sendable {}
