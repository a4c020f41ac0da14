/// A key or mouse event the viewer acts on.
public enum ViewerKey: Hashable, Sendable {
    /// A printable character (or a byte sequence of one UTF-8 scalar).
    case character(Character)
    case up, down, pageUp, pageDown, home, end
    case enter, escape, backspace
    case wheelUp, wheelDown
    /// F1 (the help screen, as `h`).
    case f1
    /// ctrl-C (raw mode delivers it as a byte), ctrl-Z, ctrl-L.
    case interrupt, suspend, redraw
}

/// Turns the terminal's input bytes into keys: plain characters, the cursor and paging keys in
/// their CSI and SS3 forms, and SGR mouse wheel reports (`CSI < 64 ; x ; y M`). An escape
/// sequence cut at the end of a read is kept for the next one; a lone ESC is the Escape key.
public struct ViewerKeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// The keys in `bytes` (plus what an earlier call left pending). `final` treats a trailing
    /// lone ESC as the Escape key (no more bytes came in time to make it a sequence).
    public mutating func decode(_ bytes: [UInt8], final: Bool = true) -> [ViewerKey] {
        pending += bytes
        var keys: [ViewerKey] = []
        var index = 0
        let input = pending
        scan: while index < input.count {
            let byte = input[index]
            if byte == 0x1B {
                guard index + 1 < input.count else {
                    if final { keys.append(.escape); index += 1 }
                    break scan
                }
                let next = input[index + 1]
                if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                    var end = index + 2
                    while end < input.count && !(0x40...0x7E).contains(input[end]) { end += 1 }
                    guard end < input.count else { break scan }  // cut: wait for the rest
                    if let key = Self.sequence(introducer: next, body: Array(input[(index + 2)..<end]), final: input[end]) {
                        keys.append(key)
                    }
                    index = end + 1
                } else {
                    keys.append(.escape)  // ESC then something else (alt-key): the ESC alone
                    index += 1
                }
                continue
            }
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x03: keys.append(.interrupt)
            case 0x1A: keys.append(.suspend)
            case 0x0C: keys.append(.redraw)
            case 0x02: keys.append(.pageUp)    // ctrl-B
            case 0x06: keys.append(.pageDown)  // ctrl-F
            case 0x04: keys.append(.character("d"))
            case 0x15: keys.append(.character("u"))
            case 0x0E: keys.append(.down)      // ctrl-N
            case 0x10: keys.append(.up)        // ctrl-P
            case 0x00..<0x20: break
            default:
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= input.count else {
                    if final { index = input.count }
                    break scan
                }
                let text = String(decoding: input[index..<(index + length)], as: UTF8.self)
                if let character = text.first, text.unicodeScalars.allSatisfy({ $0.value >= 0xA0 || (0x20..<0x7F).contains($0.value) }) {
                    keys.append(.character(character))
                }
                index += length
                continue
            }
            index += 1
        }
        pending = Array(input[index...])
        return keys
    }

    static func sequence(introducer: UInt8, body: [UInt8], final: UInt8) -> ViewerKey? {
        let text = String(decoding: body, as: UTF8.self)
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "P") where body.isEmpty: return .f1  // SS3 P or CSI P
        case UInt8(ascii: "~"):
            switch text {
            case "5": return .pageUp
            case "6": return .pageDown
            case "1", "7": return .home
            case "4", "8": return .end
            case "11": return .f1
            default: return nil
            }
        case UInt8(ascii: "M"), UInt8(ascii: "m"):
            guard introducer == UInt8(ascii: "["), text.hasPrefix("<") else { return nil }
            let button = text.dropFirst().split(separator: ";").first.flatMap { Int($0) } ?? -1
            if final == UInt8(ascii: "M") && button & ~0x1C == 64 { return .wheelUp }
            if final == UInt8(ascii: "M") && button & ~0x1C == 65 { return .wheelDown }
            return nil
        default:
            return nil
        }
    }
}
