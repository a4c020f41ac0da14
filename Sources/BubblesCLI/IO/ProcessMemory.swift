#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's memory, for the benchmark's report.
public enum ProcessMemory {
    /// Peak resident set size in bytes since the process started (getrusage's ru_maxrss).
    public static var peakResidentBytes: Int {
        var usage = rusage()
        guard getrusage(rusageSelf, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1024
        #endif
    }

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
