import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

@Suite struct ViewerKeyDecoderTests {
    @Test func decodesKeysSequencesAndTheWheel() {
        var decoder = ViewerKeyDecoder()
        let bytes = Array("jk q".utf8) + [0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42, 0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x36, 0x7E]
            + Array("\u{1B}[H\u{1B}[F\u{1B}[<64;10;5M\u{1B}[<65;10;5M\u{1B}[<0;1;1M\u{1B}[<0;1;1m".utf8) + [0x03, 0x1A, 0x0D, 0x7F]
        let keys = decoder.decode(bytes)
        #expect(keys == [.character("j"), .character("k"), .character(" "), .character("q"), .up, .down, .pageUp, .pageDown,
                         .home, .end, .wheelUp, .wheelDown, .interrupt, .suspend, .enter, .backspace])
    }

    @Test func keepsASequenceCutAcrossReads() {
        var decoder = ViewerKeyDecoder()
        #expect(decoder.decode([0x1B, 0x5B], final: false) == [])
        #expect(decoder.decode([0x42]) == [.down])
        #expect(decoder.decode([0x1B], final: false) == [])
        #expect(decoder.decode([], final: true) == [.escape])
        #expect(decoder.decode(Array("é".utf8).prefix(1).map { $0 }, final: false) == [])
        #expect(decoder.decode(Array("é".utf8).suffix(1).map { $0 }) == [.character("é")])
    }
}
