import Foundation
import BubbleText

/// Reads a WhatsApp chat export (.txt) in two streamed passes: the first decides the date order
/// from every dated line, the second builds messages. Memory holds one message, not the file,
/// whether the input is a file, a pipe or standard input.
///
/// A record is a dated line with its continuation lines. A continuation line before the first
/// dated line, or one that is not valid UTF-8, is rejected on its own.
final class WhatsAppProducer: RecordProducer {
    private let file: String
    private let options: LogReadOptions
    private let order: WhatsAppDateOrder
    /// Said once when the file is opened (how an ambiguous date order was decided).
    let notes: [String]
    /// 12-hour when any header wrote AM or PM (`4:56 PM`), else 24-hour.
    let writtenClock: ClockStyle?
    /// WhatsApp writes local times with no zone: every one is read in the options' zone.
    var readZonelessTimes: Bool { true }
    /// Senders that wrote ordinary messages: a U+200E line under another name is the chat's.
    private let people: Set<String>
    /// `people` as WhatsApp's own sentences write them (`WhatsAppMarkedText.nameCore`).
    private let peopleNames: Set<String>
    /// The year of dates written without one (old Android's `18 Mar 12:14`), when the file has any.
    private let yearlessYear: Int?
    private let lines: LineReader
    private var pending: Pending?
    private var queue: [ProducedRecord] = []
    private var queueIndex = 0

    private struct Pending {
        var line: Int
        var header: WhatsAppLine?
        var invalidUTF8: String?
        var body: [String]
        var trailingBlank = 0
    }

    /// `passes` reads the input twice: `first` streams it for the date order, `second` gives the
    /// same lines again (see `InputFile.twoPassLines`), so a pipe or a FIFO is never reopened.
    init(passes: (first: LineReader, second: () throws(LogInputError) -> LineReader), file: String, options: LogReadOptions) throws(LogInputError) {
        self.file = file
        self.options = options
        var evidence = WhatsAppDateOrder.Evidence()
        let scan = passes.first
        var firstLine: (number: Int, text: String)?
        while let line = scan.next() {
            let text = String(decoding: line.bytes, as: UTF8.self)
            if firstLine == nil, !text.allSatisfy(\.isWhitespace) { firstLine = (line.number, text) }
            if let header = WhatsAppLine.parseHeader(text) {
                evidence.add(header, line: line.number, text: text)
            }
        }
        if let code = scan.readError {
            // A short first pass would decide the date order from part of the file and then lose the rest.
            throw LogInputError(file: file, message: "cannot read: \(String(cString: strerror(code)))")
        }
        guard evidence.headers > 0 else {
            let sample = firstLine.map { " (line \($0.number) starts \"\(DiagnosticText.quoted($0.text, limit: 40))\")" } ?? " (the file is empty)"
            throw LogInputError(file: file, message: "not a WhatsApp export in a date format we know\(sample): expected lines like \"31/12/23, 21:05 - Name: text\" or \"[31/12/23, 21:05:09] Name: text\"")
        }
        let decision = try WhatsAppDateOrder.decide(evidence, override: options.dateOrder, file: file)
        order = decision.order
        var notes = (decision.note.map { [$0] } ?? []) + WhatsAppDateOrder.calendarNotes(evidence, file: file)
        yearlessYear = try Self.yearOfYearlessDates(evidence, file: file, options: options, notes: &notes)
        self.notes = notes
        people = evidence.people
        peopleNames = Set(evidence.people.map(WhatsAppMarkedText.nameCore).filter { !$0.isEmpty })
        writtenClock = evidence.sawTwelveHour ? .twelveHour : .twentyFourHour
        lines = try passes.second()
    }

    func next() -> ProducedRecord? {
        while true {
            if queueIndex < queue.count {
                defer { queueIndex += 1 }
                return queue[queueIndex]
            }
            queue.removeAll(keepingCapacity: true)
            queueIndex = 0
            guard let line = lines.next() else {
                guard let last = pending else { return nil }
                pending = nil
                flush(last)
                continue
            }
            read(line)
        }
    }

