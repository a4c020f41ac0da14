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

    @Test(arguments: [["-w40"], ["-w", "40"], ["--width=40"], ["--width", "40"]])
    func aShortOptionTakesItsValueAttachedAsGetoptDoes(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(arguments, spec: spec)
        #expect(try parsed.integers(Self.width, in: 1...1000) == [40])
    }

    @Test func anAttachedValueIsOnlyReadForAnOptionThatTakesOne() throws {
        let flagged = CommandSpec(name: "demo", abstract: "A demo.", options: [OptionSpec("--quiet", "-q", help: "Quiet.")])
        #expect(throws: UsageError("unknown option '-q40'")) { try ParsedArguments(["-q40"], spec: flagged) }
        // A value that starts with a dash, attached, is still the value.
        let parsed = try ParsedArguments(["-w-3"], spec: spec)
        #expect(throws: UsageError("invalid value '-3' for --width: expected 1 to 1000")) { try parsed.integers(Self.width, in: 1...1000) }
    }

    @Test(arguments: [("-n", "unknown option '-n'"), ("-x", "unknown option '-x'"), ("--st", "unknown option '--st'")])
    func aShortUnknownNameGetsNoGuessFromAnUnrelatedOption(_ name: String, _ message: String) {
        #expect(throws: UsageError(message)) { try ParsedArguments([name], spec: spec) }
    }

    @Test(arguments: [("-width", "--width"), ("-W", "-w"), ("--Width", "--width"), ("--widht", "--width"), ("--stirct", "--strict"), ("--colr", "--color")])
    func aMistypedNameGetsTheOptionItMeant(_ typed: String, _ meant: String) {
        #expect(throws: UsageError("unknown option '\(typed)' (did you mean '\(meant)'?)")) { try ParsedArguments([typed], spec: spec) }
    }

    @Test func anOptionOfAnotherCommandIsNamedAsSuch() {
        let bench = CommandSpec(name: "bench", abstract: "Bench.", options: [OptionSpec("--messages", "-n", value: "N", help: "Messages.")])
        let view = CommandSpec(name: "view", abstract: "View.", options: [OptionSpec("--follow", "-f", help: "Follow.")])
        #expect(throws: UsageError("unknown option '-n' (-n belongs to 'bubbles bench', as --messages; 'bubbles demo' has no such option)")) {
            try ParsedArguments(["-n", "5"], spec: spec, elsewhere: [spec, bench, view])
        }
        #expect(throws: UsageError("unknown option '--follow' (--follow belongs to 'bubbles view'; 'bubbles demo' has no such option)")) {
            try ParsedArguments(["--follow"], spec: spec, elsewhere: [spec, bench, view])
        }
    }

    @Test(arguments: [(["--width", "80", "--width", "80"], [80, 80], "invalid value '80' for --width: 80 is given more than once"),
                      (["--width", "40,40"], [40, 40], "invalid value '40,40' for --width: 40 is given more than once"),
                      (["-w", "40,80", "-w80"], [40, 80, 80], "invalid value '80' for --width: 80 is given more than once")])
    func aValueGivenTwiceIsRefusedOnlyWhereValuesMustBeDistinct(_ arguments: [String], _ all: [Int], _ message: String) throws {
        let parsed = try ParsedArguments(arguments, spec: spec)
        #expect(throws: UsageError(message)) { try parsed.integers(Self.width, in: 1...1000, distinct: true) }
        #expect(try parsed.integers(Self.width, in: 1...1000) == all)
    }

    @Test func distinctValuesKeepTheirOrder() throws {
        let parsed = try ParsedArguments(["-w", "120,40", "--width", "80"], spec: spec)
        #expect(try parsed.integers(Self.width, in: 1...1000, distinct: true) == [120, 40, 80])
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
