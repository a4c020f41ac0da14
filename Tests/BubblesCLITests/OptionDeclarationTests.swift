import Testing
@testable import BubblesCLI

/// An option's key is its declaration: the spec lists it, and `init` reads it by that value.
@Suite struct OptionDeclarationTests {
    static let width = OptionSpec("--width", "-w", value: "N", help: "Width.")
    static let strict = OptionSpec("--strict", help: "Stop at the first problem.")
    let spec = CommandSpec(name: "demo", abstract: "A demo.", options: [Self.width, Self.strict])

    @Test func anOptionIsReadByItsDeclarationUnderAnyOfItsNames() throws {
        let parsed = try ParsedArguments(["-w", "40", "--strict"], spec: spec)
        #expect(try parsed.integer(Self.width, in: 1...100) == 40)
        #expect(parsed.flag(Self.strict))
        #expect(try ParsedArguments([], spec: spec).integer(Self.width, in: 1...100) == nil)
    }

    @Test func readingAnOptionTheSpecDoesNotDeclareStopsInsteadOfReadingNil() async {
        await #expect(processExitsWith: .failure) {
            let spec = CommandSpec(name: "demo", abstract: "A demo.", options: [])
            _ = try? ParsedArguments([], spec: spec).flag(OptionDeclarationTests.strict)
        }
    }

    @Test(arguments: BubblesCommandLine.commands.map { $0.spec })
    func everyCommandDeclaresEachOptionNameOnce(_ spec: CommandSpec) {
        let names = spec.options.flatMap(\.names)
        #expect(Set(names).count == names.count, "bubbles \(spec.name): \(names)")
    }
}
