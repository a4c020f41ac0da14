/// Whether a WhatsApp file writes day or month first, decided from all of its dates: a first
/// number above 12 proves day-first, a second above 12 proves month-first. When nothing proves
/// either, 12-hour times suggest a US-style month-first locale and anything else day-first,
/// which is what most locales use.
enum WhatsAppDateOrder: Sendable {
    case dayFirst, monthFirst, yearFirst

    struct Evidence {
        var sawDayFirst: (line: Int, text: String)?
        var sawMonthFirst: (line: Int, text: String)?
        var sawYearFirst = false
        var sawTwelveHour = false
        var headers = 0

        mutating func add(_ header: WhatsAppLine, line: Int, text: String) {
            headers += 1
            if header.isPM != nil { sawTwelveHour = true }
            if header.yearFirst {
                sawYearFirst = true
                return
            }
            if header.first > 12, sawDayFirst == nil { sawDayFirst = (line, text) }
            if header.second > 12, sawMonthFirst == nil { sawMonthFirst = (line, text) }
        }
    }

    /// Nil when the file contradicts itself.
    static func decide(_ evidence: Evidence) -> WhatsAppDateOrder? {
        if evidence.sawYearFirst { return evidence.sawDayFirst == nil && evidence.sawMonthFirst == nil ? .yearFirst : nil }
        switch (evidence.sawDayFirst != nil, evidence.sawMonthFirst != nil) {
        case (true, true): return nil
        case (true, false): return .dayFirst
        case (false, true): return .monthFirst
        case (false, false): return evidence.sawTwelveHour ? .monthFirst : .dayFirst
        }
    }

    func civil(_ header: WhatsAppLine) -> (year: Int, month: Int, day: Int) {
        func fullYear(_ y: Int) -> Int { y < 100 ? 2000 + y : y }
        switch self {
        case .dayFirst: return (fullYear(header.third), header.second, header.first)
        case .monthFirst: return (fullYear(header.third), header.first, header.second)
        case .yearFirst: return (header.first, header.second, header.third)
        }
    }
}
