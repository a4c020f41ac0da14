import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

@Suite struct FileOutputTests {
    /// Runs `arguments` with standard output on a real pipe and returns what came through it.
    func throughAPipe(_ arguments: [String]) -> (Int32, String) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return (-1, "") }
        let context = CommandContext(output: FileSink(fileDescriptor: fds[1]), errors: StringSink(), environment: [:])
        let code = BubblesCommandLine.run(arguments, context: context)
        close(fds[1])
        let data = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        return (code, String(decoding: data, as: UTF8.self))
    }

    @Test func helpAndVersionReachABufferedOutput() {
        #expect(throughAPipe(["--help"]).1.hasPrefix("usage: bubbles <command>"))
        #expect(throughAPipe(["render", "--help"]).1.hasPrefix("usage: bubbles render"))
        #expect(throughAPipe(["--version"]).1 == "bubbles \(bubblesVersion)\n")
    }

    @Test func writingIntoAClosedPipeEndsQuietlyWithSuccess() throws {
        FileSink.ignoreBrokenPipeSignal()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        let errors = StringSink()
        let context = CommandContext(output: FileSink(fileDescriptor: fds[1]), errors: errors, environment: [:])
        let code = BubblesCommandLine.run(["render", corpus("logs/sample.jsonl"), "--width", "80"], context: context)
        #expect(code == 0)
        #expect(!errors.text.contains("bubbles:"))
    }

    @Test func aClosedPipeIsReportedAsOutputClosed() throws {
        FileSink.ignoreBrokenPipeSignal()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        let sink = FileSink(fileDescriptor: fds[1])
        try sink.write("hello\n")
        #expect(throws: OutputClosed.self) { try sink.flush() }
    }
}
