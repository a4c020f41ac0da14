import Foundation

/// Why a pixel style file could not be used: the file and the reason (a key it does not know, a
/// value of the wrong type or out of range, or JSON that does not parse).
public struct PixelStyleError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
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
    public static var keys: [String] { ["maxWidthFraction"] + lengthKeys.map(\.name) }

    /// A style from a JSON object of the keys above; keys left out keep their defaults. `file`
    /// names the source in errors. Unknown keys are errors, so a misspelt key is never ignored.
    public init(json data: [UInt8], file: String) throws(PixelStyleError) {
        func fail(_ reason: String) -> PixelStyleError { PixelStyleError(file: file, reason: reason) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(data), options: [])
        } catch {
            throw fail("not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "parse error"))")
        }
        guard let fields = object as? [String: Any] else { throw fail("expected a JSON object of style keys") }
        self.init()
        for name in fields.keys.sorted() {
            let value = fields[name]!
            // JSON true/false arrive as numbers from JSONSerialization, of their own class.
            if String(describing: type(of: value)).contains("Boolean") {
                throw fail("'\(name)' must be a number, not \(value)")
            }
            if name == "maxWidthFraction" {
                guard let fraction = (value as? NSNumber)?.doubleValue, fraction > 0, fraction <= 1 else {
                    throw fail("'maxWidthFraction' must be a number above 0 and at most 1")
                }
                maxWidthFraction = fraction
                continue
            }
            guard let key = Self.lengthKeys.first(where: { $0.name == name }) else {
                throw fail("unknown key '\(name)' (the keys are \(Self.keys.joined(separator: ", ")))")
            }
            guard let number = value as? NSNumber, let px = Int(exactly: number.doubleValue),
                  key.range.contains(px) else {
                throw fail("'\(name)' must be a whole number of px from \(key.range.lowerBound) to \(key.range.upperBound)")
            }
            self[keyPath: key.path] = px
        }
    }

    /// The style in the JSON file at `path`.
    public init(contentsOf path: String) throws(PixelStyleError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PixelStyleError(file: path, reason: "cannot read the file")
        }
        try self.init(json: [UInt8](data), file: path)
    }
}
