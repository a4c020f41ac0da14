import BubbleTerminal
import Foundation
import Testing
@testable import BubblesCLI

/// What a program run outside this process printed and returned.
struct ProgramRun {
    var status: Int32
    var output: String
    var errors: String
}

/// Runs `path` with `arguments`, `input` on its standard input, and waits for it. Output goes
/// through files, so a long output cannot fill a pipe nobody reads yet.
func runProgram(_ path: String, _ arguments: [String], input: String = "", environment: [String: String]? = nil) throws -> ProgramRun {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-reference-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = ["in", "out", "err"].map { folder.appendingPathComponent($0) }
    try Data(input.utf8).write(to: files[0])
    _ = FileManager.default.createFile(atPath: files[1].path, contents: nil)
    _ = FileManager.default.createFile(atPath: files[2].path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.currentDirectoryURL = folder
    process.standardInput = try FileHandle(forReadingFrom: files[0])
    process.standardOutput = try FileHandle(forWritingTo: files[1])
    process.standardError = try FileHandle(forWritingTo: files[2])
    try process.run()
    process.waitUntilExit()
    return ProgramRun(status: process.terminationStatus,
                      output: String(decoding: try Data(contentsOf: files[1]), as: UTF8.self),
                      errors: String(decoding: try Data(contentsOf: files[2]), as: UTF8.self))
}

/// The first of `paths` that is an executable file.
func installedProgram(_ paths: String...) -> String? {
    paths.first { FileManager.default.isExecutableFile(atPath: $0) }
}

let groffPath = installedProgram("/usr/bin/groff", "/usr/local/bin/groff", "/opt/homebrew/bin/groff")
let bashPath = installedProgram("/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash")
let zshPath = installedProgram("/bin/zsh", "/usr/bin/zsh", "/usr/local/bin/zsh", "/opt/homebrew/bin/zsh")
let fishPath = installedProgram("/usr/bin/fish", "/usr/local/bin/fish", "/opt/homebrew/bin/fish")

/// `bubbles help`, `--help`, the man page and the completions: one reference, made from the specs.
@Suite struct CommandReferenceTests {
    static var specs: [CommandSpec] { BubblesCommandLine.commands.map { $0.spec } }

    // MARK: help

    @Test(arguments: BubblesCommandLine.commands.map { $0.spec.name })
    func helpOfACommandIsItsOwnHelp(_ name: String) {
        let help = bubbles("help", name)
        let own = bubbles(name, "--help")
        #expect(help.code == 0)
        #expect(help.errors.isEmpty)
        #expect(help.output == own.output)
        #expect(help.output.hasPrefix("usage: bubbles \(name)"))
        #expect(bubbles(name, "-h").output == own.output)
    }

    @Test func helpAloneIsTheTopLevelHelp() {
        let help = bubbles("help")
        #expect(help.code == 0)
        #expect(help.output == bubbles("--help").output)
        #expect(help.output == bubbles("-h").output)
        for spec in Self.specs { #expect(help.output.contains("\n  \(spec.name) ")) }
        for status in ExitCode.statuses { #expect(help.output.contains("\n  \(status.code)  \(status.summary)\n") || help.output.hasSuffix("\n  \(status.code)  \(status.summary)\n")) }
    }

    @Test func helpOfHelpExplainsHelp() {
        let run = bubbles("help", "help")
        #expect(run.code == 0)
        #expect(run.output.hasPrefix("usage: bubbles help [COMMAND] [options]\n"))
        #expect(run.output == bubbles("help", "--help").output)
    }

    @Test func helpOfAnUnknownCommandIsAUsageErrorWithASuggestion() {
        let run = bubbles("help", "rendr")
        #expect(run.code == 2)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("bubbles: unknown command 'rendr' (did you mean 'render'?)\nusage: bubbles help [COMMAND] [options]\n"))
        let far = bubbles("help", "frobnicate")
        #expect(far.code == 2)
        #expect(far.errors.hasPrefix("bubbles: unknown command 'frobnicate'\n"))
        #expect(bubbles("help", "render", "view").code == 2)
        // Untrusted text in the message is escaped, as in every usage error.
        #expect(bubbles("help", "x\u{1B}[2J").errors.contains("unknown command 'x\\u001B[2J'"))
    }

    @Test func anUnknownCommandGetsASuggestion() {
        let typo = bubbles("heigths")
        #expect(typo.code == 2)
        #expect(typo.errors.hasPrefix("bubbles: unknown command 'heigths' (did you mean 'heights'?)\n\nusage: bubbles <command>"))
        #expect(bubbles("Render").errors.hasPrefix("bubbles: unknown command 'Render' (did you mean 'render'?)"))
        #expect(bubbles("zz").errors.hasPrefix("bubbles: unknown command 'zz'\n"))
        #expect(bubbles("--width").errors.hasPrefix("bubbles: unknown command '--width'\n"))
    }

    @Test func theViewerKeysAreInViewsHelp() {
        let help = bubbles("view", "--help").output
        #expect(help.contains("\nkeys:\n"))
        for binding in ViewerKeyHelp.bindings {
            #expect(help.contains("  \(binding.keys)"), "\(binding.keys)")
            #expect(help.contains(binding.action), "\(binding.action)")
        }
    }

    // MARK: declarations

    @Test func everyOptionOfEveryCommandHasAHelpLineAndIsInTheManPage() {
        let page = ManPage.text()
        for options in Self.specs.map(\.options) + [BubblesCommandLine.options] {
            for option in options {
                #expect(!option.help.trimmingCharacters(in: .whitespaces).isEmpty, "\(option.primaryName) has no help line")
                #expect(!option.help.contains("\n"), "\(option.primaryName)'s help is one line")
                var tag = option.names.map { "\\fB\(ManPage.escape($0))\\fR" }.joined(separator: ", ")
                if let value = option.valueName { tag += " \\fI\(ManPage.escape(value))\\fR" }
                #expect(page.contains(".TP\n\(tag)\n\(ManPage.escapeLine(option.help))\n"), "\(option.primaryName) is not in the man page")
            }
        }
        for spec in Self.specs {
            #expect(page.contains(".SS \"\(ManPage.escape(spec.synopsis))\"\n\(ManPage.escapeLine(spec.abstract))\n"), "bubbles \(spec.name)")
            for argument in spec.arguments {
                #expect(!argument.help.isEmpty)
                #expect(page.contains(".TP\n\\fI\(argument.name)\\fR\n\(ManPage.escapeLine(argument.help))\n"), "\(spec.name) \(argument.name)")
            }
        }
    }

    /// The choices a shell completes are the ones the help line names to a reader.
    @Test func everyChoiceIsNamedInItsOptionsHelp() {
        for spec in Self.specs {
            for option in spec.options {
                for choice in option.choices {
                    #expect(option.help.contains(choice), "bubbles \(spec.name) \(option.primaryName): '\(choice)' is not in its help")
                }
            }
        }
    }

    @Test func aChoiceOutsideTheDeclaredOnesIsAUsageErrorThatListsThem() {
        let run = bubbles("heights", "--cell-widths", "kitty")
        #expect(run.code == 2)
        #expect(run.errors.contains("invalid value 'kitty' for --cell-widths: expected one of \(CellWidthsOption.spec.choices.joined(separator: ", "))"))
        #expect(bubbles("render", "--bidi", "rtl").errors.contains("expected one of visual, logical"))
    }

    @Test func theManPageCoversExitCodesEnvironmentKeysAndFormats() {
        let page = ManPage.text()
        let exitSection = page.components(separatedBy: ".SH \"EXIT STATUS\"\n").last ?? ""
        #expect(ExitCode.statuses.map(\.code) == [0, 1, 2, 3])
        for status in ExitCode.statuses {
            #expect(exitSection.contains(".TP\n\\fB\(status.code)\\fR\n\(ManPage.escapeLine(status.summary))"))
        }
        for variable in ProgramEnvironment.variables {
            for name in variable.names { #expect(page.contains("\\fB\(ManPage.escape(name))\\fR"), "\(name)") }
        }
        for binding in ViewerKeyHelp.bindings {
            #expect(page.contains(".TP\n\\fB\(ManPage.escape(binding.keys))\\fR\n\(ManPage.escapeLine(binding.action))\n"), "\(binding.keys)")
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "\"EXIT STATUS\"", "ENVIRONMENT", "FILES", "\"SEE ALSO\""] {
            #expect(page.contains("\n.SH \(section)\n"), "\(section)")
        }
    }

    /// Every variable a source file reads by name is declared for the man page, and every one
    /// declared is read somewhere.
    @Test func theEnvironmentDeclaredIsTheEnvironmentRead() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let pattern = try Regex(#"(?:environment\[\s*"|getenv\(\s*")([A-Za-z_][A-Za-z0-9_]*)""#)
        var read: Set<String> = []
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let name = match.output[1].substring { read.insert(String(name)) }
            }
        }
        #expect(read.count >= 10, "the scan found \(read.sorted())")
        let declared = Set(ProgramEnvironment.variables.flatMap(\.names))
        #expect(read.subtracting(declared).isEmpty, "read but not in the man page: \(read.subtracting(declared).sorted())")
        #expect(declared.subtracting(read).isEmpty, "in the man page but never read: \(declared.subtracting(read).sorted())")
    }

    // MARK: man page

    @Test func manpagePrintsThePage() {
        let run = bubbles("manpage")
        #expect(run.code == 0)
        #expect(run.output == ManPage.text())
        #expect(run.output.hasPrefix(".\\\" "))
        #expect(run.output.contains("\n.TH BUBBLES 1 \"\" \"bubbles \(bubblesVersion)\" \"User Commands\"\n"))
        #expect(bubbles("manpage", "extra").code == 2)
    }

    @Test func roffSpecialsAreEscaped() {
        #expect(ManPage.escapeLine(".hidden request") == "\\&.hidden request")
        #expect(ManPage.escapeLine("'quoted") == "\\(aqquoted")
        #expect(ManPage.escapeLine(" leading space") == "\\& leading space")
        #expect(ManPage.escape("a\\b") == "a\\eb")
        #expect(ManPage.escape("--width=-1") == "\\-\\-width=\\-1")
        #expect(ManPage.escape("say \"hi\" `now`") == "say \\(dqhi\\(dq \\(ganow\\(ga")
        #expect(ManPage.escape("é…😀") == "\\[u00E9]\\[u2026]\\[u1F600]")
        #expect(ManPage.escape("bell\u{07}\ttab") == "bell tab")
        // No line of the page is a request it did not mean: each starts with '.' only for the
        // macros the generator writes.
        let requests = Set(ManPage.text().split(separator: "\n").filter { $0.hasPrefix(".") || $0.hasPrefix("'") }
            .map { String($0.prefix { $0 != " " }) })
        #expect(requests.isSubset(of: [".\\\"", ".TH", ".nh", ".ad", ".SH", ".SS", ".PP", ".TP", ".RS", ".RE", ".nf", ".fi", ".BR", ".IP"]), "\(requests)")
    }

    /// groff reads the page with every warning on and says nothing; the text it draws has the
    /// options as typed (ASCII hyphens and quotes), and characters beyond ASCII as they are.
    @Test(.enabled(if: groffPath != nil, "needs groff"))
    func groffDrawsThePageWithoutAWarning() throws {
        let page = ManPage.text()
        let run = try runProgram(groffPath!, ["-man", "-Tutf8", "-ww", "-P-cbou"], input: page, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(run.status == 0)
        #expect(run.errors.isEmpty, "\(run.errors)")
        let text = run.output
        #expect(text.contains("--cell-widths PROFILE"))
        #expect(text.contains("bubbles render [FILE] [options]"))
        #expect(text.contains("source <(bubbles completions bash)"))
        #expect(text.contains("BUBBLES_PROBE_TIMEOUT_MS"))
        // The help of --tz as it reads in --help, apart from the line breaks of the page.
        let tzHelp = InputOptions.Options.tz.help
        let flattened = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flattened.contains(tzHelp.split(whereSeparator: \.isWhitespace).joined(separator: " ")))
        for binding in ViewerKeyHelp.bindings { #expect(text.contains(binding.keys), "\(binding.keys)") }
    }

    /// The committed page is what `bubbles manpage` prints (`.ci/run` checks it with the built
    /// binary too).
    @Test func theCommittedManPageIsFresh() throws {
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/man/bubbles.1")
        let text = try String(contentsOf: committed, encoding: .utf8)
        #expect(text == ManPage.text(), "Tools/man/bubbles.1 is stale: swift run bubbles manpage > Tools/man/bubbles.1")
    }

    // MARK: completions

    @Test func completionsNeedsAShellItKnows() {
        let missing = bubbles("completions")
        #expect(missing.code == 2)
        #expect(missing.errors.hasPrefix("bubbles: missing argument SHELL\n"))
        let unknown = bubbles("completions", "tcsh")
        #expect(unknown.code == 2)
        #expect(unknown.errors.hasPrefix("bubbles: invalid value 'tcsh' for SHELL: expected one of bash, zsh, fish\n"))
        for shell in CompletionShell.allCases {
            let run = bubbles("completions", shell.rawValue)
            #expect(run.code == 0)
            #expect(run.output == CompletionScript.text(for: shell))
        }
    }

    /// Every option of every command is in each script.
    @Test(arguments: CompletionShell.allCases)
    func everyOptionIsInTheScript(_ shell: CompletionShell) {
        let script = CompletionScript.text(for: shell)
        for spec in Self.specs {
            #expect(script.contains(spec.name))
            for option in spec.options {
                for name in option.names {
                    let spelled = shell == .fish ? (name.hasPrefix("--") ? "-l '\(name.dropFirst(2))'" : "-s '\(name.dropFirst())'") : name
                    #expect(script.contains(spelled), "\(shell) \(spec.name) \(name)")
                }
                for choice in option.choices { #expect(script.contains(choice)) }
            }
        }
    }
}
