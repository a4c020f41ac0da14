import Foundation
import Testing
@testable import BubblesCLI

@Suite struct ClosedPipeTests {
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
