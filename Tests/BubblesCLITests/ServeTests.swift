import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// `bubbles serve`: JSON-RPC requests answered in process and through real pipes and a Unix socket,
/// with rows compared to what `heights` prints for the same records and options.
@Suite struct ServeTests {
    /// The JSON Lines records of a corpus log, each parsed (for building requests).
    static func records(_ log: String) throws -> [Any] {
        let text = try String(contentsOfFile: corpus(log), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }

    static func line(_ id: Int?, _ method: String, _ params: [String: Any]) throws -> String {
        var request: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params]
        if let id { request["id"] = id }
        return String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
    }

    /// The service answering `lines` in process, in the order given; the responses by id (the
    /// ones without an id under -1, in order).
    static func serve(_ lines: [String], budget: Int = 512 << 20) -> (byID: [Int: String], unnumbered: [String]) {
        let service = ServeService(defaultTimeZone: TimeZone(identifier: "UTC")!, budget: budget)
        let collected = Collected()
        for line in lines { service.handle(Array(line.utf8)) { collected.add($0) } }
        service.drain()
        var byID: [Int: String] = [:]
        var unnumbered: [String] = []
        for response in collected.lines {
            let object = try? JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any]
            if let id = object?["id"] as? Int { byID[id] = response } else { unnumbered.append(response) }
        }
        return (byID, unnumbered)
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
    }

    /// The row objects of a `{"result":{"rows":[…]}}` response, byte for byte as written.
    static func rowObjects(_ response: String) -> [String] {
        guard let start = response.range(of: "\"rows\":["), let end = response.range(of: "],\"count\":") else { return [] }
        let inner = response[start.upperBound..<end.lowerBound]
        guard !inner.isEmpty else { return [] }
        return inner.components(separatedBy: "},{").enumerated().map { i, part in
            var object = part
            if !object.hasPrefix("{") { object = "{" + object }
            if !object.hasSuffix("}") { object += "}" }
            return object
        }
    }

    static func result(_ response: String?) throws -> [String: Any] {
        let text = try #require(response)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(object["result"] as? [String: Any], "not a result: \(text)")
    }

    static func errorMessage(_ response: String?) throws -> (code: Int, message: String) {
        let text = try #require(response)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any], "not an error: \(text)")
        let code = try #require(error["code"] as? Int)
        let message = try #require(error["message"] as? String)
        return (code, message)
    }

    @Test(arguments: [("logs/sample.jsonl", 60), ("logs/sample.jsonl", 23), ("logs/hostile.jsonl", 70), ("logs/conversations.jsonl", 44)])
    func rowsAreTheRecordsHeightsPrints(log: String, width: Int) throws {
        let records = try Self.records(log).map { record -> Any in
            // One conversation a service conversation: the field that names another is dropped.
            guard var object = record as? [String: Any] else { return record }
            object["conversation"] = nil
            return object
        }
        let single = try records.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(getpid())-\(width)-\(log.hashValue).jsonl").path
        try single.write(toFile: file, atomically: false, encoding: .utf8)
        let heights = bubbles("heights", file, "--width", String(width), "--tz", "UTC")
        let responses = Self.serve([
            try Self.line(1, "open", ["conversation": "c", "width": width]),
            try Self.line(2, "append", ["conversation": "c", "messages": records]),
            try Self.line(3, "rows", ["conversation": "c"]),
        ])
        let rows = Self.rowObjects(try #require(responses.byID[3]))
        #expect(rows == heights.outputLines.map(String.init))
        #expect(rows.count > 5)
        #expect(try Self.result(responses.byID[3])["count"] as? Int == rows.count)
    }

    @Test func pointsRowsAreTheRecordsHeightsFontPrints() throws {
        let fonts = [corpus("fonts/NotoSans-Subset.ttf"), corpus("fonts/NotoSansCJK-Subset.ttc"), corpus("fonts/NotoColorEmoji-Subset.ttf")]
        let heights = bubbles(["heights", corpus("logs/sample.jsonl"), "--width", "320", "--tz", "UTC", "--size", "16", "--line-height", "20"]
                              + fonts.flatMap { ["--font", $0] })
        let responses = Self.serve([
            try Self.line(1, "open", ["conversation": "p", "width": 320, "units": "points", "fonts": fonts, "size": 16, "lineHeight": 20]),
            try Self.line(2, "append", ["conversation": "p", "messages": try Self.records("logs/sample.jsonl")]),
            try Self.line(3, "rows", ["conversation": "p"]),
        ])
        let rows = Self.rowObjects(try #require(responses.byID[3]))
        #expect(rows.count > 100)
        #expect(rows == heights.outputLines.map(String.init))
    }

    @Test func changesAnswerTheRowsTheyLaidOutAndMatchABatchOfTheResult() throws {
        var records = try Self.records("logs/sample.jsonl").compactMap { $0 as? [String: Any] }
        let first = Array(records.prefix(20))
        var edited = records[5]
        edited["text"] = "An edit long enough to take this bubble onto a second line and then a third one at this width"
        let removedID = try #require(records[9]["id"] as? String)
        let responses = Self.serve([
            try Self.line(1, "open", ["conversation": "c", "width": 40]),
            try Self.line(2, "append", ["conversation": "c", "messages": first]),
            try Self.line(3, "update", ["conversation": "c", "messages": [edited]]),
            try Self.line(4, "remove", ["conversation": "c", "ids": [removedID]]),
            try Self.line(5, "resize", ["conversation": "c", "width": 33]),
            try Self.line(6, "rows", ["conversation": "c"]),
            try Self.line(7, "rows", ["conversation": "c", "ids": [edited["id"]!]]),
            try Self.line(8, "rows", ["conversation": "c", "from": 3, "to": 6]),
        ])
        #expect(Self.rowObjects(try #require(responses.byID[2])).count >= 20)
        let updated = Self.rowObjects(try #require(responses.byID[3]))
        #expect(updated.contains { $0.contains("\"id\":\"\(edited["id"]!)\"") })
        #expect(!Self.rowObjects(try #require(responses.byID[4])).contains { $0.contains("\"id\":\"\(removedID)\"") })
        // The same records, edited and less one, laid out whole by heights at the new width.
        records = Array(records.prefix(20))
        records[5] = edited
        records.remove(at: 9)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("serve-changes-\(getpid()).jsonl").path
        try records.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n")
            .write(toFile: file, atomically: false, encoding: .utf8)
        let expected = bubbles("heights", file, "--width", "33", "--tz", "UTC").outputLines.map(String.init)
        #expect(Self.rowObjects(try #require(responses.byID[6])) == expected)
        #expect(Self.rowObjects(try #require(responses.byID[8])) == Array(expected[3..<6]))
        let byID = Self.rowObjects(try #require(responses.byID[7]))
        #expect(byID.last == expected.first { $0.contains("\"id\":\"\(edited["id"]!)\"") })
    }

    @Test func badRequestsGetErrorsNamingTheFieldAndTheServiceGoesOn() throws {
        let responses = Self.serve([
            "not json at all",
            "[1,2]",
            #"{"jsonrpc":"2.0","id":1,"method":"open","params":{"conversation":"c"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"open","params":{"conversation":"c","width":"wide"}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"open","params":{"conversation":"c","width":40,"units":"inches"}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"open","params":{"conversation":"c","width":40,"timeZone":"PST"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"append","params":{"conversation":"nobody","messages":[]}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"frobnicate"}"#,
            #"{"jsonrpc":"1.0","id":7,"method":"stats"}"#,
            #"{"jsonrpc":"2.0","id":8,"method":"open","params":{"conversation":"c","width":40,"units":"points","fonts":["/nonexistent/font.ttf"]}}"#,
            #"{"jsonrpc":"2.0","id":9,"method":"open","params":{"conversation":"c","width":40}}"#,
            #"{"jsonrpc":"2.0","id":10,"method":"append","params":{"conversation":"c","messages":[{"id":"a","type":"text","from":"Ana","date":"2024-05-01T09:00:00Z","text":"hi"},{"id":"b","type":"text"},"stray"]}}"#,
            #"{"jsonrpc":"2.0","method":"stats"}"#,
            #"{"jsonrpc":"2.0","id":11,"method":"open","params":{"conversation":"c","width":40}}"#,
            #"{"jsonrpc":"2.0","id":12,"method":"rows","params":{"conversation":"c","ids":["a"],"from":0}}"#,
        ])
        #expect(responses.unnumbered.count == 2)  // the two lines that are no request; the notification gets nothing
        #expect(try Self.errorMessage(responses.unnumbered.first).code == -32700)
        #expect(try Self.errorMessage(responses.byID[1]).message.hasPrefix("width: missing"))
        #expect(try Self.errorMessage(responses.byID[2]).message.hasPrefix("width: expected an integer"))
        #expect(try Self.errorMessage(responses.byID[3]).message.hasPrefix("units:"))
        #expect(try Self.errorMessage(responses.byID[4]).message.hasPrefix("timeZone:"))
        #expect(try Self.errorMessage(responses.byID[5]).code == -32001)
        #expect(try Self.errorMessage(responses.byID[6]).code == -32601)
        #expect(try Self.errorMessage(responses.byID[7]).message.hasPrefix("jsonrpc:"))
        #expect(try Self.errorMessage(responses.byID[8]).message.hasPrefix("fonts:"))
        let appended = try Self.result(responses.byID[10])
        let rejected = try #require(appended["rejected"] as? [[String: Any]])
        #expect(rejected.map { $0["index"] as? Int } == [1, 2])
        #expect((appended["rows"] as? [Any])?.count == 2)  // the date row and the one good message
        #expect(try Self.errorMessage(responses.byID[11]).message.contains("already open"))
        #expect(try Self.errorMessage(responses.byID[12]).message.hasPrefix("ids:"))
    }

    @Test func aRequestNeverChangesAConversationItWasNotAskedTo() throws {
        let records = try Self.records("logs/sample.jsonl")
        let responses = Self.serve([
            try Self.line(1, "open", ["conversation": "a", "width": 50]),
            try Self.line(2, "open", ["conversation": "b", "width": 50]),
            try Self.line(3, "append", ["conversation": "a", "messages": records]),
            try Self.line(4, "append", ["conversation": "b", "messages": records]),
            try Self.line(5, "rows", ["conversation": "a"]),
            try Self.line(6, "update", ["conversation": "b", "messages": [["id": "m001", "type": "text", "from": "Yuki", "date": "2024-05-01T00:02:00Z", "text": String(repeating: "changed ", count: 30)]]]),
            try Self.line(7, "remove", ["conversation": "b", "ids": ["m002"]]),
            try Self.line(8, "resize", ["conversation": "b", "width": 20]),
            try Self.line(9, "rows", ["conversation": "a"]),
        ])
        #expect(Self.rowObjects(try #require(responses.byID[5])) == Self.rowObjects(try #require(responses.byID[9])))
    }

    @Test func overTheBudgetLayoutsAreDroppedAndRebuiltNeverLost() throws {
        let records = try Self.records("logs/sample.jsonl")
        var lines: [String] = []
        for c in 0..<6 {
            lines.append(try Self.line(10 * c + 1, "open", ["conversation": "c\(c)", "width": 48]))
            lines.append(try Self.line(10 * c + 2, "append", ["conversation": "c\(c)", "messages": records]))
        }
        lines.append(try Self.line(100, "rows", ["conversation": "c0"]))
        lines.append(try Self.line(101, "stats", [:]))
        let small = Self.serve(lines, budget: 600 << 10)
        let large = Self.serve(lines)
        #expect(Self.rowObjects(try #require(small.byID[100])) == Self.rowObjects(try #require(large.byID[100])))
        #expect(try Self.result(small.byID[101])["layoutsDropped"] as? Int ?? 0 > 0)
        #expect(try Self.result(large.byID[101])["layoutsDropped"] as? Int == 0)
        #expect(try Self.result(small.byID[101])["conversations"] as? Int == 6)
        // Messages past the budget are refused, not dropped.
        let refused = Self.serve([try Self.line(1, "open", ["conversation": "c", "width": 40]),
                                  try Self.line(2, "append", ["conversation": "c", "messages": records])], budget: 4096)
        #expect(try Self.errorMessage(refused.byID[2]).code == -32002)
    }

    // MARK: Real pipes and sockets

    /// `bubbles serve ARGUMENTS` as a child with pipes on standard input and output.
    final class Child {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var buffered: [UInt8] = []

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: try #require(TmuxSession.bubblesBinary))
            process.arguments = ["serve"] + arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        /// The next response line (waits for it).
        func receive() -> String? {
            while true {
                if let newline = buffered.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffered[..<newline], as: UTF8.self)
                    buffered.removeFirst(newline + 1)
                    return line
                }
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return nil }
                buffered += data
            }
        }

        func finish() -> Int32 {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    @Test(.enabled(if: TmuxSession.bubblesBinary != nil))
    func throughRealPipesEndOfInputClosesTheServiceCleanly() throws {
        let child = try Child([])
        child.send(try Self.line(1, "open", ["conversation": "c", "width": 60, "timeZone": "UTC"]))
        child.send(try Self.line(2, "append", ["conversation": "c", "messages": try Self.records("logs/sample.jsonl")]))
        child.send(try Self.line(3, "rows", ["conversation": "c"]))
        var responses: [Int: String] = [:]
        for _ in 0..<3 {
            let line = try #require(child.receive())
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            responses[try #require(object["id"] as? Int)] = line
        }
        #expect(child.finish() == 0)
        let heights = bubbles("heights", corpus("logs/sample.jsonl"), "--width", "60", "--tz", "UTC")
        #expect(Self.rowObjects(try #require(responses[3])) == heights.outputLines.map(String.init))
    }

    @Test(.enabled(if: TmuxSession.bubblesBinary != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func thePythonClientExampleDrivesTheService() throws {
        let script = corpus("../Tools/serve/client.py")
        let output = spawn("/usr/bin/python3", [script, "--bubbles", try #require(TmuxSession.bubblesBinary), "--check", corpus("logs/sample.jsonl")])
        #expect(output.contains("rows match heights"), "\(output)")
    }

    @Test(.enabled(if: TmuxSession.bubblesBinary != nil))
    func aUnixSocketServesSeveralClientsWithMode0600() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-serve-\(getpid()).sock").path
        let server = Process()
        server.executableURL = URL(fileURLWithPath: try #require(TmuxSession.bubblesBinary))
        server.arguments = ["serve", "--listen", "unix:" + path]
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        var waited = 0
        while !FileManager.default.fileExists(atPath: path) && waited < 200 {
            usleep(20_000)
            waited += 1
        }
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)
        let first = try SocketClient(path: path)
        let second = try SocketClient(path: path)
        first.send(try Self.line(1, "open", ["conversation": "shared", "width": 40]))
        #expect(first.receive()?.contains("\"result\"") == true)
        second.send(try Self.line(2, "append", ["conversation": "shared", "messages": try Self.records("logs/sample.jsonl")]))
        #expect(second.receive()?.contains("\"rows\"") == true)
        first.send(try Self.line(3, "stats", [:]))
        let stats = try Self.result(first.receive())
        #expect((stats["messages"] as? Int ?? 0) > 100)
        server.terminate()
        server.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A client of a Unix-domain socket, reading lines.
    final class SocketClient {
        let fd: Int32
        private var buffered: [UInt8] = []

        init(path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(connected == 0)
        }

        deinit { close(fd) }

        func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }

        func receive() -> String? {
            while true {
                if let newline = buffered.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffered[..<newline], as: UTF8.self)
                    buffered.removeFirst(newline + 1)
                    return line
                }
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { return nil }
                buffered += chunk[..<count]
            }
        }
    }
}
