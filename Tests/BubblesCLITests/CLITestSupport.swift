import BubbleTestSupport
import Foundation
@testable import BubblesCLI


/// What one run of the command line printed and returned.
struct CommandRun {
    var code: Int32
    var output: String
    var errors: String

    var outputLines: [Substring] { output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// Runs `bubbles ARGUMENTS` in process, with `environment` instead of the real one.
func bubbles(_ arguments: String..., environment: [String: String] = [:], outputIsTerminal: Bool = false,
             outputIsFile: Bool = false) -> CommandRun {
    bubbles(arguments, environment: environment, outputIsTerminal: outputIsTerminal, outputIsFile: outputIsFile)
}

/// `bubbles ARGUMENTS` for arguments built as an array.
func bubbles(_ arguments: [String], environment: [String: String] = [:], outputIsTerminal: Bool = false,
             outputIsFile: Bool = false) -> CommandRun {
    let output = StringSink()
    let errors = StringSink()
    let context = CommandContext(output: output, errors: errors, environment: environment, outputIsTerminal: outputIsTerminal,
                                 outputIsFile: outputIsFile)
    let code = BubblesCommandLine.run(arguments, context: context)
    return CommandRun(code: code, output: output.text, errors: errors.text)
}
