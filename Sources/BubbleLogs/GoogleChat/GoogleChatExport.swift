import BubbleLayout

/// Google Chat as Google Takeout delivers it: `Google Chat/Groups/<group>/messages.json`
/// (`{messages: [{creator: {name, email, user_type}, created_date, text, annotations,
/// attached_files, quoted_message_metadata, reactions, updated_date, message_state,
/// deletion_metadata, topic_id, message_id}]}`, oldest first) beside `group_info.json`
/// (`{name, members: [{name, email, user_type}]}`, no name for a direct message), and
/// `Google Chat/Users/<user>/user_info.json` (`{user: {name, email}}`, the owner). Read as one
/// `messages.json`, as a group's folder, or as the Takeout folder or zip (every group of
/// `Groups`, found at the export's root, in `Google Chat/` or in `Takeout/Google Chat/`).
///
/// Groups are read in the order of their first message, each introduced by a row naming it when
/// there are several. Messages are named by their `message_id` (the group's folder before it
/// when several are read). The owner (`user_info.json`) is "me" unless `--me` names someone.
enum GoogleChatExport {
    /// Whether a JSON document's top level is a Google Chat `messages.json`.
    static func isMessages(_ root: JSONObject) -> Bool {
        guard root.members.count <= 2, let messages = root["messages"]?.arrayWithLines else { return false }
        guard let first = messages.lazyElements.lazy.compactMap(\.objectValue).first else { return false }
        return first["creator"] != nil && (first["created_date"] != nil || first["message_id"] != nil || first["topic_id"] != nil)
    }

    /// One group read, or to be read.
    struct Group {
        /// The group's folder name (`Space AAAAFyOfy4w`), or the file's name: its conversation id.
        var key: String
        var title: String
        var place: String
        var messages: JSONArray?
        var damaged: [LogDiagnostic] = []
    }

    /// The owner as `user_info.json` names them.
    struct Owner {
        var name: String?
        var email: String?
    }

    // MARK: Finding the groups

