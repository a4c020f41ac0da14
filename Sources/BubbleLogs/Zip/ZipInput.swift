#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A chat export delivered as a `.zip`: WhatsApp's "Export chat" archive (`_chat.txt` from iOS,
/// `WhatsApp Chat with NAME.txt` from Android, beside the media), a Slack export archive, or a
/// Facebook or Instagram "Download your information" archive (`MessengerExport`).
/// Diagnostics name the place inside it: `Chat.zip:_chat.txt:12: reason`.
enum ZipInput {
    /// A local file header or an empty archive's end record at the start, or a `.zip` name.
    static func isZip(path: String, head: [UInt8]) -> Bool {
        head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
            || path.lowercased().hasSuffix(".zip")
    }

    static func open(_ input: InputFile, format: LogFormat, options: LogReadOptions, limits: ZipLimits = .standard) throws(LogInputError) -> LogReader {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(name: input.display, bytes: try bytes(of: input, limits: limits), limits: limits)
        } catch {
            throw LogInputError(file: error.place, message: error.message)
        }
        let chat = chatEntry(in: archive)
        let slackRoot = slackRoot(in: archive)
        switch format {
        case .auto where chat != nil, .whatsapp:
            guard let chat else {
                throw LogInputError(file: input.display, message: "no WhatsApp chat in this archive: expected _chat.txt (iOS) or one \"WhatsApp Chat with NAME.txt\" (Android)\(contents(archive))")
            }
            // The chat is checked whole once, then read in two streamed passes (the date order,
            // then the messages), each inflating it a chunk at a time: memory holds one chunk and
            // one message, whatever the chat's size.
            let pass: () -> ByteSource
            do { pass = try archive.stream(chat) } catch { throw LogInputError(file: error.place, message: error.message) }
            let place = input.display + ":" + chat.name
            var head: [UInt8] = []
            let first = pass()
            while head.count <= InputFile.detectionPrefix, first.read(appendingTo: &head) {}
            let producer = try WhatsAppProducer(passes: (first: LineReader(source: first, prefix: head, crIsLineBreak: true),
                                                         second: { LineReader(source: pass(), crIsLineBreak: true) }),
                                                file: place, options: options)
            let reader = LogReader(file: place, format: .whatsapp, strict: options.strict, producer: producer)
            // The media sit beside the chat text, in its folder of the archive.
            let folder = chat.name.lastIndex(of: "/").map { String(chat.name[...$0]) } ?? ""
            reader.media = ExportMedia(folder: ZipExportFolder(archive: archive, root: folder))
            reader.inputNotes = TextEncodingHint.notes(magic: .none, decodedPrefix: Array(head.prefix(InputFile.detectionPrefix)), isWhole: head.count <= InputFile.detectionPrefix, file: place, path: nil)
            // One chat is read; another chat in the same archive (two exports zipped together)
            // is said once, by name, rather than passed over in silence.
            let others = otherChats(in: archive, besides: chat)
            if !others.isEmpty {
                let names = others.prefix(5).map { "\"\(DiagnosticText.quoted($0.name, limit: 60))\"" }.joined(separator: ", ")
                let more = others.count > 5 ? " and \(others.count - 5) more" : ""
                reader.warnings.append(LogDiagnostic(position: LogPosition(file: input.display, line: nil), reason:
                    "the archive holds more than one chat: read \"\(DiagnosticText.quoted(chat.name, limit: 60))\", not \(names)\(more) (unzip it and read each chat's .txt)"))
            }
            return reader
        case .auto where slackRoot != nil, .slack:
            guard let slackRoot else {
                throw LogInputError(file: input.display, message: "no Slack export in this archive: expected channels.json (and users.json, and one folder per channel)\(contents(archive))")
            }
            let export = try SlackExport.producer(export: ZipExportFolder(archive: archive, root: slackRoot), options: options)
            let reader = LogReader(file: input.display, format: .slack, strict: options.strict, producer: export.producer)
            reader.warnings = export.warnings
            return reader
        case .auto where chat == nil && slackRoot == nil && !MessengerExport.threadFolders(in: ZipExportFolder(archive: archive, root: "")).isEmpty,
             .messenger:
            let export = try MessengerExport.producer(export: ZipExportFolder(archive: archive, root: ""), options: options)
            let reader = LogReader(file: input.display, format: .messenger, strict: options.strict, producer: export.producer)
            reader.warnings = export.warnings
            return reader
        case .auto where chat == nil && slackRoot == nil && !GoogleChatExport.groupFolders(in: ZipExportFolder(archive: archive, root: "")).isEmpty,
             .googlechat:
            let export = try GoogleChatExport.producer(export: ZipExportFolder(archive: archive, root: ""), options: options)
            let reader = LogReader(file: input.display, format: .googlechat, strict: options.strict, producer: export.producer)
            reader.warnings = export.warnings
            return reader
        case .auto where chat == nil && slackRoot == nil && hangoutsEntry(in: archive) != nil,
             .hangouts:
            // A Takeout archive from before Google Chat: its one Hangouts.json, read whole as the
            // file itself is.
            guard let entry = hangoutsEntry(in: archive) else {
                throw LogInputError(file: input.display, message: "no Hangouts.json in this archive (Takeout/Hangouts/Hangouts.json)\(contents(archive))")
            }
            let bytes: [UInt8]
            do { bytes = try archive.read(entry) } catch { throw LogInputError(file: error.place, message: error.message) }
            return try LogSource.open(bytes: bytes, name: input.display + ":" + entry.name, format: .hangouts, options: options)
        case .auto:
            let folders = dayFileFolders(in: archive, atMost: 4)
            if folders.count > 1 {
                // Several channels' day files without the export's list of them.
                let names = folders.prefix(3).map { $0.isEmpty ? "the archive's root" : "\"\(DiagnosticText.quoted($0, limit: 40))\"" }
                throw LogInputError(file: input.display, message: "day files of Slack channels in more than one folder (\(names.joined(separator: ", "))\(folders.count > 3 ? ", …" : "")) but no channels.json: zip the whole export, or one channel's folder alone")
            }
            throw LogInputError(file: input.display, message: "a zip archive holding neither a WhatsApp chat (_chat.txt, or one \"WhatsApp Chat with NAME.txt\") nor a Slack export (channels.json, or one channel's folder of day files)\(contents(archive))")
        case .jsonl, .telegram, .discord, .imessage, .signal, .line, .matrix, .skype:
            throw LogInputError(file: input.display, message: "a zip archive; only WhatsApp, Slack, Messenger, Google Chat and Hangouts exports are read from one (--input auto, whatsapp, slack, messenger, googlechat or hangouts)")
        }
    }

    /// The archive's `Hangouts.json` (Takeout writes it as `Takeout/Hangouts/Hangouts.json`): the
    /// first entry of that name in a folder named Hangouts, or at the archive's root.
    private static func hangoutsEntry(in archive: ZipArchive) -> ZipEntry? {
        archive.entries.first { entry in
            !entry.isFolder && (entry.name == "Hangouts.json" || entry.name.hasSuffix("Hangouts/Hangouts.json"))
        }
    }

    /// The archive's bytes: a regular file or bytes in memory are read in place; anything else (a
    /// pipe, standard input) is read into memory, up to the limit.
    private static func bytes(of input: InputFile, limits: ZipLimits) throws(ZipError) -> ZipBytes {
        // Bytes given in memory are read in place, as a regular file is.
        if let memory = input.memoryBytes { return MemoryZipBytes(bytes: memory) }
        var info = stat()
        if input.path != "-", fstat(input.fileDescriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            let descriptor = dup(input.fileDescriptor)
            if descriptor >= 0 { return FileZipBytes(descriptor: descriptor, count: Int(info.st_size)) }
        }
        let tooLarge = ZipError(archive: input.display, entry: nil, message: "an archive read from a pipe is held in memory, and this one is larger than the limit of \(byteCount(limits.maximumStreamedArchive)); read it from a file")
        var bytes = input.prefix
        guard bytes.count <= limits.maximumStreamedArchive else { throw tooLarge }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = SystemIO.readSome(input.fileDescriptor, into: &chunk)
            if got < 0 { throw ZipError(archive: input.display, entry: nil, message: "cannot read: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            guard bytes.count + got <= limits.maximumStreamedArchive else { throw tooLarge }
            bytes += chunk[..<got]
        }
        return MemoryZipBytes(bytes: bytes)
    }

    /// The chat text: `_chat.txt` (iOS), else the one top-level `.txt` (Android names it after
    /// the chat, in the phone's language: "WhatsApp Chat with X", "Chat de WhatsApp con X", …).
    /// When a shared `.txt` document sits beside it: the one named with "WhatsApp", else the one
    /// whose first lines are dated WhatsApp lines.
    static func chatEntry(in archive: ZipArchive) -> ZipEntry? {
        let files = archive.entries.filter { !$0.isFolder && !$0.isSymbolicLink && !$0.name.hasPrefix("__MACOSX/") }
        if let ios = files.first(where: { $0.name == "_chat.txt" || $0.name.hasSuffix("/_chat.txt") }) { return ios }
        let texts = files.filter { $0.name.lowercased().hasSuffix(".txt") && !$0.name.contains("/") }
        if texts.count == 1 { return texts[0] }
        let named = texts.filter { $0.name.lowercased().contains("whatsapp") }
        if named.count == 1 { return named[0] }
        return (named.isEmpty ? texts : named).prefix(20).first { looksLikeChat($0, in: archive) }
    }

    /// The chats in `archive` other than `chat`: the other `_chat.txt` files (iOS exports in
    /// folders of their own), and the top-level `.txt` files whose first lines are dated WhatsApp
    /// lines (Android exports; a shared document is not one).
    static func otherChats(in archive: ZipArchive, besides chat: ZipEntry) -> [ZipEntry] {
        let files = archive.entries.filter { !$0.isFolder && !$0.isSymbolicLink && !$0.name.hasPrefix("__MACOSX/") && $0.name != chat.name }
        let ios = files.filter { $0.name == "_chat.txt" || $0.name.hasSuffix("/_chat.txt") }
        let android = files.filter { $0.name.lowercased().hasSuffix(".txt") && !$0.name.contains("/") }
            .prefix(20).filter { looksLikeChat($0, in: archive) }
        return ios + android
    }

    /// Whether `entry`'s first lines hold a dated WhatsApp line.
    private static func looksLikeChat(_ entry: ZipEntry, in archive: ZipArchive) -> Bool {
        // A peek does not count against the real read; only the first 64 KiB are kept.
        guard entry.size <= 64 << 20, let bytes = try? archive.peek(entry, prefix: 64 << 10) else { return false }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: true).prefix(20)
            .contains { WhatsAppLine.parseHeader(String(decoding: $0, as: UTF8.self)) != nil }
    }

    /// The folder of the archive holding `channels.json` nearest its root ("" for the root itself).
    static func slackRoot(in archive: ZipArchive) -> String? {
        let listings = archive.entries.filter { !$0.isFolder && ($0.name == "channels.json" || $0.name.hasSuffix("/channels.json")) && !$0.name.hasPrefix("__MACOSX/") }
        guard let nearest = listings.min(by: { $0.name.count < $1.name.count }) else { return channelFolderRoot(in: archive) }
        return String(nearest.name.dropLast("channels.json".count))
    }

    /// With no `channels.json`: the one folder holding day files (`2024-05-01.json`), when they
    /// are all in one (`zip -r general.zip general`, or the day files zipped alone, at the
    /// root): one channel's folder, which `SlackExport` reads as that channel, as it reads the
    /// folder itself. Nil when there are none, or several folders of them (an export that lost
    /// its `channels.json` is refused as such, not read as one of its channels).
    private static func channelFolderRoot(in archive: ZipArchive) -> String? {
        let folders = dayFileFolders(in: archive, atMost: 2)
        return folders.count == 1 ? folders[0] : nil
    }

    /// The folders holding day files (`""` for the archive's root), in the archive's order, at
    /// most `limit` of them.
    private static func dayFileFolders(in archive: ZipArchive, atMost limit: Int) -> [String] {
        var folders: [String] = []
        for entry in archive.entries where !entry.isFolder && !entry.name.hasPrefix("__MACOSX/") {
            let slash = entry.name.lastIndex(of: "/")
            let file = slash.map { String(entry.name[entry.name.index(after: $0)...]) } ?? entry.name
            guard SlackExport.isDayFileName(file) else { continue }
            let folder = slash.map { String(entry.name[...$0]) } ?? ""
            if !folders.contains(folder) {
                folders.append(folder)
                if folders.count == limit { break }
            }
        }
        return folders
    }

    /// "; it holds a.txt, b/, …" (the first few names, escaped), for errors about what is missing.
    private static func contents(_ archive: ZipArchive) -> String {
        guard !archive.entries.isEmpty else { return "; the archive is empty" }
        let names = archive.entries.prefix(5).map { "\"\(DiagnosticText.quoted($0.name, limit: 40))\"" }
        return "; it holds " + names.joined(separator: ", ") + (archive.entries.count > 5 ? " and \(archive.entries.count - 5) more" : "")
    }
}
