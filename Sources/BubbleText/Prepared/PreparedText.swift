// TEMPORARY BODY: the public API below is fixed (other modules build against it); the naive
// implementation (one cell per scalar, breaks at spaces) is replaced by the real engine.

/// A text with all its Unicode work done once, ready to be laid out at any width by arithmetic.
public struct PreparedText: Sendable {
    /// The original text.
    public let text: String
    /// The options it was measured with.
    public let options: TextOptions
    /// Unicode scalars in the text.
    public let scalarCount: Int
    /// Width of the widest hard line when nothing wraps.
    public let naturalWidth: Int

    /// Segments, measures and classifies `text`. The only step that looks at Unicode data.
    public init(_ text: String, options: TextOptions = TextOptions()) {
        self.text = text
        self.options = options
        self.scalarCount = text.unicodeScalars.count
        var widest = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            widest = max(widest, line.unicodeScalars.count)
        }
        self.naturalWidth = widest
    }

    /// Line count and widest line at `width` cells. Arithmetic only; allocates nothing.
    public func measure(width: Int) -> TextMetrics {
        layout(width: width).metrics
    }

    /// The wrapped lines at `width` cells. Arithmetic over the prepared segments.
    public func layout(width: Int) -> TextLayout {
        let width = max(1, width)
        var lines: [TextLine] = []
        var widest = 0
        var offset = 0
        for hard in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let bytes = Array(hard.utf8)
            var start = 0
            while start < bytes.count || (start == 0 && bytes.isEmpty) {
                let end = min(bytes.count, start + width)
                lines.append(TextLine(utf8Range: (offset + start)..<(offset + end), width: end - start))
                widest = max(widest, end - start)
                if bytes.isEmpty { break }
                start = end
            }
            offset += bytes.count + 1
        }
        return TextLayout(lines: lines, widestLine: widest)
    }

    /// Bytes the prepared form holds beyond the text itself.
    public var memoryFootprint: Int { 0 }
}

/// Wraps `text` at `width` cells: first-fit over UAX #14 break opportunities.
public func wrap(_ text: String, width: Int, options: TextOptions = TextOptions()) -> TextLayout {
    PreparedText(text, options: options).layout(width: width)
}
