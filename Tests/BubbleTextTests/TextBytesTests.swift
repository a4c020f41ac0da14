import Testing
@testable import BubbleText

/// The views of `TextBytes.swift` that the other modules index in place, and the one fence that
/// decodes the generated tables' enum fields (`TableCoded`).
@Suite struct TextBytesTests {
    @Test func everyTableValueDecodesToTheCaseWithThatRawValue() {
        for value in LineBreakClass.allCases { #expect(LineBreakClass(tableValue: value.rawValue) == value) }
        for value in GraphemeBreakProperty.allCases { #expect(GraphemeBreakProperty(tableValue: value.rawValue) == value) }
        for value in BidiClass.allCases { #expect(BidiClass(tableValue: value.rawValue) == value) }
        let joiningTypes = (0...UInt8.max).compactMap(JoiningType.init(rawValue:))
        #expect(joiningTypes.count == 6)  // u, t, d, r, l, c
        for value in joiningTypes { #expect(JoiningType(tableValue: value.rawValue) == value) }
    }

    @Test func movingToTheStartCopiesOverlappingElementsInOrder() {
        var elements = Array(0..<10)
        elements.withMutableElementsView { view in
            // Elements 3..<9 down to 1..<7 (the regions overlap), as a ligature closes the gap.
            view.tail(from: 1).moveToStart(from: 2, count: 6)
        }
        #expect(elements == [0, 3, 4, 5, 6, 7, 8, 7, 8, 9])
    }

    @Test func aViewFillsCopiesAndReadsWordsWithinItsElements() {
        var bytes = [UInt8](repeating: 0, count: 12)
        let source: [UInt8] = [1, 2, 3, 4]
        bytes.withMutableElementsView { view in
            view.tail(from: 2).fill(0x41, prefix: 3)
            source.withElementsView { view.tail(from: 8).copy(from: $0) }
        }
        #expect(bytes == [0, 0, 0x41, 0x41, 0x41, 0, 0, 0, 1, 2, 3, 4])
        bytes.withElementsView { view in
            #expect(view.word32(at: 8) == 0x0403_0201)
            #expect(view.word(at: 4) == 0x0403_0201_0000_0041)
            #expect(view.tail(from: 8).elements == [1, 2, 3, 4])
            #expect(view.slice(from: 2, count: 3).elements == [0x41, 0x41, 0x41])
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func writingPastAViewStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var elements = [Int32](repeating: 0, count: 4)
            elements.withMutableElementsView { view in view.tail(from: 1)[3] = 1 }
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func movingMoreThanAViewHoldsStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var elements = [UInt16](repeating: 0, count: 4)
            elements.withMutableElementsView { view in view.moveToStart(from: 1, count: 4) }
        }
    }
}
