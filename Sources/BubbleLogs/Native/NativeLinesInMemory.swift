extension LogSource {
    /// Decodes JSON Lines already in memory, as the file reader would: `bytes` are whole lines of
    /// `file`, the first being line `firstLine`, and every entry's position names its real line.
    /// The viewer uses it to decode only the records on screen, straight from the file's bytes.
    public static func jsonLines(_ bytes: [UInt8], file: String, firstLine: Int = 1,
                                 options: LogReadOptions = LogReadOptions()) -> [LogEntry] {
        let producer = NativeLogProducer(lines: LineReader(bytes: bytes), file: file, options: options)
        let reader = LogReader(file: file, format: .jsonl, strict: false, producer: producer)
        let shift = firstLine - 1
        var entries: [LogEntry] = []
        for entry in reader {
            switch entry {
            case .message(let record, var position):
                position.line = position.line.map { $0 + shift }
                entries.append(.message(record, position))
            case var .diagnostic(diagnostic):
                diagnostic.position.line = diagnostic.position.line.map { $0 + shift }
                entries.append(.diagnostic(diagnostic))
            }
        }
        return entries
    }
}
