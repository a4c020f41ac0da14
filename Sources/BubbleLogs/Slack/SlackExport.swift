import BubbleLayout
import Foundation

/// A Slack export (a folder, or a zip of one, read through `ExportFolder`): `users.json`,
/// `channels.json`, and one folder per channel holding one JSON file per day (`2024-05-01.json`,
/// an array of messages).
///
/// Channels are read in `channels.json` order (or only the one chosen with the `conversation`
/// option, by name or id), each channel's days in date order. Day files are parsed one at a time,
/// so memory holds one day. When several channels are read each starts with a system row naming it,
/// and ids are prefixed with the channel id (Slack's `ts` ids are unique per channel only).
/// A day file that is not valid JSON is one rejected record.
enum SlackExport {
    /// What reading the export's listing found besides its channels: problems that lose no message
    /// (a listed channel without a folder, a `users.json` of the wrong shape), said once on stderr.
    struct Opened {
        var producer: RecordProducer
        var warnings: [LogDiagnostic]
    }

    /// The export in a folder on disk.
    static func producer(folder: String, options: LogReadOptions) throws(LogInputError) -> Opened {
        try producer(export: DirectoryExportFolder(path: folder), options: options)
    }

    /// The export in any container. Channel names come from `channels.json` and are used only as
    /// one path component inside the export: a name with a path separator or `..` is a rejected
    /// record, and so is a channel folder or day file that is a link out of the export, a dangling
    /// link, a FIFO or a folder named like a day file.
    static func producer(export: ExportFolder, options: LogReadOptions) throws(LogInputError) -> Opened {
        let channelsFile = export.place("channels.json")
        let channelsData: [UInt8]
        switch export.kind("channels.json") {
        case .missing:
            if let channel = try channelFolder(export, options: options) { return channel }
            throw LogInputError(file: export.display, message: "not a Slack export: expected channels.json (and users.json, and one folder per channel) in this folder")
        case .file:
            switch export.read("channels.json") {
            case .success(let bytes): channelsData = bytes
            case .failure(let error): throw LogInputError(file: channelsFile, message: error.message)
            }
        case let kind:
            throw LogInputError(file: channelsFile, message: "\(kind.description), not the export's list of channels")
        }
        let channelsValue: JSONValue
        do {
            channelsValue = try parseWhole(channelsData, budget: options.memoryBudget)
        } catch {
            throw LogInputError(file: channelsFile, line: error.line, message: describe(error, budget: options.memoryBudget))
        }
        guard let channelList = channelsValue.arrayWithLines else {
            throw LogInputError(file: channelsFile, message: "unknown schema: expected an array of channels, found \(channelsValue.described)")
        }
        var warnings: [LogDiagnostic] = []
        let users = try readUsers(export, warnings: &warnings, budget: options.memoryBudget)
        var channels: [SlackChannel] = []
        var listedFolders: Set<String> = []
        func add(name: String, id: String, title: String, listing: String, line: Int?) {
            var channel = SlackChannel(id: id, name: name, title: title, days: [])
            listedFolders.insert(name)
            readDays(of: &channel, in: export, listing: listing, line: line)
            channels.append(channel)
        }
        for (value, line) in channelList.elementsWithLines {
            guard let object = value.objectValue, let name = object["name"]?.stringValue else {
                throw LogInputError(file: channelsFile, line: line, message: "unknown schema: each channel needs a \"name\"")
            }
            add(name: name, id: object["id"]?.stringValue ?? name, title: "#" + name, listing: channelsFile, line: line)
        }
        // Exports that include them (Business+ and Enterprise Grid, or a DM export) list private
        // channels, group DMs and DMs beside the public channels, each with a folder of day files.
        for listing in ["groups.json", "mpims.json", "dms.json"] where export.kind(listing) != .missing {
            let file = export.place(listing)
            guard let list = try readListing(listing, in: export, warnings: &warnings, budget: options.memoryBudget) else { continue }
            for (value, line) in list.elementsWithLines {
                let object = value.objectValue
                let members = object?["members"]?.arrayValue?.compactMap(\.stringValue) ?? []
                // Who is in it, for its title: the first eight, then how many more.
                var memberNames = members.prefix(8).map { ExpansionLimit.name(users[$0] ?? $0) }
                if members.count > 8 { memberNames.append("\(members.count - 8) more") }
                if listing == "dms.json" {
                    // A DM has no name: its folder is its id, and it is shown by who is in it.
                    guard let id = object?["id"]?.stringValue else {
                        warnings.append(LogDiagnostic(position: LogPosition(file: file, line: line), reason: "unknown schema: each DM needs an \"id\"; the entry is skipped"))
                        continue
                    }
                    add(name: id, id: id, title: memberNames.isEmpty ? "DM " + id : "DM: " + memberNames.joined(separator: ", "),
                        listing: file, line: line)
                } else {
                    guard let name = object?["name"]?.stringValue else {
                        warnings.append(LogDiagnostic(position: LogPosition(file: file, line: line), reason: "unknown schema: each conversation needs a \"name\"; the entry is skipped"))
                        continue
                    }
                    let title = listing == "mpims.json" && !memberNames.isEmpty ? "group DM: " + memberNames.joined(separator: ", ") : "#" + name
                    add(name: name, id: object?["id"]?.stringValue ?? name, title: title, listing: file, line: line)
                }
            }
        }
        // A folder of day files that no list names (a list missing or damaged, or a conversation
        // left out of it) is read under its folder's name: its messages are not lost.
        for (folder, kind) in export.list("") where kind == .folder && !listedFolders.contains(folder) && folder != "__MACOSX" {
            guard export.list(folder).contains(where: { isDayFileName($0.name) }) else { continue }
            var channel = SlackChannel(id: folder, name: folder, title: "#" + folder, days: [])
            readDays(of: &channel, in: export, listing: channelsFile, line: nil)
            channel.warning = LogDiagnostic(
                position: LogPosition(file: export.place(folder), line: nil),
                reason: "a folder of day files that channels.json, groups.json, mpims.json and dms.json do not list: read as #\(DiagnosticText.quoted(folder))")
            channels.append(channel)
        }
        let allChannels = channels
        if let wanted = options.conversation {
            let bare = wanted.hasPrefix("#") ? String(wanted.dropFirst()) : wanted
            channels = channels.filter { $0.name == bare || $0.id == bare }
            if channels.isEmpty {
                let names = allChannels.map { "#" + DiagnosticText.quoted($0.name) }.joined(separator: ", ")
                throw LogInputError(file: export.display, message: "no channel \"\(DiagnosticText.quoted(wanted))\"; the export has \(names)", kind: .conversationNotFound)
            }
        }
        // Said only for the channels being read.
        warnings += channels.compactMap(\.warning)
        try checkDaySizes(channels, in: export, budget: options.memoryBudget)
        let producer = SlackProducer(export: export, channels: channels, decoder: SlackMessageDecoder(users: users, me: options.me),
                                     budget: options.memoryBudget)
        return Opened(producer: producer, warnings: warnings)
    }