    private func read(_ line: LineReader.Line) {
        let invalidAt = firstInvalidUTF8Offset(line.bytes)
        let text = String(decoding: line.bytes, as: UTF8.self)
        if let header = WhatsAppLine.parseHeader(text) {
            if let previous = pending { flush(previous) }
            let invalid = invalidAt.map { "invalid UTF-8: byte 0x\(String(line.bytes[$0], radix: 16, uppercase: true)) at column \($0 + 1)" }
            let (_, firstText) = header.senderAndText
            pending = Pending(line: line.number, header: header, invalidUTF8: invalid, body: [firstText])
            return
        }
        let isBlank = text.allSatisfy { $0 == " " || $0 == "\t" }
        guard pending != nil else {
            if isBlank {
                queue.append(.blank)
            } else {
                queue.append(reject(line: line.number, "a line without a date before the first message (expected \"31/12/23, 21:05 - Name: text\")"))
            }
            return
        }
        if let offset = invalidAt {
            queue.append(reject(line: line.number, "invalid UTF-8 in a continuation line: byte 0x\(String(line.bytes[offset], radix: 16, uppercase: true)) at column \(offset + 1)"))
            return
        }
        if isBlank {
            pending!.trailingBlank += 1
        } else {
            pending!.body.append(contentsOf: repeatElement("", count: pending!.trailingBlank))
            pending!.trailingBlank = 0
            pending!.body.append(text)
        }
    }

    /// The year of the dates an old Android export wrote without one: it wrote the year only for
    /// messages from before the year it was made in, so every date without one is in that year.
    /// `--year` gives it; else a year in the file's name (`WhatsApp Chat with Ana 2013.txt`); else
    /// the year after the latest year written in the file (the first the export can have been made
    /// in), said in a note; else the whole file is refused, asking for `--year`.
    static func yearOfYearlessDates(_ evidence: WhatsAppDateOrder.Evidence, file: String, options: LogReadOptions,
                                    notes: inout [String]) throws(LogInputError) -> Int? {
        guard let first = evidence.sawYearless else { return nil }
        if let year = options.year { return year }
        let quoted = DiagnosticText.quoted(first.text, limit: 40)
        if let year = yearInName(file) {
            notes.append("\(file): dates without a year (line \(first.line): \"\(quoted)\") are read as \(year), the year in the file's name; --year overrides this.")
            return year
        }
        if let latest = evidence.latestNamedYear, latest < 9999 {
            notes.append("\(file): dates without a year (line \(first.line): \"\(quoted)\") are read as \(latest + 1), the year after the latest one the file writes (WhatsApp leaves out the year the export was made in); --year overrides this.")
            return latest + 1
        }
        throw LogInputError(file: file, line: first.line, message: "dates are written without a year (\"\(quoted)\") and neither the file nor its name says which it is: give the year the export was made in with --year YYYY")
    }

