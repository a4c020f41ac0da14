import Testing
@testable import BubbleText

/// The fence token every view of borrowed memory carries (`FenceToken.swift`), and the views of
/// `TextBytes.swift` it guards: inside their scope they read and write what they were lent; a
/// debug build stops at the first use of one kept past the closure that lent it, or of storage
/// its owner freed, instead of reading memory that may be freed or reused.
@Suite struct FenceTokenTests {
    @Test func aTokenChecksQuietlyWhileItsScopeIsOpen() {
        withFence { fence in fence.check("a view") }
        let owned = FenceToken.owned()
        owned.check("storage not yet freed")
        owned.end()
        FenceToken.immortal.check("a static string")
    }

    @Test func viewsReadAndWriteTheirMemoryInsideTheirScope() {
        var text = "ab€"
        #expect(text.withUTF8Elements { ($0.count, $0.decodeScalar(at: 2).scalar) } == (5, 0x20AC))
        let storage = MutableElementsView<Int32>.allocate(capacity: 4)
        storage.fill(7, prefix: 4)
        storage.tail(from: 2)[1] = 9
        #expect(storage.elements == [7, 7, 7, 9])
        storage.deallocate()
        #expect(ElementsView<UInt8>.empty.isEmpty)
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aTokenCheckedAfterItsClosureStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let kept = withFence { $0 }
            kept.check("a view kept past its closure")
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func anOwnedTokenCheckedAfterItsEndStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let token = FenceToken.owned()
            token.end()
            token.check("storage freed")
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func anElementsViewKeptPastItsClosureStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let kept = [UInt32](repeating: 1, count: 4).withElementsView { $0 }
            _ = kept[0]
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aSliceOfAViewKeptPastItsClosureStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var elements = [UInt8](repeating: 0, count: 16)
            let kept = elements.withMutableElementsView { $0.tail(from: 4) }
            kept[0] = 1
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func textBytesKeptPastTheirClosureStopADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var text = "some text of some length"
            let kept = text.withUTF8Elements { $0 }
            _ = kept.word(at: 0)
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aViewOfStorageUsedAfterItIsFreedStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            // As the bidi resolver's scratch space when it grows: the old views end with it.
            let storage = MutableElementsView<Int32>.allocate(capacity: 8)
            let reading = ElementsView(storage.slice(from: 2, count: 4))
            storage.deallocate()
            _ = reading[0]
        }
    }
}
