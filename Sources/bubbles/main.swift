import BubblesCLI
import BubbleLayout
import BubbleTerminal

FileSink.ignoreBrokenPipeSignal()
let environment = ProcessInfoEnvironment.current
let context = CommandContext(
    output: FileSink(fileDescriptor: 1), errors: FileSink(fileDescriptor: 2), environment: environment,
    outputIsTerminal: TerminalWidth.isTerminal(1), errorsAreTerminal: TerminalWidth.isTerminal(2),
    outputIsFile: TerminalWidth.isRegularFile(1),
    probeWidths: { TerminalProbe.probeControllingTerminal(base: $0, timeoutMilliseconds: TerminalProbe.defaultTimeout) },
    inputIsTerminal: TerminalWidth.isTerminal(0),
    terminalColumns: { TerminalWidth.windowColumns(1) ?? TerminalWidth.controllingTerminalColumns() },
    localtimePath: ZoneName.localtimePath, localeDirectory: ClockStyle.glibcLocaleDirectory,
    laterDisplayProfile: CellWidthsOption.laterDisplayDefault)
exit(BubblesCommandLine.run(Array(CommandLine.arguments.dropFirst()), context: context))
