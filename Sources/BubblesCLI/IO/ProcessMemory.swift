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
