/// Whether a WhatsApp file writes day or month first, decided from all of its dates: a first
/// number above 12 proves day-first, a second above 12 proves month-first. When nothing proves
/// either, the order that keeps the file's dates in order wins (exports are chronological), and
/// the decision is said in a note. When both orders keep it in order, 12-hour times suggest a
/// US-style month-first locale and anything else day-first, which is what most locales use.
/// `--date-order` overrides all of this.
enum WhatsAppDateOrder: Sendable {
    case dayFirst, monthFirst, yearFirst

    /// What the first pass over the file saw.
    struct Evidence {
        var sawDayFirst: (line: Int, text: String)?
        var sawMonthFirst: (line: Int, text: String)?
        var sawYearFirst: Int?
        var sawYearLast: Int?
        var sawTwelveHour = false
        var headers = 0
        /// True once a date reads differently day-first and month-first (its day is not its month).
        var sawAmbiguous = false
        /// How often the dates go back in time when read each way.
        var backwardDayFirst = 0
        var backwardMonthFirst = 0
        private var lastDayFirst: Int?
        private var lastMonthFirst: Int?
        /// Senders that wrote at least one ordinary message (not one WhatsApp marks with U+200E):
        /// people, as opposed to the group's own name on its notices.
        var people: Set<String> = []
        /// The first date whose year is in the Buddhist era (see `buddhistEraFrom`).
        var sawBuddhistYear: (line: Int, year: Int)?
        /// The first date whose year is too early for any chat (see `calendarNotes`).
        var sawEarlyYear: (line: Int, year: Int)?
        /// The first date written without its year (old Android's `18 Mar 12:14`).
        var sawYearless: (line: Int, text: String)?
        /// The latest year written in full by a date with a month's name (`28 Aug 2013`).
        var latestNamedYear: Int?

        mutating func add(_ header: WhatsAppLine, line: Int, text: String) {
            headers += 1
            if header.isPM != nil { sawTwelveHour = true }
            if let sender = header.ordinarySender { people.insert(sender) }
            if header.namedMonth {
                // Its month is named: it says nothing of the order of numeric dates.
                if header.hasYear {
                    latestNamedYear = max(latestNamedYear ?? header.third, header.third)
                } else if sawYearless == nil {
                    sawYearless = (line, text)
                }
                return
            }
            let writtenYear = header.yearFirst ? header.first : header.third
            if writtenYear >= WhatsAppDateOrder.buddhistEraFrom, sawBuddhistYear == nil { sawBuddhistYear = (line, writtenYear) }
            if (1000..<1900).contains(writtenYear), sawEarlyYear == nil { sawEarlyYear = (line, writtenYear) }
            if header.yearFirst {
                if sawYearFirst == nil { sawYearFirst = line }
                return
            }
            if sawYearLast == nil { sawYearLast = line }
            if header.first > 12, sawDayFirst == nil { sawDayFirst = (line, text) }
            if header.second > 12, sawMonthFirst == nil { sawMonthFirst = (line, text) }
            if header.first != header.second { sawAmbiguous = true }
            let minutes = header.hour24 * 60 + header.minute
            let year = header.third < 100 ? 2000 + header.third : header.third
            // A sortable key per reading; a date impossible in one reading still sorts, harmlessly,
            // since a number above 12 has already proved the other reading.
            let dayFirst = ((year * 13 + header.second) * 32 + header.first) * 1440 + minutes
            let monthFirst = ((year * 13 + header.first) * 32 + header.second) * 1440 + minutes
            if let last = lastDayFirst, dayFirst < last { backwardDayFirst += 1 }
            if let last = lastMonthFirst, monthFirst < last { backwardMonthFirst += 1 }
            lastDayFirst = dayFirst
            lastMonthFirst = monthFirst
        }
    }

    /// The order to read a file with, and a note for the user when the file did not prove it.
    struct Decision {
        var order: WhatsAppDateOrder
        var note: String?
    }

