/// Per-grapheme UTF-8 lengths and widths of the segments that need them, one byte per grapheme.
///
/// Only a segment with more than one grapheme, not all of them one cell wide and of one UTF-8
/// length, or a segment holding a tab, is stored: force-breaking any other segment is arithmetic
/// (a word of ASCII letters, or of two-byte Cyrillic or Hebrew ones, splits by division). The common
/// entry is one byte, `width << 6 | length` (width 0–2, length 1–63). `0xC0` is a tab, whose
/// width depends on its column. `0xC8 | width` (width 0–7) is followed by the length in LEB128,
/// for long clusters and for controls shown in their wider visible form. `0xD0` is followed by
/// the width and then the length, both in LEB128: a cluster wider than 7 cells, which only
/// per-code-point widths (`WidthProfile.wcwidth`) make.
@usableFromInline
enum GraphemeMap {
    @usableFromInline static let tab: UInt8 = 0xC0
    @usableFromInline static let long: UInt8 = 0xC8
    @usableFromInline static let wide: UInt8 = 0xD0

    /// Appends the entry for a grapheme of `length` UTF-8 bytes and `width` cells.
    static func append(length: Int, width: Int, isTab: Bool, to map: inout PreparerBuffer<UInt8>) {
        if isTab {
            map.append(tab)
        } else if length < 64 && width <= 2 {
            map.append(UInt8(truncatingIfNeeded: width << 6 | length))
        } else {
            if width > 7 {
                map.append(wide)
                appendLEB128(width, to: &map)
            } else {
                map.append(long | UInt8(truncatingIfNeeded: width))
            }
            appendLEB128(length, to: &map)
        }
    }

    static func appendLEB128(_ value: Int, to map: inout PreparerBuffer<UInt8>) {
        var rest = value
        while rest >= 0x80 {
            map.append(UInt8(truncatingIfNeeded: rest & 0x7F) | 0x80)
            rest >>= 7
        }
        map.append(UInt8(truncatingIfNeeded: rest))
    }

    /// Reads the entry at `index` and moves `index` past it. Width is -1 for a tab.
    @inlinable
    static func read(_ map: ElementsView<UInt8>, at index: inout Int) -> (length: Int, width: Int) {
        let first = map[index]
        index &+= 1
        if first < tab { return (Int(first & 0x3F), Int(first >> 6)) }
        if first == tab { return (1, -1) }
        if first == wide {
            let width = readLEB128(map, at: &index)
            return (readLEB128(map, at: &index), width)
        }
        return (readLEB128(map, at: &index), Int(first & 7))
    }

    @inlinable
    static func readLEB128(_ map: ElementsView<UInt8>, at index: inout Int) -> Int {
        var length = 0
        var shift = 0
        while true {
            let byte = map[index]
            index &+= 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return length
    }
}
