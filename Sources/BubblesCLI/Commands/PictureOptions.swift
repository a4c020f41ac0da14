import BubbleLogs
import BubbleLayout
import BubblePictures
import Foundation

/// `render --format svg|html` and its options: the transcript as a picture or a page, laid out in
/// px from font files by the pixel options (`PixelOptions`, as `heights --font` takes them).
struct PictureOptions {
    static let specs: [OptionSpec] = [Options.format] + PixelOptions.specs
        + [Options.theme, Options.embedFonts, Options.from, Options.to, Options.pageHeight, Options.output]

    enum Format: String, CaseIterable { case terminal, svg, html }

    /// The options, each declared once: the specs list them and `init` reads them.
    enum Options {
        static let format = OptionSpec("--format", value: "FORMAT", help: "terminal (default), svg (a picture laid out in px from --font, line by line) or html (a page: the browser breaks lines; each bubble carries our height).")
        static let theme = OptionSpec("--theme", value: "THEME", help: "Colours for svg and html: light (default) or dark.")
        static let embedFonts = OptionSpec("--embed-fonts", help: "Put the --font files into the svg or html as data: URLs, each cut down to the glyphs the document draws, so it renders the same without them (default: file: URLs to the files).")
        static let from = OptionSpec("--from", value: "ID|DATE", help: "svg and html: start at the message with this id, or at the first one on or after this date (YYYY-MM-DD or ISO 8601).")
        static let to = OptionSpec("--to", value: "ID|DATE", help: "svg and html: end with the message with this id, or with the last one on or before this date (a whole day for YYYY-MM-DD).")
        static let pageHeight = OptionSpec("--page-height", value: "PX", help: "svg and html: one file per page of at most PX px (a taller row gets a page of its own); needs --output.")
        static let output = OptionSpec("--output", "-o", value: "DIR", help: "svg and html: write page-0001.svg (or .html), page-0002… into DIR (created if missing) instead of one document on standard output.")
    }

    var format: Format
    var pixels: PixelOptions
    var theme: PictureTheme
    var embedFonts: Bool
    var from: String?
    var to: String?
    var pageHeight: Int?
    var output: String?

    /// The picture options, or nil for the terminal (when none of them may be given).
    init?(_ arguments: ParsedArguments) throws(UsageError) {
        let format = try arguments.choice(Options.format, from: Format.allCases.map(\.rawValue)).flatMap(Format.init) ?? .terminal
        let own = [Options.theme, Options.from, Options.to, Options.pageHeight, Options.output] + PixelOptions.specs
        guard format != .terminal else {
            for option in own where arguments.string(option) != nil {
                throw UsageError("\(option.primaryName) applies to --format svg or html")
            }
            if arguments.flag(Options.embedFonts) { throw UsageError("--embed-fonts applies to --format svg or html") }
            return nil
        }
        if arguments.string(CellWidthsOption.spec) != nil || arguments.flag(CellWidthsOption.ambiguousWide) {
            throw UsageError("cell widths apply to the terminal, not to --format \(format.rawValue)")
        }
        guard let pixels = try PixelOptions(arguments) else {
            throw UsageError("--format \(format.rawValue) needs --font: pictures are laid out in px from font files")
        }
        self.format = format
        self.pixels = pixels
        theme = try arguments.choice(Options.theme, from: PictureTheme.allCases.map(\.rawValue)).flatMap(PictureTheme.init) ?? .light
        embedFonts = arguments.flag(Options.embedFonts)
        from = arguments.string(Options.from)
        to = arguments.string(Options.to)
        pageHeight = try arguments.integer(Options.pageHeight, in: 1...1_000_000)
        output = arguments.string(Options.output)
        if pageHeight != nil && output == nil { throw UsageError("--page-height needs --output DIR (one file per page)") }
    }

    /// The font files for the document, read again when they are to be embedded.
    func fontSources(errors: TextSink) throws -> PictureFonts? {
        var sources: [PictureFonts.Source] = []
        for font in pixels.fonts {
            var source = PictureFonts.Source(path: font.path, face: font.face)
            if embedFonts {
                switch FileBytes.read(font.path) {
                case .success(let bytes):
                    source.embeddedBytes = bytes
                    if let reason = PictureFonts.subsetError(bytes, face: font.face) {
                        try errors.write("bubbles: \(DiagnosticText.escaped(font.path)): cannot cut the font down to the glyphs used (\(DiagnosticText.escaped(reason))); it is embedded whole\n")
                    }
                case .failure(let error):
                    try errors.write("bubbles: \(DiagnosticText.escaped(font.path)): cannot read the font file (\(error.reason))\n")
                    return nil
                }
            }
            sources.append(source)
        }
        return PictureFonts(sources)
    }
}

/// `--from` and `--to`: which rows of the transcript are drawn. A value that reads as a date
/// (`YYYY-MM-DD` in the input's time zone, or ISO 8601 with a time) bounds by date; any other is a
/// message id. A date separator is drawn when the message under it is.
struct RowRange {
    enum Bound {
        case id(String)
        case date(Date)
    }

    var from: Bound?
    var to: Bound?
    private(set) var started: Bool
    private(set) var ended = false
    /// A date separator waiting for the message under it.
    private(set) var pending: Int?

    init(from: String?, to: String?, timeZone: TimeZone) {
        self.from = from.map { Self.bound($0, timeZone: timeZone, endOfDay: false) }
        self.to = to.map { Self.bound($0, timeZone: timeZone, endOfDay: true) }
        started = from == nil
    }

    static func bound(_ text: String, timeZone: TimeZone, endOfDay: Bool) -> Bound {
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return .date(date) }
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = iso.date(from: text) { return .date(date) }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
           let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            if let start = calendar.date(from: DateComponents(year: year, month: month, day: day)) {
                return .date(endOfDay ? calendar.date(byAdding: .day, value: 1, to: start)!.addingTimeInterval(-0.001) : start)
            }
        }
        return .id(text)
    }

    /// Whether a message row with `id` and `date` is drawn; call for every message row in order.
    mutating func includes(id: String, date: Date) -> Bool {
        guard !ended else { return false }
        if !started {
            switch from {
            case .id(let first): started = id == first
            case .date(let first): started = date >= first
            case nil: started = true
            }
            if !started { return false }
        }
        switch to {
        case .id(let last): if id == last { ended = true }
        case .date(let last):
            if date > last {
                ended = true
                return false
            }
        case nil: break
        }
        return true
    }
}
