import BubbleLayout
import Foundation

/// A Slack export folder: `users.json`, `channels.json`, and one folder per channel holding one JSON
/// file per day (`2024-05-01.json`, an array of messages).
///
/// Channels are read in `channels.json` order (or only the one chosen with the `conversation`
/// option, by name or id), each channel's days in date order. Day files are parsed one at a time,
/// so memory holds one day. When several channels are read each starts with a system row naming it,
/// and ids are prefixed with the channel id (Slack's `ts` ids are unique per channel only).
/// A day file that is not valid JSON is one rejected record.
enum SlackExport {
    static func producer(folder: String, options: LogReadOptions) throws(LogInputError) -> RecordProducer {
        let base = URL(fileURLWithPath: folder)
        let channelsFile = base.appendingPathComponent("channels.json").path
        guard let channelsData = FileManager.default.contents(atPath: channelsFile) else {
            throw LogInputError(file: folder, message: "not a Slack export: expected channels.json (and users.json, and one folder per channel) in this folder")
        }
        let channelsValue: JSONValue
        do {
            channelsValue = try JSONParser().parse(Array(channelsData))
        } catch {
            throw LogInputError(file: channelsFile, line: error.line, message: "\(error.isTruncation ? "truncated" : "invalid") JSON: \(error.message) (column \(error.column))")
        }
        guard let channelList = channelsValue.arrayValue else {
            throw LogInputError(file: channelsFile, message: "unknown schema: expected an array of channels, found \(channelsValue.kindName)")
        }
        var users: [String: String] = [:]
        let usersFile = base.appendingPathComponent("users.json").path
        if let usersData = FileManager.default.contents(atPath: usersFile) {
            let usersValue: JSONValue
            do {
                usersValue = try JSONParser().parse(Array(usersData))
            } catch {
                throw LogInputError(file: usersFile, line: error.line, message: "\(error.isTruncation ? "truncated" : "invalid") JSON: \(error.message) (column \(error.column))")
            }
            for user in usersValue.arrayValue ?? [] {
                guard let object = user.objectValue, let id = object["id"]?.stringValue else { continue }
                let profile = object["profile"]?.objectValue
                let names = [profile?["display_name"]?.stringValue, object["real_name"]?.stringValue,
                             profile?["real_name"]?.stringValue, object["name"]?.stringValue]
                users[id] = names.compactMap { $0 }.first { !$0.isEmpty } ?? id
            }
        }
        var channels: [SlackChannel] = []
        for value in channelList {
            guard let object = value.objectValue, let name = object["name"]?.stringValue else {
                throw LogInputError(file: channelsFile, message: "unknown schema: each channel needs a \"name\"")
            }
            let id = object["id"]?.stringValue ?? name
            let dayFolder = base.appendingPathComponent(name)
            let days = ((try? FileManager.default.contentsOfDirectory(atPath: dayFolder.path)) ?? [])
                .filter { $0.hasSuffix(".json") }.sorted()
                .map { dayFolder.appendingPathComponent($0).path }
            channels.append(SlackChannel(id: id, name: name, dayFiles: days))
        }
        if let wanted = options.conversation {
            let bare = wanted.hasPrefix("#") ? String(wanted.dropFirst()) : wanted
            channels = channels.filter { $0.name == bare || $0.id == bare }
            if channels.isEmpty {
                let names = channelList.compactMap { $0.objectValue?["name"]?.stringValue }.map { "#" + DiagnosticText.quoted($0) }.joined(separator: ", ")
                throw LogInputError(file: folder, message: "no channel \"\(DiagnosticText.quoted(wanted))\"; the export has \(names)")
            }
        }
        return SlackProducer(channels: channels, decoder: SlackMessageDecoder(users: users, me: options.me))
    }
}

struct SlackChannel {
    var id: String
    var name: String
    var dayFiles: [String]
}

/// Reads day files one by one, handing out their messages.
final class SlackProducer: RecordProducer {
    private var channels: [SlackChannel]
    private let decoder: SlackMessageDecoder
    private let several: Bool
    private var channelIndex = 0
    private var dayIndex = 0
    private var current: [() -> ProducedRecord] = []
    private var currentIndex = 0
    private var announced = false

    init(channels: [SlackChannel], decoder: SlackMessageDecoder) {
        self.channels = channels
        self.decoder = decoder
        several = channels.count > 1
    }

    func next() -> ProducedRecord? {
        while true {
            if currentIndex < current.count {
                defer { currentIndex += 1 }
                return current[currentIndex]()
            }
            guard channelIndex < channels.count else { return nil }
            let channel = channels[channelIndex]
            guard dayIndex < channel.dayFiles.count else {
                channelIndex += 1
                dayIndex = 0
                announced = false
                continue
            }
            let path = channel.dayFiles[dayIndex]
            dayIndex += 1
            load(path, channel: channel)
        }
    }

    private func load(_ path: String, channel: SlackChannel) {
        current = []
        currentIndex = 0
        let bytes = FileManager.default.contents(atPath: path).map(Array.init) ?? []
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            let what = error.isTruncation ? "truncated JSON" : "invalid JSON"
            current = [{ .rejected(LogDiagnostic(
                position: LogPosition(file: path, line: error.line),
                reason: "\(what) at column \(error.column): \(error.message); this day's messages are lost")) }]
            return
        }
        guard let messages = value.arrayWithLines else {
            current = [{ .rejected(LogDiagnostic(position: LogPosition(file: path, line: 1), reason: "unknown schema: a day file is an array of messages, found \(value.kindName)")) }]
            return
        }
        let prefix = several ? channel.id + "/" : ""
        if several && !announced {
            announced = true
            let firstTS = messages.elements.lazy.compactMap { $0.objectValue?["ts"]?.stringValue }.first
            let micros = firstTS.flatMap(LogTimestamp.microseconds(unixSecondsLiteral:)) ?? 0
            current.append { .record(LogSystemMessage(
                header: LogMessageHeader(id: prefix + "conversation", senderName: nil, date: LogTimestamp.date(microseconds: micros)),
                notice: "#\(channel.name)"), LogPosition(file: path, line: 1)) }
        }
        let decoder = decoder
        current += ExportItems.items(
            file: path, conversations: [ExportConversation(idPrefix: prefix, title: "", messages: messages)]
        ) { object, _ throws(ExportProblem) in
            try decoder.decode(ExportFields(object: object), idPrefix: prefix)
        }
    }
}
