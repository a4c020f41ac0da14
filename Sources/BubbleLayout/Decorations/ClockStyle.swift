import Foundation

/// How footer times are written: `16:56` or `4:56 PM`.
public enum ClockStyle: String, Hashable, Sendable, CaseIterable {
    /// `HH:mm`, hours 00 to 23.
    case twentyFourHour = "24"
    /// `h:mm AM`/`h:mm PM`, hours 1 to 12, as a 12-hour locale or export writes them.
    case twelveHour = "12"

    /// The clock of the locale the environment names for times, as `date` reads it: `LC_ALL`,
    /// else `LC_TIME`, else `LANG` (`en_US.UTF-8`). The locale's own time format decides: glibc's
    /// locale source under `localeDirectory` (`t_fmt` with `%I`, `%l` or `%r` is 12-hour; a `copy`
    /// of another locale is followed), else the CLDR data Foundation carries (its `j` skeleton:
    /// `h` or `K` is 12-hour). `C`, `POSIX` and an unset locale are 24-hour.
    package static func locale(environment: [String: String],
                              localeDirectory: String? = ClockStyle.glibcLocaleDirectory) -> ClockStyle {
        guard let name = localeName(environment) else { return .twentyFourHour }
        if let localeDirectory, let glibc = glibcClock(name, directory: localeDirectory, depth: 0) { return glibc }
        let identifier = name.prefix { $0 != "." && $0 != "@" }
        guard let pattern = DateFormatter.dateFormat(fromTemplate: "j", options: 0, locale: Locale(identifier: String(identifier))) else {
            return .twentyFourHour
        }
        // Pattern letters outside quotes: `HH 'Uhr'` (de) is 24-hour whatever its literal says.
        let letters = pattern.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined()
        return letters.contains("h") || letters.contains("K") ? .twelveHour : .twentyFourHour
    }

    /// Where glibc keeps its locale sources.
    package static let glibcLocaleDirectory = "/usr/share/i18n/locales"

    /// The locale name that governs times, nil for `C`, `POSIX` or none.
    static func localeName(_ environment: [String: String]) -> String? {
        for key in ["LC_ALL", "LC_TIME", "LANG"] {
            guard let value = environment[key], !value.isEmpty else { continue }
            let base = value.prefix { $0 != "." && $0 != "@" }
            return base == "C" || base == "POSIX" ? nil : value
        }
        return nil
    }

    /// The clock glibc's locale source for `name` (`en_US.UTF-8` is read from `en_US`) gives:
    /// its `LC_TIME` section's `t_fmt`, or that of the locale it copies. Nil when there is no such
    /// file or section.
    static func glibcClock(_ name: String, directory: String, depth: Int) -> ClockStyle? {
        guard depth < 8 else { return nil }
        let base = name.prefix { $0 != "." && $0 != "@" }
        // Locale names are letters, digits and `_`; anything else is no file of the directory.
        guard !base.isEmpty, base.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
              let text = try? String(contentsOfFile: directory + "/" + base, encoding: .utf8) else { return nil }
        var inTime = false
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("LC_TIME") { inTime = true; continue }
            guard inTime else { continue }
            if trimmed.hasPrefix("END LC_TIME") { return nil }
            if trimmed.hasPrefix("copy") {
                let parts = trimmed.split(separator: "\"")
                return parts.count >= 2 ? glibcClock(String(parts[1]), directory: directory, depth: depth + 1) : nil
            }
            if trimmed.hasPrefix("t_fmt") && !trimmed.hasPrefix("t_fmt_ampm") {
                // Older files spell characters as <U0025>: %r is <U0025><U0072>.
                let format = trimmed.replacingOccurrences(of: "<U0025>", with: "%")
                    .replacingOccurrences(of: "<U0049>", with: "I").replacingOccurrences(of: "<U006C>", with: "l")
                    .replacingOccurrences(of: "<U0072>", with: "r")
                return format.contains("%I") || format.contains("%l") || format.contains("%r") ? .twelveHour : .twentyFourHour
            }
        }
        return nil
    }
}
