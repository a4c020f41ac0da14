import BubbleLayout
import Foundation

/// Turns one native JSON Lines record into a `LogRecord`, or says what is wrong with it.
struct NativeRecordDecoder {
    var me: String?

    /// Kind decoders by `type`. Adding a record kind means adding its entry here.
    private static let kinds: [String: @Sendable (LogMessageHeader, JSONObject) throws(NativeRecordProblem) -> any LogRecord] = [
        LogTextMessage.nativeType: { header, object throws(NativeRecordProblem) in
            // A `style` we do not know is ignored, as unknown fields are: the text is still shown.
            let style = try optionalString("style", in: object).flatMap(MessageTextStyle.init(rawValue:)) ?? .body
            let text = try requiredString("text", in: object)
            let spans = try object.present("styles").map { value throws(NativeRecordProblem) in try NativeTextStyles.spans(value, in: text) } ?? []
            return LogTextMessage(header: header, text: text, textStyle: style, spans: spans)
        },
        LogImageMessage.nativeType: { header, object throws(NativeRecordProblem) in
            guard let imageValue = object.present("image") else { throw .missingField("image") }
            guard let image = imageValue.objectValue else { throw .wrongType("image", expected: "an object", found: imageValue) }
            let caption = try optionalString("text", in: object)
            let spans = try caption.flatMap { text throws(NativeRecordProblem) in
                try object.present("styles").map { value throws(NativeRecordProblem) in try NativeTextStyles.spans(value, in: text) }
            } ?? []
            return LogImageMessage(
                header: header,
                pixelWidth: try optionalSize("width", in: image),
                pixelHeight: try optionalSize("height", in: image),
                imageName: try optionalString("name", in: image, path: "image.name") ?? "image",
                caption: caption, captionSpans: spans)
        },
        LogSystemMessage.nativeType: { header, object throws(NativeRecordProblem) in
            var header = header
            header.senderName = nil
            return LogSystemMessage(header: header, notice: try requiredString("text", in: object))
        },
    ]

    static var typeNames: String { kinds.keys.sorted().joined(separator: ", ") }

    /// The record `object` holds. A field read without the record being rejected (a `lang` that is
    /// not a well-formed language tag, left out) adds its reason to `warnings`.
    func decode(_ object: JSONObject, warnings: inout [String]) throws(NativeRecordProblem) -> any LogRecord {
        guard let idValue = object.present("id") else { throw .missingField("id") }
        guard let id = idValue.identifierValue else { throw .wrongType("id", expected: "a string or an integer", found: idValue) }
        let type = try Self.requiredString("type", in: object)
        guard let decodeKind = Self.kinds[type] else { throw .unknownType(type) }
        guard let dateValue = object.present("date") else { throw .missingField("date") }
        let micros: Int64
        switch dateValue {
        case .string(let text):
            guard let parsed = LogTimestamp.microseconds(iso8601: text) else { throw .unreadableDate(text, hint: LogTimestamp.isoDateHint(text)) }
            micros = parsed
        case .number(let literal):
            guard let parsed = LogTimestamp.microseconds(unixSecondsLiteral: literal) else {
                throw .unreadableDate(literal, hint: LogTimestamp.unixDateHint(literal))
            }
            micros = parsed
        default:
            throw .wrongType("date", expected: "a string or a number", found: dateValue)
        }
        let from = try Self.optionalString("from", in: object)
        let outgoing = try Self.optionalBool("outgoing", in: object)
        var status: DeliveryStatus?
        if let value = object.present("status") {
            guard let text = value.stringValue else { throw .wrongType("status", expected: "a string", found: value) }
            guard let parsed = DeliveryStatus(rawValue: text) else { throw .badStatus(text) }
            status = parsed
        }
        let edited = try Self.optionalBool("edited", in: object) ?? false
        var replyTo: String?
        if let value = object.present("replyTo") {
            guard let reply = value.identifierValue else { throw .wrongType("replyTo", expected: "a string or an integer", found: value) }
            replyTo = reply
        }
        var conversation: String?
        if let value = object.present("conversation") {
            guard let text = value.identifierValue else {
                throw .wrongType("conversation", expected: "a string or an integer", found: value)
            }
            conversation = text
        }
        let isOutgoing = outgoing ?? SenderName.matches(me, from)
        var header = LogMessageHeader(
            id: id, senderName: from, direction: isOutgoing ? .outgoing : .incoming,
            date: LogTimestamp.date(microseconds: micros), status: status, isEdited: edited, replyToID: replyTo)
        header.conversationID = conversation
        header.forwardedFrom = try Self.optionalString("forwardedFrom", in: object)
        let record = try decodeKind(header, object)
        guard let value = object.present("lang") else { return record }
        // The text's language: laid out without it when it is not a tag, with a warning, as a
        // browser ignores a `lang` it cannot read.
        guard let tag = value.stringValue, LanguageTag.isWellFormed(tag) else {
            let found = value.stringValue.map { "\"\(DiagnosticText.quoted($0))\"" } ?? value.described
            warnings.append("field \"lang\" must be a BCP 47 language tag such as ja, zh-Hant or ko, found \(found); "
                            + "the text is laid out without a language")
            return record
        }
        switch record {
        case var text as LogTextMessage:
            text.textLanguage = tag
            return text
        case var image as LogImageMessage:
            // A caption's language; a picture without a caption has no text to shape.
            guard image.caption != nil else { return record }
            image.textLanguage = tag
            return image
        case var notice as LogSystemMessage:
            notice.textLanguage = tag
            return notice
        default:
            return record
        }
    }

