import BubbleTestSupport
import BubbleText
import Foundation
@testable import BubblesCLI


/// What one run of the command line printed and returned.
struct CommandRun {
    var code: Int32
    var output: String
    var errors: String

    var outputLines: [Substring] { output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// Runs `bubbles ARGUMENTS` in process, with `environment` instead of the real one. The system's
/// zone file is `localtimePath` (none by default: UTC unless `TZ` says otherwise), the terminal
/// the output is shown in `terminalColumns` wide (none by default), and locales are read from
/// `localeDirectory` (Foundation's data alone by default).
func bubbles(_ arguments: String..., environment: [String: String] = [:], outputIsTerminal: Bool = false,
             outputIsFile: Bool = false, localtimePath: String? = nil, terminalColumns: Int? = nil,
             localeDirectory: String? = nil, laterDisplayProfile: WidthProfile? = nil) -> CommandRun {
    bubbles(arguments, environment: environment, outputIsTerminal: outputIsTerminal, outputIsFile: outputIsFile,
            localtimePath: localtimePath, terminalColumns: terminalColumns, localeDirectory: localeDirectory,
            laterDisplayProfile: laterDisplayProfile)
}

/// `bubbles ARGUMENTS` for arguments built as an array.
func bubbles(_ arguments: [String], environment: [String: String] = [:], outputIsTerminal: Bool = false,
             outputIsFile: Bool = false, localtimePath: String? = nil, terminalColumns: Int? = nil,
             localeDirectory: String? = nil, laterDisplayProfile: WidthProfile? = nil) -> CommandRun {
    let output = StringSink()
    let errors = StringSink()
    let context = CommandContext(output: output, errors: errors, environment: environment, outputIsTerminal: outputIsTerminal,
                                 outputIsFile: outputIsFile, terminalColumns: terminalColumns.map { columns in { columns } },
                                 localtimePath: localtimePath, localeDirectory: localeDirectory,
                                 laterDisplayProfile: laterDisplayProfile)
    let code = BubblesCommandLine.run(arguments, context: context)
    return CommandRun(code: code, output: output.text, errors: errors.text)
}
