import BubbleLogs

/// One row's record as `heights` and `serve` write it: `row`, `conversation` (when the log has
/// conversations), `id`, `kind`, then the measured fields in order. Names and values are ours
/// (ASCII); the id, conversation and kind are escaped as every JSON output escapes strings.
struct RowRecord {
    var number: Int
    var conversation: String?
    var id: String
    var kind: String
    /// Each field's name and its value as written (a number).
    var fields: [(String, String)]

    /// The record as one JSON object, without a line end.
    func appendJSON(to out: inout OutputBuffer) {
        out.append("{\"row\":")
        out.append(number)
        if let conversation {
            out.append(",\"conversation\":")
            out.appendJSONString(conversation)
        }
        out.append(",\"id\":")
        out.appendJSONString(id)
        out.append(",\"kind\":")
        out.appendJSONString(kind)
        for (name, value) in fields {
            out.append(bytes: Array(",\"\(name)\":\(value)".utf8))
        }
        out.append("}")
    }

    /// The record as a CSV line's fields before the conversation column (`appendCSVRecordEnd`).
    func appendCSV(to out: inout OutputBuffer) {
        out.append(number)
        out.append(",")
        out.appendCSVField(id)
        out.append(",")
        out.appendCSVField(kind)
        for (_, value) in fields {
            out.append(",")
            out.append(bytes: Array(value.utf8))
        }
    }
}
