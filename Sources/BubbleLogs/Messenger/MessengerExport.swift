import BubbleLayout

/// Facebook Messenger's and Instagram's "Download your information" export, JSON kind: one folder
/// per thread (`messages/inbox/<thread>/message_1.json`, `message_2.json`, …, each
/// `{participants: [{name}], messages: […], title, thread_path, …}`, newest message first, the
/// newest file first), read as a thread folder, as a thread list (`inbox`), as the whole export (a
/// folder or its zip: every thread under `inbox`, `archived_threads`, `e2ee_cutover`,
/// `filtered_threads` and `message_requests`; see `threadFolders`), or as one file. Also the newer end-to-end-encrypted chat download:
/// `{participants: ["A", "B"], threadName, messages: [{senderName, timestamp, text, media,
/// reactions, isUnsent, type}]}`.
///
/// Strings are undone from Facebook's mojibake (`Mojibake`). Messages of a thread are read in time
/// order whatever file they are in. Messages carry no id: each is named by its time in
/// milliseconds (`1714557720123`, then `1714557720123-2` for a second one in the same millisecond).
/// The default "me" is the export's owner (`owner(of:)`). Threads of an export are read in the
/// order of their first messages.
enum MessengerExport {
    /// The folders that hold an account's threads, one level below `messages`.
    static let threadLists = ["inbox", "archived_threads", "e2ee_cutover", "filtered_threads", "message_requests"]

    /// One message of a thread, with where it was read.
    struct Message {
        var value: JSONValue
        var place: String
        var line: Int
        var index: Int
        var milliseconds: Int64?
    }

    /// A thread's messages in time order and what it says about itself.
    struct Thread {
        /// The thread's folder name (or the file's name): unique in an export, its conversation id.
        var key: String
        var title: String
        var participants: [String]
        var messages: [Message] = []
        /// Files of the thread that could not be read, each one rejected record.
        var damaged: [LogDiagnostic] = []
        /// Where its heading points.
        var place: String
        var line: Int?
    }

    // MARK: Detection

    /// Whether a JSON document's top level is a Messenger or Instagram thread.
    static func isThread(_ root: JSONObject) -> Bool {
        if root["chats"] != nil || root["guild"] != nil { return false }
        if root["thread_path"] != nil || root["threadName"] != nil { return true }
        guard root["participants"]?.arrayValue != nil, let messages = root["messages"]?.arrayValue else { return false }
        guard let first = messages.lazy.compactMap(\.objectValue).first else { return true }
        return first["sender_name"] != nil || first["timestamp_ms"] != nil || first["senderName"] != nil
    }

    /// The folders (relative to the export) that hold a thread's `message_N.json`: the export
    /// itself when it is one thread's folder; else the threads in it when it is a thread list
    /// (`inbox`); else those of each thread list in `messages/` or in `<folder>/messages/` (where
    /// the download puts them: `your_facebook_activity/messages/inbox`,
    /// `your_instagram_activity/messages/inbox`). Only these places are looked at, so another
    /// kind of export is not walked.
    static func threadFolders(in export: ExportFolder) -> [String] {
        if isThreadFolder("", in: export) { return [""] }
        func threads(in list: String) -> [String] {
            export.list(list).filter { $0.kind == .folder }.map { ExportNames.join(list, $0.name) }
                .filter { isThreadFolder($0, in: export) }
        }
        let here = threads(in: "")
        if !here.isEmpty { return here }
        var messageFolders: [String] = []
        if export.kind("messages") == .folder { messageFolders.append("messages") }
        for child in export.list("") where child.kind == .folder && child.name.hasPrefix("your_") {
            let messages = ExportNames.join(child.name, "messages")
            if export.kind(messages) == .folder { messageFolders.append(messages) }
        }
        if messageFolders.isEmpty, threadLists.contains(where: { export.kind($0) == .folder }) { messageFolders = [""] }
        var found: [String] = []
        for folder in messageFolders {
            for list in threadLists where export.kind(ExportNames.join(folder, list)) == .folder {
                found += threads(in: ExportNames.join(folder, list))
            }
        }
        return found
    }