    /// The record `object` holds, its warnings dropped.
    func decode(_ object: JSONObject) throws(NativeRecordProblem) -> any LogRecord {
        var warnings: [String] = []
        return try decode(object, warnings: &warnings)
    }

    private static func requiredString(_ key: String, in object: JSONObject) throws(NativeRecordProblem) -> String {
        guard let value = object.present(key) else { throw .missingField(key) }
        guard let text = value.stringValue else { throw .wrongType(key, expected: "a string", found: value) }
        return text
    }

    private static func optionalString(_ key: String, in object: JSONObject, path: String? = nil) throws(NativeRecordProblem) -> String? {
        guard let value = object.present(key) else { return nil }
        guard let text = value.stringValue else { throw .wrongType(path ?? key, expected: "a string", found: value) }
        return text
    }

    private static func optionalBool(_ key: String, in object: JSONObject) throws(NativeRecordProblem) -> Bool? {
        guard let value = object.present(key) else { return nil }
        guard let flag = value.boolValue else { throw .wrongType(key, expected: "a boolean", found: value) }
        return flag
    }

    private static func optionalSize(_ key: String, in image: JSONObject) throws(NativeRecordProblem) -> Int? {
        guard let value = image.present(key) else { return nil }
        guard let size = value.intValue, size > 0 else {
            throw .wrongType("image.\(key)", expected: "a positive integer", found: value)
        }
        return size
    }
}

/// Why a native record was rejected; `description` is the diagnostic's reason.
enum NativeRecordProblem: Error, CustomStringConvertible {
    case missingField(String)
    case wrongType(String, expected: String, found: JSONValue)
    case unknownType(String)
    /// The hint says more when there is more to say (a date that looks like milliseconds).
    case unreadableDate(String, hint: String?)
    case badStatus(String)

    var description: String {
        switch self {
        case .missingField(let name):
            "missing field \"\(name)\""
        case .wrongType(let name, let expected, let found):
            "wrong type: field \"\(name)\" must be \(expected), found \(found.described)"
        case .unknownType(let type):
            "unknown type \"\(DiagnosticText.quoted(type))\" (expected one of: \(NativeRecordDecoder.typeNames))"
        case .unreadableDate(let text, let hint?):
            "unreadable date \"\(DiagnosticText.quoted(text))\": \(hint)"
        case .unreadableDate(let text, nil):
            "unreadable date \"\(DiagnosticText.quoted(text))\" (expected ISO 8601 with an offset, like 2024-05-01T10:02:00Z, or Unix seconds)"
        case .badStatus(let text):
            "bad status \"\(DiagnosticText.quoted(text))\" (expected sending, sent, delivered, read or failed)"
        }
    }
}
