/// Why one message of an export was rejected; the text becomes the diagnostic's reason.
struct ExportProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Typed access to an export message's fields, each failing with a reason naming the field.
struct ExportFields {
    let object: JSONObject

    func string(_ key: String) throws(ExportProblem) -> String? {
        guard let value = object.present(key) else { return nil }
        guard let text = value.stringValue else { throw ExportProblem("wrong type: field \"\(key)\" must be a string, found \(value.described)") }
        return text
    }

    func requiredString(_ key: String) throws(ExportProblem) -> String {
        guard let text = try string(key) else { throw ExportProblem("missing field \"\(key)\"") }
        return text
    }

    func int(_ key: String) throws(ExportProblem) -> Int? {
        guard let value = object.present(key) else { return nil }
        if let number = value.intValue { return number }
        // Exports write some numbers as strings ("date_unixtime": "1714557720").
        if let text = value.stringValue, let number = Int(text) { return number }
        throw ExportProblem("wrong type: field \"\(key)\" must be an integer, found \(value.described)")
    }

    func identifier(_ key: String) throws(ExportProblem) -> String? {
        guard let value = object.present(key) else { return nil }
        guard let id = value.identifierValue else { throw ExportProblem("wrong type: field \"\(key)\" must be a string or an integer, found \(value.described)") }
        return id
    }

    func requiredIdentifier(_ key: String) throws(ExportProblem) -> String {
        guard let id = try identifier(key) else { throw ExportProblem("missing field \"\(key)\"") }
        return id
    }

    func object(_ key: String) throws(ExportProblem) -> ExportFields? {
        guard let value = object.present(key) else { return nil }
        guard let nested = value.objectValue else { throw ExportProblem("wrong type: field \"\(key)\" must be an object, found \(value.described)") }
        return ExportFields(object: nested)
    }

    func array(_ key: String) throws(ExportProblem) -> [JSONValue] {
        guard let value = object.present(key) else { return [] }
        guard let list = value.arrayValue else { throw ExportProblem("wrong type: field \"\(key)\" must be an array, found \(value.described)") }
        return list
    }

    /// ISO 8601 with an offset, as Discord writes it.
    func isoDate(_ key: String) throws(ExportProblem) -> Int64? {
        guard let text = try string(key) else { return nil }
        guard let micros = LogTimestamp.microseconds(iso8601: text) else {
            throw ExportProblem("unreadable date \"\(DiagnosticText.quoted(text))\" in \"\(key)\" (expected ISO 8601 with an offset)")
        }
        return micros
    }
}

/// One conversation of an export, and the building of its messages into producer items.
struct ExportConversation {
    /// Prefix for ids when several conversations are read together (ids repeat across them).
    var idPrefix: String
    /// The header notice shown before it when several are read ("Telegram chat “Family”").
    var title: String
    /// The message list, with the line each message starts on.
    var messages: JSONArray
    /// The `conversation` every record of it carries (the header notice too), when the read holds
    /// several: each is then decorated apart, and `convert` writes it, so reading the conversion
    /// gives the same rows. Nil when one conversation is read.
    var conversationID: String? = nil
}

extension ExportConversation {
    /// `record` carrying this conversation's id, when it has one.
    func stamped(_ record: any LogRecord) -> any LogRecord {
        guard let conversationID else { return record }
        var stamped = record
        stamped.header.conversationID = conversationID
        return stamped
    }
}

enum ExportItems {
    /// Producer items for the chosen conversations: each message decoded lazily by `decode`;
    /// with more than one conversation, each conversation that has messages is introduced by a
    /// system row naming it. Every record of a conversation with a `conversationID` carries it.
    static func items(
        file: String, conversations: [ExportConversation],
        decode: @escaping (JSONObject, ExportConversation) throws(ExportProblem) -> any LogRecord
    ) -> [() -> ProducedRecord] {
        Array(lazyItems(file: file, conversations: conversations, decode: decode))
    }

