/// The dated start of a WhatsApp message line, before the day/month order is known.
///
/// Android: `31/12/23, 21:05 - Name: text`, iOS: `[31/12/23, 21:05:09] Name: text`, with the
/// variations real exports use: `/`, `.` or `-` between date parts, a year first or last, two- or
/// four-digit years, 12-hour times with AM/PM (after a space, a no-break space or U+202F),
/// times written with dots (`14.08.18`, and Finnish `12.3.2022 klo 14.08.18`), no comma after the
/// date, and a leading U+200E. Other scripts' shapes come from the tables below: dates spaced
/// after each dot (Korean `2024. 1. 13.`, Hungarian `2024. 01. 13.`), a day period written
/// before the time (Korean `오후 8:15`, Chinese `下午8:15`), Arabic-Indic and Persian digits,
/// right-to-left marks around the date's separators and the Arabic comma (`١٣‏/١‏/٢٠٢٤، ٨:١٥ م`).
struct WhatsAppLine {
    /// The date's three numbers as written; which is day and which is month is decided per file.
    var first: Int
    var second: Int
    var third: Int
    var yearFirst: Bool
    var hour: Int
    var minute: Int
    var secondOfMinute: Int
    /// nil for 24-hour times; true for PM.
    var isPM: Bool?
    /// Everything after the "] " or " - ": "Name: text" or a system sentence.
    var rest: Substring
    /// True for the iOS shape, `[date, time] …`.
    var bracketed = false
    /// True when the month was written as a name (old Android: `28 Aug 2013`, `Mar 5`): then
    /// `first` is the day, `second` the month and `third` the year, whatever the file's order.
    var namedMonth = false
    /// False for a named-month date written without its year (`18 Mar 12:14`): `third` is 0 and
    /// the year comes from the file (see `WhatsAppProducer`).
    var hasYear = true

    init(first: Int, second: Int, third: Int, yearFirst: Bool, hour: Int, minute: Int, secondOfMinute: Int,
         isPM: Bool?, rest: Substring, bracketed: Bool = false) {
        self.first = first
        self.second = second
        self.third = third
        self.yearFirst = yearFirst
        self.hour = hour
        self.minute = minute
        self.secondOfMinute = secondOfMinute
        self.isPM = isPM
        self.rest = rest
        self.bracketed = bracketed
    }

    init(named date: (day: Int, month: Int, year: Int?), time: (hour: Int, minute: Int, second: Int, hasSeconds: Bool),
         isPM: Bool?, rest: Substring, bracketed: Bool) {
        self.init(first: date.day, second: date.month, third: date.year ?? 0, yearFirst: false, hour: time.hour,
                  minute: time.minute, secondOfMinute: time.second, isPM: isPM, rest: rest, bracketed: bracketed)
        namedMonth = true
        hasYear = date.year != nil
    }

    /// The zero of each run of decimal digits a phone may write dates in: ASCII, Arabic-Indic
    /// (Arabic locales), Extended Arabic-Indic (Persian, Urdu), Devanagari, Bengali and Thai.
    /// A number is read in whichever of them it is written (the runs are ten in a row).
    static let digitZeros: [UInt32] = [0x30, 0x660, 0x6F0, 0x966, 0x9E6, 0xE50]

    /// Day periods written before the hour, as the 12-hour clocks of CLDR's ko, zh and ja
    /// locales put them (`a h:mm`, zh_Hant's flexible `Bh:mm`): each with whether it is after
    /// noon. Noon's 中午 counts as after noon (12:xx stays 12, 1:xx is 13); the night's as before.
    static let periodsBeforeTime: [(text: [Unicode.Scalar], isPM: Bool)] = [
        ("오전", false), ("오후", true),                       // Korean
        ("上午", false), ("下午", true),                       // Chinese
        ("凌晨", false), ("早上", false), ("清晨", false), ("午夜", false),
        ("中午", true), ("晚上", true),                        // zh_Hant day periods
        ("午前", false), ("午後", true),                       // Japanese
    ].map { (Array($0.0.unicodeScalars), $0.1) }

    /// Day periods written after the time in scripts other than Latin (whose AM/PM spellings
    /// are read letter by letter below): Arabic ص/م and Persian ق.ظ./ب.ظ. (CLDR's ar and fa).
    static let periodsAfterTime: [(text: [Unicode.Scalar], isPM: Bool)] = [
        ("ق.ظ.", false), ("ب.ظ.", true), ("ص", false), ("م", true),
    ].map { (Array($0.0.unicodeScalars), $0.1) }

