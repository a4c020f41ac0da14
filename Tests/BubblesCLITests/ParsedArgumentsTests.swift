import Testing
@testable import BubblesCLI

@Suite struct ParsedArgumentsTests {
    static let width = OptionSpec("--width", "-w", value: "N", repeats: true, help: "Width.")
    static let color = OptionSpec("--color", value: "WHEN", help: "Colour.")
    static let strict = OptionSpec("--strict", help: "Stop at the first problem.")
    let spec = CommandSpec(
        name: "demo", abstract: "A demo.",
        arguments: [ArgumentSpec("FILE", optional: true, help: "Input.")],
        options: [Self.width, Self.color, Self.strict])

    @Test func repeatedAndCommaSeparatedIntegersAreCollectedInOrder() throws {
        let parsed = try ParsedArguments(["--width", "40", "-w", "80,120", "--width=30"], spec: spec)
        #expect(try parsed.integers(Self.width, in: 1...1000) == [40, 80, 120, 30])
    }

    @Test func positionalsAndFlagsMix() throws {
        let parsed = try ParsedArguments(["log.jsonl", "--strict"], spec: spec)
        #expect(parsed.positional(0) == "log.jsonl")
        #expect(parsed.flag(Self.strict))
    }

    @Test func aLoneDashIsStandardInputNotAnOption() throws {
        let parsed = try ParsedArguments(["-"], spec: spec)
        #expect(parsed.positional(0) == "-")
    }

    @Test func unknownOptionIsNamedWithTheNearestKnownOne() {
        #expect(throws: UsageError("unknown option '--colour' (did you mean '--color'?)")) {
            try ParsedArguments(["--colour", "never"], spec: spec)
        }
    }

    @Test func anUnknownOptionFarFromEveryKnownOneGetsNoGuess() {
        #expect(throws: UsageError("unknown option '--frobnicate'")) {
            try ParsedArguments(["--frobnicate"], spec: spec)
        }
    }

    @Test func missingValueIsReported() {
        #expect(throws: UsageError("option '--color' needs a value (--color WHEN)")) {
            try ParsedArguments(["--color"], spec: spec)
        }
    }

    @Test func badIntegerNamesTheTokenAndTheExpectedForm() throws {
        let parsed = try ParsedArguments(["--width", "wide"], spec: spec)
        #expect(throws: UsageError("invalid value 'wide' for --width: expected a whole number")) {
            try parsed.integers(Self.width, in: 1...1000)
        }
        let zero = try ParsedArguments(["--width", "0"], spec: spec)
        #expect(throws: UsageError("invalid value '0' for --width: expected 1 to 1000")) {
            try zero.integers(Self.width, in: 1...1000)
        }
    }

    @Test func choicesListTheAllowedWords() throws {
        let parsed = try ParsedArguments(["--color", "sometimes"], spec: spec)
        #expect(throws: UsageError("invalid value 'sometimes' for --color: expected one of auto, always, never")) {
            try parsed.choice(Self.color, from: ["auto", "always", "never"])
        }
    }

    @Test func aSingleValuedOptionGivenTwiceIsAnError() {
        #expect(throws: UsageError("option '--color' was given more than once")) {
            try ParsedArguments(["--color", "never", "--color", "always"], spec: spec)
        }
    }

    @Test func extraPositionalIsRejected() {
        #expect(throws: UsageError("unexpected argument 'b.jsonl'")) {
            try ParsedArguments(["a.jsonl", "b.jsonl"], spec: spec)
        }
    }

    @Test func flagsRejectInlineValues() {
        #expect(throws: UsageError("option '--strict' takes no value")) {
            try ParsedArguments(["--strict=yes"], spec: spec)
        }
    }

    @Test func helpListsEveryOption() {
        for name in ["--width, -w N", "--color WHEN", "--strict", "--help, -h", "FILE"] {
            #expect(spec.help.contains(name))
        }
    }
}
