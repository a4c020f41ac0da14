import BubbleSamples
import Testing
@testable import BubbleText

/// The preparer's unsafe helpers: what they promise, and the invariants debug builds check (a
/// broken one stops the process at the call that broke it; release builds do not check).
@Suite struct PreparerInvariantTests {
    @Test func aBufferInLentStorageGrowsOntoTheHeapWithItsElements() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { block in
            var buffer = PreparerBuffer<UInt8>(borrowing: block)
            for byte in 0..<100 { buffer.append(UInt8(byte)) }
            #expect(Array(buffer.elements) == (0..<100).map(UInt8.init))
            buffer.removeLast(40)
            #expect(Array(buffer.elements) == (0..<60).map(UInt8.init))
            buffer.removeLast(60)
            #expect(buffer.count == 0)
        }
    }

    @Test func aBufferWritesLengthsInLEB128() {
        var buffer = PreparerBuffer<UInt8>(capacity: 1)
        for value in [0, 0x7F, 0x80, 300, 1 << 21] { buffer.appendLEB128(value) }
        #expect(Array(buffer.elements) == [0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02, 0x80, 0x80, 0x80, 0x01])
    }

    @Test func aReaderReadsEverySegmentWithinTheRecords() {
        // Inline storage ("ok") and a buffer (a longer text), each read to its last segment.
        for text in ["ok", String(repeating: "many words and 漢字 ", count: 20)] {
            let prepared = PreparedText(text)
            let ends = prepared.storage.withSegments { reader, _ in
                (0..<reader.count).map { _ in Int(reader.next().segment.hangEnd) }
            }
            #expect(ends.count == prepared.segmentCount && ends.last.map { $0 <= text.utf8.count } == true)
        }
    }

    @Test func eightBytesAtATimeTheLetterRunStopsAtTheFirstByteThatIsNotAnASCIILetter() {
        // Random words, mostly letters, with bytes of every kind (non-ASCII included) mixed in.
        var random = SeededGenerator(seed: 0x1E77E5)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in
                Int.random(in: 0..<4, using: &random) == 0 ? UInt8.random(in: 0...255, using: &random) : letters.randomElement(using: &random)!
            }
            let word = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let firstNonLetter = bytes.firstIndex { !letters.contains($0) } ?? 8
            let bits = TextPreparer.asciiNonLetterBits(word)
            #expect((bits == 0 ? 8 : bits.trailingZeroBitCount >> 3) == firstNonLetter, "\(bytes)")
        }
    }

    @Test func theFieldMasksNameTheBitsTheAccessorsRead() {
        for scalar in stride(from: UInt32(0), to: 0x110000, by: 5) {
            let info = UnicodeTables.info(scalar)
            #expect(info.raw & ScalarInfo.graphemeBreakMask == ScalarInfo.field(graphemeBreak: info.graphemeBreak))
            #expect(info.raw & ScalarInfo.lineBreakMask == ScalarInfo.field(lineBreak: info.lineBreak))
            #expect(info.raw & ScalarInfo.widthMask == ScalarInfo.field(width: UInt32(info.width)))
            #expect((info.raw & ScalarInfo.ambiguousBit != 0) == info.isAmbiguous)
            #expect((info.raw & ScalarInfo.neutralisedControlBit != 0) == info.isNeutralisedControl)
            #expect((info.raw & ScalarInfo.extendedPictographicBit != 0) == info.isExtendedPictographic)
            #expect((info.raw & ScalarInfo.emojiPresentationBit != 0) == info.isEmojiPresentation)
            #expect((info.raw & ScalarInfo.eastAsianFullWideHalfBit != 0) == info.isEastAsianFullWideHalf)
            #expect((info.raw & ScalarInfo.unassignedPictographicBit != 0) == info.isUnassignedPictographic)
            #expect((info.raw & ScalarInfo.emojiModifierBit != 0) == info.isEmojiModifier)
            #expect((info.raw & ScalarInfo.prependBit != 0) == info.isPrepend)
            #expect(info.lineBreakClass == info.lineBreak)
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func removingMoreThanABufferHoldsStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var buffer = PreparerBuffer<UInt8>(capacity: 8)
            buffer.append(1)
            buffer.removeLast(2)
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func readingASegmentPastTheLastStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let prepared = PreparedText(String(repeating: "many words ", count: 20))
            prepared.storage.withSegments { reader, _ in
                for _ in 0...reader.count { _ = reader.next() }
            }
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func recordsThatEndInTheMiddleOfALengthStopADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            // One segment whose content length says that more bytes follow than there are.
            let records: [UInt8] = [0x80, 0xFF]
            records.withUnsafeBufferPointer { bytes in
                var reader = SegmentReader(records: bytes.baseAddress!, count: 1, byteCount: bytes.count)
                _ = reader.next()
            }
        }
    }
}