    /// Invisible marks that phones put around a date's parts (LRM, RLM, ALM, a byte order mark).
    static func isMark(_ s: Unicode.Scalar) -> Bool {
        s == "\u{200E}" || s == "\u{200F}" || s == "\u{061C}" || s == "\u{FEFF}"
    }

    /// The value of a decimal digit in any of `digitZeros`' scripts.
    @inline(__always)
    static func digitValue(_ s: Unicode.Scalar) -> Int? {
        let v = s.value
        if v < 0x80 { return v >= 0x30 && v <= 0x39 ? Int(v - 0x30) : nil }
        for zero in digitZeros.dropFirst() where v >= zero && v <= zero + 9 { return Int(v - zero) }
        return nil
    }

    /// Day periods written after the time, from CLDR (see `WhatsAppCalendarWords`), as scalars.
    static let periodWords: [(text: [Unicode.Scalar], hours: UInt32)] =
        WhatsAppCalendarWords.periodsAfterTime.map { (Array($0.text.unicodeScalars), $0.hours) }

    /// Whether a day period naming `hours` (bit n for n o'clock) puts the 12-hour `hour` after noon:
    /// the reading whose hour the period names, else the half of the day it names more of.
    static func isAfterNoon(hour: Int, in hours: UInt32) -> Bool {
        let morning = hour % 12, evening = hour % 12 + 12
        let namesMorning = hours & (1 << UInt32(morning)) != 0, namesEvening = hours & (1 << UInt32(evening)) != 0
        if namesMorning != namesEvening { return namesEvening }
        return (hours >> 12).nonzeroBitCount > (hours & 0xFFF).nonzeroBitCount
    }

