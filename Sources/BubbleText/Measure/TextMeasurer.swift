/// Measures text for layout. Terminal cells are one measurer; font points will be another, so
/// cells and points share one layout engine above this protocol.
public protocol TextMeasurer: Sendable {
    /// The width-independent form of a text: everything that can be computed once.
    associatedtype Prepared: Sendable

    /// Does the Unicode (or font) work once.
    func prepare(_ text: String) -> Prepared
    /// Line count and widest line at `width`, in this measurer's unit.
    func measure(_ prepared: Prepared, width: Int) -> TextMetrics
    /// The wrapped lines at `width`.
    func layout(_ prepared: Prepared, width: Int) -> TextLayout
    /// Width of `text` on one line, in this measurer's unit.
    func width(of text: String) -> Int
}

/// Measures in terminal cells with the Unicode engine.
public struct CellMeasurer: TextMeasurer, Hashable {
    /// How text measures: the ambiguous width, tab stops and width profile of the terminal.
    public var options: TextOptions

    /// A measurer with `options` (default: narrow ambiguous characters, tabs every 8 cells,
    /// Unicode's widths).
    public init(options: TextOptions = TextOptions()) {
        self.options = options
    }

    /// Prepares `text` as a terminal shows it: without the formatting `InvisibleFormatting`
    /// leaves out (the prepared form's `text` is that displayed text, which a renderer draws).
    public func prepare(_ text: String) -> PreparedText {
        PreparedText(InvisibleFormatting.displayed(text), options: options)
    }

    /// Line count and widest line, in cells, of `prepared` wrapped at `width` cells.
    /// Complexity: O(segments), with no Unicode work.
    @inlinable  // so a caller in another module measures the value where it lies (see `PreparedText.measure`)
    public func measure(_ prepared: PreparedText, width: Int) -> TextMetrics {
        prepared.measure(width: width)
    }

    /// The lines of `prepared` wrapped at `width` cells, each with its UTF-8 range and width.
    public func layout(_ prepared: PreparedText, width: Int) -> TextLayout {
        prepared.layout(width: width)
    }

    /// Cells `text` takes on one line, without its invisible formatting.
    public func width(of text: String) -> Int {
        PreparedText(InvisibleFormatting.displayed(text), options: options).naturalWidth
    }
}
