// libFuzzer harness: `bubbles serve`'s request handling (ServeService), fed random request lines.
// Each input is split into lines and handed to a fresh service after a fixed preamble opens two
// conversations, "control" and "target", and appends the same messages to both. Invariants: the
// service never crashes; every request line with a readable id gets exactly one response and a
// notification none; every response is one line of valid JSON; and "control", which no input
// line may name, keeps exactly the rows it had (a request never changes a conversation it was
// not asked to).
@testable import BubblesCLI
@testable import BubbleLogs
import Foundation

final class Responses: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    func take() -> [String] { lock.withLock { defer { lines = [] }; return lines } }
}

let preambleMessages = """
[{"id":"1","type":"text","from":"Ana","date":"2024-05-01T09:00:00Z","text":"Hello there, a message long enough to wrap"},\
{"id":"2","type":"text","from":"Bo","date":"2024-05-01T09:01:00Z","text":"שלום עולם and more"},\
{"id":"3","type":"image","from":"Ana","date":"2024-05-02T09:00:00Z","image":"a.jpg","width":640,"height":480},\
{"id":"4","type":"system","date":"2024-05-02T09:05:00Z","text":"Bo joined"}]
"""

func rowsOfControl(_ service: ServeService, _ responses: Responses) -> String {
    service.handle(Array(#"{"jsonrpc":"2.0","id":"control-rows","method":"rows","params":{"conversation":"control"}}"#.utf8)) { responses.add($0) }
    service.drain()
    let lines = responses.take()
    require(lines.count == 1, "one response to rows, got \(lines.count)")
    return lines[0]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let service = ServeService(defaultTimeZone: TimeZone(identifier: "UTC")!, budget: 8 << 20)
    let responses = Responses()
    for name in ["control", "target"] {
        service.handle(Array(#"{"jsonrpc":"2.0","id":0,"method":"open","params":{"conversation":"\#(name)","width":30}}"#.utf8)) { responses.add($0) }
        service.handle(Array(#"{"jsonrpc":"2.0","id":0,"method":"append","params":{"conversation":"\#(name)","messages":\#(preambleMessages)}}"#.utf8)) { responses.add($0) }
    }
    service.drain()
    require(responses.take().allSatisfy { $0.contains("\"result\"") }, "the preamble was refused")
    let before = rowsOfControl(service, responses)
    var expected = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
        let request = Array(line)
        // "control" is named by no input: the invariant is about conversations not asked to change.
        if request.count >= 7, String(decoding: request, as: UTF8.self).contains("control") { continue }
        if request.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
        switch ServeRequest.parse(request) {
        case .success(let parsed): if parsed.id != nil { expected += 1 }
        case .failure: expected += 1
        }
        service.handle(request) { responses.add($0) }
    }
    service.drain()
    let answered = responses.take()
    require(answered.count == expected, "\(expected) responses expected, \(answered.count) written")
    for response in answered {
        require(!response.contains("\n"), "a response spans lines")
        guard case .object(let object)? = try? JSONParser.strict.parse(Array(response.utf8)) else {
            invariantFailed("a response is not a JSON object: \(response.prefix(200))", file: #fileID, line: #line)
        }
        require(object["jsonrpc"] == .string("2.0"), "a response without jsonrpc 2.0")
        require((object["result"] == nil) != (object["error"] == nil), "a response with neither or both of result and error")
    }
    require(rowsOfControl(service, responses) == before, "a request changed the control conversation")
    return 0
}
