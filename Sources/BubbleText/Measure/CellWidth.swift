/// Terminal cell widths of graphemes and single lines of text.
///
/// What follows is the `unicode` width profile (by grapheme cluster). Under
/// `TextOptions.widthProfile == .wcwidth` a grapheme is instead the sum of its code points'
/// `WcwidthTable` widths, and under `.ghostty` as Ghostty 1.3 widens its clusters, from
/// `GhosttyTable` (see `WidthProfile`).
///
/// The rule for one grapheme (extended grapheme cluster, UAX #29):
/// - A neutralised control (C0 less tab and the line breaks, DEL, C1 less NEL, the bidi
///   controls) measures `ControlNotation.visibleWidth(of:)`: the renderer draws it that way.
/// - Otherwise the grapheme is as wide as its widest scalar, where a scalar is
///   - 0 if it is a combining mark (Mn, Me), a default-ignorable (ZWJ, ZWNJ, variation
///     selectors, tags, …; not U+00AD SOFT HYPHEN, which terminals draw as a hyphen), a Hangul
///     V or T jamo, a tab or a line break;
///   - 2 if it is East Asian Wide or Fullwidth, Emoji_Presentation, or an unassigned
///     Extended_Pictographic code point (emoji added after Unicode 15.0);
///   - 1 or `TextOptions.ambiguousWidth` if it is East Asian Ambiguous;
///   - 1 otherwise (spacing marks included).
/// - A grapheme whose visible base is followed by VS16 (U+FE0F), and a keycap base
///   (`0`–`9`, `#`, `*`) followed by U+20E3, is 2.
/// - A Prepend scalar (U+0600 ARABIC NUMBER SIGN, the other prepended concatenation marks,
///   U+0D4E, …), which UAX #29 (GB9b) joins to what follows, takes a cell of its own, as glibc's
///   `wcwidth` and terminals draw it: the grapheme is its prepended scalars' cells (each with the
///   extenders on it) plus the rest measured by these rules.
/// - An extender with no visible scalar before it in its grapheme (at a text's or line's start,
///   after a control) is not drawn (`GraphemeWidth.draws`): it counts 0 and widens nothing. That
///   is every Extend, ZWJ and SpacingMark scalar there, however wide alone (U+302E HANGUL SINGLE
///   DOT TONE MARK, a skin-tone modifier): drawn, the terminal would join it to what is before it.
///
/// So emoji ZWJ sequences, modifier sequences, keycaps, tag sequences and regional-indicator
/// pairs measure 2 as one grapheme, a Hangul syllable built from jamo measures 2, and no
/// grapheme other than a control or one with prepended scalars is wider than 2. Tabs and line breaks belong to layout: a
/// grapheme holding one measures 0, and only `of(_:options:)` expands tabs.
public enum CellWidth {
    /// Cells `text` takes drawn on one line from column 0: the sum of its graphemes' widths,
    /// with each tab advancing to the next multiple of `options.tabStop`. Line breaks measure 0.
    public static func of(_ text: String, options: TextOptions = TextOptions()) -> Int {
        var total = 0
        var breaker = GraphemeBreaker()
        var grapheme = GraphemeWidth(options: options)
        var started = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let info = UnicodeTables.info(value)
            if breaker.breaksBefore(info) {
                if started { total += grapheme.width }
                started = true
                if value == 0x09 {
                    let stop = max(1, options.tabStop)
                    total += stop - total % stop
                }
                grapheme.start(value, info)
            } else {
                grapheme.extend(value, info)
            }
        }
        if started { total += grapheme.width }
        return total
    }

    /// Cells of `grapheme` read as one grapheme, whatever its scalars (see the rule above).
    package static func ofGrapheme<Scalars: Sequence<Unicode.Scalar>>(
        _ grapheme: Scalars, options: TextOptions = TextOptions()
    ) -> Int {
        var width = GraphemeWidth(options: options)
        var started = false
        for scalar in grapheme {
            let info = UnicodeTables.info(scalar.value)
            if started {
                width.extend(scalar.value, info)
            } else {
                width.start(scalar.value, info)
                started = true
            }
        }
        return width.width
    }

    /// Cells of the single scalar `scalar` drawn as a grapheme of its own.
    package static func ofScalar(_ scalar: UInt32, options: TextOptions = TextOptions()) -> Int {
        var width = GraphemeWidth(options: options)
        width.start(scalar, UnicodeTables.info(scalar))
        return width.width
    }
}
