/// Options that change how text measures. Part of every cache key that depends on text width.
public struct TextOptions: Hashable, Sendable {
    /// Cells taken by an East Asian Ambiguous character: 1 (the default) or 2.
    public var ambiguousWidth: Int {
        get { Int(storedAmbiguousWidth) }
        set { storedAmbiguousWidth = Int32(clamping: newValue) }
    }
    /// Tab stops fall on multiples of this many cells from the start of the line.
    public var tabStop: Int
    /// How the terminal counts a grapheme's cells (see `WidthProfile`).
    public var widthProfile: WidthProfile
    /// 32 bits, so the profile fits beside it in the 16 bytes every `PreparedText` holds a copy of.
    private var storedAmbiguousWidth: Int32

    /// Options with the given ambiguous width (1 or 2 cells), tab stop and width profile.
    public init(ambiguousWidth: Int = 1, tabStop: Int = 8, widthProfile: WidthProfile = .unicode) {
        self.storedAmbiguousWidth = Int32(clamping: ambiguousWidth)
        self.tabStop = tabStop
        self.widthProfile = widthProfile
    }
}

/// Line count and widest line of a text laid out at one width; what a row height needs.
public struct TextMetrics: Hashable, Sendable {
    /// How many lines the text wraps into.
    public var lineCount: Int
    /// The width of the widest of those lines, in the measurer's unit.
    public var widestLine: Int

    /// Metrics of `lineCount` lines, the widest `widestLine` wide.
    public init(lineCount: Int, widestLine: Int) {
        self.lineCount = lineCount
        self.widestLine = widestLine
    }
}

/// One wrapped line: where it sits in the text and how wide it draws.
public struct TextLine: Hashable, Sendable {
    /// UTF-8 offsets into the original text. Excludes hung spaces and the mandatory break itself.
    public var utf8Range: Range<Int>
    /// Cells the line takes when drawn (tabs expanded, controls in their visible form).
    public var width: Int

    /// A line over `utf8Range` of the text, `width` wide.
    public init(utf8Range: Range<Int>, width: Int) {
        self.utf8Range = utf8Range
        self.width = width
    }
}

/// A text wrapped at one width: its lines, their widths, and the widest.
public struct TextLayout: Hashable, Sendable {
    /// The wrapped lines, first to last.
    public var lines: [TextLine]
    /// The width of the widest line.
    public var widestLine: Int

    /// How many lines there are.
    public var lineCount: Int { lines.count }
    /// The line count and widest line, as `TextMeasurer.measure` gives them.
    public var metrics: TextMetrics { TextMetrics(lineCount: lines.count, widestLine: widestLine) }

    /// A layout of `lines`, the widest `widestLine` wide.
    public init(lines: [TextLine], widestLine: Int) {
        self.lines = lines
        self.widestLine = widestLine
    }
}
