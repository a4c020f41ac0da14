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
    public var options: TextOptions

    public init(options: TextOptions = TextOptions()) {
        self.options = options
    }

    /// Prepares `text` as a terminal shows it: without the formatting `InvisibleFormatting`
    /// leaves out (the prepared form's `text` is that displayed text, which a renderer draws).
    public func prepare(_ text: String) -> PreparedText {
        PreparedText(InvisibleFormatting.displayed(text), options: options)
    }

    @inlinable  // so a caller in another module measures the value where it lies (see `PreparedText.measure`)
    public func measure(_ prepared: PreparedText, width: Int) -> TextMetrics {
        prepared.measure(width: width)
    }

    public func layout(_ prepared: PreparedText, width: Int) -> TextLayout {
        prepared.layout(width: width)
    }

    public func width(of text: String) -> Int {
        PreparedText(InvisibleFormatting.displayed(text), options: options).naturalWidth
    }
}
