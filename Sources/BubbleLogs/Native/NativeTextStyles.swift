import BubbleLayout

/// The native `styles` member of a text record: the message's styled stretches, each
/// `{"style":"bold","from":0,"to":4}`, `from` and `to` counted in Unicode scalars of `text` (as
/// Python and Swift's `unicodeScalars` count characters), `to` past the last. Styles are
/// `TextSpanStyle`'s names; one we do not know is ignored, as unknown fields are.
enum NativeTextStyles {
    /// The members written for `spans` (UTF-8 offsets into `text`, on scalar boundaries).
    static func fields(_ spans: [TextSpan], in text: String) -> [NativeRecordFields] {
        let offsets = ScalarOffsets(text)
        return spans.compactMap { span in
            guard let from = offsets.scalarIndex(ofUTF8: span.start), let to = offsets.scalarIndex(ofUTF8: span.end), from < to else { return nil }
            var fields = NativeRecordFields()
            fields.add("style", span.style.rawValue)
            fields.add("from", from)
            fields.add("to", to)
            return fields
        }
    }

    /// The spans `value` describes over `text`, or why it cannot be read.
    static func spans(_ value: JSONValue, in text: String) throws(NativeRecordProblem) -> [TextSpan] {
        guard let elements = value.arrayValue else { throw .wrongType("styles", expected: "an array", found: value) }
        let offsets = ScalarOffsets(text)
        var spans: [TextSpan] = []
        for element in elements {
            guard let object = element.objectValue else {
                throw .wrongType("styles", expected: "an array of objects", found: element)
            }
            guard let styleValue = object.present("style") else { throw .missingField("styles[].style") }
            guard let name = styleValue.stringValue else { throw .wrongType("styles[].style", expected: "a string", found: styleValue) }
            var bounds: [Int] = []
            for key in ["from", "to"] {
                guard let bound = object.present(key) else { throw .missingField("styles[].\(key)") }
                guard let n = bound.intValue, n >= 0, n <= offsets.scalarCount else {
                    throw .wrongType("styles[].\(key)", expected: "an integer from 0 to the text's \(offsets.scalarCount) characters", found: bound)
                }
                bounds.append(n)
            }
            guard bounds[0] < bounds[1] else {
                throw .wrongType("styles[].to", expected: "greater than from (\(bounds[0]))", found: .number(String(bounds[1])))
            }
            guard let style = TextSpanStyle(rawValue: name) else { continue }
            spans.append(TextSpan(start: offsets.utf8Offset(ofScalar: bounds[0]), end: offsets.utf8Offset(ofScalar: bounds[1]), style: style))
        }
        return spans
    }
}

/// UTF-8 offsets of a text's scalars, both ways.
struct ScalarOffsets {
    /// `starts[i]`: the UTF-8 offset of scalar `i`; the last entry is the text's UTF-8 count.
    private var starts: [Int] = []

    init(_ text: String) {
        var offset = 0
        starts.reserveCapacity(text.utf8.count + 1)
        for scalar in text.unicodeScalars {
            starts.append(offset)
            offset += UTF8.width(scalar)
        }
        starts.append(offset)
    }

    var scalarCount: Int { starts.count - 1 }

    func utf8Offset(ofScalar index: Int) -> Int { starts[index] }

    /// The scalar at UTF-8 offset `offset`; nil inside a scalar or past the text.
    func scalarIndex(ofUTF8 offset: Int) -> Int? {
        var low = 0, high = starts.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if starts[mid] == offset { return mid }
            if starts[mid] < offset { low = mid + 1 } else { high = mid - 1 }
        }
        return nil
    }
}
