/// A parsed JSON value. Internal: the readers turn it into records; nothing outside this module sees it.
///
/// Objects keep their members in document order and the line they started on, and arrays the line
/// each element started on, so a diagnostic about one message of a large export can name its line
/// even when that message is not an object.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The literal as written, so integers larger than 2^53 (Discord snowflakes) and exact decimals
    /// (Unix seconds with a fraction) are not rounded through Double.
    case number(String)
    case string(String)
    case array(JSONArray)
    case object(JSONObject)

    /// A short name for the value's kind, for "wrong type" diagnostics.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value's kind and, for a scalar, the value itself, for "found …" in a wrong-type
    /// diagnostic: `a number (0)`, `a string ("wide")`, `a boolean (true)`, `null`, `an array`. A
    /// string is escaped and clipped, and so is a number's literal (it may be thousands of digits).
    var described: String {
        switch self {
        case .null, .array, .object: kindName
        case .bool(let flag): "a boolean (\(flag))"
        case .number(let literal): "a number (\(DiagnosticText.quoted(literal, limit: 24)))"
        case .string(let text): "a string (\"\(DiagnosticText.quoted(text, limit: 40))\")"
        }
    }

    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    package var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements of an array, without their lines.
    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a.elements }
        return nil
    }

    /// The array with the line of each element, for diagnostics about elements that are not objects.
    var arrayWithLines: JSONArray? {
        if case .array(let a) = self { return a }
        return nil
    }

    package var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The value as an integer when it is a number literal without fraction or exponent.
    package var intValue: Int? {
        if case .number(let literal) = self { return Int(literal) }
        return nil
    }

    /// A string, or an integer number written as its decimal digits (ids are either in the wild).
    package var identifierValue: String? {
        switch self {
        case .string(let s): s
        case .number(let literal) where Int(literal) != nil || literal.allSatisfy(\.isNumber): literal
        default: nil
        }
    }
}

/// A JSON array: elements in document order, plus the 1-based line each element starts on.
///
/// An object element knows its own line, but a string or number does not; without these lines a
/// stray `"text"` or `42` in an export's message list could only be reported by its index.
///
/// A deferred array (an export's message list, a Slack day file, see `JSONParser.deferring`)
/// keeps only where each element lies in the document's bytes, and parses an element each time it
/// is asked for: memory holds the bytes and 24 bytes per element, not a tree of the whole list.
package struct JSONArray: Sendable, Equatable {
    private enum Storage: Sendable {
        case values([JSONValue])
        case deferred(DeferredElements)
    }

    private var storage: Storage
    /// `elementLines[i]` is the line of the first byte of element `i`.
    let elementLines: [Int]

    init(elements: [JSONValue], elementLines: [Int]) {
        precondition(elements.count == elementLines.count, "one line per element")
        storage = .values(elements)
        self.elementLines = elementLines
    }

    init(deferred: DeferredElements, elementLines: [Int]) {
        precondition(deferred.ranges.count == elementLines.count, "one line per element")
        storage = .deferred(deferred)
        self.elementLines = elementLines
    }

    var count: Int { elementLines.count }
    var isEmpty: Bool { elementLines.isEmpty }

    /// Element `index`, parsed now when the array is deferred.
    func element(_ index: Int) -> JSONValue {
        switch storage {
        case .values(let values): values[index]
        case .deferred(let deferred): deferred.element(index, line: elementLines[index])
        }
    }

    /// Every element, each parsed as it is reached.
    var lazyElements: LazyMapSequence<Range<Int>, JSONValue> { (0..<count).lazy.map(element) }

    /// Every element at once: for the short arrays inside one message (a deferred list is parsed whole).
    package var elements: [JSONValue] { Array(lazyElements) }

    /// Each element with the line it starts on, each parsed as it is reached.
    var elementsWithLines: LazyMapSequence<Range<Int>, (JSONValue, Int)> {
        (0..<count).lazy.map { (element($0), elementLines[$0]) }
    }

    package static func == (a: JSONArray, b: JSONArray) -> Bool {
        a.elementLines == b.elementLines && a.lazyElements.elementsEqual(b.lazyElements)
    }
}

/// Where the text of a deferred array's elements can be read again.
protocol JSONElementText: AnyObject, Sendable {
    /// Calls `body` with the bytes at `range` (offsets as the parser counted them), or returns nil
    /// when they cannot be read (a file changed or failed since it was parsed).
    func withBytes<R>(_ range: Range<Int>, _ body: (ByteView) -> R) -> R?
}

/// The bytes of a parsed document, shared by its deferred arrays.
final class JSONDocumentBytes: JSONElementText {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func withBytes<R>(_ range: Range<Int>, _ body: (ByteView) -> R) -> R? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        return bytes.withByteView { body($0.bytes(range)) }
    }
}

/// Where the elements of a deferred array lie in their document, and how to parse one again.
final class DeferredElements: Sendable {
    let text: any JSONElementText
    /// The byte range of each element (already parsed once, so known to be valid JSON).
    let ranges: [Range<Int>]
    let parser: JSONParser

    init(text: any JSONElementText, ranges: [Range<Int>], parser: JSONParser) {
        self.text = text
        self.ranges = ranges
        self.parser = parser
    }

    func element(_ index: Int, line: Int) -> JSONValue {
        let range = ranges[index]
        var parser = parser
        parser.deferring = .none
        let parsed: JSONValue?? = text.withBytes(range) { buffer in
            try? parser.parse(buffer, firstLine: line)
        }
        // The range parsed when the document was, so it parses again the same way unless the
        // file it is read from again has changed since: then the element is null.
        return (parsed ?? nil) ?? .null
    }
}

/// A JSON object: members in document order, plus the 1-based line its `{` was on.
package struct JSONObject: Sendable, Equatable {
    package var line: Int
    package var members: [(key: String, value: JSONValue)]

    init(line: Int, members: [(key: String, value: JSONValue)]) {
        self.line = line
        self.members = members
    }

    /// The last value for `key` (JSON leaves duplicates undefined; last-wins matches most parsers).
    /// Objects in chat exports have a few dozen keys at most, so a scan beats hashing.
    package subscript(key: String) -> JSONValue? {
        for member in members.reversed() where member.key == key { return member.value }
        return nil
    }

    /// The value for `key`, treating an explicit `null` as absent.
    package func present(_ key: String) -> JSONValue? {
        guard let value = self[key], value != .null else { return nil }
        return value
    }

    package static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.line == b.line && a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
