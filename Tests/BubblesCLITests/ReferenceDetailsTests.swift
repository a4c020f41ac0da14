import Testing
@testable import BubblesCLI

/// The man page's longer text is keyed by names: each key must name what is declared, and each
/// text must reach the page.
@Suite struct ReferenceDetailsTests {
    @Test func everyDetailNamesADeclaredOptionAndReachesTheManPage() {
        let specs = BubblesCommandLine.commands.map { $0.spec }
        let declared = Set(specs.flatMap { $0.options.map { $0.names[0] } })
        let page = ManPage.text()
        for (name, details) in ReferenceDetails.options {
            #expect(declared.contains(name), "\(name) is no command's option")
            let start = String(details.prefix(24))
            #expect(page.contains(ManPage.escape(start)), "the details of \(name) are not in the man page")
        }
    }

    @Test func everyCommandNoteNamesACommandAndReachesTheManPage() {
        let names = Set(BubblesCommandLine.commands.map { $0.spec.name })
        let page = ManPage.text()
        for (name, notes) in ReferenceDetails.commands {
            #expect(names.contains(name), "\(name) is no command")
            #expect(page.contains(ManPage.escape(String(notes.prefix(24)))), "the notes of \(name) are not in the man page")
        }
    }
}
