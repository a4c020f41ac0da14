/// Why a pixel style file could not be used: the file, where in it when that is known (a JSON
/// syntax error), and the reason (a key it does not know, a value of the wrong type or out of
/// range, or JSON that does not parse).
package struct PixelStyleError: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    /// 1-based line and column (in bytes) of a syntax error; nil for a problem of the whole file or of a key.
    package var line: Int?
    package var column: Int?
    package var reason: String

    package init(file: String, line: Int? = nil, column: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `FILE:LINE:COLUMN: reason`, as the other input errors name their place.
    package var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): \(reason)"
    }
}

/// A value in a style file, as a JSON reader hands it over: the style checks it against its key.
package enum PixelStyleValue: Sendable, Equatable {
    /// A number, as its literal (`16`, `0.8`, `1e2`).
    case number(String)
    case boolean(Bool)
    /// Any other kind, named for the error ("a string", "an object").
    case other(String)
}

extension PixelStyle {
    /// The keys of a style file, each a property of `PixelStyle`: lengths in whole px.
    static var lengthKeys: [(name: String, path: WritableKeyPath<PixelStyle, Int>, range: ClosedRange<Int>)] { [
        ("minimumMaxWidth", \.minimumMaxWidth, 1...maximumLength),
        ("minimumWidth", \.minimumWidth, 0...maximumLength),
        ("horizontalPadding", \.horizontalPadding, 1...maximumLength),
        ("verticalPadding", \.verticalPadding, 0...maximumLength),
        ("minimumContentWidth", \.minimumContentWidth, 1...maximumLength),
        ("nameHeight", \.nameHeight, 0...maximumLength),
        ("replyQuoteHeight", \.replyQuoteHeight, 0...maximumLength),
        ("replyQuoteMinimumWidth", \.replyQuoteMinimumWidth, 0...maximumLength),
        ("footerHeight", \.footerHeight, 0...maximumLength),
        ("imageMaxHeight", \.imageMaxHeight, 1...maximumLength),
        ("imageMinWidth", \.imageMinWidth, 1...maximumLength),
        ("imageMinHeight", \.imageMinHeight, 1...maximumLength),
        ("imageCaptionGap", \.imageCaptionGap, 0...maximumLength),
        ("groupSpacing", \.groupSpacing, 0...maximumSpacing),
        ("inGroupSpacing", \.inGroupSpacing, 0...maximumSpacing),
        ("dateHeight", \.dateHeight, 0...maximumLength),
        ("noticeVerticalPadding", \.noticeVerticalPadding, 0...maximumLength),
        ("noticeInset", \.noticeInset, 0...maximumLength),
    ] }

    /// Every key a style file may hold.
    package static var keys: [String] { ["maxWidthFraction"] + lengthKeys.map(\.name) }

    /// A style from the members of a style file's JSON object, in file order; keys left out keep
    /// their defaults. `file` names the source in errors. Unknown keys are errors, so a misspelt key
    /// is never ignored. (The JSON itself is read by BubbleLogs, which has the JSON parser:
    /// `PixelStyle(contentsOf:)`.)
    package init(fields: [(name: String, value: PixelStyleValue)], file: String) throws(PixelStyleError) {
        func fail(_ reason: String) -> PixelStyleError { PixelStyleError(file: file, reason: reason) }
        self.init()
        // Sorted, so the error for a file with several bad keys does not depend on their order;
        // a key given twice takes its last value, as JSON readers mostly do.
        var byName: [String: PixelStyleValue] = [:]
        for field in fields { byName[field.name] = field.value }
        for name in byName.keys.sorted() {
            let value = byName[name]!
            if case .boolean(let flag) = value { throw fail("'\(name)' must be a number, not \(flag)") }
            let number: Double? = if case .number(let literal) = value { Double(literal) } else { nil }
            if name == "maxWidthFraction" {
                guard let fraction = number, fraction > 0, fraction <= 1 else {
                    throw fail("'maxWidthFraction' must be a number above 0 and at most 1")
                }
                maxWidthFraction = fraction
                continue
            }
            guard let key = Self.lengthKeys.first(where: { $0.name == name }) else {
                throw fail("unknown key '\(name)' (the keys are \(Self.keys.joined(separator: ", ")))")
            }
            guard let number, number.isFinite, let px = Int(exactly: number), key.range.contains(px) else {
                throw fail("'\(name)' must be a whole number of px from \(key.range.lowerBound) to \(key.range.upperBound)")
            }
            self[keyPath: key.path] = px
        }
    }
}
