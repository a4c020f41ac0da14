import BubbleLogs

/// A line that is no request: the error to answer with, and the id when one was readable.
struct Refusal: Error {
    var id: JSONValue?
    var error: ServeError
}

/// One JSON-RPC 2.0 request line: its id (absent for a notification), method and named parameters.
struct ServeRequest {
    /// The id as written (a string or number), echoed in the response; nil for a notification.
    var id: JSONValue?
    var method: String
    var params: JSONObject

    /// The request in `line`, or why it is none: a parse error when the line is not JSON, an
    /// invalid request when it is not a request object (the id is kept when one was readable).
    static func parse(_ line: [UInt8]) -> Result<ServeRequest, Refusal> {
        let value: JSONValue
        do {
            value = try JSONParser.strict.parse(line)
        } catch {
            return .failure(Refusal(id: nil, error: .parse("not JSON: \(error.message) (line 1, column \(error.column))")))
        }
        guard let object = value.objectValue else {
            return .failure(Refusal(id: nil, error: .invalidRequest("a request is a JSON object, not \(value.kindName)")))
        }
        var id: JSONValue?
        if let given = object["id"] {
            switch given {
            case .string, .number, .null: id = given
            default: return .failure(Refusal(id: nil, error: .invalidRequest("id: expected a string or a number, found \(given.kindName)")))
            }
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return .failure(Refusal(id: id, error: .invalidRequest("jsonrpc: expected \"2.0\"")))
        }
        guard let method = object["method"]?.stringValue else {
            return .failure(Refusal(id: id, error: .invalidRequest("method: expected a string")))
        }
        let params: JSONObject
        switch object["params"] {
        case nil, .null?: params = .empty
        case .object(let given)?: params = given
        case let other?: return .failure(Refusal(id: id, error: .invalidParams("params: expected an object of named parameters, found \(other.kindName)")))
        }
        return .success(ServeRequest(id: id, method: method, params: params))
    }

    // MARK: Parameters

    /// Parameter `name` as a string; required unless `optional`.
    func string(_ name: String, optional: Bool = false) throws(ServeError) -> String? {
        switch params[name] {
        case nil, .null?:
            if optional { return nil }
            throw .invalidParams("\(name): missing (expected a string)")
        case .string(let text)?: return text
        case let other?: throw .invalidParams("\(name): expected a string, found \(other.kindName)")
        }
    }

    /// Parameter `name` as an integer in `range`; nil when absent and `optional`.
    func integer(_ name: String, in range: ClosedRange<Int>, optional: Bool = false) throws(ServeError) -> Int? {
        switch params[name] {
        case nil, .null?:
            if optional { return nil }
            throw .invalidParams("\(name): missing (expected an integer from \(range.lowerBound) to \(range.upperBound))")
        case .number(let literal)?:
            guard let value = Int(literal), range.contains(value) else {
                throw .invalidParams("\(name): expected an integer from \(range.lowerBound) to \(range.upperBound), found \(literal.prefix(24))")
            }
            return value
        case let other?: throw .invalidParams("\(name): expected an integer, found \(other.kindName)")
        }
    }

    /// Parameter `name` as an array; nil when absent and `optional`.
    func array(_ name: String, optional: Bool = false) throws(ServeError) -> [JSONValue]? {
        switch params[name] {
        case nil, .null?:
            if optional { return nil }
            throw .invalidParams("\(name): missing (expected an array)")
        case .array(let array)?: return array.elements
        case let other?: throw .invalidParams("\(name): expected an array, found \(other.kindName)")
        }
    }

    /// Parameter `name` as an object; nil when absent.
    func object(_ name: String) throws(ServeError) -> JSONObject? {
        switch params[name] {
        case nil, .null?: return nil
        case .object(let object)?: return object
        case let other?: throw .invalidParams("\(name): expected an object, found \(other.kindName)")
        }
    }

    /// Parameter `name` as a list of strings (message ids).
    func strings(_ name: String) throws(ServeError) -> [String] {
        guard let values = try array(name) else { return [] }
        var strings: [String] = []
        for (i, value) in values.enumerated() {
            guard let text = value.identifierValue else {
                throw .invalidParams("\(name)[\(i)]: expected a string, found \(value.kindName)")
            }
            strings.append(text)
        }
        return strings
    }
}

/// Response lines: one JSON object each, without the line end.
enum ServeResponse {
    /// `{"jsonrpc":"2.0","id":…,"result":RESULT}`, `result` already JSON.
    static func result(id: JSONValue, _ result: String) -> String {
        "{\"jsonrpc\":\"2.0\",\"id\":\(id.jsonText),\"result\":\(result)}"
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}`; the id is null when unknown.
    static func error(id: JSONValue?, _ error: ServeError) -> String {
        "{\"jsonrpc\":\"2.0\",\"id\":\((id ?? .null).jsonText),\"error\":{\"code\":\(error.code),\"message\":\(JSONString.quoted(error.message))}}"
    }
}