    /// The thread's files, newest first: `message_1.json`, `message_2.json`, … (an old export's
    /// lone `message.json` too).
    static func threadFiles(_ folder: String, in export: ExportFolder) -> [String] {
        // Anything so named, so that a link or a FIFO in a file's place is reported, not passed over.
        export.list(folder).filter { $0.kind != .folder }.map(\.name).compactMap { name -> (Int, String)? in
            if name == "message.json" { return (0, name) }
            guard name.hasPrefix("message_"), name.hasSuffix(".json") else { return nil }
            let digits = name.dropFirst("message_".count).dropLast(".json".count)
            guard !digits.isEmpty, digits.count < 7, digits.allSatisfy(\.isASCII), let number = Int(digits) else { return nil }
            return (number, name)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private static func isThreadFolder(_ folder: String, in export: ExportFolder) -> Bool {
        export.kind(ExportNames.join(folder, "message_1.json")) == .file || export.kind(ExportNames.join(folder, "message.json")) == .file
    }

    // MARK: Reading

    /// One thread file read alone.
    static func producer(document: JSONValue, file: String, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        let fixed = Mojibake.undo(document)
        guard let root = fixed.objectValue, isThread(root) else {
            throw LogInputError(file: file, message: "unknown schema: expected a Messenger or Instagram message_1.json (\"participants\" and \"messages\")")
        }
        let key = ExportItems.fileName(file)
        var thread = try threadHeader(root: root, key: key, place: file)
        addMessages(of: root, place: file, to: &thread)
        thread.messages = inTimeOrder(thread.messages)
        return try producer(threads: [thread], file: file, options: options)
    }

    /// Every thread of an export folder or archive.
    static func producer(export: ExportFolder, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        let folders = threadFolders(in: export)
        guard !folders.isEmpty else {
            throw LogInputError(file: export.display, message: "no Messenger or Instagram thread here: expected messages/inbox/<thread>/message_1.json, or a thread's folder")
        }
        var threads: [Thread] = []
        for folder in folders {
            let key = folder.split(separator: "/").last.map(String.init) ?? (ExportItems.fileName(export.display))
            var thread = Thread(key: key, title: key, participants: [], place: export.place(folder))
            var sawHeader = false
            // Oldest file first, so messages run forward in time before they are sorted.
            for name in threadFiles(folder, in: export).reversed() {
                let relative = ExportNames.join(folder, name)
                let place = export.place(relative)
                let bytes: [UInt8]
                switch export.read(relative) {
                case .success(let read): bytes = read
                case .failure(let error):
                    thread.damaged.append(LogDiagnostic(position: LogPosition(file: place, line: nil), reason: error.message))
                    continue
                }
                let root: JSONObject
                do {
                    let value = try JSONParser().parse(bytes)
                    guard let object = Mojibake.undo(value).objectValue, isThread(object), object["messages"]?.arrayValue != nil else {
                        thread.damaged.append(LogDiagnostic(position: LogPosition(file: place, line: nil), reason: "unknown schema: expected a Messenger thread file (\"participants\" and \"messages\"), found \(value.described)"))
                        continue
                    }
                    root = object
                } catch {
                    thread.damaged.append(LogDiagnostic(position: LogPosition(file: place, line: error.line),
                                                        reason: "\(error.isTruncation ? "truncated" : "invalid") JSON: \(error.message) (column \(error.column)); the file's messages are not read"))
                    continue
                }
                // The newest file (message_1.json) names the thread as it is now.
                if !sawHeader || name == "message_1.json" {
                    let header = try threadHeader(root: root, key: key, place: place)
                    thread.title = header.title
                    thread.participants = header.participants
                    thread.line = header.line
                    sawHeader = true
                }
                addMessages(of: root, place: place, to: &thread)
            }
            thread.messages = inTimeOrder(thread.messages)
            threads.append(thread)
        }
        // Threads in the order of their first message (folder names say nothing of time); a
        // thread without a dated message goes last, in folder order.
        threads = threads.enumerated().sorted { a, b in
            let x = a.element.messages.lazy.compactMap(\.milliseconds).first ?? .max
            let y = b.element.messages.lazy.compactMap(\.milliseconds).first ?? .max
            return (x, a.offset) < (y, b.offset)
        }.map(\.element)
        return try producer(threads: threads, file: export.display, options: options)
    }

    /// A thread's title and participants from one of its files.
    private static func threadHeader(root: JSONObject, key: String, place: String) throws(LogInputError) -> Thread {
        guard root["messages"]?.arrayValue != nil else {
            throw LogInputError(file: place, line: root.line, message: "unknown schema: a Messenger thread needs a \"messages\" array")
        }
        let participants = (root["participants"]?.arrayValue ?? []).compactMap { value in
            value.stringValue ?? value.objectValue?["name"]?.stringValue
        }
        let title = root["title"]?.stringValue ?? root["threadName"]?.stringValue ?? key
        return Thread(key: key, title: title, participants: participants, place: place, line: root.line)
    }

    /// Appends a file's messages, oldest first (the file lists them newest first).
    private static func addMessages(of root: JSONObject, place: String, to thread: inout Thread) {
        guard let list = root["messages"]?.arrayWithLines else { return }
        var added: [Message] = []
        for (index, (value, line)) in list.elementsWithLines.enumerated() {
            added.append(Message(value: value, place: place, line: line, index: index + 1, milliseconds: milliseconds(of: value)))
        }
        thread.messages += added.reversed()
    }

    private static func milliseconds(of value: JSONValue) -> Int64? {
        guard let object = value.objectValue else { return nil }
        let literal = object["timestamp_ms"] ?? object["timestamp"]
        guard case .number(let digits)? = literal else { return nil }
        return Int64(digits)
    }

    /// Sorted by time, stably; a message without a readable time keeps the place after the one
    /// before it.
    static func inTimeOrder(_ messages: [Message]) -> [Message] {
        var previous = Int64.min
        let keyed = messages.enumerated().map { offset, message -> (Int64, Int, Message) in
            if let ms = message.milliseconds { previous = ms }
            return (previous, offset, message)
        }
        return keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// The owner, when the threads say who it is: the other person of every two-person thread
    /// titled after one of them, when those agree; else the one name in all of two or more threads.
    static func owner(of threads: [Thread]) -> String? {
        var others: Set<String> = []
        for thread in threads where thread.participants.count == 2 && thread.participants.contains(thread.title) {
            let rest = thread.participants.filter { $0 != thread.title }
            if rest.count == 1 { others.insert(rest[0]) }
        }
        if others.count == 1 { return others.first }
        let lists = threads.map { Set($0.participants) }.filter { !$0.isEmpty }
        guard others.isEmpty, lists.count >= 2 else { return nil }
        let common = lists.dropFirst().reduce(lists[0]) { $0.intersection($1) }
        return common.count == 1 ? common.first : nil
    }

    private static func producer(threads all: [Thread], file: String, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        var threads = all
        if let wanted = options.conversation {
            threads = all.filter { $0.title == wanted || $0.key == wanted }
            if threads.isEmpty {
                let names = all.prefix(12).map { "\"\(DiagnosticText.quoted($0.title))\"" }.joined(separator: ", ")
                throw LogInputError(file: file, message: "no thread titled or in a folder named \"\(DiagnosticText.quoted(wanted))\"; the export has \(all.count): \(names)\(all.count > 12 ? ", …" : "")", kind: .conversationNotFound)
            }
        }
        let decoder = MessengerMessageDecoder(me: options.me ?? owner(of: all))
        let several = threads.count > 1
        var items: [() -> ProducedRecord] = []
        var warnings: [LogDiagnostic] = []
        for thread in threads {
            for problem in thread.damaged { items.append { .rejected(problem) } }
            if thread.messages.isEmpty && thread.damaged.isEmpty {
                warnings.append(LogDiagnostic(position: LogPosition(file: thread.place, line: thread.line),
                                              reason: "thread \"\(DiagnosticText.quoted(thread.title))\" has no messages in this export"))
            }
            let prefix = several ? thread.key + "/" : ""
            let conversation = several ? thread.key : nil
            if several, let first = thread.messages.first(where: { $0.milliseconds != nil }) ?? thread.messages.first {
                let micros = (first.milliseconds ?? 0) * 1000
                let title = thread.title, place = thread.place, line = thread.line
                items.append {
                    var notice = LogSystemMessage(header: LogMessageHeader(id: prefix + "conversation", senderName: nil, date: LogTimestamp.date(microseconds: micros)),
                                                  notice: "Messenger chat “\(title)”")
                    notice.header.conversationID = conversation
                    return .record(notice, LogPosition(file: place, line: line))
                }
            }
            var seen: [Int64: Int] = [:]
            for message in thread.messages {
                var id = prefix + (message.milliseconds.map(String.init) ?? "\(ExportItems.fileName(message.place)):\(message.line)")
                if let ms = message.milliseconds {
                    let count = seen[ms, default: 0] + 1
                    seen[ms] = count
                    if count > 1 { id += "-\(count)" }
                }
                let messageID = id
                items.append {
                    let position = LogPosition(file: message.place, line: message.line, messageIndex: message.index)
                    guard let object = message.value.objectValue else {
                        return .rejected(LogDiagnostic(position: position, reason: "wrong type: a message must be an object, found \(message.value.described)"))
                    }
                    return .decoding(at: position, conversation: conversation) { () throws(ExportProblem) in
                        try decoder.decode(ExportFields(object: object), id: messageID)
                    }
                }
            }
        }
        return (ListProducer(items), warnings)
    }
}
