/// Lines of a text read whole (imessage-exporter's, signal-export's): split at LF bytes, a CR
/// before the LF dropped, each decoded as UTF-8 (an invalid byte becomes U+FFFD). Splitting the
/// bytes, not the decoded `String`, keeps CRLF apart: Swift reads "\r\n" as one `Character`.
enum TextLines {
    static func split(_ bytes: [UInt8]) -> [Substring] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            Substring(String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self))
        }
    }
}
