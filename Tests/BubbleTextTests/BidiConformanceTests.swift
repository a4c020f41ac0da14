import Testing
@testable import BubbleText

/// UAX #9 against Unicode's own BidiTest.txt and BidiCharacterTest.txt (15.0): every data line,
/// every paragraph direction it lists, levels (after L1) and visual order both checked.
///
/// The files are 8 and 7 MB and a debug build is slow, so the loops read the bytes in place
/// through one pointer, parse numbers by hand into buffers allocated once, and reuse one resolver.
@Suite struct BidiConformanceTests {
    /// The bytes of a corpus file (Corpora/unicode, else /usr/share/unicode).
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let text = UnicodeTablesCorpus.text(name, systemPath: name) else {
            throw LineBreakCorpus.Failure("\(name): not in Corpora/unicode nor /usr/share/unicode")
        }
        return Array(text.utf8)
    }

    /// Buffers one case is parsed into and resolved in.
    final class Buffers {
        static let capacity = 512
        let classes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let scalars = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let levels = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let expectedLevels = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let order = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let expectedOrder = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        var count = 0
        var expectedLevelCount = 0
        var expectedOrderCount = 0
        let resolver = BidiResolver()

        deinit {
            classes.deallocate(); scalars.deallocate(); levels.deallocate(); expectedLevels.deallocate()
            order.deallocate(); expectedOrder.deallocate()
        }

        /// Resolves the parsed case in `direction`, applies L1 to it as one line and compares.
        /// Returns the paragraph level, or nil when levels or order differ from the expected.
        func check(direction: BidiDirection, bracketed: Bool) -> UInt8? {
            let (paragraph, orderCount) = withFence { fence in
                let classBuffer = ElementsView(UnsafeBufferPointer(start: classes, count: count), fence: fence)
                let levelBuffer = MutableElementsView(UnsafeMutableBufferPointer(start: levels, count: count), fence: fence)
                let paragraph = resolver.resolve(
                    classes: classBuffer,
                    scalars: bracketed ? ElementsView(UnsafeBufferPointer(start: scalars, count: count), fence: fence) : nil,
                    direction: direction, levels: levelBuffer)
                BidiLine.resetWhitespace(classes: classBuffer, levels: levelBuffer, paragraphLevel: paragraph)
                let orderView = MutableElementsView(UnsafeMutableBufferPointer(start: order, count: count), fence: fence)
                return (paragraph, BidiLine.visualOrder(levels: ElementsView(levelBuffer), into: orderView))
            }
            guard expectedLevelCount == count, expectedOrderCount == orderCount else { return nil }
            for i in 0..<count where levels[i] != expectedLevels[i] { return nil }
            for i in 0..<orderCount where order[i] != expectedOrder[i] { return nil }
            return paragraph
        }

        var description: String {
            "levels \(Array(UnsafeBufferPointer(start: levels, count: count))) expected "
                + "\(Array(UnsafeBufferPointer(start: expectedLevels, count: expectedLevelCount))); order expected "
                + "\(Array(UnsafeBufferPointer(start: expectedOrder, count: expectedOrderCount)))"
        }
    }

    /// A cursor over the bytes of a file.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        var atEnd: Bool { at >= bytes.count }
        var current: UInt8 { at < bytes.count ? bytes[at] : 0x0A }

        mutating func skipBlanks() { while current == 0x20 || current == 0x09 { at += 1 } }
        mutating func skipLine() {
            while at < bytes.count && bytes[at] != 0x0A { at += 1 }
            at += 1
        }
        /// Parses a token ending at a blank, `;` or the end of the line: its bytes as a number in
        /// `radix`, or `BidiResolver.removed` for `x`.
        mutating func number(radix: UInt32) -> UInt32 {
            if current == UInt8(ascii: "x") {
                at += 1
                return UInt32(BidiResolver.removed)
            }
            var value: UInt32 = 0
            while true {
                let byte = current
                let digit: UInt32
                if byte >= 0x30 && byte <= 0x39 { digit = UInt32(byte - 0x30) }
                else if byte >= 0x41 && byte <= 0x46 { digit = UInt32(byte - 0x41 + 10) }
                else { return value }
                value = value * radix + digit
                at += 1
            }
        }
        /// A token's bytes packed little-endian into a number (class names are at most 3 bytes).
        mutating func word() -> UInt32 {
            var value: UInt32 = 0
            var shift: UInt32 = 0
            while true {
                let byte = current
                if byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ";") || byte == 0x0A || byte == 0x0D { return value }
                value |= UInt32(byte) << shift
                shift += 8
                at += 1
            }
        }
        var atLineEnd: Bool { current == 0x0A || current == 0x0D || current == UInt8(ascii: "#") }
    }

    static func packed(_ name: String) -> UInt32 {
        name.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    @Test func everyLineOfBidiTestPasses() throws {
        let bytes = try Self.bytes("BidiTest.txt")
        let classKeys = BidiClass.names.map(Self.packed)
        let buffers = Buffers()
        var dataLines = 0
        var cases = 0
        var failures = 0
        bytes.withUnsafeBufferPointer { pointer in
            var cursor = Cursor(bytes: pointer)
            var line = 0
            while !cursor.atEnd {
                line += 1
                let first = cursor.current
                if first == UInt8(ascii: "#") || first == 0x0A {
                    cursor.skipLine()
                    continue
                }
                if first == UInt8(ascii: "@") {
                    // "@Levels:" or "@Reorder:" (other @ lines are to be ignored).
                    let isLevels = cursor.bytes[cursor.at + 1] == UInt8(ascii: "L")
                    let isReorder = cursor.bytes[cursor.at + 1] == UInt8(ascii: "R")
                    while cursor.current != UInt8(ascii: ":") && cursor.current != 0x0A { cursor.at += 1 }
                    cursor.at += 1
                    var n = 0
                    cursor.skipBlanks()
                    while !cursor.atLineEnd {
                        let value = cursor.number(radix: 10)
                        if isLevels { buffers.expectedLevels[n] = UInt8(value) }
                        if isReorder { buffers.expectedOrder[n] = Int32(value) }
                        n += 1
                        cursor.skipBlanks()
                    }
                    if isLevels { buffers.expectedLevelCount = n }
                    if isReorder { buffers.expectedOrderCount = n }
                    cursor.skipLine()
                    continue
                }
                var n = 0
                while cursor.current != UInt8(ascii: ";") && !cursor.atLineEnd {
                    let key = cursor.word()
                    var value = 0
                    while value < classKeys.count && classKeys[value] != key { value += 1 }
                    if value == classKeys.count {
                        Issue.record("BidiTest.txt:\(line): unknown class")
                        failures += 1
                    }
                    buffers.classes[n] = UInt8(value)
                    n += 1
                    cursor.skipBlanks()
                }
                buffers.count = n
                cursor.at += 1
                cursor.skipBlanks()
                let bits = cursor.number(radix: 16)
                cursor.skipLine()
                dataLines += 1
                for bit in 0..<3 where bits & (1 << bit) != 0 {
                    let direction: BidiDirection = bit == 0 ? .auto : bit == 1 ? .leftToRight : .rightToLeft
                    cases += 1
                    if buffers.check(direction: direction, bracketed: false) == nil {
                        failures += 1
                        if failures <= 20 { Issue.record("BidiTest.txt:\(line) \(direction): \(buffers.description)") }
                    }
                }
            }
        }
        #expect(dataLines == 490_846)
        #expect(cases == 770_241)
        #expect(failures == 0)
    }

    @Test func everyLineOfBidiCharacterTestPasses() throws {
        let bytes = try Self.bytes("BidiCharacterTest.txt")
        let buffers = Buffers()
        var cases = 0
        var failures = 0
        bytes.withUnsafeBufferPointer { pointer in
            var cursor = Cursor(bytes: pointer)
            var line = 0
            while !cursor.atEnd {
                line += 1
                if cursor.current == UInt8(ascii: "#") || cursor.current == 0x0A {
                    cursor.skipLine()
                    continue
                }
                var n = 0
                while cursor.current != UInt8(ascii: ";") {
                    let scalar = cursor.number(radix: 16)
                    buffers.scalars[n] = scalar
                    buffers.classes[n] = BidiTables.properties(scalar).classValue
                    n += 1
                    cursor.skipBlanks()
                }
                buffers.count = n
                cursor.at += 1
                let direction: BidiDirection = switch cursor.number(radix: 10) {
                case 0: .leftToRight
                case 1: .rightToLeft
                default: .auto
                }
                cursor.at += 1
                let expectedParagraph = UInt8(cursor.number(radix: 10))
                cursor.at += 1
                var levelCount = 0
                while cursor.current != UInt8(ascii: ";") {
                    buffers.expectedLevels[levelCount] = UInt8(cursor.number(radix: 10))
                    levelCount += 1
                    cursor.skipBlanks()
                }
                buffers.expectedLevelCount = levelCount
                cursor.at += 1
                var orderCount = 0
                while !cursor.atLineEnd {
                    buffers.expectedOrder[orderCount] = Int32(cursor.number(radix: 10))
                    orderCount += 1
                    cursor.skipBlanks()
                }
                buffers.expectedOrderCount = orderCount
                cursor.skipLine()
                cases += 1
                let paragraph = buffers.check(direction: direction, bracketed: true)
                if paragraph != expectedParagraph {
                    failures += 1
                    if failures <= 20 {
                        Issue.record("BidiCharacterTest.txt:\(line): paragraph \(paragraph.map(String.init) ?? "-") expected \(expectedParagraph); \(buffers.description)")
                    }
                }
            }
        }
        #expect(cases == 91_707)
        #expect(failures == 0)
    }
}
