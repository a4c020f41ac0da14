import Testing
@testable import BubbleText

/// UAX #9 against Unicode's own BidiTest.txt and BidiCharacterTest.txt (15.0): every data line,
/// every paragraph direction it lists, levels (after L1) and visual order both checked.
///
/// The files are 8 and 7 MB; the loops read their bytes in place and reuse one resolver and
/// its buffers, so both suites run in a few seconds in a debug build.
@Suite struct BidiConformanceTests {
    /// The bytes of a corpus file (Corpora/unicode, else /usr/share/unicode).
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let text = UnicodeTablesCorpus.text(name, systemPath: name) else {
            throw LineBreakCorpus.Failure("\(name): not in Corpora/unicode nor /usr/share/unicode")
        }
        return Array(text.utf8)
    }

    /// Calls `body` with each line of `bytes` (without its newline) and its 1-based number.
    static func forEachLine(_ bytes: [UInt8], _ body: (ArraySlice<UInt8>, Int) throws -> Void) rethrows {
        var start = 0
        var number = 1
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            try body(bytes[start..<end], number)
            number += 1
            start = end + 1
        }
    }

    /// Whitespace-separated tokens of `line`.
    static func tokens(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
    }

    /// A decimal level, or `removed` for `x`.
    static func level(_ token: ArraySlice<UInt8>) -> UInt8 {
        if token.first == UInt8(ascii: "x") { return BidiResolver.removed }
        return token.reduce(0) { $0 * 10 + ($1 - 0x30) }
    }

    static func hex(_ token: ArraySlice<UInt8>) -> UInt32 {
        token.reduce(0) { value, byte in
            let digit: UInt8 = byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10
            return value << 4 | UInt32(digit)
        }
    }

    /// Resolves `classes` in `direction`, applies L1 to the whole text as one line, and returns
    /// the paragraph level, the levels and the visual order.
    static func run(_ resolver: BidiResolver, classes: [UInt8], scalars: [UInt32]?, direction: BidiDirection,
                    levels: inout [UInt8], order: inout [Int32]) -> (paragraph: UInt8, orderCount: Int) {
        let count = classes.count
        if levels.count < count { levels = [UInt8](repeating: 0, count: count) }
        if order.count < count { order = [Int32](repeating: 0, count: count) }
        return classes.withUnsafeBufferPointer { classBuffer in
            levels.withUnsafeMutableBufferPointer { levelBuffer in
                let levelSlice = UnsafeMutableBufferPointer(rebasing: levelBuffer[0..<count])
                let paragraph: UInt8
                if let scalars {
                    paragraph = scalars.withUnsafeBufferPointer { scalarBuffer in
                        resolver.resolve(classes: classBuffer, scalars: scalarBuffer, direction: direction, levels: levelSlice)
                    }
                } else {
                    paragraph = resolver.resolve(classes: classBuffer, scalars: nil, direction: direction, levels: levelSlice)
                }
                BidiLine.resetWhitespace(classes: classBuffer, levels: levelSlice, paragraphLevel: paragraph)
                let orderCount = order.withUnsafeMutableBufferPointer { orderBuffer in
                    BidiLine.visualOrder(levels: UnsafeBufferPointer(levelSlice), into: orderBuffer)
                }
                return (paragraph, orderCount)
            }
        }
    }

    @Test func everyLineOfBidiTestPasses() throws {
        let bytes = try Self.bytes("BidiTest.txt")
        var classIndex: [ArraySlice<UInt8>: UInt8] = [:]
        for value in BidiClass.allCases { classIndex[ArraySlice(BidiClass.names[Int(value.rawValue)].utf8)] = value.rawValue }
        let resolver = BidiResolver()
        var expectedLevels: [UInt8] = []
        var expectedOrder: [Int32] = []
        var classes: [UInt8] = []
        var levels: [UInt8] = []
        var order: [Int32] = []
        var dataLines = 0
        var cases = 0
        var failures = 0
        try Self.forEachLine(bytes) { line, number in
            guard let first = line.first, first != UInt8(ascii: "#") else { return }
            if first == UInt8(ascii: "@") {
                let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
                let name = line[line.startIndex..<colon]
                let values = Self.tokens(line[min(colon + 1, line.endIndex)...])
                if name.elementsEqual("@Levels".utf8) {
                    expectedLevels = values.map(Self.level)
                } else if name.elementsEqual("@Reorder".utf8) {
                    expectedOrder = values.map { Int32(Self.level($0)) }
                }
                return
            }
            guard let semicolon = line.firstIndex(of: UInt8(ascii: ";")) else {
                throw LineBreakCorpus.Failure("BidiTest.txt:\(number): no ';'")
            }
            classes.removeAll(keepingCapacity: true)
            for token in Self.tokens(line[line.startIndex..<semicolon]) {
                guard let value = classIndex[token] else {
                    throw LineBreakCorpus.Failure("BidiTest.txt:\(number): unknown class \(String(decoding: token, as: UTF8.self))")
                }
                classes.append(value)
            }
            let bits = Self.hex(Self.tokens(line[(semicolon + 1)...]).first ?? [])
            dataLines += 1
            for (bit, direction) in [(1, BidiDirection.auto), (2, .leftToRight), (4, .rightToLeft)] where bits & UInt32(bit) != 0 {
                cases += 1
                let result = Self.run(resolver, classes: classes, scalars: nil, direction: direction, levels: &levels, order: &order)
                if !levels[0..<classes.count].elementsEqual(expectedLevels) || !order[0..<result.orderCount].elementsEqual(expectedOrder) {
                    failures += 1
                    if failures <= 20 {
                        Issue.record("BidiTest.txt:\(number) \(direction): levels \(Array(levels[0..<classes.count])) expected \(expectedLevels); order \(Array(order[0..<result.orderCount])) expected \(expectedOrder)")
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
        let resolver = BidiResolver()
        var scalars: [UInt32] = []
        var classes: [UInt8] = []
        var levels: [UInt8] = []
        var order: [Int32] = []
        var cases = 0
        var failures = 0
        try Self.forEachLine(bytes) { line, number in
            guard let first = line.first, first != UInt8(ascii: "#") else { return }
            let fields = line.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            guard fields.count == 5 else { throw LineBreakCorpus.Failure("BidiCharacterTest.txt:\(number): expected 5 fields") }
            scalars = Self.tokens(fields[0]).map(Self.hex)
            classes = scalars.map { BidiTables.properties($0).classValue }
            let direction: BidiDirection = switch fields[1].first {
            case UInt8(ascii: "0"): .leftToRight
            case UInt8(ascii: "1"): .rightToLeft
            default: .auto
            }
            let expectedParagraph = Self.level(fields[2])
            let expectedLevels = Self.tokens(fields[3]).map(Self.level)
            let expectedOrder = Self.tokens(fields[4]).map { Int32(Self.level($0)) }
            cases += 1
            let result = Self.run(resolver, classes: classes, scalars: scalars, direction: direction, levels: &levels, order: &order)
            if result.paragraph != expectedParagraph || !levels[0..<classes.count].elementsEqual(expectedLevels)
                || !order[0..<result.orderCount].elementsEqual(expectedOrder) {
                failures += 1
                if failures <= 20 {
                    Issue.record("BidiCharacterTest.txt:\(number): paragraph \(result.paragraph) expected \(expectedParagraph); levels \(Array(levels[0..<classes.count])) expected \(expectedLevels); order \(Array(order[0..<result.orderCount])) expected \(expectedOrder)")
                }
            }
        }
        #expect(cases == 91_707)
        #expect(failures == 0)
    }
}
