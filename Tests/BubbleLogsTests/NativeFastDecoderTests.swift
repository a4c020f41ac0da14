import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
@testable import BubbleLogs
import Foundation
import Testing

/// The byte-level decoder takes a line only when it decodes it exactly as the full parser and
/// decoder do; every other line (and so every diagnostic) is left to them.
@Suite struct NativeFastDecoderTests {
    static func full(_ line: [UInt8], me: String?) -> (any LogRecord)? {
        guard let value = try? JSONParser().parse(line), let object = value.objectValue else { return nil }
        return try? NativeRecordDecoder(me: me).decode(object)
    }

    static func fast(_ line: [UInt8], me: String?) -> (any LogRecord)? {
        line.withByteView { NativeFastDecoder(me: me).decode($0) }
    }

    /// What `transcribe` writes for `line`, and what it says of the record; nil when it declines.
    static func transcribed(_ line: [UInt8], me: String?) -> (line: String, isOutgoing: Bool, sender: String?)? {
        var out = OutputBuffer(capacity: 8)
        out.append("previous\n")
        let done = line.withByteView { NativeFastDecoder(me: me).transcribe($0, into: &out) }
        let written = String(decoding: out.bytes, as: UTF8.self)
        guard let done else {
            // Nothing is left behind by a line given up half way.
            return written == "previous\n" ? nil : ("left behind: " + written, false, nil)
        }
        return (String(written.dropFirst("previous\n".count)), done.isOutgoing, done.sender)
    }

    /// The fast decoder and the transcriber take the same lines, and agree with the full path:
    /// the same record, and the bytes its `nativeLine` would be.
    func check(_ line: [UInt8], me: String?) -> (taken: Bool, agrees: Bool) {
        let written = Self.transcribed(line, me: me)
        guard let fast = Self.fast(line, me: me) else { return (false, written == nil) }
        guard let full = Self.full(line, me: me), let written else { return (true, false) }
        return (true, fast.isSameRecord(as: full) && written.line == full.nativeLine + "\n"
                    && written.isOutgoing == (full.direction == .outgoing) && written.sender == full.senderName)
    }