    /// Lists `channel`'s day files (its folder is its name, which `listing` gave at `line`), or
    /// says why its messages cannot be read: a name that is no folder name inside the export, a
    /// folder that is something else, a day file that is not a file.
    private static func readDays(of channel: inout SlackChannel, in export: ExportFolder, listing: String, line: Int?) {
        let name = channel.name
        func reject(_ file: String, _ line: Int?, _ reason: String) {
            channel.days = [.rejected(LogDiagnostic(position: LogPosition(file: file, line: line), reason: reason))]
        }
        guard ExportNames.isSafeComponent(name) else {
            reject(listing, line, "channel name \"\(DiagnosticText.quoted(name))\" is not a folder name inside the export (empty, \".\" or \"..\", or holding a path separator); its messages are not read")
            return
        }
        switch export.kind(name) {
        case .folder:
            // `._2024-05-01.json`: the AppleDouble file macOS writes beside each file copied
            // to a disk without its metadata, not a day of messages.
            for (dayName, kind) in export.list(name) where dayName.hasSuffix(".json") && !dayName.hasPrefix("._") {
                let day = ExportNames.join(name, dayName)
                if kind == .file {
                    channel.days.append(.file(day))
                } else {
                    let what = kind == .folder ? "a folder named like a day file" : kind.description
                    channel.days.append(.rejected(LogDiagnostic(position: LogPosition(file: export.place(day), line: nil), reason: "\(what), not a day file of messages")))
                }
            }
        case .missing:
            channel.warning = LogDiagnostic(position: LogPosition(file: listing, line: line), reason: "channel \(DiagnosticText.quoted(channel.title)) has no folder in the export, so no messages")
        case let kind:
            reject(export.place(name), nil, "\(kind.description), not a channel folder; the messages of \(DiagnosticText.quoted(channel.title)) are not read")
        }
    }