    /// The items of `items(file:conversations:decode:)`, each made when it is reached: memory
    /// holds one, not one for each message of the export.
    static func lazyItems(
        file: String, conversations: [ExportConversation],
        decode: @escaping (JSONObject, ExportConversation) throws(ExportProblem) -> any LogRecord
    ) -> AnyIterator<() -> ProducedRecord> {
        let several = conversations.count > 1
        /// The time of the last record handed out: a heading whose own messages are all
        /// rejected takes it, so it is not dated 1 Jan 1970.
        let lastTime = LastTime()
        var number = 0, elementIndex = 0, headed = false
        return AnyIterator { () -> (() -> ProducedRecord)? in
            while number < conversations.count {
                var conversation = conversations[number]
                if !several { conversation.idPrefix = "" }
                if several && !headed && !conversation.messages.isEmpty {
                    headed = true
                    return heading(of: conversation, number: number, in: conversations, file: file, lastTime: lastTime, decode: decode)
                }
                headed = true
                if elementIndex < conversation.messages.count {
                    defer { elementIndex += 1 }
                    return message(elementIndex, of: conversation, file: file, lastTime: lastTime, decode: decode)
                }
                number += 1
                elementIndex = 0
                headed = false
            }
            return nil
        }
    }

    private static func heading(
        of header: ExportConversation, number: Int, in conversations: [ExportConversation], file: String, lastTime: LastTime,
        decode: @escaping (JSONObject, ExportConversation) throws(ExportProblem) -> any LogRecord
    ) -> () -> ProducedRecord {
        let objects = header.messages.lazyElements.compactMap { $0.objectValue }
        let line = objects.first.map { $0.line }
        let later = conversations.dropFirst(number + 1)
        return { () -> ProducedRecord in
            // The heading takes the time of its first message that is read with one; when
            // none is (each is reported as rejected), the time of the record before it,
            // else of the first message read in a later conversation; the epoch only when
            // nothing in the export has a time.
            func firstTime(of conversation: ExportConversation) -> Int64? {
                conversation.messages.lazyElements.compactMap { $0.objectValue }
                    .compactMap { try? decode($0, conversation) }.first.map { LogTimestamp.microseconds(of: $0.date) }
            }
            let micros = firstTime(of: header) ?? lastTime.micros ?? later.lazy.compactMap(firstTime).first ?? 0
            lastTime.micros = micros
            var notice = LogSystemMessage(
                header: LogMessageHeader(id: header.idPrefix + "conversation", senderName: nil, date: LogTimestamp.date(microseconds: micros)),
                notice: header.title)
            notice.header.conversationID = header.conversationID
            return .record(notice, LogPosition(file: file, line: line.map { max(1, $0 - 1) }))
        }
    }

    private static func message(
        _ elementIndex: Int, of current: ExportConversation, file: String, lastTime: LastTime,
        decode: @escaping (JSONObject, ExportConversation) throws(ExportProblem) -> any LogRecord
    ) -> () -> ProducedRecord {
        let line = current.messages.elementLines[elementIndex]
        let messageIndex = elementIndex + 1
        return { () -> ProducedRecord in
            // Parsed only now (a deferred list keeps its messages as bytes until then).
            let value = current.messages.element(elementIndex)
            // The element's own line: a string or a number in the list has no other.
            let position = LogPosition(file: file, line: line, messageIndex: messageIndex)
            guard let object = value.objectValue else {
                return .rejected(LogDiagnostic(
                    position: position, reason: "wrong type: a message must be an object, found \(value.described)"))
            }
            // Expansions cut short while decoding come back as warnings on the message.
            let (decoded, notes) = ExpansionNotes.collecting { Result { () throws(ExportProblem) in try decode(object, current) } }
            if case .success(let record) = decoded { lastTime.micros = LogTimestamp.microseconds(of: record.date) }
            switch decoded.map({ current.stamped($0) }) {
            case .success(let record) where notes.isEmpty:
                return .record(record, position)
            case .success(let record):
                return .recordWithWarnings(record, position, notes.map { LogDiagnostic(position: position, reason: $0, isWarning: true) })
            case .failure(let error):
                return .rejected(LogDiagnostic(position: position, reason: error.reason))
            }
        }
    }

    /// "0:12", "1:05:09".
    static func duration(_ seconds: Int) -> String {
        let s = seconds % 60, m = seconds / 60 % 60, h = seconds / 3600
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 { return "\(h):\(m < 10 ? "0" : "")\(m):\(ss)" }
        return "\(m):\(ss)"
    }

    /// The last path component, for labels ("files/report.pdf" → "report.pdf").
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// The time of the last record an export's items handed out (`ExportItems.items`).
private final class LastTime {
    var micros: Int64?
}