    /// The folders (relative to the export) that hold a group's `messages.json`: the export itself
    /// when it is a group's folder (it holds `group_info.json` beside `messages.json`); else each
    /// folder of `Groups` (at the root, in `Google Chat/`, in `Takeout/Google Chat/`). Only these
    /// places are looked at.
    static func groupFolders(in export: ExportFolder, requiringInfo: Bool = true) -> [String] {
        if export.kind("messages.json") == .file, !requiringInfo || export.kind("group_info.json") == .file { return [""] }
        for groups in groupLists(in: export) {
            let found = export.list(groups).filter { $0.kind == .folder }.map { ExportNames.join(groups, $0.name) }
                .filter { export.kind(ExportNames.join($0, "messages.json")) != .missing }
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Where a `Groups` folder may be.
    private static func groupLists(in export: ExportFolder) -> [String] {
        var candidates = ["Groups", "Google Chat/Groups", "Takeout/Google Chat/Groups"]
        // A Takeout zip's single top folder, whatever the download named it.
        for child in export.list("") where child.kind == .folder && child.name != "Takeout" && child.name != "Google Chat" {
            candidates.append(ExportNames.join(child.name, "Google Chat/Groups"))
            if candidates.count > 12 { break }
        }
        return candidates.filter { export.kind($0) == .folder }
    }

    /// The owner from `Users/<user>/user_info.json` beside the `Groups` folder that holds `folder`.
    private static func owner(near folder: String, in export: ExportFolder) -> Owner? {
        let parts = folder.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts[parts.count - 2] == "Groups" else { return nil }
        let users = (parts.dropLast(2) + ["Users"]).joined(separator: "/")
        for user in export.list(users).prefix(8) where user.kind == .folder {
            let path = ExportNames.join(ExportNames.join(users, user.name), "user_info.json")
            guard case .success(let bytes) = export.read(path), bytes.count <= 1 << 20,
                  let root = try? JSONParser().parse(bytes), let info = root.objectValue?["user"]?.objectValue else { continue }
            return Owner(name: info["name"]?.stringValue, email: info["email"]?.stringValue)
        }
        return nil
    }

    // MARK: Reading

    /// One `messages.json` read alone.
    static func producer(document: JSONValue, file: String, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        guard let root = document.objectValue, let messages = root["messages"]?.arrayWithLines else {
            throw LogInputError(file: file, message: "unknown schema: expected a Google Chat messages.json, an object with a \"messages\" array")
        }
        let group = Group(key: ExportItems.fileName(file), title: ExportItems.fileName(file), place: file, messages: messages)
        return try producer(groups: [group], members: [:], owner: nil, file: file, options: options)
    }

    /// Every group of a Takeout folder or zip, or one group's folder.
    static func producer(export: ExportFolder, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        let folders = groupFolders(in: export, requiringInfo: false)
        guard !folders.isEmpty else {
            throw LogInputError(file: export.display, message: "no Google Chat group here: expected Google Chat/Groups/<group>/messages.json, or a group's folder")
        }
        var groups: [Group] = []
        var members: [String: String] = [:]
        var owner: Owner?
        for folder in folders {
            if owner == nil { owner = self.owner(near: folder, in: export) }
            let key = folder.split(separator: "/").last.map(String.init) ?? ExportItems.fileName(export.display)
            var group = Group(key: key, title: key, place: export.place(ExportNames.join(folder, "messages.json")))
            var memberNames: [String] = []
            // group_info.json: the name of a space, the members of any group.
            if case .success(let bytes) = export.read(ExportNames.join(folder, "group_info.json")), bytes.count <= 16 << 20,
               let info = (try? JSONParser().parse(bytes))?.objectValue {
                if let name = info["name"]?.stringValue, !name.isEmpty { group.title = name }
                for member in (info["members"]?.arrayValue ?? []).prefix(10_000) {
                    guard let object = member.objectValue, let name = object["name"]?.stringValue, !name.isEmpty else { continue }
                    if let email = object["email"]?.stringValue, !email.isEmpty { members[email] = name }
                    memberNames.append(name)
                }
            }
            let relative = ExportNames.join(folder, "messages.json")
            switch export.read(relative) {
            case .failure(let error):
                group.damaged.append(LogDiagnostic(position: LogPosition(file: group.place, line: nil), reason: error.message))
            case .success(let bytes):
                do {
                    let value = try JSONParser(maximumTreeBytes: LogReadOptions.maximumTreeBytes(budget: options.memoryBudget)).parse(bytes)
                    if let list = value.objectValue?["messages"]?.arrayWithLines {
                        group.messages = list
                    } else {
                        group.damaged.append(LogDiagnostic(position: LogPosition(file: group.place, line: nil), reason: "unknown schema: expected an object with a \"messages\" array, found \(value.described)"))
                    }
                } catch {
                    group.damaged.append(LogDiagnostic(position: LogPosition(file: group.place, line: error.line),
                                                       reason: "\(error.isTruncation ? "truncated" : "invalid") JSON: \(error.message) (column \(error.column)); the group's messages are not read"))
                }
            }
            if group.title == key, !memberNames.isEmpty {
                // A direct message is named after the people in it other than the owner.
                let others = memberNames.filter { $0 != owner?.name }
                if !others.isEmpty { group.title = MessengerMessageDecoder.joined(Array(others.prefix(4))) + (others.count > 4 ? " and others" : "") }
            }
            groups.append(group)
        }
        groups = groups.enumerated().sorted { a, b in
            let x = firstTime(a.element) ?? .max, y = firstTime(b.element) ?? .max
            return (x, a.offset) < (y, b.offset)
        }.map(\.element)
        return try producer(groups: groups, members: members, owner: owner, file: export.display, options: options)
    }

    private static func firstTime(_ group: Group) -> Int64? {
        guard let messages = group.messages, !messages.isEmpty else { return nil }
        for value in messages.lazyElements.prefix(8) {
            if let text = value.objectValue?["created_date"]?.stringValue, let micros = GoogleChatDate.microseconds(text) { return micros }
        }
        return nil
    }

    private static func producer(groups all: [Group], members: [String: String], owner: Owner?, file: String, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        var groups = all
        if let wanted = options.conversation {
            groups = all.filter { $0.title == wanted || $0.key == wanted }
            if groups.isEmpty {
                let names = all.prefix(12).map { "\"\(DiagnosticText.quoted($0.title))\"" }.joined(separator: ", ")
                throw LogInputError(file: file, message: "no group named or in a folder named \"\(DiagnosticText.quoted(wanted))\"; the export has \(all.count): \(names)\(all.count > 12 ? ", …" : "")", kind: .conversationNotFound)
            }
        }
        let several = groups.count > 1
        var items: [() -> ProducedRecord] = []
        var warnings: [LogDiagnostic] = []
        let me = options.me ?? owner?.email ?? owner?.name
        for group in groups {
            for problem in group.damaged { items.append { .rejected(problem) } }
            guard let messages = group.messages else { continue }
            if messages.isEmpty {
                warnings.append(LogDiagnostic(position: LogPosition(file: group.place, line: nil),
                                              reason: "group \"\(DiagnosticText.quoted(group.title))\" has no messages in this export"))
                continue
            }
            let prefix = several ? group.key + "/" : ""
            let conversation = several ? group.key : nil
            // The ids of the group's messages, so a quote can point at the one it quotes, and the
            // names its senders give their emails (for reactors, where no group_info.json does).
            var ids: Set<String> = []
            var names = members
            for value in messages.lazyElements {
                guard let object = value.objectValue else { continue }
                if let id = object["message_id"]?.stringValue { ids.insert(id) }
                if let creator = object["creator"]?.objectValue, let email = creator["email"]?.stringValue,
                   let name = creator["name"]?.stringValue, !name.isEmpty, names[email] == nil {
                    names[email] = name
                }
            }
            let decoder = GoogleChatMessageDecoder(me: me, members: names, ids: ids, idPrefix: prefix, place: group.place)
            if several {
                let micros = firstTime(group) ?? 0
                let title = group.title, place = group.place
                items.append {
                    var notice = LogSystemMessage(header: LogMessageHeader(id: prefix + "conversation", senderName: nil, date: LogTimestamp.date(microseconds: micros)),
                                                  notice: "Google Chat “\(ExpansionLimit.name(title))”")
                    notice.header.conversationID = conversation
                    return .record(notice, LogPosition(file: place, line: nil))
                }
            }
            for (index, line) in messages.elementLines.enumerated() {
                let place = group.place
                items.append {
                    let position = LogPosition(file: place, line: line, messageIndex: index + 1)
                    let value = messages.element(index)
                    guard let object = value.objectValue else {
                        return .rejected(LogDiagnostic(position: position, reason: "wrong type: a message must be an object, found \(value.described)"))
                    }
                    return .decoding(at: position, conversation: conversation) { () throws(ExportProblem) in
                        try decoder.decode(ExportFields(object: object), line: line)
                    }
                }
            }
        }
        return (ListProducer(items), warnings)
    }
}