    /// An optional list of conversations (`groups.json`, `mpims.json`, `dms.json`) as an array,
    /// or nil with a warning when it cannot be read: its conversations' folders are then read
    /// as unlisted folders, so no message is lost.
    private static func readListing(_ listing: String, in export: ExportFolder, warnings: inout [LogDiagnostic], budget: Int) throws(LogInputError) -> JSONArray? {
        let file = export.place(listing)
        func warn(_ line: Int?, _ reason: String) {
            warnings.append(LogDiagnostic(position: LogPosition(file: file, line: line), reason: reason + "; the folders it lists are read under their own names"))
        }
        guard export.kind(listing) == .file else {
            warn(nil, "\(export.kind(listing).description), not a list of conversations")
            return nil
        }
        try checkSize(listing, in: export, budget: budget, what: "a list of conversations")
        let bytes: [UInt8]
        switch export.read(listing) {
        case .success(let read): bytes = read
        case .failure(let error):
            warn(nil, error.message)
            return nil
        }
        let value: JSONValue
        do {
            value = try parseWhole(bytes, budget: budget)
        } catch {
            if error.isOverBudget { throw LogInputError(file: file, line: error.line, message: describe(error, budget: budget)) }
            warn(error.line, describe(error, budget: budget))
            return nil
        }
        guard let list = value.arrayWithLines else {
            warn(1, "unknown schema: expected an array of conversations, found \(value.described)")
            return nil
        }
        return list
    }

    /// One channel's folder given on its own (its day files, without the export's `channels.json`
    /// and `users.json`): read as that one channel, named after the folder, with a warning that
    /// senders are named only from each message's `user_profile` and other user ids stay ids.
    /// Nil when the folder holds no file named like a day (`2024-05-01.json`): not a channel.
    private static func channelFolder(_ export: ExportFolder, options: LogReadOptions) throws(LogInputError) -> Opened? {
        let entries = export.list("").filter { isDayFileName($0.name) }
        guard !entries.isEmpty else { return nil }
        let trimmed = export.display.hasSuffix("/") ? String(export.display.dropLast()) : export.display
        let folderName = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        // `.` and `..` name no folder: the folder's real name does (`cd general && bubbles render .`).
        let unnamed = folderName.isEmpty || folderName == "." || folderName == ".."
        let name = (export as? ZipExportFolder)?.channelName ?? (!unnamed ? folderName : (export as? DirectoryExportFolder)?.resolvedName ?? "channel")
        if let wanted = options.conversation {
            let bare = wanted.hasPrefix("#") ? String(wanted.dropFirst()) : wanted
            guard bare == name else {
                throw LogInputError(file: export.display, message: "no channel \"\(DiagnosticText.quoted(wanted))\"; this channel folder holds #\(DiagnosticText.quoted(name)) alone", kind: .conversationNotFound)
            }
        }
        var channel = SlackChannel(id: name, name: name, title: "#" + name, days: [])
        for (dayName, kind) in entries {
            if kind == .file {
                channel.days.append(.file(dayName))
            } else {
                let what = kind == .folder ? "a folder named like a day file" : kind.description
                channel.days.append(.rejected(LogDiagnostic(position: LogPosition(file: export.place(dayName), line: nil), reason: "\(what), not a day file of messages")))
            }
        }
        var warnings: [LogDiagnostic] = []
        let users = try readUsers(export, warnings: &warnings, budget: options.memoryBudget)
        warnings.insert(LogDiagnostic(
            position: LogPosition(file: export.display, line: nil),
            reason: "one channel's folder of a Slack export (day files without the export's channels.json and users.json): read as #\(DiagnosticText.quoted(name)); senders are named from each message's user_profile where it has one, other user ids (mentions too) are shown as ids. Point at the export's root, the folder that holds channels.json and users.json, to resolve every name"), at: 0)
        try checkDaySizes([channel], in: export, budget: options.memoryBudget)
        let producer = SlackProducer(export: export, channels: [channel], decoder: SlackMessageDecoder(users: users, me: options.me),
                                     budget: options.memoryBudget)
        return Opened(producer: producer, warnings: warnings)
    }

