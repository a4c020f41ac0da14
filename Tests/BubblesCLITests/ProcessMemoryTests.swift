import Foundation
import Testing
@testable import BubblesCLI

/// `bench`'s memory figures: the resident size and its peak come from one reading of the
/// kernel's own report, so the peak is never below the resident size reported beside it.
@Suite struct ProcessMemoryTests {
    static let hasProc = FileManager.default.isReadableFile(atPath: "/proc/self/status")

    /// Touches `bytes` of fresh memory, so that it is resident, and reads the figures while it
    /// is held.
    static func readingWhileHolding(_ bytes: Int) -> ProcessMemory.Reading? {
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 4096)
        defer { pointer.deallocate() }
        for offset in stride(from: 0, to: bytes, by: 4096) { pointer.storeBytes(of: UInt8(truncatingIfNeeded: offset >> 12), toByteOffset: offset, as: UInt8.self) }
        let reading = ProcessMemory.read()
        // Read a byte back, so the stores cannot be dropped.
        #expect(pointer.load(fromByteOffset: bytes - 4096, as: UInt8.self) == UInt8(truncatingIfNeeded: (bytes - 4096) >> 12))
        return reading
    }

    @Test(.enabled(if: hasProc, "needs /proc (Linux)"))
    func thePeakIsNeverBelowTheResidentSizeReadWithIt() throws {
        let mib = 1 << 20
        let holding = try #require(Self.readingWhileHolding(64 * mib))
        #expect(holding.residentBytes >= 64 * mib, "the 64 MiB just touched are resident")
        #expect(holding.peakResidentBytes >= holding.residentBytes)
        // Once the memory is given back, the peak remembers it.
        for _ in 0..<3 {
            let after = try #require(ProcessMemory.read())
            #expect(after.peakResidentBytes >= after.residentBytes)
            #expect(after.peakResidentBytes >= 64 * mib)
        }
    }

    /// The kernel's own text: this process's status parses, in bytes (its kB are KiB); a kernel
    /// thread's, which has no memory of its own and so no VmRSS or VmHWM line, gives nothing
    /// rather than a zero peak.
    @Test(.enabled(if: hasProc, "needs /proc (Linux)"))
    func theKernelsStatusTextIsReadInBytes() throws {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let reading = try #require(ProcessMemory.parse(status: text))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kib = try #require(Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]))
        #expect(reading.residentBytes == kib * 1024)
        #expect(reading.peakResidentBytes >= reading.residentBytes)
        if let kernelThread = try? String(contentsOfFile: "/proc/2/status", encoding: .utf8), kernelThread.contains("Kthread:\t1") {
            #expect(ProcessMemory.parse(status: kernelThread) == nil)
        }
    }

    @Test func aPeakBelowTheResidentSizeIsRaisedToIt() {
        let text = "Name:\tx\nVmHWM:\t    1000 kB\nVmRSS:\t    1200 kB\n"
        #expect(ProcessMemory.parse(status: text) == ProcessMemory.Reading(residentBytes: 1200 * 1024, peakResidentBytes: 1200 * 1024))
        #expect(ProcessMemory.parse(status: "Name:\tx\nVmRSS:\t    1200 kB\n") == nil)
    }
}