    /// The last run of exactly four digits from 1990 to 2099 in the file name's last component.
    static func yearInName(_ path: String) -> Int? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var found: Int?
        var run: [Int] = []
        for scalar in name.unicodeScalars + [" "] {
            if let digit = WhatsAppLine.digitValue(scalar), scalar.value < 0x80 {
                run.append(digit)
                continue
            }
            if run.count == 4 {
                let year = run.reduce(0) { $0 * 10 + $1 }
                if (1990...2099).contains(year) { found = year }
            }
            run.removeAll()
        }
        return found
    }

    private func reject(line: Int, _ reason: String) -> ProducedRecord {
        .rejected(LogDiagnostic(position: LogPosition(file: file, line: line), reason: reason))
    }

    private func flush(_ message: Pending) {
        queue.append(build(message))
        queue.append(contentsOf: repeatElement(.blank, count: message.trailingBlank))
    }

    private func build(_ message: Pending) -> ProducedRecord {
        guard var header = message.header else { preconditionFailure("pending messages start at a header") }
        if !header.hasYear, let yearlessYear { header.third = yearlessYear }
        if let invalid = message.invalidUTF8 { return reject(line: message.line, invalid) }
        guard header.isPossibleTime else { return reject(line: message.line, "impossible time \(header.timeDescription)") }
        let civil = order.civil(header)
        guard (1...12).contains(civil.month), (1...LogTimestamp.daysInMonth(year: civil.year, month: civil.month)).contains(civil.day) else {
            return reject(line: message.line, "impossible date \(civil.year)-\(civil.month)-\(civil.day) (the file's dates read \(order == .monthFirst ? "month" : "day") first)")
        }
        let local = Int64(LogTimestamp.daysFromCivil(year: civil.year, month: civil.month, day: civil.day)) * 86_400
            + Int64(header.hour24 * 3600 + header.minute * 60 + header.secondOfMinute)
        let utc = local - Int64(offset(forLocalSeconds: local))
        guard LogTimestamp.isInRange(utc * 1_000_000) else {
            return reject(line: message.line, "date \(civil.year)-\(civil.month)-\(civil.day) falls before year 0000 in this time zone (dates run from year 0000 to 9999)")
        }
        let (sender, _) = header.senderAndText
        let position = LogPosition(file: file, line: message.line)
        // iOS leaves a PDF behind where it cut a wrapped number or mention: it closes nothing.
        let lines = message.body.map(InvisibleFormatting.withoutUnmatchedPopFormatting)
        let id = "L\(message.line)"
        let date = LogTimestamp.date(microseconds: utc * 1_000_000)

        guard let sender else {
            return .record(LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: lines.joined(separator: "\n")), position)
        }
        let direction: MessageDirection = SenderName.matches(options.me, sender) ? .outgoing : .incoming
        var common = LogMessageHeader(id: id, senderName: sender, direction: direction, date: date)
        var body = lines
        if let last = body.last, let unmarked = WhatsAppMarkedText.removingEditedMarker(last) {
            common.isEdited = true
            body[body.count - 1] = unmarked
        }
        let firstLine = body.first ?? ""
        var restLines = body.dropFirst().joined(separator: "\n")
        let classified = WhatsAppMedia.classifyWithText(firstLine)
        var media = classified?.kind
        if let before = classified?.before, !before.isEmpty {
            // A caption (or a file's description) written before the attachment on its line.
            restLines = restLines.isEmpty ? before : before + "\n" + restLines
        }
        if media == nil, firstLine.unicodeScalars.first == "\u{200E}" || WhatsAppMarkedText.isUnmarkedChatNotice(Substring(firstLine)) {
            // iOS marks what WhatsApp writes itself with a leading U+200E; see WhatsAppMarkedText.
            switch WhatsAppMarkedText.classify(body, sender: sender, senderWritesMessages: !header.bracketed || people.contains(sender), people: peopleNames) {
            case .media(let kind):
                media = kind
            case .notice(let text):
                return .record(LogTextMessage(header: common, text: text, textStyle: .notice), position)
            case .message(let text):
                return .record(LogTextMessage(header: common, text: text), position)
            case .chatNotice(let notice):
                common.senderName = nil
                common.direction = .incoming
                return .record(LogSystemMessage(header: common, notice: notice), position)
            }
        }
        let text = body.joined(separator: "\n")
        switch media {
        case .image(let name)?:
            return .record(LogImageMessage(header: common, pixelWidth: nil, pixelHeight: nil, imageName: name, caption: restLines.isEmpty ? nil : restLines), position)
        case .label(let label)?:
            return .record(LogTextMessage(header: common, text: restLines.isEmpty ? label : label + "\n" + restLines), position)
        case nil:
            return .record(LogTextMessage(header: common, text: text), position)
        }
    }

    /// The zone's offset at a local wall-clock time (the offset in force just before, across a change).
    private func offset(forLocalSeconds local: Int64) -> Int {
        let zone = options.timeZone
        let guess = local - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local))))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(guess)))
    }
}

import BubbleLayout