    /// A file of the export parsed whole within `budget`: a top-level array (a day file, a list)
    /// keeps its elements as bytes, each parsed when it is read.
    static func parseWhole(_ bytes: [UInt8], budget: Int) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser(deferring: .topLevelArray, maximumTreeBytes: LogReadOptions.maximumTreeBytes(budget: budget))
            .parse(document: JSONDocumentBytes(bytes))
    }

    /// What a parse failure of a whole file says.
    static func describe(_ error: JSONSyntaxError, budget: Int) -> String {
        if error.isOverBudget { return "\(error.message), past the memory budget of \(byteCount(budget)) for a file read whole" }
        return "\(error.isTruncation ? "truncated" : "invalid") JSON: \(error.message) (column \(error.column))"
    }

    /// Throws when the file at `relative` is larger than `budget`: it would be held whole.
    private static func checkSize(_ relative: String, in export: ExportFolder, budget: Int, what: String) throws(LogInputError) {
        if let size = export.size(relative), size > budget {
            throw LogInputError(file: export.place(relative), message: "\(byteCount(size)), past the memory budget of \(byteCount(budget)) for \(what) read whole")
        }
    }

    /// Throws for the first day file of `channels` larger than `budget`, before any is read: a
    /// day file is held whole while its messages are read.
    private static func checkDaySizes(_ channels: [SlackChannel], in export: ExportFolder, budget: Int) throws(LogInputError) {
        for channel in channels {
            for case .file(let day) in channel.days {
                try checkSize(day, in: export, budget: budget, what: "a day file")
            }
        }
    }

    /// `2024-05-01.json`: the name Slack gives a channel's day file.
    static func isDayFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 15, name.hasSuffix(".json") else { return false }
        for (i, byte) in bytes.prefix(10).enumerated() {
            if i == 4 || i == 7 { if byte != UInt8(ascii: "-") { return false } } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { return false }
        }
        return true
    }

    /// User ids to names from `users.json`. A missing file means ids are shown; one that is not an
    /// array of users is said as a warning, since every name would otherwise silently be an id.
    private static func readUsers(_ export: ExportFolder, warnings: inout [LogDiagnostic], budget: Int) throws(LogInputError) -> [String: String] {
        let usersFile = export.place("users.json")
        func warn(_ line: Int?, _ reason: String) {
            warnings.append(LogDiagnostic(position: LogPosition(file: usersFile, line: line), reason: reason + "; user ids are shown instead of names"))
        }
        switch export.kind("users.json") {
        case .missing: return [:]
        case .file: break
        case let kind:
            warn(nil, "\(kind.description), not the export's list of users")
            return [:]
        }
        try checkSize("users.json", in: export, budget: budget, what: "the list of users")
        let usersData: [UInt8]
        switch export.read("users.json") {
        case .success(let bytes): usersData = bytes
        case .failure(let error):
            warn(nil, error.message)
            return [:]
        }
        let usersValue: JSONValue
        do {
            usersValue = try parseWhole(usersData, budget: budget)
        } catch {
            throw LogInputError(file: usersFile, line: error.line, message: describe(error, budget: budget))
        }
        guard let list = usersValue.arrayWithLines?.lazyElements else {
            warn(1, "unknown schema: expected an array of users, found \(usersValue.described)")
            return [:]
        }
        var users: [String: String] = [:]
        for user in list {
            guard let object = user.objectValue, let id = object["id"]?.stringValue else { continue }
            let profile = object["profile"]?.objectValue
            let names = [profile?["display_name"]?.stringValue, object["real_name"]?.stringValue,
                         profile?["real_name"]?.stringValue, object["name"]?.stringValue]
            users[id] = names.compactMap { $0 }.first { !$0.isEmpty } ?? id
        }
        return users
    }
}

