import Testing
@testable import BubbleTerminal

@Suite struct ColorDepthTests {
    @Test func autoColoursOnlyATerminal() {
        #expect(ColorDepth.resolve(.auto, environment: [:], outputIsTerminal: true) == .palette256)
        #expect(ColorDepth.resolve(.auto, environment: [:], outputIsTerminal: false) == .none)
    }

    @Test func noColorAndDumbTerminalsTurnAutoOff() {
        #expect(ColorDepth.resolve(.auto, environment: ["NO_COLOR": "1"], outputIsTerminal: true) == .none)
        #expect(ColorDepth.resolve(.auto, environment: ["TERM": "dumb"], outputIsTerminal: true) == .none)
    }

    @Test func forcingTurnsAutoOnEvenIntoAPipe() {
        #expect(ColorDepth.resolve(.auto, environment: ["CLICOLOR_FORCE": "1"], outputIsTerminal: false) == .palette256)
        #expect(ColorDepth.resolve(.auto, environment: ["FORCE_COLOR": "true"], outputIsTerminal: false) == .palette256)
        #expect(ColorDepth.resolve(.auto, environment: ["FORCE_COLOR": "0"], outputIsTerminal: false) == .none)
    }

    @Test func trueColorOnlyWhenColortermSaysSo() {
        #expect(ColorDepth.resolve(.always, environment: ["COLORTERM": "truecolor"], outputIsTerminal: false) == .trueColor)
        #expect(ColorDepth.resolve(.always, environment: ["COLORTERM": "24bit"], outputIsTerminal: false) == .trueColor)
        #expect(ColorDepth.resolve(.always, environment: [:], outputIsTerminal: false) == .palette256)
    }

    @Test func neverIsFinal() {
        #expect(ColorDepth.resolve(.never, environment: ["FORCE_COLOR": "1"], outputIsTerminal: true) == .none)
    }

    @Test func senderKeepsOneColourAndNamesSpreadOverThePalette() {
        let palette = SenderPalette()
        #expect(palette.color(for: "Alice") == palette.color(for: "Alice"))
        let names = (0..<64).map { "user\($0)" }
        #expect(Set(names.map { palette.color(for: $0) }).count > palette.colors.count / 2)
    }

    @Test func theFirstSendersOfATranscriptNeverShareAColour() {
        let palette = SenderPalette()
        // Hashing alone puts these two of the bundled sample in one colour.
        #expect(palette.color(for: "Noa") == palette.color(for: "Ploy"))
        var colors = SenderColors(palette: palette)
        let names = ["Noa", "Ploy"] + (0..<(palette.colors.count - 2)).map { "user\($0)" }
        let given = names.map { colors.color(for: $0) }
        #expect(Set(given).count == palette.colors.count)
        #expect(given[0] == palette.color(for: "Noa"), "a sender whose colour is free keeps its hashed one")
        #expect(names.map { colors.color(for: $0) } == given, "a colour once given never changes")
        #expect(colors.color(for: "late") == palette.color(for: "late"), "past the palette, senders take their hashed colour")
    }

    @Test func paletteIndexIsTheNearestCubeEntry() {
        #expect(TerminalColor(red: 0, green: 0, blue: 0).paletteIndex == 16)
        #expect(TerminalColor(red: 255, green: 255, blue: 255).paletteIndex == 231)
        #expect(TerminalColor(red: 255, green: 0, blue: 0).paletteIndex == 196)
    }

    @Test func disabledSGRWritesNoEscapes() {
        let sgr = SGR(depth: .none)
        #expect(sgr.foreground("x", TerminalColor(red: 1, green: 2, blue: 3)) == "x")
        #expect(sgr.reverse("^[") == "^[")
    }
}
