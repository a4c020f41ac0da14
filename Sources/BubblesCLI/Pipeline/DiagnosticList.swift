import BubbleLogs

/// Lists a read's diagnostics on stderr, a screenful at most when most of the input is rejected:
/// the first `screenful` are always listed, a later one only while the records read so far
/// outnumber the rejected ones. What was not listed is counted in one line at the end, so a file
/// of another format gives a few reasons and a count, not a line per record.
struct DiagnosticList {
    /// Diagnostics always listed.
    static let screenful = 20

    private var listed = 0
    private var unlisted = 0
    private var rejected = 0
    private var read = 0

    /// Counts a record read whole (it weighs against holding diagnostics back).
    mutating func noteRecord() { read += 1 }

    /// Writes `diagnostic` to `errors`, or counts it when a screenful is out and most records so
    /// far were rejected.
    mutating func report(_ diagnostic: LogDiagnostic, to errors: TextSink) throws {
        if !diagnostic.isWarning { rejected += 1 }
        guard listed < Self.screenful || rejected <= read else {
            unlisted += 1
            return
        }
        listed += 1
        try errors.write("\(diagnostic)\n")
    }

    /// Says how many diagnostics were not listed, if any.
    func finish(errors: TextSink) throws {
        guard unlisted > 0 else { return }
        try errors.write("bubbles: \(unlisted) more problem\(unlisted == 1 ? "" : "s") not listed: most of the input was rejected (the first \(listed) are above)\n")
    }
}