    @Test func everyFixtureLineDecodesAsTheFullPathDecodesIt() throws {
        var taken = 0
        for file in ["logs/sample.jsonl", "logs/hostile.jsonl", "logs/bad.jsonl"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus(file))))
            // Lines that are not UTF-8 are rejected before either decoder sees them.
            for line in bytes.split(separator: 0x0A) where String(validating: line, as: UTF8.self) != nil {
                for me in [nil, "Sam"] as [String?] {
                    let result = check(Array(line), me: me)
                    #expect(result.agrees, "\(file): \(String(decoding: line, as: UTF8.self))")
                    if result.taken { taken += 1 }
                }
            }
        }
        #expect(taken > 200)
    }

    /// Random edits of valid lines (bytes dropped, doubled or replaced by JSON punctuation): the
    /// fast path either declines or agrees with the full one, never decodes what it rejects.
    @Test func mutatedLinesAreDeclinedOrDecodedAlike() throws {
        let text = try String(contentsOfFile: corpus("logs/sample.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { Array($0.utf8) }
        let alphabet = Array(#"{}[]":,\ -.0123456789tfnuerxE"#.utf8)
        var random = SeededGenerator(seed: 12)
        var taken = 0, disagreements = 0
        for _ in 0..<20_000 {
            var line = lines.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let i = Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: line.remove(at: i)
                case 1: line.insert(line[i], at: i)
                default: line[i] = alphabet.randomElement(using: &random)!
                }
            }
            guard String(validating: line, as: UTF8.self) != nil else { continue }
            let result = check(line, me: "Sam")
            if result.taken { taken += 1 }
            if !result.agrees {
                disagreements += 1
                Issue.record("\(String(decoding: line, as: UTF8.self))")
            }
            if disagreements > 5 { break }
        }
        #expect(taken > 1_000)
    }

    /// Escapes in strings are decoded as the parser decodes them and written back escaped by the
    /// one escaper; escapes the path does not take (surrogates, unknown letters, escaped keys,
    /// types and dates) leave the line to the full path.
    @Test func escapedStringsAreTakenOrDeclinedAlike() {
        let texts = [#"a\nb"#, #"say \"hi\""#, #"back\\slash"#, #"caf\u00e9"#, #"\u202Eevil"#, #"a\/b\tc\r\b\f"#,
                     #"\u0000nul"#, #"\u00"#, #"\ud83d\udc4b"#, #"\ud83d"#, #"\x41"#, #"end\"#]
        var taken = 0
        for text in texts {
            for line in [#"{"id":"1","type":"text","from":"A\u00e9","date":1714557600,"text":"\#(text)"}"#,
                         #"{"id":"\#(text)","type":"system","date":"2024-05-01T10:00:00Z","text":"x"}"#,
                         #"{"id":"2","type":"image","from":"B","date":1714557600,"image":{"name":"\#(text)","width":3},"text":"\#(text)"}"#,
                         #"{"id":"3","type":"te\u0078t","date":1714557600,"text":"\#(text)"}"#,
                         #"{"id":"4","t\u0079pe":"text","date":1714557600,"text":"\#(text)"}"#] {
                for me in [nil, "Aé"] as [String?] {
                    let result = check(Array(line.utf8), me: me)
                    #expect(result.agrees, "\(line)")
                    if result.taken { taken += 1 }
                }
            }
        }
        #expect(taken >= 40)
    }

    /// The reader no longer checks a line's UTF-8 before the fast decoder sees it: the decoder's
    /// own check (where each string is made) must decline every line that is not UTF-8, whatever
    /// field the bad bytes are in, so the full path reports it. Bad sequences are dropped into
    /// every byte position of valid lines (escaped ones among them).
    @Test func linesThatAreNotUTF8AreDeclined() {
        let lines = [#"{"id":"p1","conversation":"c1","type":"text","from":"Aé","status":"read","replyTo":"p0","date":1714557600,"text":"héllo wörld"}"#,
                     #"{"id":"p2","type":"image","from":"B","date":"2024-05-01T10:00:00Z","image":{"name":"x.jpg","width":3},"text":"cap\ntion é"}"#,
                     #"{"id":"p3","type":"system","date":1714557600,"text":"a\"b\u00e9 c"}"#]
        let bad: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x80], [0xF4, 0x90, 0x80, 0x80]]
        var tried = 0
        for line in lines {
            let bytes = Array(line.utf8)
            #expect(Self.fast(bytes, me: "B") != nil, "\(line)")
            for at in 0...bytes.count {
                for sequence in bad {
                    var broken = bytes
                    broken.insert(contentsOf: sequence, at: at)
                    #expect(Self.fast(broken, me: "B") == nil, "\(String(decoding: broken, as: UTF8.self)) at \(at)")
                    tried += 1
                }
            }
        }
        #expect(tried > 1_000)
    }

    @Test func theConversationFieldIsReadAndWrittenBack() throws {
        for line in [#"{"id":"1","conversation":"team","type":"text","date":1714557600,"text":"hi"}"#,
                     #"{"id":"1","conversation":42,"type":"text","date":1714557600,"text":"hi"}"#] {
            let fast = try #require(Self.fast(Array(line.utf8), me: nil))
            let full = try #require(Self.full(Array(line.utf8), me: nil))
            #expect(fast.isSameRecord(as: full))
            #expect(full.conversationID == (line.contains("42") ? "42" : "team"))
            let again = try #require(Self.full(Array(full.nativeLine.utf8), me: nil))
            #expect(again.isSameRecord(as: full))
        }
        let wrong = #"{"id":"1","conversation":true,"type":"text","date":1714557600,"text":"hi"}"#
        let object = try #require(try JSONParser().parse(Array(wrong.utf8)).objectValue)
        #expect(throws: NativeRecordProblem.self) { try NativeRecordDecoder(me: nil).decode(object) }
    }

    /// One decoder reads many lines and remembers the short names it made: every sender still
    /// comes out as its own bytes, whether names repeat, differ only in their last byte, run
    /// past one word or hold non-ASCII letters, and however many there are.
    @Test func sendersMetAgainAreTheirOwnNamesAcrossManyLines() {
        let decoder = NativeFastDecoder(me: "Me")
        let names = ["Me", "Ana", "Anb", "Ana ", "Alexandra", "Alexandrb", "Alexandra Lee", "Alexandra Leex",
                     "Алёна", "Алёнb", "ノア", "Omar", "M", "Me ", "abcdefghijklmno", "abcdefghijklmnp", "b",
                     #"Ana\u0020"#, "Yael", "Sam"]
        var random = SeededGenerator(seed: 12)
        for index in 0..<600 {
            let name = names[Int(random.next() % UInt64(names.count))]
            let line = Array(#"{"id":"\#(index)","type":"text","from":"\#(name)","date":5,"text":"t"}"#.utf8)
            let fast = line.withByteView { decoder.decode($0) }
            let full = Self.full(line, me: "Me")
            #expect(fast != nil && full != nil && fast!.isSameRecord(as: full!), "\(name)")
        }
    }

    /// Keys are read a word at a time: a known key at any place in the line (the last bytes
    /// too), a key that only begins like one, a longer or escaped one, and unknown keys of every
    /// length are each taken or declined as the full path decides, the same with and without
    /// spaces around them.
    @Test func keysOfEveryLengthAndPlaceAreReadAsTheFullPathReadsThem() {
        let known = ["id", "type", "from", "date", "text", "status", "edited", "replyTo", "outgoing", "conversation"]
        let odd = ["", "i", "ids", "typ", "types", "tex", "texts", "replyT", "replyToo", "outgoin", "conversatio",
                   "conversations", #"t\u0065xt"#, #"da\te"#, #"statu\\s"#, #"text\""#, #"\u0069d"#]
        var taken = 0
        for key in known + odd {
            let value = key == "outgoing" || key == "edited" ? "true" : key == "status" ? #""read""#
                : key == "date" ? "5" : #""v""#
            for space in ["", " "] {
                let member = "\"\(key)\"\(space):\(space)\(value)"
                let lines = [
                    #"{"id":"1","type":"text","date":7,"text":"t","# + member + "}",
                    "{" + member + #","id":"1","type":"text","date":7,"text":"t"}"#,
                    #"{"id":"1","type":"text","date":7,"text":"t","# + member + "}" + space,
                ]
                for line in lines {
                    let result = check(Array(line.utf8), me: nil)
                    #expect(result.agrees, "\(line)")
                    if result.taken { taken += 1 }
                }
            }
        }
        #expect(taken > 0)
    }
}

/// The writer's byte check agrees with its scalar rule on every scalar it could meet.
@Suite struct JSONWriterPlainCheckTests {
    /// The escaper on bytes writes what a scalar-by-scalar reading of the rule writes, for every
    /// scalar at every position of an eight-byte block, and for random mixes.
    @Test func theByteEscaperEscapesExactlyTheScalarsTheRuleNames() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                guard JSONObjectWriter.mustEscape(scalar.value) else {
                    out.unicodeScalars.append(scalar)
                    continue
                }
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            }
            return out + "\""
        }
        func escaped(_ text: String) -> String {
            var out = OutputBuffer(capacity: 4)
            out.appendJSONString(text)
            return String(decoding: out.bytes, as: UTF8.self)
        }
        var disagreements = 0
        for value in UInt32(0)...0x10FFFF where value < 0x3000 || value % 97 == 0 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for pad in 0..<9 {
                let text = String(repeating: "a", count: pad) + String(scalar) + "bcdefghij"
                if escaped(text) != reference(text) { disagreements += 1 }
            }
        }
        var random = SeededGenerator(seed: 7)
        let pieces = ["a", "é", "\u{85}", "\u{202E}", "\u{2028}", "\u{061C}", "\u{2019}", "\"", "\\", "\n", "\u{7F}", "日本", "👋", " "]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            if escaped(text) != reference(text) { disagreements += 1 }
        }
        #expect(disagreements == 0)
    }

    @Test func theByteCheckAgreesWithTheScalarRuleForEveryScalar() {
        var disagreements = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(scalar) + "b"
            if JSONObjectWriter.isPlain(text) == JSONObjectWriter.mustEscape(value) { disagreements += 1 }
        }
        #expect(disagreements == 0)
    }
}
