import Testing
@testable import BubbleLogs

/// The input side's fenced views (`Input+Unsafe.swift`): a `ByteView` or scratch buffer reads
/// what it was lent inside its closure, and a debug build stops at the first use of one kept past
/// that closure instead of reading memory that may be freed or reused.
@Suite struct InputUnsafeTests {
    @Test func viewsReadWhatTheyWereLentInsideTheirClosures() {
        let bytes = Array("héllo, world".utf8)
        #expect(bytes.withByteView { $0.bytes(8..<13).string } == "world")
        #expect(bytes[1...].withByteView { $0.array } == Array(bytes[1...]))
        var text = "abc"
        #expect(text.withUTF8View { $0.equals("abc") })
        let copied = withScratch(of: UInt8.self, capacity: 4) { scratch in
            bytes.withByteView { scratch.copy($0.bytes(0..<4), to: 0) }
            return scratch.view(count: 4).array
        }
        #expect(copied == Array(bytes[0..<4]))
        #expect(ByteView.empty.isEmpty && ByteView.empty.string == "")
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aByteViewKeptPastItsClosureStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let kept = Array("a line".utf8).withByteView { $0 }
            _ = kept[0]
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aPartOfAByteViewKeptPastItsClosureStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var text = "a line of text"
            let kept = text.withUTF8View { $0.bytes(2..<6) }
            _ = kept.string
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aScratchViewKeptPastItsClosureStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let kept = withScratch(of: UInt8.self, capacity: 8) { scratch in
                scratch[0] = 1
                return scratch.view(count: 1)
            }
            _ = kept.array
        }
    }
}
