// Counts the public and open declarations of modules from the symbol graphs the compiler emits
// (`-emit-symbol-graph`, minimum access level public), and lists those without a doc comment.
//
//     count-public [--list] GRAPH_DIRECTORY MODULE=LIMIT...
//
// A declaration is a symbol of the module's graph (`MODULE.symbols.json`) or of its extensions of
// other modules' types (`MODULE@OTHER.symbols.json`) that is written in the source: members the
// compiler makes (an enum's `init(rawValue:)`, a protocol's default implementations shown on a
// conforming type) have no source location and are not counted. Enum cases and protocol
// requirements count. The module's DocC landing page (`Sources/MODULE/MODULE.docc/MODULE.md`, run
// from the package root) states the count as "N public declarations", and must state this one.
// Exit status 1 when a module has more declarations than its limit, one without a doc comment or
// a landing page stating another count; 2 for wrong arguments or unreadable graphs.
import Foundation

struct Graph: Decodable {
    struct Symbol: Decodable {
        struct Kind: Decodable { let identifier: String }
        struct Identifier: Decodable { let precise: String }
        struct Location: Decodable {
            struct Position: Decodable { let line: Int }
            let uri: String
            let position: Position
        }
        struct DocComment: Decodable {
            struct Line: Decodable { let text: String }
            let lines: [Line]
        }
        let kind: Kind
        let identifier: Identifier
        let pathComponents: [String]
        let accessLevel: String
        let location: Location?
        let docComment: DocComment?
    }
    let symbols: [Symbol]
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(("count-public: " + message + "\n").utf8))
    exit(status)
}

var arguments = CommandLine.arguments.dropFirst()
let list = arguments.first == "--list"
if list { arguments = arguments.dropFirst() }
guard let directory = arguments.first, arguments.count >= 2 else {
    fail("usage: count-public [--list] GRAPH_DIRECTORY MODULE=LIMIT...", status: 2)
}
let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
let root = FileManager.default.currentDirectoryPath + "/"
var failed = false

for argument in arguments.dropFirst() {
    let parts = argument.split(separator: "=")
    guard parts.count == 2, let limit = Int(parts[1]) else { fail("expected MODULE=LIMIT, got '\(argument)'", status: 2) }
    let module = String(parts[0])
    let graphs = files.filter { $0 == "\(module).symbols.json" || ($0.hasPrefix("\(module)@") && $0.hasSuffix(".symbols.json")) }
    guard graphs.contains("\(module).symbols.json") else { fail("no symbol graph for \(module) in \(directory)", status: 2) }
    var declarations: [Graph.Symbol] = []
    var seen = Set<String>()
    for file in graphs.sorted() {
        guard let data = FileManager.default.contents(atPath: directory + "/" + file),
              let graph = try? JSONDecoder().decode(Graph.self, from: data) else { fail("cannot read \(directory)/\(file)", status: 2) }
        for symbol in graph.symbols where symbol.location != nil && !symbol.identifier.precise.contains("::SYNTHESIZED::")
            && (symbol.accessLevel == "public" || symbol.accessLevel == "open") && seen.insert(symbol.identifier.precise).inserted {
            declarations.append(symbol)
        }
    }
    let undocumented = declarations.filter { symbol in
        !(symbol.docComment?.lines.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty } ?? false)
    }
    let over = declarations.count > limit
    print("\(module): \(declarations.count) public declarations (limit \(limit)), \(undocumented.count) without a doc comment")
    for symbol in undocumented.sorted(by: { ($0.location!.uri, $0.location!.position.line) < ($1.location!.uri, $1.location!.position.line) }) {
        var path = symbol.location!.uri.replacingOccurrences(of: "file://", with: "")
        if path.hasPrefix(root) { path.removeFirst(root.count) }
        print("  undocumented: \(path):\(symbol.location!.position.line + 1): \(symbol.pathComponents.joined(separator: ".")) (\(symbol.kind.identifier))")
    }
    if list {
        for symbol in declarations {
            print("  \(symbol.accessLevel): \(symbol.pathComponents.joined(separator: ".")) (\(symbol.kind.identifier))")
        }
    }
    if over || !undocumented.isEmpty { failed = true }
    let landing = "Sources/\(module)/\(module).docc/\(module).md"
    if let page = try? String(contentsOfFile: landing, encoding: .utf8) {
        let stated = page.components(separatedBy: " public declarations").dropLast().compactMap { before in
            Int(before.split(whereSeparator: { $0 == " " || $0 == "\n" }).last ?? "")
        }
        if stated.isEmpty || stated.contains(where: { $0 != declarations.count }) {
            print("  \(landing) must say \"\(declarations.count) public declarations\" (it says \(stated.map(String.init).joined(separator: ", ")))")
            failed = true
        }
    }
    if over { print("  \(module) has \(declarations.count - limit) public declarations more than its limit") }
}
exit(failed ? 1 : 0)
