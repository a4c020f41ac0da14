// libFuzzer harness: the JSON parser (strict, and with Telegram's \xHH escapes).
// Invariants: a parse never crashes; a value written back and parsed again is the same value;
// the \xHH mode accepts everything strict mode does, as the same value; an error names a line
// and column inside the input; whatever we accept, Foundation's independent parser accepts too
// (when its numbers fit a Double, as Foundation requires).
import Foundation
@testable import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    func parse(_ parser: JSONParser) throws(JSONSyntaxError) -> JSONValue {
        try input.withByteView { (bytes) throws(JSONSyntaxError) in try parser.parse(bytes) }
    }
    let strict: JSONValue
    do {
        strict = try parse(JSONParser())
    } catch {
        checkPosition(error, input)
        if let lenient = try? parse(JSONParser(allowsHexEscapes: true)) { _ = written(lenient) }
        return 0
    }
    let text = written(strict)
    let again: JSONValue
    do {
        again = try JSONParser().parse(Array(text.utf8))
    } catch {
        require(false, "our own writing of an accepted value is rejected: \(error.message) in \(text.debugDescription)")
        return 0
    }
    require(written(again) == text, "written back, the value changes: \(text.debugDescription)")
    do {
        let lenient = try parse(JSONParser(allowsHexEscapes: true))
        require(written(lenient) == text, "the \\xHH mode reads accepted JSON differently")
    } catch {
        require(false, "the \\xHH mode rejects what strict mode accepts: \(error.message)")
    }
    // Foundation refuses numbers beyond Double's range, which JSON leaves to the reader.
    if String(validating: input, as: UTF8.self) != nil && numbersAreFinite(strict) {
        require((try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed])) != nil,
                "we accept what Foundation rejects: \(text.prefix(200).debugDescription)")
    }
    return 0
}

private func numbersAreFinite(_ value: JSONValue) -> Bool {
    switch value {
    case .number(let literal): return Double(literal)?.isFinite ?? false
    case .array(let array): return array.elements.allSatisfy(numbersAreFinite)
    case .object(let object): return object.members.allSatisfy { numbersAreFinite($0.value) }
    default: return true
    }
}

/// The value on one line, numbers as their literal text: equal texts mean equal values.
private func written(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let literal): return literal
    case .string(let string): return JSONString.quoted(string)
    case .array(let array): return "[" + array.elements.map(written).joined(separator: ",") + "]"
    case .object(let object):
        return "{" + object.members.map { JSONString.quoted($0.key) + ":" + written($0.value) }.joined(separator: ",") + "}"
    }
}

private func checkPosition(_ error: JSONSyntaxError, _ bytes: [UInt8]) {
    require(!error.message.isEmpty, "a syntax error with no message")
    var lineStarts = [0]
    for (offset, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
    require(error.line >= 1 && error.line <= lineStarts.count,
            "error on line \(error.line) of \(lineStarts.count): \(error.message)")
    let lineLength = (error.line < lineStarts.count ? lineStarts[error.line] : bytes.count + 1) - lineStarts[error.line - 1]
    require(error.column >= 1 && error.column <= lineLength + 1,
            "error at column \(error.column) of a \(lineLength)-byte line: \(error.message)")
}
