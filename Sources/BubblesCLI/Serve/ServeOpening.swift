import BubbleFonts
import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation

/// An `open` request read: the conversation's name, its width, how it measures (cells with a
/// width profile, or points from font files as `heights --font` takes them) and how its records
/// are read. The fonts are read by `makeLayout`, on the conversation's queue.
struct ServeOpening {
    static let maximumWidth = BubbleStyle.maximumContainerWidth

    let conversation: String
    let width: Int
    let readOptions: LogReadOptions
    let decoration: DecorationOptions
    /// Cells: how they are counted. Nil for points.
    let textOptions: TextOptions?
    /// Points: the fonts, size, line height and style. Nil for cells.
    let pixels: PixelOptions?

    init(_ request: ServeRequest, defaultTimeZone: TimeZone) throws(ServeError) {
        let name = try request.string("conversation")!
        guard !name.isEmpty, name.utf8.count <= 1024 else { throw .invalidParams("conversation: expected a name of 1 to 1024 bytes") }
        conversation = name
        width = try request.integer("width", in: 1...Self.maximumWidth)!
        var timeZone = defaultTimeZone
        if let zone = try request.string("timeZone", optional: true) {
            guard let parsed = ZoneName.parse(zone) else {
                throw .invalidParams("timeZone: \(ZoneName.refusal(zone))")
            }
            timeZone = parsed
        }
        readOptions = LogReadOptions(me: try request.string("me", optional: true), timeZone: timeZone)
        decoration = DecorationOptions(timeZone: timeZone)
        switch try request.string("units", optional: true) ?? "cells" {
        case "cells":
            for name in ["fonts", "size", "lineHeight", "lang", "style"] where request.params[name] != nil {
                throw .invalidParams("\(name): applies to units \"points\", not \"cells\"")
            }
            var options = TextOptions()
            if let profile = try request.string("cellWidths", optional: true) {
                guard let parsed = WidthProfile(rawValue: profile) else {
                    throw .invalidParams("cellWidths: expected one of \(WidthProfile.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.widthProfile = parsed
            }
            switch request.params["ambiguousWide"] {
            case nil, .null?, .bool(false)?: break
            case .bool(true)?: options.ambiguousWidth = 2
            case let other?: throw .invalidParams("ambiguousWide: expected a boolean, found \(other.kindName)")
            }
            textOptions = options
            pixels = nil
        case "points":
            for name in ["cellWidths", "ambiguousWide"] where request.params[name] != nil {
                throw .invalidParams("\(name): applies to units \"cells\", not \"points\"")
            }
            textOptions = nil
            pixels = try Self.pixelOptions(request)
        case let other:
            throw .invalidParams("units: expected \"cells\" or \"points\", found \"\(other.prefix(32))\"")
        }
    }

    /// `fonts`, `size`, `lineHeight` and `style` read as `heights --font`, `--size`,
    /// `--line-height` and `--style` read them.
    private static func pixelOptions(_ request: ServeRequest) throws(ServeError) -> PixelOptions {
        let specs = try request.strings("fonts")
        guard !specs.isEmpty else { throw .invalidParams("fonts: expected at least one font file with units \"points\"") }
        var fonts: [(path: String, face: Int)] = []
        for spec in specs {
            do {
                fonts.append(try PixelOptions.font(spec))
            } catch {
                throw .invalidParams("fonts: " + error.message.replacingOccurrences(of: "for --font", with: ""))
            }
        }
        var size = 16.0
        switch request.params["size"] {
        case nil, .null?: break
        case .number(let literal)?:
            guard let value = PixelOptions.pixels(literal), value * 64 >= 1, value <= 1000 else {
                throw .invalidParams("size: expected px from 0.015625 to 1000, such as 16 or 17.5")
            }
            size = value
        case let other?: throw .invalidParams("size: expected a number, found \(other.kindName)")
        }
        var lineHeight = LineHeight.normal
        switch request.params["lineHeight"] {
        case nil, .null?, .string("normal")?: break
        case .number(let literal)?:
            guard let value = PixelOptions.pixels(literal), value * 64 >= 1, value <= 10_000 else {
                throw .invalidParams("lineHeight: expected px from 0.015625 to 10000, such as 20, or \"normal\"")
            }
            lineHeight = .pixels(value)
        case let other?: throw .invalidParams("lineHeight: expected a number or \"normal\", found \(other.kindName)")
        }
        var language = TextLanguage.none
        if let tag = try request.string("lang", optional: true) {
            guard let parsed = TextLanguage(bcp47: tag) else {
                throw .invalidParams("lang: expected a language tag as HTML's lang takes it (ja, zh-Hant, ko, ur, ...)")
            }
            language = parsed
        }
        return PixelOptions(fonts: fonts, size: size, lineHeight: lineHeight, language: language,
                            stylePath: try request.string("style", optional: true))
    }

    /// The conversation's layout: fonts and style read now for points.
    func makeLayout() throws(ServeError) -> any ServedLayout {
        // Each conversation keeps a cache of its own, dropped with its layout under the budget.
        let cache = { LayoutCache(maxEntries: 1 << 16, maxBytes: 16 << 20, shardCount: 1) }
        if let textOptions {
            return ServedConversation<CellMeasurer>(
                width: width, options: decoration,
                makeEngine: { LayoutEngine(textOptions: textOptions, cache: cache()) },
                fields: { layout, _, width, _ in HeightsWriter.fields(of: layout, width: width) },
                total: { String($0) })
        }
        let errors = CollectedText()
        let loaded: (measurer: PixelLayoutMeasurer, style: PixelStyle)?
        do {
            loaded = try pixels!.load(errors: errors)
        } catch {
            loaded = nil
        }
        guard let (measurer, style) = loaded else {
            let reason = errors.text.trimmingCharacters(in: .whitespacesAndNewlines)
            throw .invalidParams("fonts: " + (reason.hasPrefix("bubbles: ") ? String(reason.dropFirst(9)) : reason))
        }
        let heights = PixelHeightsBox()
        return ServedConversation<PixelLayoutMeasurer>(
            width: width, options: decoration,
            makeEngine: { LayoutEngine(measurer: measurer, style: style.bubbleStyle, cache: cache()) },
            fields: { layout, model, width, engine in
                let row = heights.row(layout, of: model, engine: engine, style: style)
                return HeightsCommand.PixelRowFormatter.fields(of: row, width: width)
            },
            total: nil)
    }
}

extension PixelOptions {
    /// The options as given field by field (`serve`'s `open`), checked as the flags are.
    init(fonts: [(path: String, face: Int)], size: Double, lineHeight: LineHeight, language: TextLanguage, stylePath: String?) {
        self.fonts = fonts
        self.size = size
        self.lineHeight = lineHeight
        self.language = language
        self.stylePath = stylePath
    }
}

/// `PixelHeights` for a conversation's rows, used by its queue alone; made for the engine it is
/// first asked with (a conversation's engine is made anew when it is reset).
private final class PixelHeightsBox {
    private var heights: PixelHeights<PixelLayoutMeasurer>?

    func row(_ layout: RowLayout, of model: (any MessageModel)?, engine: LayoutEngine<PixelLayoutMeasurer>,
             style: PixelStyle) -> PixelRow {
        if heights?.engine !== engine { heights = PixelHeights(engine: engine, style: style) }
        return heights!.row(layout, of: model)
    }
}

/// A sink that keeps what is written (the reasons a font could not be loaded).
final class CollectedText: TextSink {
    private(set) var text = ""
    func write(_ text: String) throws { self.text += text }
    func flush() throws {}
}
