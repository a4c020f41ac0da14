import Synchronization

/// Limits on what an export's own markup may expand into. A Slack `<@U1>` becomes the user's
/// display name, Telegram's entity arrays and service actions become sentences: an export that
/// repeats a huge name thousands of times would otherwise ask for gigabytes and abort. Anything
/// cut is said in a warning on the message (`ExpansionNotes`), and the message is still shown.
enum ExpansionLimit {
    /// A name put into text (a mention, a sender, an actor in a notice) keeps this many scalars.
    static let nameScalars = 256
    /// A message's text built by expansion stops growing at this many bytes of UTF-8.
    static let messageBytes = 1 << 20

    /// `name`, or its first `nameScalars` scalars and "…" (noted) when it is longer.
    static func name(_ name: String) -> String {
        var scalars = name.unicodeScalars.makeIterator()
        var kept = String.UnicodeScalarView()
        for _ in 0..<nameScalars {
            guard let scalar = scalars.next() else { return name }
            kept.append(scalar)
        }
        guard scalars.next() != nil else { return name }
        // The length in bytes is known without walking a name that may be megabytes long.
        ExpansionNotes.note("a name of \(name.utf8.count) bytes was cut to its first \(nameScalars) characters (\"\(DiagnosticText.quoted(String(kept), limit: 24))\")")
        return String(kept) + "…"
    }
}

/// Text assembled from an export's pieces that stops growing at `ExpansionLimit.messageBytes`,
/// ending then with "…" and noting the cut once.
struct BoundedText {
    private(set) var text = ""
    private(set) var isCut = false
    private var bytes = 0

    init() {}

    mutating func append<S: StringProtocol>(_ piece: S) {
        guard !isCut else { return }
        let size = piece.utf8.count
        if bytes + size <= ExpansionLimit.messageBytes {
            text += piece
            bytes += size
            return
        }
        // Keep whole scalars up to the limit.
        var room = ExpansionLimit.messageBytes - bytes
        var kept = String.UnicodeScalarView()
        for scalar in piece.unicodeScalars {
            let width = UTF8.width(scalar)
            guard width <= room else { break }
            kept.append(scalar)
            room -= width
        }
        text += String(kept) + "…"
        isCut = true
        ExpansionNotes.note("the message expands past \(ExpansionLimit.messageBytes >> 20) MiB and was cut there")
    }
}

/// What was cut while one message was decoded, gathered without threading a parameter through
/// every decoder: `collecting` sets a collector for the decoding call, and `ExpansionLimit` and
/// `BoundedText` add to whichever collector is set (none outside a collecting call).
final class ExpansionNotes: Sendable {
    @TaskLocal static var current: ExpansionNotes?
    private let notes = Mutex<[String]>([])

    static func note(_ text: String) {
        current?.notes.withLock { notes in
            if !notes.contains(text) { notes.append(text) }
        }
    }

    /// Runs `body` and returns its result with the notes it made.
    static func collecting<T>(_ body: () -> T) -> (T, [String]) {
        let collector = ExpansionNotes()
        let result = $current.withValue(collector) { body() }
        return (result, collector.notes.withLock { $0 })
    }
}
