import BubbleLayout
import Foundation

/// Dates as whole microseconds since 1970, the precision every reader and the writer agree on.
///
/// Every reader turns its source's time into microseconds first and only then into a `Date`, and
/// the writer turns a `Date` back into the same microseconds, so export → native → read is exact.
enum LogTimestamp {
    static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    static func microseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// Days since 1970-01-01 for a proleptic Gregorian civil date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Parses Unix seconds written as a decimal literal ("1714557800", "1714557800.000200") exactly.
    static func microseconds(unixSecondsLiteral literal: String) -> Int64? {
        var utf8 = Substring(literal).utf8[...]
        var negative = false
        if utf8.first == UInt8(ascii: "-") {
            negative = true
            utf8 = utf8.dropFirst()
        }
        var seconds: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var sawDigit = false
        var inFraction = false
        for byte in utf8 {
            if byte == UInt8(ascii: ".") && !inFraction {
                inFraction = true
                continue
            }
            guard (0x30...0x39).contains(byte) else { return nil }
            sawDigit = true
            let digit = Int64(byte - 0x30)
            if inFraction {
                // Digits past microseconds are truncated, as every reader does.
                if fractionDigits < 6 { fraction = fraction * 10 + digit; fractionDigits += 1 }
            } else {
                let (times, o1) = seconds.multipliedReportingOverflow(by: 10)
                let (plus, o2) = times.addingReportingOverflow(digit)
                // Beyond year 9999 is not a chat message date.
                guard !o1, !o2, plus < 253_402_300_800 else { return nil }
                seconds = plus
            }
        }
        guard sawDigit else { return nil }
        while fractionDigits < 6 { fraction *= 10; fractionDigits += 1 }
        let total = seconds * 1_000_000 + fraction
        return negative ? -total : total
    }

    /// Parses ISO 8601 / RFC 3339 with a mandatory offset: `2024-05-01T10:02:00Z`,
    /// `2024-05-01T12:02:00.5+02:00`, `+0200`, a space instead of `T`. Digits past microseconds are truncated.
    static func microseconds(iso8601 text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= bytes.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                guard (0x30...0x39).contains(bytes[k]) else { return nil }
                value = value * 10 + Int(bytes[k] - 0x30)
            }
            i += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2) else { return nil }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "T") || bytes[i] == UInt8(ascii: "t") || bytes[i] == 0x20 else { return nil }
        i += 1
        guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
              let second = number(2) else { return nil }
        var fraction: Int64 = 0
        if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
            var digits = 0
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                if digits < 6 { fraction = fraction * 10 + Int64(bytes[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 6)..<6 { fraction *= 10 }
        }
        var offsetSeconds = 0
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "Z") || bytes[i] == UInt8(ascii: "z") {
            i += 1
        } else if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            let sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let hours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let minutes = number(2), hours <= 23, minutes <= 59 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard i == bytes.count, (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return seconds * 1_000_000 + fraction
    }

    /// Writes `2024-05-01T10:02:00Z`, with a fraction (trailing zeros trimmed) only when there is one.
    static func iso8601(microseconds: Int64) -> String {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let fraction = microseconds - seconds * 1_000_000
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = CalendarDay(daysSinceEpoch: days).components
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if fraction != 0 {
            var digits = pad(Int(fraction), 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }
}
