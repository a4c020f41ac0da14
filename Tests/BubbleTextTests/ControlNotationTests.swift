import Testing
@testable import BubbleText

@Suite struct ControlNotationTests {
    @Test func escapeUsesCaretNotation() {
        #expect(ControlNotation.visibleForm(of: 0x1B) == "^[")
        #expect(ControlNotation.visibleWidth(of: 0x1B) == 2)
    }

    @Test func c1ControlsShowTheirByte() {
        #expect(ControlNotation.visibleForm(of: 0x9B) == "<9B>")
    }

    @Test func bidiOverridesShowTheirAbbreviation() {
        #expect(ControlNotation.visibleForm(of: 0x202E) == "<RLO>")
        #expect(ControlNotation.visibleWidth(of: 0x202E) == 5)
    }

    @Test func layoutControlsAndJoinersAreNotNeutralised() {
        for scalar: UInt32 in [0x09, 0x0A, 0x0D, 0x85, 0x2028, 0x200D, 0xFE0F, 0x1F3FB, 0x41] {
            #expect(!ControlNotation.isNeutralised(scalar))
        }
    }

    @Test func visibleWidthMatchesVisibleForm() {
        for scalar in UInt32(0)...0x2100 {
            let form = ControlNotation.visibleForm(of: scalar)
            #expect((form?.unicodeScalars.count ?? 0) == ControlNotation.visibleWidth(of: scalar))
        }
    }
}
