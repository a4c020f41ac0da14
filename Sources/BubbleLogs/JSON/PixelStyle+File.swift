import BubbleLayout

extension PixelStyle {
    /// The style in the JSON file at `path` (`--style`): read with our JSON parser, so a syntax
    /// error names its line and column as the log inputs' do; the keys are checked by
    /// `PixelStyle(fields:file:)`.
    package init(contentsOf path: String) throws(PixelStyleError) {
        switch FileBytes.read(path) {
        case .success(let bytes): try self.init(json: bytes, file: path)
        case .failure(let error): throw PixelStyleError(file: path, reason: error.reason)
        }
    }

    /// A style from a JSON object of style keys; `file` names the source in errors.
    package init(json bytes: [UInt8], file: String) throws(PixelStyleError) {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw PixelStyleError(file: file, line: error.line, column: error.column, reason: "not valid JSON: \(error.message)")
        }
        guard let object = value.objectValue else {
            throw PixelStyleError(file: file, reason: "expected a JSON object of style keys, found \(value.described)")
        }
        try self.init(fields: object.members.map { member in
            let value: PixelStyleValue = switch member.value {
            case .number(let literal): .number(literal)
            case .bool(let flag): .boolean(flag)
            default: .other(member.value.kindName)
            }
            return (member.key, value)
        }, file: file)
    }
}
