/// Facebook's and Instagram's "Download your information" JSON writes every byte of a string's
/// UTF-8 as its own `\u00XX` escape, so a parser reads `á` (`\u00c3\u00a1`) as "Ã¡". This undoes
/// that, exactly and only where it can be the cause: a string whose scalars are all below U+0100,
/// with at least one above U+007F, whose scalars taken as bytes are valid UTF-8. Anything else (a
/// file someone already repaired, a real "é" that is not UTF-8 on its own) is left as it is.
enum Mojibake {
    /// `text` with its bytes-as-scalars read as UTF-8, or `text` itself. O(n).
    static func undo(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return text }
            bytes.append(UInt8(truncatingIfNeeded: scalar.value))
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    /// Every string of `value` (keys too) undone; lines are kept.
    static func undo(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(undo(text))
        case .array(let array):
            return .array(JSONArray(elements: array.elements.map(undo), elementLines: array.elementLines))
        case .object(var object):
            for i in object.members.indices {
                object.members[i] = (undo(object.members[i].key), undo(object.members[i].value))
            }
            return .object(object)
        case .null, .bool, .number: return value
        }
    }
}