    static func parseHeader(_ line: String) -> WhatsAppLine? {
        let scalars = line.unicodeScalars
        var i = scalars.startIndex
        // Called a few dozen times a line on every line, twice: kept inline.
        @inline(__always) func peek() -> Unicode.Scalar? { i < scalars.endIndex ? scalars[i] : nil }
        @inline(__always) func advance() { i = scalars.index(after: i) }
        @inline(__always) func digits(max: Int) -> (value: Int, count: Int)? {
            var value = 0
            var count = 0
            while count < max, let s = peek(), let digit = digitValue(s) {
                value = value * 10 + digit
                count += 1
                advance()
            }
            return count > 0 ? (value, count) : nil
        }
        @inline(__always) func isSpace(_ s: Unicode.Scalar?) -> Bool { s == " " || s == "\u{202F}" || s == "\u{00A0}" }
        @inline(__always) func isASCIILetter(_ s: Unicode.Scalar?) -> Bool {
            guard let s else { return false }
            return ("a"..."z").contains(s) || ("A"..."Z").contains(s)
        }
        func isLetter(_ s: Unicode.Scalar?) -> Bool { s.map { $0.properties.isAlphabetic } ?? false }
        // Every mark is outside ASCII: the calls below look only when the next scalar is not ASCII.
        func skipMarks() { while let s = peek(), isMark(s) { advance() } }
        @inline(__always) func skipWideMarks() { if i < scalars.endIndex, scalars[i].value >= 0x80 { skipMarks() } }
        /// Reads one of `table`'s texts at `i`, the longest listed first. Every text starts
        /// outside ASCII, so an ASCII scalar (most lines) is no period without looking.
        func period(_ table: [(text: [Unicode.Scalar], isPM: Bool)]) -> Bool? {
            guard let first = peek(), first.value >= 0x80 else { return nil }
            for entry in table {
                var j = i
                var matched = true
                for letter in entry.text {
                    guard j < scalars.endIndex, scalars[j] == letter else {
                        matched = false
                        break
                    }
                    j = scalars.index(after: j)
                }
                if matched {
                    i = j
                    return entry.isPM
                }
            }
            return nil
        }
        /// A day period in words after the time ("in the morning", "de la tarde"), matched with
        /// ASCII letters in any case and ending where a word ends: the hours it names.
        func periodWord() -> UInt32? {
            guard let first = peek(), first != "-", first != "]", first != ":", first != "\u{2013}" else { return nil }
            for entry in periodWords {
                var j = i
                var matched = true
                for letter in entry.text {
                    guard j < scalars.endIndex else { matched = false; break }
                    var s = scalars[j]
                    if ("A"..."Z").contains(s) { s = Unicode.Scalar(s.value + 32)! }
                    guard s == letter else { matched = false; break }
                    j = scalars.index(after: j)
                }
                if matched, j == scalars.endIndex || !scalars[j].properties.isAlphabetic {
                    i = j
                    return entry.hours
                }
            }
            return nil
        }
        /// A month's name (`Aug`, `Sept.`, `août`): its number.
        func monthName() -> Int? {
            let start = i
            var name = ""
            while let s = peek(), isLetter(s), name.unicodeScalars.count < 12 {
                name.unicodeScalars.append(s)
                advance()
            }
            if peek() == "." { advance() }
            guard let month = WhatsAppCalendarWords.months[name.lowercased()] else {
                i = start
                return nil
            }
            return month
        }
        /// `14:56`, `14:56:01` or, where `dots`, `14.56.01`: the hour, minute, second and
        /// whether the seconds were written.
        func clock(dots: Bool) -> (hour: Int, minute: Int, second: Int, hasSeconds: Bool)? {
            guard let hour = digits(max: 2), let separator = peek(), separator == ":" || (dots && separator == ".") else { return nil }
            advance()
            guard let minute = digits(max: 2), minute.count == 2 else { return nil }
            guard peek() == separator, i < scalars.endIndex, scalars.index(after: i) < scalars.endIndex,
                  digitValue(scalars[scalars.index(after: i)]) != nil else {
                return (hour.value, minute.value, 0, false)
            }
            advance()
            guard let second = digits(max: 2), second.count == 2 else { return nil }
            return (hour.value, minute.value, second.value, true)
        }
        /// The day period after a time: AM/PM as Latin letters (`PM`, `p.m.`, `p. m.`), a
        /// period in words, or Arabic's and Persian's; nil (and `i` unchanged) when there is none.
        func meridiem(hour: Int) -> Bool? {
            let beforeMeridiem = i
            while isSpace(peek()) { advance() }
            if let letter = peek(), "aApP".unicodeScalars.contains(letter) {
                advance()
                if peek() == "." { advance() }
                if peek() == " " { advance() }
                if let m = peek(), m == "m" || m == "M" {
                    advance()
                    if peek() == "." { advance() }
                    if !isLetter(peek()) { return letter == "p" || letter == "P" }
                }
                i = beforeMeridiem
                while isSpace(peek()) { advance() }
            }
            if let hours = periodWord() { return isAfterNoon(hour: hour, in: hours) }
            if let after = period(periodsAfterTime) { return after }
            i = beforeMeridiem
            return nil
        }
        /// A date written with a month's name: `28 Aug 2013`, `18 Mar`, `Mar 5`, `Mar 5, 2013`:
        /// the day, month and year (nil when not written).
        func namedDate() -> (day: Int, month: Int, year: Int?)? {
            if isLetter(peek()) {
                guard let month = monthName(), isSpace(peek()) else { return nil }
                while isSpace(peek()) { advance() }
                guard let day = digits(max: 2), day.count <= 2 else { return nil }
                let afterDay = i
                if peek() == "," { advance() }
                if isSpace(peek()) {
                    advance()
                    if let year = digits(max: 4), year.count == 4, !(peek() == ":" || peek() == ".") { return (day.value, month, year.value) }
                }
                i = afterDay
                return (day.value, month, nil)
            }
            guard let day = digits(max: 2), isSpace(peek()) else { return nil }
            while isSpace(peek()) { advance() }
            guard let month = monthName() else { return nil }
            let afterMonth = i
            if isSpace(peek()) {
                advance()
                if let year = digits(max: 4), year.count == 4, !(peek() == ":" || peek() == ".") { return (day.value, month, year.value) }
            }
            i = afterMonth
            return (day.value, month, nil)
        }
        /// The second and third parts of a numeric date after its first number (`/18/22`,
        /// `. 1. 13.`), with a Japanese era (`R4`) or a Buddhist era's `BE` read to a Gregorian year.
        func numericRest() -> (b: (value: Int, count: Int), c: (value: Int, count: Int))? {
            skipWideMarks()
            guard let separator = peek(), separator == "/" || separator == "." || separator == "-" else { return nil }
            advance()
            // Korean and Hungarian space the parts after each dot: `2024. 1. 13.`
            if separator == "." { while peek() == " " { advance() } }
            skipWideMarks()
            guard let b = digits(max: 2) else { return nil }
            skipWideMarks()
            guard peek() == separator else { return nil }
            advance()
            if separator == "." { while peek() == " " { advance() } }
            skipWideMarks()
            if let letter = peek(), let eraStart = WhatsAppCalendarWords.japaneseEras[letter] {
                // The Japanese calendar's year: an era's letter and the year of the era (`R4`).
                advance()
                guard let eraYear = digits(max: 2), eraYear.value >= 1 else { return nil }
                return (b, (eraStart + eraYear.value - 1, 4))
            }
            guard var c = digits(max: 4) else { return nil }
            if c.count == 4, peek() == " ", scalars.index(after: i) < scalars.endIndex, scalars[scalars.index(after: i)] == "B" {
                // The Buddhist era's suffix, `2565 BE`.
                let start = i
                advance()
                advance()
                if peek() == "E" {
                    advance()
                    c.value -= WhatsAppDateOrder.buddhistEraOffset
                } else {
                    i = start
                }
            }
            return (b, c)
        }
        /// What ends the date and time: the iOS `]`, Android's ` - `, or (older iOS without
        /// brackets, whose times have seconds) `: `.
        func closing(bracketed: Bool, allowsColon: Bool) -> Bool {
            skipWideMarks()
            if bracketed {
                guard peek() == "]" else { return false }
                advance()
                if isSpace(peek()) { advance() }
                return true
            }
            if allowsColon, peek() == ":" {
                advance()
                guard isSpace(peek()) else { return false }
                advance()
                return true
            }
            guard isSpace(peek()) else { return false }
            while isSpace(peek()) { advance() }
            guard let dash = peek(), dash == "-" || dash == "\u{2013}" else { return false }
            advance()
            guard isSpace(peek()) else { return false }
            advance()
            return true
        }

        /// A date with its month's name, then its time, then the header's end: old Android's
        /// `Mar 5, 8:11 PM - ` and `28 Aug 2013, 19:23 - `.
        func namedDateThenTime(bracketed: Bool) -> WhatsAppLine? {
            guard let date = namedDate() else { return nil }
            if peek() == "," { advance() }
            guard isSpace(peek()) else { return nil }
            while isSpace(peek()) { advance() }
            guard let time = clock(dots: false) else { return nil }
            let isPM = meridiem(hour: time.hour)
            guard closing(bracketed: bracketed, allowsColon: false) else { return nil }
            return WhatsAppLine(named: date, time: time, isPM: isPM, rest: Substring(scalars[i...]), bracketed: bracketed)
        }

        skipWideMarks()
        let bracketed = peek() == "["
        if bracketed {
            advance()
            // iOS with a right-to-left interface (and some re-saves' byte order mark) put a mark here.
            skipWideMarks()
        }
        if isASCIILetter(peek()) || isLetter(peek()) {
            // Old Android, month first: `Mar 5, 8:11 PM - Name: text`.
            return namedDateThenTime(bracketed: bracketed)
        }
        let start = i
        guard let a = digits(max: 4) else { return nil }
        if a.count <= 2, peek() == ":" {
            // Time first: Vietnamese iOS `[14:56:01, 3/18/22]`, old Android `19:23, 28 Aug 2013 - `.
            i = start
            guard let time = clock(dots: false) else { return nil }
            let isPM = meridiem(hour: time.hour)
            if peek() == "," { advance() }
            guard isSpace(peek()) else { return nil }
            while isSpace(peek()) { advance() }
            let dateStart = i
            if let date = namedDate() {
                guard closing(bracketed: bracketed, allowsColon: false) else { return nil }
                return WhatsAppLine(named: date, time: time, isPM: isPM, rest: Substring(scalars[i...]), bracketed: bracketed)
            }
            i = dateStart
            guard let first = digits(max: 4), let (b, c) = numericRest() else { return nil }
            let yearFirst = first.count == 4
            guard yearFirst ? c.count <= 2 : (first.count <= 2 && (c.count == 2 || c.count == 4)) else { return nil }
            if peek() == "." { advance() }
            guard closing(bracketed: bracketed, allowsColon: false) else { return nil }
            return WhatsAppLine(
                first: first.value, second: b.value, third: c.value, yearFirst: yearFirst,
                hour: time.hour, minute: time.minute, secondOfMinute: time.second, isPM: isPM,
                rest: Substring(scalars[i...]), bracketed: bracketed)
        }
        if a.count <= 2, isSpace(peek()) {
            // Old Android, day and month's name: `18 Mar 12:14 - `, `28 Aug 2013, 19:23 - `.
            var j = i
            while j < scalars.endIndex, isSpace(scalars[j]) { j = scalars.index(after: j) }
            guard j < scalars.endIndex, scalars[j].properties.isAlphabetic else { return nil }
            i = start
            return namedDateThenTime(bracketed: bracketed)
        }
        guard let (b, c) = numericRest() else { return nil }
        var yearFirst = a.count == 4
        if peek() == "." { advance() }
        skipWideMarks()
        if peek() == "," || peek() == "\u{060C}" { advance() }
        skipWideMarks()
        guard isSpace(peek()) else { return nil }
        while isSpace(peek()) { advance() }
        // Finnish writes "klo" (o'clock) between the date and the time.
        if peek() == "k" {
            for letter in "klo ".unicodeScalars {
                guard peek() == letter else { return nil }
                advance()
            }
        }
        var isPM = period(periodsBeforeTime)
        let periodFirst = isPM != nil
        if periodFirst {
            // Locales that put the day period first (ko, zh, ja) put the year first too, also
            // when it has two digits (`24. 1. 13. 오후 8:15`).
            if a.count == 2, c.count <= 2 { yearFirst = true }
            while isSpace(peek()) { advance() }
        }
        guard yearFirst ? c.count <= 2 : (a.count <= 2 && (c.count == 2 || c.count == 4)) else { return nil }
        // Locales whose time separator is a dot (Danish, Finnish, Indonesian) write 14.08.18.
        guard let time = clock(dots: true) else { return nil }
        if !periodFirst { isPM = meridiem(hour: time.hour) }
        // Before 2017 iOS wrote no brackets and ended the time (always with seconds) with ": ".
        guard closing(bracketed: bracketed, allowsColon: time.hasSeconds && !periodFirst) else { return nil }
        // A time out of range (25:99, 13:00 PM) still makes a header: the line is a record the
        // reader rejects with its place, not text silently added to the message before it.
        return WhatsAppLine(
            first: a.value, second: b.value, third: c.value, yearFirst: yearFirst,
            hour: time.hour, minute: time.minute, secondOfMinute: time.second, isPM: isPM,
            rest: Substring(scalars[i...]), bracketed: bracketed)
    }

