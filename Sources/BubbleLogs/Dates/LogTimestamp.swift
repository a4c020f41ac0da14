import BubbleLayout
import Foundation

/// Dates as whole microseconds since 1970, the precision every reader and the writer agree on.
///
/// Every reader turns its source's time into microseconds first and only then into a `Date`, and
/// the writer turns a `Date` back into the same microseconds, so export → native → read is exact:
/// to the microsecond from 1900 to 2099 (a `Date` is a Double; further out it keeps fewer
/// digits), and everywhere the text written reads back as the same date and the same text.
///
/// The dates read and written are the instants from 0000-01-01T00:00:00Z to
/// 9999-12-31T23:59:59.999999Z: what a four-digit year in RFC 3339 can say. Readers reject
/// anything outside (a leap second at the very end, an offset that moves year 0 back into
/// year -1, Unix seconds past year 9999), so `convert` never writes a date it cannot read back.
enum LogTimestamp {
    /// 0000-01-01T00:00:00Z in microseconds.
    static let earliest: Int64 = -62_167_219_200 * 1_000_000
    /// 9999-12-31T23:59:59.999999Z in microseconds.
    static let latest: Int64 = 253_402_300_800 * 1_000_000 - 1

    static func isInRange(_ microseconds: Int64) -> Bool {
        (earliest...latest).contains(microseconds)
    }

    static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    /// The microseconds of `date`: the count nearest its Double value whose `date(microseconds:)`
    /// is exactly `date`, so that text written from a date reads back as that very date (far from
    /// 2001 several counts share one Double, and plain rounding could pick another each time).
    /// Clamped to the range, so a date at its very edge is still written as one that reads back.
    static func microseconds(of date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard value > Double(earliest) else { return earliest }
        guard value < Double(latest) else { return latest }
        let estimate = Int64(value)
        if self.date(microseconds: estimate) == date { return estimate }
        for distance in Int64(0)...64 {
            for candidate in distance == 0 ? [estimate] : [estimate - distance, estimate + distance]
            where isInRange(candidate) && self.date(microseconds: candidate) == date {
                return candidate
            }
        }
        return estimate
    }

