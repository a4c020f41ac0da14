import BubbleTerminal
import Foundation
import Testing
@testable import BubblesCLI

/// The bash script loaded into a real bash, and its completion function called as bash calls it
/// on a Tab: `COMP_WORDS` and `COMP_CWORD` set, `COMPREPLY` read back.
@Suite(.enabled(if: bashPath != nil, "needs bash"))
struct BashCompletionTests {
    /// The replies for each line, in a folder holding `a file.jsonl`, `b.txt` and `fonts/`. A
    /// line is the words typed, the last being the one completed ("" for a Tab after a space).
    static func replies(_ lines: [[String]]) throws -> [[String]] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-bash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("a file.jsonl"))
        try Data().write(to: folder.appendingPathComponent("b.txt"))
        let scriptFile = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-\(UUID().uuidString).bash")
        try Data(CompletionScript.text(for: .bash).utf8).write(to: scriptFile)
        defer { try? FileManager.default.removeItem(at: scriptFile) }
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var driver = "set -u\ncd \(quoted(folder.path))\nsource \(quoted(scriptFile.path))\ncomplete -p bubbles\n"
        for words in lines {
            driver += "COMP_WORDS=(\(words.map(quoted).joined(separator: " "))); COMP_CWORD=\(words.count - 1); COMPREPLY=(); _bubbles\n"
            driver += "printf '%s\\n' \"${COMPREPLY[@]}\" | LC_ALL=C sort | tr '\\n' '\\t'; echo\n"
        }
        let run = try runProgram(bashPath!, ["--norc", "--noprofile", "-c", driver], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
        #expect(run.status == 0)
        #expect(run.errors.isEmpty, "\(run.errors)")
        var outputLines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(outputLines.first == "complete -F _bubbles bubbles")
        outputLines.removeFirst()
        return lines.indices.map { index in
            index < outputLines.count ? outputLines[index].split(separator: "\t").map(String.init) : ["<missing>"]
        }
    }

    @Test func commandsOptionsChoicesAndFilesComplete() throws {
        let formats = LogFormatChoices.all
        let cases: [([String], [String])] = [
            (["bubbles", "ren"], ["render"]),
            (["bubbles", "c"], ["completions", "convert"]),
            (["bubbles", ""], BubblesCommandLine.commands.map { $0.spec.name }.sorted()),
            (["bubbles", "--v"], ["--version"]),
            (["bubbles", "render", "--in"], ["--input"]),
            (["bubbles", "render", "--input", ""], formats),
            (["bubbles", "render", "--input", "w"], ["whatsapp"]),
            // --input=<Tab>: bash splits the word at '='.
            (["bubbles", "render", "--input", "=", ""], formats),
            (["bubbles", "render", "--input", "=", "te"], ["telegram"]),
            (["bubbles", "render", "--input", "="], formats),
            (["bubbles", "heights", "--format", ""], ["csv", "jsonl"]),
            (["bubbles", "view", "--cell-widths", "w"], ["wcwidth"]),
            (["bubbles", "render", "--width", ""], []),
            (["bubbles", "render", ""], ["a file.jsonl", "b.txt", "fonts"]),
            (["bubbles", "render", "a"], ["a file.jsonl"]),
            (["bubbles", "render", "--width", "40", "b"], ["b.txt"]),
            (["bubbles", "render", "--width", "=", "40", "b"], ["b.txt"]),
            // FILE given: nothing more to complete but options.
            (["bubbles", "render", "b.txt", ""], []),
            (["bubbles", "render", "b.txt", "--asc"], ["--ascii"]),
            (["bubbles", "render", "--", "-"], []),
            // After --, a word with a dash is a file name.
            (["bubbles", "render", "--", "--in"], []),
            (["bubbles", "heights", "--font", "a"], ["a file.jsonl"]),
            (["bubbles", "bench", "--fonts", ""], ["fonts"]),
            (["bubbles", "bench", "-n", ""], []),
            (["bubbles", "completions", ""], ["bash", "fish", "zsh"]),
            (["bubbles", "help", "he"], ["heights", "help"]),
            (["bubbles", "help", "render", ""], []),
        ]
        let replies = try Self.replies(cases.map(\.0))
        for ((line, expected), reply) in zip(cases, replies) {
            #expect(reply == expected, "\(line)")
        }
    }

    /// Each command's options, as the script offers them for `--`.
    @Test func everyCommandOffersItsLongOptions() throws {
        let specs = BubblesCommandLine.commands.map { $0.spec }
        let replies = try Self.replies(specs.map { ["bubbles", $0.name, "--"] })
        for (spec, reply) in zip(specs, replies) {
            #expect(reply == spec.options.flatMap(\.names).filter { $0.hasPrefix("--") }.sorted(), "\(spec.name)")
        }
    }
}

/// The values `--input` takes, sorted as the shell sorts them.
enum LogFormatChoices {
    static var all: [String] { InputOptions.Options.input.choices.sorted() }
}

/// zsh and fish, where installed: each reads its script, and registers it for `bubbles`.
@Suite struct OtherShellCompletionTests {
    @Test(.enabled(if: zshPath != nil, "needs zsh"))
    func zshLoadsTheScriptAndRegistersIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-zsh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("_bubbles")
        try Data(CompletionScript.text(for: .zsh).utf8).write(to: script)
        let syntax = try runProgram(zshPath!, ["-n", script.path])
        #expect(syntax.status == 0)
        #expect(syntax.errors.isEmpty, "\(syntax.errors)")
        // Sourced after compinit, as the man page says, it registers _bubbles for bubbles; on
        // fpath, compinit finds it by its #compdef line.
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path]
        let sourced = try runProgram(zshPath!, ["-f", "-c", "autoload -Uz compinit && compinit -u -d \(folder.path)/dump && source \(script.path) && print -r -- $_comps[bubbles]"], environment: environment)
        #expect(sourced.output == "_bubbles\n", "\(sourced.errors)")
        let onPath = try runProgram(zshPath!, ["-f", "-c", "fpath=(\(folder.path) $fpath); autoload -Uz compinit && compinit -u -d \(folder.path)/dump2 && print -r -- $_comps[bubbles]"], environment: environment)
        #expect(onPath.output == "_bubbles\n", "\(onPath.errors)")
    }

    @Test(.enabled(if: fishPath != nil, "needs fish"))
    func fishCompletesCommandsOptionsAndChoices() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-fish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("bubbles.fish")
        try Data(CompletionScript.text(for: .fish).utf8).write(to: script)
        let syntax = try runProgram(fishPath!, ["--no-execute", script.path])
        #expect(syntax.status == 0)
        #expect(syntax.errors.isEmpty, "\(syntax.errors)")
        let lines = ["bubbles ren", "bubbles render --inp", "bubbles render --input ", "bubbles heights --format=", "bubbles completions "]
        let command = "source \(script.path); " + lines.map { "complete -C'\($0)' | string split -f1 \\t | sort | string join ' '" }.joined(separator: "; ")
        let run = try runProgram(fishPath!, ["--no-config", "-c", command],
                                 environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "XDG_DATA_HOME": folder.path])
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.output.split(separator: "\n").map(String.init) == [
            "render", "--input", LogFormatChoices.all.joined(separator: " "), "--format=csv --format=jsonl", "bash fish zsh",
        ])
    }
}
