import Synchronization

// The scope check of every fenced view of memory another value owns (BubbleText's
// `ElementsView`/`MutableElementsView`, and the views the other modules' fences make: BubbleLogs'
// `ByteView` and `ScratchBuffer`, BubbleLayout's `Borrowed` and `ParallelOutput`): in debug
// builds a view carries a token of the scope that lent it and stops at its first use after that
// scope ended (a use-after-free in release builds), so no view outlives its scope unnoticed. In
// release builds the token is empty and its check compiles to nothing.

/// The scope a fenced view is valid in: open while the closure that lent the view runs (or until
/// its owner frees the memory), closed after (debug builds only).
@usableFromInline package final class FenceScope: Sendable {
    @usableFromInline let open = Atomic<Bool>(true)
    @usableFromInline init() {}
    /// Ends the scope: every view made in it stops at its next use.
    @usableFromInline func close() { open.store(false, ordering: .releasing) }
}

/// What a view checks at each use, in debug builds, that the scope which lent it is still open;
/// empty in release builds. Made by `withFence` (a closure's scope), `owned()` (memory whose owner
/// ends the scope itself) or `immortal` (memory that lives as long as the process).
@usableFromInline package struct FenceToken: Sendable {
    #if DEBUG
    @usableFromInline let scope: FenceScope
    @usableFromInline init(scope: FenceScope) { self.scope = scope }
    #else
    @usableFromInline init() {}
    #endif

    /// Stops (debug builds) when the view named `what` is used after its scope ended.
    @inlinable @inline(__always)
    package func check(_ what: @autoclosure () -> String) {
        #if DEBUG
        precondition(scope.open.load(ordering: .acquiring), "\(what()) used after the closure that lent it returned")
        #endif
    }

    /// A token for memory its owner frees itself, which calls `end()` before it does.
    @inlinable
    package static func owned() -> FenceToken {
        #if DEBUG
        return FenceToken(scope: FenceScope())
        #else
        return FenceToken()
        #endif
    }

    /// Ends the scope of a token `owned()` made: every view made with it stops at its next use
    /// (debug builds). Only the owner of the memory calls it, just before it frees or hands over
    /// the memory.
    @inlinable
    package func end() {
        #if DEBUG
        scope.close()
        #endif
    }

    #if DEBUG
    /// A token that never ends: for memory that lives as long as the process (a `StaticString`),
    /// or for a view of nothing.
    @usableFromInline package static let immortal = owned()
    #else
    /// A token that never ends: for memory that lives as long as the process (a `StaticString`),
    /// or for a view of nothing.
    @inlinable package static var immortal: FenceToken { FenceToken() }
    #endif
}

/// Calls `body` with a token valid only while `body` runs: views made with it stop (in debug
/// builds) at any use after `body` returns.
@inlinable @inline(__always)
package func withFence<R, E: Error>(_ body: (FenceToken) throws(E) -> R) throws(E) -> R {
    #if DEBUG
    let scope = FenceScope()
    defer { scope.close() }
    return try body(FenceToken(scope: scope))
    #else
    return try body(FenceToken())
    #endif
}
