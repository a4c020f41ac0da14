import BubbleSamples
import Testing
@testable import BubbleText

/// Benign invisible formatting is left out of display; what reorders text or is left open stays
/// labelled (issue 10 §3).
@Suite struct InvisibleFormattingTests {
    func shown(_ text: String) -> String { InvisibleFormatting.displayed(text) }

    @Test func whatsAppsMarksAndWrappedPhoneNumbersAreLeftOut() {
        #expect(shown("\u{202A}+51 989 383 357\u{202C}") == "+51 989 383 357")
        #expect(shown("Call \u{202A}+51 989 383 357\u{202C} now") == "Call +51 989 383 357 now")
        #expect(shown("\u{200E}This message was deleted.") == "This message was deleted.")
        #expect(shown("\u{200E}\u{202A}+44 7700 900123\u{202C}\u{200E} joined using this group's invite link")
            == "+44 7700 900123 joined using this group's invite link")
        #expect(shown("@\u{2068}Ana\u{2069} \u{2067}שלום\u{2069}") == "@Ana שלום")
        #expect(shown("a\u{200F}b\u{061C}c") == "abc")
        // Balanced and nested, all benign.
        #expect(shown("\u{202B}x\u{2066}y\u{202A}z\u{202C}\u{2069}\u{202C}") == "xyz")
    }

    @Test func overridesAndAnythingLeftOpenOrUnmatchedStay() {
        for kept in ["\u{202E}gnp.exe", "\u{202D}abc\u{202C}", "\u{202E}abc\u{202C}", "\u{202A}open", "\u{2067}open",
                     "close\u{202C}", "close\u{2069}", "\u{2069}\u{2066}", "\u{202C}\u{202A}"] {
            #expect(shown(kept) == kept, "\(kept.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // A pair holding something that stays, stays: an override inside an isolate …
        #expect(shown("\u{2066}a\u{202E}b\u{202C}\u{2069}") == "\u{2066}a\u{202E}b\u{202C}\u{2069}")
        // … an embedding left open inside an isolate (the PDI ends it unclosed) …
        #expect(shown("\u{2066}a\u{202A}b\u{2069}") == "\u{2066}a\u{202A}b\u{2069}")
        // … a PDF that cannot close across the open isolate (UAX #9 X7) …
        #expect(shown("\u{202A}a\u{2066}b\u{202C}c\u{2069}") == "\u{202A}a\u{2066}b\u{202C}c\u{2069}")
        // … while the marks and benign pairs beside them still go.
        #expect(shown("\u{200E}\u{202E}x\u{202C} \u{2066}y\u{2069}") == "\u{202E}x\u{202C} y")
        #expect(shown("\u{202A}\u{202A}a\u{202C}") == "\u{202A}a")
    }

    /// Random mixes of letters and every bidi control (fixed seed): nothing but bidi controls is
    /// removed, no mark is left, and the result, and every part of it, comes back unchanged, which
    /// is what lets a renderer apply the decision to single wrapped lines.
    @Test func theDecisionIsStableOnItsResultAndOnEveryPartOfIt() {
        let alphabet: [Unicode.Scalar] = ["a", "b", " ", "\u{200E}", "\u{200F}", "\u{061C}", "\u{202A}", "\u{202B}",
                                          "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]
        var rng = SeededGenerator(seed: 2029)
        var removedSome = 0, keptSome = 0
        for _ in 0..<3_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 14) { text.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let original = String(text)
            let result = shown(original)
            let before = Array(original.unicodeScalars), after = Array(result.unicodeScalars)
            // Only controls go, in order.
            #expect(before.filter { $0.value < 0x80 } == after.filter { $0.value < 0x80 })
            #expect(!after.contains { [0x200E, 0x200F, 0x061C].contains($0.value) })
            if after.count < before.count { removedSome += 1 }
            if after.contains(where: { $0.value >= 0x80 }) { keptSome += 1 }
            #expect(shown(result) == result)
            for start in 0...after.count {
                for end in start...after.count {
                    let part = String(String.UnicodeScalarView(after[start..<end]))
                    if shown(part) != part {
                        Issue.record("part \(start)..<\(end) of \(after.map { String($0.value, radix: 16) }) changes")
                    }
                }
            }
        }
        #expect(removedSome > 500 && keptSome > 500)
    }

    /// The generated `BidiControl` is Bidi_Control as PropList.txt lists it, each control's role
    /// agreeing with its Bidi_Class; and the byte test finds each of them and no other scalar
    /// sharing their lead bytes.
    @Test func theBidiControlsAreThoseOfPropList() {
        guard let listed = UCDPropertyValues.binary("ucd/PropList.txt", systemPath: "PropList.txt", property: "Bidi_Control") else {
            Issue.record("PropList.txt is in neither Corpora/unicode/ucd nor /usr/share/unicode")
            return
        }
        let roles: [BidiClass: BidiControl] = [.l: .mark, .r: .mark, .al: .mark, .lre: .embedding, .rle: .embedding,
                                               .lro: .override, .rlo: .override, .pdf: .popFormatting,
                                               .lri: .isolate, .rli: .isolate, .fsi: .isolate, .pdi: .popIsolate]
        var count = 0
        for cp in 0..<0x110000 {
            let control = BidiControl(UInt32(cp))
            #expect((control != nil) == listed[cp], "U+\(String(cp, radix: 16))")
            guard let control else { continue }
            count += 1
            #expect(roles[BidiTables.properties(UInt32(cp)).bidiClass] == control, "U+\(String(cp, radix: 16))")
            let scalar = String(Unicode.Scalar(UInt32(cp))!)
            #expect(InvisibleFormatting.mayHoldBidiControl(scalar))
        }
        #expect(count == 12)
        // Every other scalar with one of their lead bytes is passed over.
        for cp in 0x600..<0x640 where BidiControl(UInt32(cp)) == nil {
            #expect(!InvisibleFormatting.mayHoldBidiControl(String(Unicode.Scalar(UInt32(cp))!)))
        }
        for cp in 0x2000..<0x3000 where BidiControl(UInt32(cp)) == nil {
            #expect(!InvisibleFormatting.mayHoldBidiControl(String(Unicode.Scalar(UInt32(cp))!)))
        }
    }

    @Test func theQuickByteTestNeverMissesABidiControl() {
        // Every scalar the test must find, and near misses that share lead bytes, at every offset.
        let wanted: [UInt32] = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        let nearMisses: [UInt32] = [0x061B, 0x061D, 0x0600, 0x200D, 0x2010, 0x2029, 0x202F, 0x2060, 0x2065, 0x206A, 0x2000, 0x20AC]
        for padding in 0..<17 {
            let pad = String(repeating: "é", count: padding / 2) + String(repeating: "x", count: padding % 2)
            for v in wanted {
                #expect(InvisibleFormatting.mayHoldBidiControl(pad + String(Unicode.Scalar(v)!) + pad))
            }
            for v in nearMisses {
                #expect(!InvisibleFormatting.mayHoldBidiControl(pad + String(Unicode.Scalar(v)!) + "€" + pad))
            }
        }
    }

    @Test func aControlAfterTextWithTheirLeadBytesIsFound() {
        // Arabic letters and general punctuation share the controls' lead bytes: words holding
        // them are checked byte by byte, and the scan goes on past them to the control.
        let wanted: [UInt32] = [0x061C, 0x200E, 0x202B, 0x202C, 0x2066, 0x2069]
        for before in ["مرحبا ", "“a” ", "— …", "ok مر"] {
            for padding in 0..<17 {
                let pad = String(repeating: "x", count: padding)
                for v in wanted {
                    #expect(InvisibleFormatting.mayHoldBidiControl(before + pad + String(Unicode.Scalar(v)!) + pad))
                    #expect(InvisibleFormatting.mayHoldBidiControl(pad + before + String(Unicode.Scalar(v)!)))
                }
                #expect(!InvisibleFormatting.mayHoldBidiControl(pad + before + pad + before))
            }
        }
    }

    @Test func theCellMeasurerMeasuresTheDisplayedText() {
        let measurer = CellMeasurer()
        let phone = "\u{200E}Call \u{202A}+51 989 383 357\u{202C}"
        #expect(measurer.width(of: phone) == "Call +51 989 383 357".count)
        #expect(measurer.prepare(phone).text == "Call +51 989 383 357")
        // What stays is measured in its labelled form, as before.
        #expect(measurer.width(of: "x\u{202E}y") == 7)
        #expect(measurer.width(of: "x\u{202A}y") == 7)
    }
}