    static func decide(_ evidence: Evidence, override: LogDateOrder?, file: String) throws(LogInputError) -> Decision {
        if let override {
            switch override {
            case .ymd:
                if let line = evidence.sawYearLast {
                    throw LogInputError(file: file, line: line, message: "--date-order ymd does not fit this file: its dates end with the year (use dmy or mdy)")
                }
                return Decision(order: .yearFirst)
            case .dmy, .mdy:
                if let line = evidence.sawYearFirst {
                    throw LogInputError(file: file, line: line, message: "--date-order \(override.rawValue) does not fit this file: its dates start with the year (use ymd)")
                }
                return Decision(order: override == .dmy ? .dayFirst : .monthFirst)
            }
        }
        if let yearFirst = evidence.sawYearFirst {
            if let yearLast = evidence.sawYearLast {
                throw LogInputError(file: file, line: max(yearFirst, yearLast), message: "dates start with the year (line \(yearFirst)) and end with it (line \(yearLast)); expected one date format throughout the file")
            }
            return Decision(order: .yearFirst)
        }
        switch (evidence.sawDayFirst, evidence.sawMonthFirst) {
        case (let day?, let month?):
            throw LogInputError(file: file, line: max(day.line, month.line), message: "dates are both day-first (line \(day.line)) and month-first (line \(month.line)); expected one date format throughout the file (--date-order dmy or mdy reads it one way and reports the dates that do not fit)")
        case (_?, nil): return Decision(order: .dayFirst)
        case (nil, _?): return Decision(order: .monthFirst)
        case (nil, nil): break
        }
        guard evidence.sawAmbiguous else {
            // Every date has its day equal to its month: both readings are the same.
            return Decision(order: evidence.sawTwelveHour ? .monthFirst : .dayFirst)
        }
        let day = evidence.backwardDayFirst, month = evidence.backwardMonthFirst
        let order: WhatsAppDateOrder
        let reason: String
        if day != month {
            order = day < month ? .dayFirst : .monthFirst
            let other = max(day, month)
            reason = "the other order would put dates out of order \(other) time\(other == 1 ? "" : "s")"
        } else {
            order = evidence.sawTwelveHour ? .monthFirst : .dayFirst
            reason = evidence.sawTwelveHour
                ? "both orders keep the file in order; 12-hour times suggest a month-first locale"
                : "both orders keep the file in order; most locales write the day first"
        }
        let name = order == .dayFirst ? "day first (dmy)" : "month first (mdy)"
        return Decision(order: order, note: "\(file): every date could be read day or month first; read \(name): \(reason). --date-order dmy or mdy overrides this.")
    }

    /// Thai phones set to the Buddhist calendar write its years (2567 for 2024): a year from
    /// this one on is read as the Buddhist era, 543 years ahead of the Gregorian. No chat is
    /// dated 2400 or later in the Gregorian calendar, and no Buddhist-era chat before 2552 (2009).
    static let buddhistEraFrom = 2400
    static let buddhistEraOffset = 543

    /// The notes said once for a file whose years are not Gregorian: Buddhist-era years, which
    /// are read as such, and years before 1900, which are most likely the Persian (Solar Hijri)
    /// or Islamic calendar's (1402 and 1445 were 2024) and which are not converted.
    static func calendarNotes(_ evidence: Evidence, file: String) -> [String] {
        var notes: [String] = []
        if let seen = evidence.sawBuddhistYear {
            notes.append("\(file): years from \(buddhistEraFrom) on are read as the Buddhist era (Thai phones write it), 543 years ahead of the Gregorian calendar: \(seen.year) at line \(seen.line) is \(seen.year - buddhistEraOffset).")
        }
        if let seen = evidence.sawEarlyYear {
            notes.append("\(file): line \(seen.line) is dated \(seen.year), which is read as written; a phone set to the Persian (Solar Hijri) or Islamic calendar writes such years, and we read only Gregorian and Buddhist-era dates (set the phone's calendar to Gregorian and export again).")
        }
        return notes
    }

    func civil(_ header: WhatsAppLine) -> (year: Int, month: Int, day: Int) {
        func fullYear(_ y: Int) -> Int {
            if y < 100 { return 2000 + y }
            return y >= Self.buddhistEraFrom ? y - Self.buddhistEraOffset : y
        }
        if header.namedMonth { return (header.third, header.second, header.first) }
        switch self {
        case .dayFirst: return (fullYear(header.third), header.second, header.first)
        case .monthFirst: return (fullYear(header.third), header.first, header.second)
        case .yearFirst: return (fullYear(header.first), header.second, header.third)
        }
    }
}