    /// Why a Unix date literal that `microseconds(unixSecondsLiteral:)` refused is wrong, when
    /// there is more to say than "unreadable": a whole number past year 9999 as seconds that is
    /// a date in range as milliseconds (JavaScript's `Date.now()`) says so, with the date it
    /// would be. We do not guess and read it as milliseconds: the user converts it knowingly.
    static func unixDateHint(_ literal: String) -> String? {
        if literal.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }), let value = Double(literal) {
            // A well-formed exponent literal out of range: the same hints, from its value.
            if value < 0 { return "before year 0000 as Unix seconds" }
            if !value.isFinite { return "past year 9999 as Unix seconds" }
            let milliseconds = value * 1_000
            if milliseconds >= 0, milliseconds < 253_402_300_800_000_000 {
                return "past year 9999 as Unix seconds; it looks like Unix milliseconds (\(iso8601(microseconds: Int64(milliseconds)))): write seconds"
            }
            return "outside the years 0000 to 9999 as Unix seconds"
        }
        let digits = literal.hasPrefix("-") ? literal.dropFirst() : Substring(literal)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        let negative = literal.hasPrefix("-")
        guard let value = Int64(literal) else { return negative ? "before year 0000 as Unix seconds" : "past year 9999 as Unix seconds" }
        let seconds = value.multipliedReportingOverflow(by: 1_000_000)
        if !seconds.overflow, isInRange(seconds.partialValue) { return nil }
        // A date before year 0000 is no milliseconds reading of anything a clock wrote.
        if negative { return "before year 0000 as Unix seconds" }
        let asMilliseconds = value.multipliedReportingOverflow(by: 1_000)
        if !asMilliseconds.overflow, isInRange(asMilliseconds.partialValue) {
            return "past year 9999 as Unix seconds; it looks like Unix milliseconds (\(iso8601(microseconds: asMilliseconds.partialValue))): write seconds"
        }
        return "outside the years 0000 to 9999 as Unix seconds"
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
        var literal = literal
        return literal.withUTF8View { microseconds(unixSecondsLiteral: $0) }
    }

    /// `microseconds(unixSecondsLiteral:)` on the literal's UTF-8 bytes.
    static func microseconds(unixSecondsLiteral literal: ByteView) -> Int64? {
        var utf8 = literal[...]
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
            if byte | 0x20 == UInt8(ascii: "e") {
                // Rare: an exponent (Java's and Jackson's doubles are written `1.7145578E9`).
                return microseconds(exponentLiteral: utf8, negative: negative)
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
                // Beyond year 9999 is not a chat message date, unless an exponent follows.
                guard !o1, !o2, plus < 253_402_300_800 else {
                    return utf8.contains { $0 | 0x20 == UInt8(ascii: "e") } ? microseconds(exponentLiteral: utf8, negative: negative) : nil
                }
                seconds = plus
            }
        }
        guard sawDigit else { return nil }
        while fractionDigits < 6 { fraction *= 10; fractionDigits += 1 }
        let total = seconds * 1_000_000 + fraction
        let signed = negative ? -total : total
        return isInRange(signed) ? signed : nil
    }

    /// Unix seconds written with an exponent, `digits[.digits](e|E)[+|-]digits` (`1.7145578E9`,
    /// `17145578003e-1`), read exactly from the decimal digits as the plain form is (digits past
    /// microseconds truncated), without going through Double. `literal` is without its sign.
    private static func microseconds(exponentLiteral literal: Slice<ByteView>, negative: Bool) -> Int64? {
        guard let e = literal.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "e") }) else { return nil }
        let mantissa = literal[..<e]
        var exponentDigits = literal[(e + 1)...]
        var exponentNegative = false
        if let sign = exponentDigits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            exponentNegative = sign == UInt8(ascii: "-")
            exponentDigits = exponentDigits.dropFirst()
        }
        guard !exponentDigits.isEmpty, exponentDigits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var exponent = 0
        // Capped where no mantissa a line can hold could bring the value back into range (its
        // zeros can be many: `0.000…0017e459`), and far from overflowing the sums below.
        let cap = mantissa.count + 40
        for byte in exponentDigits { exponent = min(exponent * 10 + Int(byte - 0x30), cap) }
        if exponentNegative { exponent = -exponent }
        // The mantissa's digits, and how many come before its point.
        var integerDigits = 0, sawPoint = false, sawDigit = false
        for byte in mantissa {
            if byte == UInt8(ascii: ".") && !sawPoint { sawPoint = true; continue }
            guard (0x30...0x39).contains(byte) else { return nil }
            sawDigit = true
            if !sawPoint { integerDigits += 1 }
        }
        guard sawDigit else { return nil }
        // The k-th digit (from 0) is worth 10^(integerDigits + exponent - 1 - k) seconds, so
        // 10^(integerDigits + exponent + 5 - k) microseconds; digits worth less are truncated.
        var total: Int64 = 0
        var k = 0
        for byte in mantissa where byte != UInt8(ascii: ".") {
            defer { k += 1 }
            let power = integerDigits + exponent + 5 - k
            guard power >= 0 else { break }
            let digit = Int64(byte - 0x30)
            guard digit != 0 else { continue }
            // 10^18 microseconds is far past year 9999.
            guard power <= 17 else { return nil }
            var value = digit
            for _ in 0..<power { value *= 10 }
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else { return nil }
            total = sum
        }
        let signed = negative ? -total : total
        return isInRange(signed) ? signed : nil
    }

    /// Parses ISO 8601 / RFC 3339 with a mandatory offset: `2024-05-01T10:02:00Z`,
    /// `2024-05-01T12:02:00.5+02:00`, `+0200`, a space instead of `T`. Digits past microseconds are truncated.
    static func microseconds(iso8601 text: String) -> Int64? {
        unboundedMicroseconds(iso8601: text).flatMap { isInRange($0) ? $0 : nil }
    }

    /// `microseconds(iso8601:)` on the text's UTF-8 bytes.
    static func microseconds(iso8601 bytes: ByteView) -> Int64? {
        unboundedMicroseconds(iso8601: bytes).flatMap { isInRange($0) ? $0 : nil }
    }

    /// Why `microseconds(iso8601:)` refused a well-formed date: it falls outside the range.
    static func isoDateHint(_ text: String) -> String? {
        guard let value = unboundedMicroseconds(iso8601: text), !isInRange(value) else { return nil }
        return "outside 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z, the dates that can be written back"
    }

    private static func unboundedMicroseconds(iso8601 text: String) -> Int64? {
        var text = text
        return text.withUTF8View { unboundedMicroseconds(iso8601: $0) }
    }

    private static func unboundedMicroseconds(iso8601 bytes: ByteView) -> Int64? {
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
    /// `microseconds` is clamped to the range, the only dates the readers accept.
    static func iso8601(microseconds: Int64) -> String {
        var out = OutputBuffer(capacity: 32)
        appendISO8601(microseconds: microseconds, to: &out)
        return out.withBytes { $0.string }
    }

    /// `iso8601(microseconds:)` written straight into `out`, without its quotes.
    static func appendISO8601(microseconds: Int64, to out: inout OutputBuffer) {
        let microseconds = min(max(microseconds, earliest), latest)
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let fraction = microseconds - seconds * 1_000_000
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = CalendarDay(daysSinceEpoch: days).components
        out.append(year, digits: 4)
        out.append(byte: UInt8(ascii: "-"))
        out.append(month, digits: 2)
        out.append(byte: UInt8(ascii: "-"))
        out.append(day, digits: 2)
        out.append(byte: UInt8(ascii: "T"))
        out.append(secondOfDay / 3600, digits: 2)
        out.append(byte: UInt8(ascii: ":"))
        out.append(secondOfDay / 60 % 60, digits: 2)
        out.append(byte: UInt8(ascii: ":"))
        out.append(secondOfDay % 60, digits: 2)
        if fraction != 0 {
            var value = Int(fraction)
            var digits = 6
            while value % 10 == 0 {
                value /= 10
                digits -= 1
            }
            out.append(byte: UInt8(ascii: "."))
            out.append(value, digits: digits)
        }
        out.append(byte: UInt8(ascii: "Z"))
    }
}