struct SlackChannel {
    /// A day file to read, or a problem found while listing the channel (reported in its place).
    enum Day {
        case file(String)
        case rejected(LogDiagnostic)
    }

    var id: String
    /// Its name, which is its folder's (a DM's is its id) and what `--channel` and the records'
    /// conversation give.
    var name: String
    /// What the row opening it says: `#general`, `DM: Ann, Bob`.
    var title: String
    var days: [Day]
    /// Said once on opening: the channel is listed but has no folder.
    var warning: LogDiagnostic?
}

/// Reads day files one by one, handing out their messages.
final class SlackProducer: RecordProducer {
    private let export: ExportFolder
    private var channels: [SlackChannel]
    /// Learns integrations' names as day files are read (`learnBotNames`).
    private var decoder: SlackMessageDecoder
    private let several: Bool
    private var channelIndex = 0
    private var dayIndex = 0
    private var current: [() -> ProducedRecord] = []
    private var currentIndex = 0
    private var announced = false
    private let budget: Int

    init(export: ExportFolder, channels: [SlackChannel], decoder: SlackMessageDecoder, budget: Int) {
        self.budget = budget
        self.export = export
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
            guard dayIndex < channel.days.count else {
                channelIndex += 1
                dayIndex = 0
                announced = false
                continue
            }
            let day = channel.days[dayIndex]
            dayIndex += 1
            switch day {
            case .file(let relative): load(relative, channel: channel)
            case .rejected(let diagnostic): return .rejected(diagnostic)
            }
        }
    }

    private func load(_ relative: String, channel: SlackChannel) {
        current = []
        currentIndex = 0
        let path = export.place(relative)
        let bytes: [UInt8]
        switch export.read(relative) {
        case .success(let read): bytes = read
        case .failure(let error):
            current = [{ .rejected(LogDiagnostic(position: LogPosition(file: path, line: nil), reason: "\(error.message); this day's messages are lost")) }]
            return
        }
        let value: JSONValue
        do {
            value = try SlackExport.parseWhole(bytes, budget: budget)
        } catch {
            let what = error.isTruncation ? "truncated JSON" : "invalid JSON"
            let reason = error.isOverBudget ? "\(error.message), past the memory budget of \(byteCount(budget))" : "\(what) at column \(error.column): \(error.message)"
            current = [{ .rejected(LogDiagnostic(
                position: LogPosition(file: path, line: error.line),
                reason: "\(reason); this day's messages are lost")) }]
            return
        }
        guard let messages = value.arrayWithLines else {
            current = [{ .rejected(LogDiagnostic(position: LogPosition(file: path, line: 1), reason: "unknown schema: a day file is an array of messages, found \(value.described)")) }]
            return
        }
        let prefix = several ? channel.id + "/" : ""
        // The channel's heading comes with its first day holding a message with a readable time,
        // and takes that time (an empty or damaged first day would date it 1 Jan 1970); a
        // channel with none has no heading, its messages each reported.
        let firstTime = messages.lazyElements.compactMap { $0.objectValue?["ts"]?.stringValue }
            .compactMap(LogTimestamp.microseconds(unixSecondsLiteral:)).first
        if several && !announced, let micros = firstTime {
            announced = true
            var header = LogMessageHeader(id: prefix + "conversation", senderName: nil, date: LogTimestamp.date(microseconds: micros))
            header.conversationID = channel.name
            current.append { .record(LogSystemMessage(header: header, notice: channel.title), LogPosition(file: path, line: 1)) }
        }
        // An integration's name, from this day or one read before it, names its posts that carry only its id.
        decoder.learnBotNames(from: messages)
        let decoder = decoder
        // Read together, each channel's records carry its name as their conversation (names are
        // unique in a workspace, and what `--channel` is given).
        current += ExportItems.items(
            file: path, conversations: [ExportConversation(idPrefix: prefix, title: "", messages: messages,
                                                           conversationID: several ? channel.name : nil)]
        ) { object, _ throws(ExportProblem) in
            try decoder.decode(ExportFields(object: object), idPrefix: prefix)
        }
    }
}
