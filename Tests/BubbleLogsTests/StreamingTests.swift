import BubbleSamples
import BubbleText
@testable import BubbleLogs
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct StreamingTests {
    /// The writer sends part of a log, then waits until the reader has seen all of it before
    /// sending the rest. A reader that held the whole input before yielding would never finish.
    @Test func recordsArriveBeforeTheInputEnds() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let firstBatch = 2_000, total = 5_000
        let gate = DispatchSemaphore(value: 0)
        let openedOnTime = Mutex(false)
        let writer = Thread {
            func send(_ range: Range<Int>) {
                var text = ""
                for n in range { text += #"{"id":"\#(n)","type":"text","from":"A","date":\#(1_714_557_600 + n),"text":"message \#(n) 🎈"}"# + "\n" }
                var bytes = Array(text.utf8)[...]
                while !bytes.isEmpty {
                    let written = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress!, $0.count) }
                    guard written > 0 else { return }
                    bytes = bytes.dropFirst(written)
                }
            }
            send(0..<firstBatch)
            // Bounded wait, so a failing reader makes the test fail rather than hang.
            let result = gate.wait(timeout: .now() + 20)
            openedOnTime.withLock { $0 = result == .success }
            send(firstBatch..<total)
            close(writeEnd)
        }
        writer.start()
        let reader = try LogSource.open(path: "/dev/fd/\(readEnd)", format: .jsonl)
        var count = 0
        for entry in reader {
            #expect(entry.record != nil)
            count += 1
            if count == firstBatch { gate.signal() }
        }
        #expect(count == total)
        #expect(openedOnTime.withLock { $0 }, "the reader saw the first batch only after the input ended")
        #expect(reader.counts.recordsIn == total && reader.counts.reconciles)
        close(readEnd)
    }

    @Test func linesSplitAcrossChunksAreReassembled() {
        var random = SeededGenerator(seed: 42)
        var lines: [[UInt8]] = []
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...(Bool.random(using: &random) ? 40 : 200_000 / 64), using: &random)
            lines.append((0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) })
        }
        var bytes: [UInt8] = []
        for line in lines { bytes += line + [0x0A] }
        let path = temporaryFile(bytes, suffix: ".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        let reader = LineReader(fileDescriptor: fd, closesOnEnd: true)
        var got: [[UInt8]] = []
        while let line = reader.next() {
            #expect(line.number == got.count + 1)
            got.append(line.bytes)
        }
        #expect(got == lines)
    }

    @Test func anOverlongLineIsRejectedWithoutBeingHeld() {
        var bytes = Array(#"{"id":"1","type":"text","date":0,"text":"ok"}"#.utf8) + [0x0A]
        bytes += [UInt8](repeating: 0x61, count: 300_000) + [0x0A]
        bytes += Array(#"{"id":"3","type":"text","date":0,"text":"ok"}"#.utf8) + [0x0A]
        let path = temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        let reader = LineReader(fileDescriptor: fd, closesOnEnd: true, maximumLineLength: 100_000)
        let lines = Array(sequence(state: reader) { $0.next() })
        #expect(lines.map(\.isTooLong) == [false, true, false])
        #expect(lines[1].bytes.count == 256)
        #expect(lines[2].number == 3)
    }
}
