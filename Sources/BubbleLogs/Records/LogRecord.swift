import BubbleLayout
import Foundation

/// A message read from a log or an export: a `MessageModel` that can also write itself back as one
/// native JSON Lines record. Every record kind adopts it, so writing needs no switch over kinds.
public protocol LogRecord: MessageModel, Hashable {
    /// The shared fields. Settable so that a reader can stamp what it learns outside the message
    /// (the conversation of an export holding several) without knowing the record's kind.
    var header: LogMessageHeader { get set }
    /// The native `type` value: "text", "image" or "system".
    static var nativeType: String { get }
    /// Adds this kind's own fields (text, image…) after the shared ones.
    func addKindFields(to record: inout NativeRecordFields)
}

extension LogRecord {
    public var id: String { header.id }
    public var direction: MessageDirection { header.direction }
    public var date: Date { header.date }
    public var status: DeliveryStatus? { header.status }
    public var isEdited: Bool { header.isEdited }
    public var replyToID: String? { header.replyToID }
    public var conversationID: String? { header.conversationID }
    public var forwardedFrom: String? { header.forwardedFrom }
    /// An edited message is its second revision as far as the log can tell.
    public var revision: Int { header.isEdited ? 1 : 0 }

    /// This record as one native JSON Lines record, without the trailing newline. Shared fields come
    /// first in a fixed order (id, conversation, type, from, outgoing, date, status, edited, replyTo,
    /// forwardedFrom), so output is
    /// stable and diffable; the date is written in UTC with a fraction only when there is one.
    public var nativeLine: String {
        var record = NativeRecordFields()
        record.add("id", header.id)
        if let conversation = header.conversationID { record.add("conversation", conversation) }
        record.add("type", Self.nativeType)
        if let name = header.senderName { record.add("from", name) }
        // Only `true` is written: an absent `outgoing` lets `--me` decide when the file is read
        // again, so a converted export keeps the choice of whose messages are one's own.
        if header.direction == .outgoing { record.add("outgoing", true) }
        record.add("date", LogTimestamp.iso8601(microseconds: LogTimestamp.microseconds(of: header.date)))
        if let status = header.status { record.add("status", status.rawValue) }
        if header.isEdited { record.add("edited", true) }
        if let reply = header.replyToID { record.add("replyTo", reply) }
        if let origin = header.forwardedFrom { record.add("forwardedFrom", origin) }
        addKindFields(to: &record)
        return record.line
    }

    /// `nativeLine` and a newline, appended to `out`.
    public func appendNativeLine(to out: inout OutputBuffer) {
        out.append(utf8: nativeLine)
        out.append(byte: 0x0A)
    }

    /// Compares with a record of any kind: equal when both are the same kind with equal fields.
    public func isSameRecord(as other: any LogRecord) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// The members of one native JSON record under construction, written on a single line.
/// Strings are escaped so that the output never carries raw control or bidi characters.
public struct NativeRecordFields: Sendable {
    var writer = JSONObjectWriter()

    public init() {}

    public mutating func add(_ key: String, _ value: String) { writer.add(key, string: value) }
    public mutating func add(_ key: String, _ value: Int) { writer.add(key, int: value) }
    public mutating func add(_ key: String, _ value: Bool) { writer.add(key, bool: value) }
    /// Adds a nested object (the native `image` member).
    public mutating func add(_ key: String, _ value: NativeRecordFields) { writer.add(key, object: value.writer) }

    /// Adds an array of nested objects (the native `styles` member).
    public mutating func add(_ key: String, _ values: [NativeRecordFields]) { writer.add(key, objects: values.map(\.writer)) }

    /// The finished object as one line of JSON (no newline).
    public var line: String { writer.finished }
}
