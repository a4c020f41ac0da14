extension JSONParser {
    /// A strict parser with the default depth limit and no `\xHH` escapes.
    package static var strict: JSONParser { JSONParser() }
}

extension JSONValue {
    /// The value written back as one line of JSON: members in document order, number literals as
    /// they were read (so ids beyond 2^53 keep every digit), strings escaped as every JSON output
    /// here escapes them (`JSONString.quoted`). Reading the result gives an equal value.
    package var jsonText: String {
        var out = ""
        append(to: &out)
        return out
    }

    private func append(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let literal): out += literal
        case .string(let text): JSONObjectWriter.appendQuoted(text, to: &out)
        case .array(let array):
            out += "["
            for (i, element) in array.elements.enumerated() {
                if i > 0 { out += "," }
                element.append(to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { out += "," }
                JSONObjectWriter.appendQuoted(member.key, to: &out)
                out += ":"
                member.value.append(to: &out)
            }
            out += "}"
        }
    }
}

extension JSONObject {
    /// An object with no members.
    package static var empty: JSONObject { JSONObject(line: 1, members: []) }
}