    /// Whether a line that `parseHeader` refuses still has a WhatsApp line's shape: it starts
    /// (after marks and an iOS `[`) with a digit, and a time (`8:15`, `14.08`) is followed within
    /// a few characters by the iOS `] ` or the Android ` - `. Such a file is a WhatsApp export
    /// whose date we do not know, which is worth saying instead of "unrecognised format".
    static func looksLikeHeader(_ line: String) -> Bool {
        let s = Array(line.unicodeScalars.prefix(80))
        var i = 0
        while i < s.count, isMark(s[i]) { i += 1 }
        let bracketed = i < s.count && s[i] == "["
        if bracketed { i += 1 }
        guard i < s.count, digitValue(s[i]) != nil else { return false }
        var k = i
        while k + 3 < s.count {
            defer { k += 1 }
            guard digitValue(s[k]) != nil, s[k + 1] == ":" || s[k + 1] == ".",
                  digitValue(s[k + 2]) != nil, digitValue(s[k + 3]) != nil else { continue }
            // The time ends within a few characters (seconds, a day period) of the separator.
            let end = min(s.count - 1, k + 24)
            guard k + 4 < end else { continue }
            for j in (k + 4)..<end {
                if bracketed ? (s[j] == "]" && s[j + 1] == " ")
                    : (s[j] == " " && (s[j + 1] == "-" || s[j + 1] == "\u{2013}") && j + 2 < s.count && s[j + 2] == " ") {
                    return true
                }
            }
        }
        return false
    }

