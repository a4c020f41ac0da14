import Foundation

/// Discord's message markup to the text its clients show: a custom emoji `<:pepe:123>` or
/// `<a:pepe:123>` becomes `:pepe:`, a user mention `<@123>` or `<@!123>` becomes `@Name` from the
/// message's `mentions` (nickname, else name), a channel `<#123>` becomes `#name` when it is the
/// exported channel, and a timestamp `<t:1700000000:R>` becomes the date and time in the read's
/// zone. What cannot be resolved stays readable (`@unknown-user`, `@unknown-role`,
/// `#unknown-channel`, as Discord itself shows them). Anything else between `<` and `>` (links,
/// `<id:customize>`) is left as written. DiscordChatExporter resolves these itself unless run with
/// `--markdown false`; either way the text comes out the same.
struct DiscordMarkup {
    /// User ids to display names, from the message's `mentions`.
    var users: [String: String]
    /// The exported channel's id and name.
    var channelID: String?
    var channelName: String?
    var timeZone: TimeZone

    func resolve(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "<")) else { return text }
        // Bounded: each mention repeats a name the export chose.
        var out = BoundedText()
        var rest = Substring(text)
        while !out.isCut, let open = rest.firstIndex(of: "<") {
            out.append(rest[..<open])
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == ">" || $0 == "<" }), rest[close] == ">",
                  let replacement = token(rest[afterOpen..<close]) else {
                out.append("<")
                rest = rest[afterOpen...]
                continue
            }
            out.append(replacement)
            rest = rest[rest.index(after: close)...]
        }
        out.append(rest)
        return out.text
    }

    /// The text for the inside of one `<…>`, or nil when it is not markup we read.
    private func token(_ inner: Substring) -> String? {
        if inner.hasPrefix(":") || inner.hasPrefix("a:") {
            // <:name:id>, <a:name:id>
            let parts = inner.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].isEmpty || parts[0] == "a", isEmojiName(parts[1]), isID(parts[2]) else { return nil }
            return ":\(parts[1]):"
        }
        if inner.hasPrefix("@&") {
            return isID(inner.dropFirst(2)) ? "@unknown-role" : nil
        }
        if inner.hasPrefix("@") {
            let id = inner.hasPrefix("@!") ? inner.dropFirst(2) : inner.dropFirst()
            guard isID(id) else { return nil }
            return "@" + (users[String(id)].map(ExpansionLimit.name) ?? "unknown-user")
        }
        if inner.hasPrefix("#") {
            let id = inner.dropFirst()
            guard isID(id) else { return nil }
            if String(id) == channelID, let channelName { return "#" + ExpansionLimit.name(channelName) }
            return "#unknown-channel"
        }
        if inner.hasPrefix("t:") {
            let parts = inner.dropFirst(2).split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let seconds = Int64(parts[0]), parts[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2D }),
                  seconds <= LogTimestamp.latest / 1_000_000, seconds >= LogTimestamp.earliest / 1_000_000 else { return nil }
            let style = parts.count == 2 ? parts[1] : "f"
            guard style.count == 1, "tTdDfFR".contains(style) else { return nil }
            return timestamp(seconds: seconds, style: Character(String(style)))
        }
        return nil
    }

    /// Discord's styles, written with ISO dates in the read's zone: `t` `22:13` and `T` `22:13:20`
    /// (time alone), `d` and `D` `2023-11-14` (date alone), `f` (the default) `2023-11-14 22:13` and
    /// `F` `Tuesday, 2023-11-14 22:13` (date and time, `F` with the weekday). A relative time (`R`,
    /// "2 hours ago") is written as its date and time: a transcript has no now.
    private func timestamp(seconds: Int64, style: Character) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: Date(timeIntervalSince1970: Double(seconds)))
        func two(_ n: Int?) -> String { let n = n ?? 0; return n < 10 ? "0\(n)" : "\(n)" }
        let year = parts.year ?? 0
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        let date = "\(yearText)-\(two(parts.month))-\(two(parts.day))"
        let time = "\(two(parts.hour)):\(two(parts.minute))"
        switch style {
        case "t": return time
        case "T": return time + ":" + two(parts.second)
        case "d", "D": return date
        case "F":
            let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
            let weekday = weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
            return weekday + ", " + date + " " + time
        default: return date + " " + time
        }
    }

    private func isID(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 20 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Discord's emoji names: 2 to 32 letters, digits and underscores.
    private func isEmojiName(_ text: Substring) -> Bool {
        let bytes = text.utf8
        return bytes.count >= 2 && bytes.count <= 32
            && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F }
    }
}
