#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's memory, for the benchmark's report.
public enum ProcessMemory {
    /// The resident set and its peak, read together from one source, so that the peak is never
    /// below the resident size it is reported with.
    public struct Reading: Equatable, Sendable {
        /// Resident set size now, in bytes.
        public var residentBytes: Int
        /// The largest resident set size the process has had, in bytes (at least `residentBytes`).
        public var peakResidentBytes: Int
    }

    /// Both figures now. On Linux, `VmRSS` and `VmHWM` from one read of /proc/self/status: the
    /// kernel fills both from the same exact counters (`VmHWM` is the larger of the high-water
    /// mark and the resident set it reports). getrusage's `ru_maxrss` (KiB on Linux) is not read
    /// there: since Linux 6.16 /proc sums the per-CPU RSS counters exactly while getrusage reads
    /// their approximate value, so a peak from getrusage could come out below a resident size
    /// from /proc read just after it. Where
    /// there is no /proc (Darwin), getrusage gives the peak and the resident size is not known
    /// (0). Nil when neither can be read.
    public static func read() -> Reading? {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let reading = parse(status: status) {
            return reading
        }
        var usage = rusage()
        guard getrusage(rusageSelf, &usage) == 0 else { return nil }
        #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        let peak = Int(usage.ru_maxrss) * 1024  // KiB on Linux
        #endif
        return Reading(residentBytes: 0, peakResidentBytes: peak)
    }

    /// The `VmRSS` and `VmHWM` lines of a /proc/PID/status text (values in kB, which the kernel
    /// means as KiB); nil when either is missing. The peak is never below the resident size.
    public static func parse(status: String) -> Reading? {
        var resident: Int?
        var peak: Int?
        for line in status.split(separator: "\n") {
            let isResident = line.hasPrefix("VmRSS:"), isPeak = line.hasPrefix("VmHWM:")
            guard isResident || isPeak else { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 3, fields[2] == "kB", let kib = Int(fields[1]) else { return nil }
            if isResident { resident = kib * 1024 } else { peak = kib * 1024 }
        }
        guard let resident, let peak else { return nil }
        return Reading(residentBytes: resident, peakResidentBytes: max(peak, resident))
    }

    /// Peak resident set size in bytes since the process started (0 when it cannot be read).
    public static var peakResidentBytes: Int { read()?.peakResidentBytes ?? 0 }

    #if canImport(Glibc)
    private static let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
    private static let rusageSelf = RUSAGE_SELF
    #endif
}

/// The calling thread's CPU time, for benchmark figures on a shared machine.
public enum ThreadClock {
    /// Seconds of CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID).
    public static func seconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