    /// Whether the time can be on a clock: hours 0–23 (0–12 with a day period; some locales,
    /// es and pt, write the hour after midnight as 00 with "a. m."), minutes and seconds 0–59.
    var isPossibleTime: Bool {
        hour <= (isPM == nil ? 23 : 12) && minute <= 59 && secondOfMinute <= 59
    }

    /// The time as written, for a diagnostic: `25:99`, `13:00:05 PM`.
    var timeDescription: String {
        func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        var text = "\(twoDigits(hour)):\(twoDigits(minute))"
        if secondOfMinute != 0 { text += ":" + twoDigits(secondOfMinute) }
        if let isPM { text += isPM ? " PM" : " AM" }
        return text
    }

    /// The hour on a 24-hour clock.
    var hour24: Int {
        guard let isPM else { return hour }
        return hour % 12 + (isPM ? 12 : 0)
    }

    /// The sender of an ordinary message: one whose text does not open with the U+200E that
    /// WhatsApp puts before what it writes itself. Nil for notices, marked lines and an older,
    /// unmarked encryption notice. Asked of every line in the first pass, so it copies only the name.
    var ordinarySender: String? {
        let (name, text) = parts
        guard let name, text.unicodeScalars.first != "\u{200E}", !WhatsAppMarkedText.isUnmarkedChatNotice(text) else { return nil }
        return String(name)
    }

