/// The dates Google Takeout writes in Google Chat's `created_date`, `updated_date` and
/// `deleted_date`: English prose in UTC, month first with a 12-hour clock
/// (`Thursday, November 3, 2016 at 11:59:50 AM UTC`, U+202F or a space before AM/PM) or day first
/// with a 24-hour clock (`Tuesday, 14 March 2021 at 22:41:03 UTC`). The zone is `UTC` or `GMT`,
/// with an offset after it when it has one (`UTC+5:30`).
enum GoogleChatDate {
    private static let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                                 "september", "october", "november", "december"]

    /// Microseconds since 1970, or nil when `text` is not such a date.
    static func microseconds(_ text: String) -> Int64? {
        // Any run of spaces (U+202F and U+00A0 too) is one separator; commas stand apart.
        var words: [Substring] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\u{202F}" || scalar == "\u{A0}" || scalar == "," {
                if !current.isEmpty { words.append(Substring(current)); current = "" }
                if scalar == "," { words.append(",") }
            } else {
                current.unicodeScalars.append(scalar)
            }
            if words.count > 16 { return nil }
        }
        if !current.isEmpty { words.append(Substring(current)) }
        // Weekday and its comma.
        if words.count > 1, words[1] == ",", words[0].allSatisfy(\.isLetter), month(words[0]) == nil { words.removeFirst(2) }
        guard let at = words.firstIndex(where: { $0.lowercased() == "at" }) else { return nil }
        let datePart = words[..<at].filter { $0 != "," }
        var timePart = Array(words[(at + 1)...])
        guard datePart.count == 3 else { return nil }
        let day: Int, monthNumber: Int
        if let m = month(datePart[datePart.startIndex]), let d = Int(datePart[datePart.startIndex + 1]) {
            (day, monthNumber) = (d, m)
        } else if let d = Int(datePart[datePart.startIndex]), let m = month(datePart[datePart.startIndex + 1]) {
            (day, monthNumber) = (d, m)
        } else {
            return nil
        }
        guard datePart[datePart.startIndex + 2].allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(datePart[datePart.startIndex + 2]), (1...9999).contains(year),
              (1...LogTimestamp.daysInMonth(year: year, month: monthNumber)).contains(day) else { return nil }
        guard !timePart.isEmpty else { return nil }
        let clock = timePart.removeFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              var hour = Int(clock[0]), let minute = Int(clock[1]), minute < 60 else { return nil }
        let second = clock.count == 3 ? Int(clock[2]) : 0
        guard let second, second <= 60 else { return nil }
        if let marker = timePart.first?.uppercased(), marker == "AM" || marker == "PM" {
            timePart.removeFirst()
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (marker == "PM" ? 12 : 0)
        }
        guard hour < 24, timePart.count == 1, let offset = zoneOffset(timePart[0]) else { return nil }
        let days = LogTimestamp.daysFromCivil(year: year, month: monthNumber, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
        let micros = seconds * 1_000_000
        return LogTimestamp.isInRange(micros) ? micros : nil
    }

    private static func month(_ word: Substring) -> Int? {
        let lower = word.lowercased()
        guard lower.count >= 3 else { return nil }
        if let full = months.firstIndex(of: lower) { return full + 1 }
        // "Sept." and three-letter forms.
        let stem = lower.hasSuffix(".") ? String(lower.dropLast()) : lower
        return months.firstIndex { $0.hasPrefix(stem) && stem.count >= 3 }.map { $0 + 1 }
    }

    /// `UTC`, `GMT`, `UTC+2`, `GMT-03:30`, `UTC+0530` → seconds east of UTC.
    private static func zoneOffset(_ word: Substring) -> Int? {
        let upper = word.uppercased()
        guard upper.hasPrefix("UTC") || upper.hasPrefix("GMT") else { return nil }
        let rest = upper.dropFirst(3)
        if rest.isEmpty { return 0 }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let digits = rest.dropFirst()
        var hours = 0, minutes = 0
        if let colon = digits.firstIndex(of: ":") {
            guard let h = Int(digits[..<colon]), let m = Int(digits[digits.index(after: colon)...]) else { return nil }
            (hours, minutes) = (h, m)
        } else if digits.count <= 2, let h = Int(digits) {
            hours = h
        } else if digits.count == 4, let both = Int(digits) {
            (hours, minutes) = (both / 100, both % 100)
        } else {
            return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
