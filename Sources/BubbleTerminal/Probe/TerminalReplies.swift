/// Replies a terminal sends to the probe's queries, read from its input bytes. Anything else in
/// the input (keys typed meanwhile) is skipped.
public struct TerminalReplies: Sendable, Equatable {
    /// Cursor position reports (`CSI row ; column R`), in order: (row, column), 1-based.
    public var cursorPositions: [(row: Int, column: Int)] = []
    /// The mode 2027 report's value (`CSI ? 2027 ; value $ y`), if one came.
    public var graphemeClustering: Int?
    /// A primary device attributes reply (`CSI ? … c`) came: every reply sent before it is in.
    public var sawDeviceAttributes = false

    public init() {}

    public static func == (a: TerminalReplies, b: TerminalReplies) -> Bool {
        a.cursorPositions.map { [$0.row, $0.column] } == b.cursorPositions.map { [$0.row, $0.column] }
            && a.graphemeClustering == b.graphemeClustering && a.sawDeviceAttributes == b.sawDeviceAttributes
    }

    /// Parses every complete reply in `bytes`; returns how many bytes were consumed (an
    /// incomplete reply at the end is left for the next read).
    @discardableResult
    public mutating func parse(_ bytes: [UInt8]) -> Int {
        var index = 0
        var consumed = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B else {
                index += 1
                consumed = index
                continue
            }
            guard index + 1 < bytes.count else { break }
            guard bytes[index + 1] == UInt8(ascii: "[") else {
                index += 1
                consumed = index
                continue
            }
            // CSI: parameters and intermediates up to a final byte 0x40–0x7E.
            var end = index + 2
            while end < bytes.count && !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { break }
            let body = Array(bytes[(index + 2)..<end])
            let final = bytes[end]
            record(body: body, final: final)
            index = end + 1
            consumed = index
        }
        return consumed
    }

    private mutating func record(body: [UInt8], final: UInt8) {
        let text = String(decoding: body, as: UTF8.self)
        switch final {
        case UInt8(ascii: "R"):
            let parts = text.split(separator: ";").compactMap { Int($0) }
            if parts.count == 2 { cursorPositions.append((parts[0], parts[1])) }
        case UInt8(ascii: "y"):
            // "?2027;2$"
            guard text.hasPrefix("?"), text.hasSuffix("$") else { return }
            let parts = text.dropFirst().dropLast().split(separator: ";").compactMap { Int($0) }
            if parts.count == 2 && parts[0] == 2027 { graphemeClustering = parts[1] }
        case UInt8(ascii: "c"):
            if text.hasPrefix("?") { sawDeviceAttributes = true }
        default:
            break
        }
    }
}