    /// Splits "Name: text" from a system sentence. A "name" holding quotes or longer than a name
    /// gets is part of a sentence ("Alice changed the subject to "Trip: Bali"").
    var senderAndText: (sender: String?, text: String) {
        let (name, text) = parts
        return (name.map(String.init), String(text))
    }

    /// Where `": \u{200E}"` starts in `text`, if anywhere. Asked of nearly every line (twice),
    /// so it looks for the mark's lead byte E2 with `ByteView.firstIndex` (`memchr`) over the
    /// UTF-8 and checks the bytes around each hit: a line without one costs a vectorised pass,
    /// not a byte loop over the substring's indices.
    private static func markedColon(in text: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView.Index? {
        let utf8 = Substring(text).utf8
        let offset: Int?? = utf8.withContiguousByteView { bytes -> Int? in
            var from = 0
            while let k = bytes.firstIndex(of: 0xE2, from: from, to: bytes.count) {
                if k >= 2, k + 2 < bytes.count, bytes[k - 2] == 0x3A, bytes[k - 1] == 0x20, bytes[k + 1] == 0x80, bytes[k + 2] == 0x8E {
                    return k - 2  // the colon, on a scalar boundary
                }
                from = k + 1
            }
            return nil
        }
        if let offset {
            return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
        }
        // Not contiguous (a bridged string): the same search by index.
        let pattern: [UInt8] = [0x3A, 0x20, 0xE2, 0x80, 0x8E]
        var i = utf8.startIndex
        var run = 0
        while i < utf8.endIndex {
            let byte = utf8[i]
            run = byte == pattern[run] ? run + 1 : (byte == pattern[0] ? 1 : 0)
            if run == pattern.count { return utf8.index(i, offsetBy: -4) }
            i = utf8.index(after: i)
        }
        return nil
    }

    /// The name and the text either side of the first ": ", found by scalars (every line of a file
    /// is split at least twice, so no Foundation search).
    private var parts: (name: Substring?, text: Substring) {
        let scalars = rest.unicodeScalars
        var i = scalars.startIndex
        var colon: Substring.UnicodeScalarView.Index?
        while i < scalars.endIndex {
            let next = scalars.index(after: i)
            if scalars[i] == ":", next < scalars.endIndex, scalars[next] == " " {
                colon = i
                break
            }
            i = next
        }
        guard let colon else {
            if scalars.last == ":" { return (Substring(scalars.dropLast()), "") }
            return (nil, rest)
        }
        var name = scalars[..<colon]
        var textStart = scalars.index(colon, offsetBy: 2)
        // iOS marks what it writes itself with a U+200E after the colon. A group named with a
        // colon ("Trip: Planning: ‎Ana added Ben") puts that mark after the name's own colon:
        // when the first colon is not followed by the mark but a later one is, the name runs to it.
        func isName(_ name: Substring.UnicodeScalarView) -> Bool {
            !name.isEmpty && name.count <= 64 && !name.contains("\"") && !name.contains("\u{201C}")
        }
        if textStart < scalars.endIndex, scalars[textStart] != "\u{200E}", let marked = Self.markedColon(in: scalars[textStart...]),
           isName(scalars[..<marked]) {
            name = scalars[..<marked]
            textStart = scalars.index(marked, offsetBy: 2)
        }
        guard isName(name) else { return (nil, rest) }
        return (Substring(name), Substring(scalars[textStart...]))
    }
}
