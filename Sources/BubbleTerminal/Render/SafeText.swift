import BubbleText

/// Text drawn for the terminal, and the cells it takes.
struct DrawnText: Sendable, Hashable {
    var text: String
    var width: Int

    init(_ text: String, width: Int) {
        self.text = text
        self.width = width
    }

    static let empty = DrawnText("", width: 0)
}

/// How a run of ordinary text is drawn.
enum TextStyle: Sendable, Hashable {
    case plain, dim, bold
    case color(TerminalColor)
    /// Dim italics, for a note standing in a person's bubble.
    case notice

    func apply(_ text: String, _ sgr: SGR) -> String {
        switch self {
        case .plain: text
        case .dim: sgr.dim(text)
        case .bold: sgr.bold(text)
        case .color(let color): sgr.foreground(text, color)
        case .notice: sgr.notice(text)
        }
    }
}

/// Draws untrusted text (message bodies, names, captions, quotes, file names, notices) so that
/// nothing in it reaches the terminal raw.
///
/// - Benign invisible formatting (directional marks; embeddings and isolates opened and closed
///   inside the text) is left out, as `InvisibleFormatting` decides; the text engine's measurer
///   leaves out the same (and a wrapped line, cut from that result, keeps all it has).
/// - Every other scalar `ControlNotation` neutralises (C0, DEL, C1, the remaining bidi controls:
///   overrides, and anything unclosed or unmatched) is drawn as its visible form, in reverse video
///   when colour is on. Those forms are what the text engine measured, so drawn widths stay equal
///   to measured ones.
/// - Tabs become spaces up to the engine's next tab stop, counted from the start of the text.
/// - Line breaks (LF, VT, FF, CR, NEL, LS, PS) never reach here inside wrapped text (the wrapper
///   ends lines at them); in single-line fields they are drawn visibly too (`^J`, `<85>`, `<LS>`).
/// - An extender with nothing to modify (a variation selector, combining mark or ZWJ before any
///   visible scalar of its grapheme: after a control, a line break or at the start) is not drawn,
///   as `GraphemeWidth.draws` decides for the engine, which measures it as no cells. Under the
///   `unicode` profile that holds for every Extend, ZWJ and SpacingMark scalar whatever its width
///   alone (U+302E, a skin-tone modifier): a grapheme-clustering terminal would join it to the
///   padding or visible form before it, so it would not take the cells it measured. Under the
///   `wcwidth` profile, neither is a ZWJ that ends its grapheme (`GraphemeWidth.endsInJoiner`):
///   tmux would join the next non-ASCII scalar it writes, past ASCII and line ends, to the cell
///   before.
/// - Everything else, ZWJ sequences, variation selectors and skin tones included, passes intact.
///
/// Text wider than its room is cut at a grapheme boundary (a visible form may be cut inside, as it
/// is plain ASCII) and ends with the ellipsis.
struct SafeText: Sendable {
    let options: TextOptions
    let sgr: SGR
    /// Ends truncated text.
    let ellipsis: String
    let ellipsisWidth: Int

    init(options: TextOptions, sgr: SGR, ellipsis: String) {
        self.options = options
        self.sgr = sgr
        self.ellipsis = ellipsis
        self.ellipsisWidth = CellWidth.of(ellipsis, options: options)
    }

    /// The visible form of a scalar that must not be drawn as itself, tab excepted.
    static func notation(of scalar: UInt32) -> String? {
        if let form = ControlNotation.visibleForm(of: scalar) { return form }
        switch scalar {
        case 0x0A, 0x0B, 0x0C, 0x0D: return "^" + String(UnicodeScalar(UInt8(scalar + 0x40)))
        case 0x85: return "<85>"
        case 0x2028: return "<LS>"
        case 0x2029: return "<PS>"
        default: return nil
        }
    }

    /// True when `scalar` needs more than drawing as itself: a cheap range test before the switch.
    @inline(__always)
    static func isSpecial(_ scalar: UInt32) -> Bool {
        scalar < 0x20 || (scalar >= 0x7F && scalar <= 0x9F) || scalar == 0x061C
            || (scalar >= 0x200E && scalar <= 0x200F) || (scalar >= 0x2028 && scalar <= 0x202E)
            || (scalar >= 0x2066 && scalar <= 0x2069)
    }

    /// `text` on one line in at most `limit` cells, truncated with the ellipsis when wider.
    /// `style` is applied to each run of ordinary text; visible forms get reverse video.
    func draw<Text: StringProtocol>(_ text: Text, limit: Int, style: TextStyle = .plain) -> DrawnText {
        guard InvisibleFormatting.mayHoldBidiControl(text) else { return drawShown(text, limit: limit, style: style) }
        return drawShown(InvisibleFormatting.displayed(String(text)), limit: limit, style: style)
    }

    /// `draw` of text already without its removable formatting.
    private func drawShown<Text: StringProtocol>(_ text: Text, limit: Int, style: TextStyle) -> DrawnText {
        let limit = max(0, limit)
        var output = Output(sgr: sgr, style: style)
        if walk(text.unicodeScalars, budget: limit, into: &output) { return output.finish() }
        // Too wide: redraw up to the room left for the ellipsis.
        guard ellipsisWidth <= limit else {
            return DrawnText(style.apply(String(repeating: ".", count: limit), sgr), width: limit)
        }
        output = Output(sgr: sgr, style: style)
        _ = walk(text.unicodeScalars, budget: limit - ellipsisWidth, into: &output)
        output.appendPlain(ellipsis, width: ellipsisWidth)
        return output.finish()
    }

    /// Cells `text` takes when drawn whole, as `draw` draws it.
    func width<Text: StringProtocol>(of text: Text) -> Int {
        var output = Output(sgr: SGR(depth: .none), style: .plain, measuringOnly: true)
        if InvisibleFormatting.mayHoldBidiControl(text) {
            _ = walk(InvisibleFormatting.displayed(String(text)).unicodeScalars, budget: .max, into: &output)
        } else {
            _ = walk(text.unicodeScalars, budget: .max, into: &output)
        }
        return output.width
    }

    /// Draws graphemes while they fit in `budget` cells; false when one did not.
    private func walk<Scalars: Collection<Unicode.Scalar>>(_ scalars: Scalars, budget: Int,
                                                           into output: inout Output) -> Bool {
        var breaker = GraphemeBreaker()
        var grapheme = GraphemeWidth(options: options)
        var start = scalars.startIndex
        var special = false
        var dropping = false
        var index = scalars.startIndex
        var started = false
        while index < scalars.endIndex {
            let value = scalars[index].value
            let info = UnicodeTables.info(value)
            if breaker.breaksBefore(info) {
                if started, !emit(scalars[start..<index], width: grapheme.width, special: special,
                                  dropping: dropping || grapheme.endsInJoiner, budget: budget, into: &output) {
                    return false
                }
                start = index
                special = false
                started = true
                dropping = !grapheme.draws(value, info, startsGrapheme: true)
                grapheme.start(value, info)
            } else {
                if !grapheme.draws(value, info, startsGrapheme: false) { dropping = true }
                grapheme.extend(value, info)
            }
            if Self.isSpecial(value) { special = true }
            index = scalars.index(after: index)
        }
        if started {
            return emit(scalars[start...], width: grapheme.width, special: special,
                        dropping: dropping || grapheme.endsInJoiner, budget: budget, into: &output)
        }
        return true
    }

    /// Draws one grapheme, or as much of a visible form or tab as fits. `dropping` says that
    /// some of its scalars are extenders with nothing to modify, which are left out.
    private func emit<Grapheme: Collection<Unicode.Scalar>>(_ grapheme: Grapheme, width: Int, special: Bool,
                                                            dropping: Bool, budget: Int,
                                                            into output: inout Output) -> Bool {
        guard special else {
            if output.width + width > budget { return false }
            if dropping {
                output.appendGrapheme(Self.drawnScalars(of: grapheme, options: options), width: width)
            } else {
                output.appendGrapheme(grapheme, width: width)
            }
            return true
        }
        // Controls stand alone as graphemes (only CR LF pairs), so drawing scalar by scalar keeps
        // the grapheme's measured width.
        for scalar in grapheme {
            let value = scalar.value
            if value == 0x09 {
                let stop = max(1, options.tabStop)
                let spaces = stop - output.width % stop
                let fitting = min(spaces, budget - output.width)
                output.appendPlain(String(repeating: " ", count: max(0, fitting)), width: max(0, fitting))
                if fitting < spaces { return false }
            } else if let form = Self.notation(of: value) {
                let fitting = min(form.utf8.count, budget - output.width)
                output.appendNotation(String(form.prefix(max(0, fitting))), width: max(0, fitting))
                if fitting < form.utf8.count { return false }
            } else {
                // A scalar joined to a control (none in Unicode 15) is drawn as itself.
                output.appendGrapheme(CollectionOfOne(scalar), width: 0)
            }
        }
        return true
    }

    /// Whether `grapheme` (a grapheme of ordinary scalars, none `isSpecial`) is drawn as itself,
    /// every scalar kept, whatever is drawn before or after it: false when `drawnScalars` would
    /// leave a scalar out, or when it starts with a scalar that attaches to the one before
    /// (Extend, ZWJ, SpacingMark) or ends with a Prepend, which a line's padding or chrome drawn
    /// beside it could join.
    static func drawsWhole<Grapheme: Collection<Unicode.Scalar>>(_ grapheme: Grapheme, options: TextOptions) -> Bool {
        var reader = GraphemeWidth(options: options)
        var first = true
        var last: ScalarInfo?
        for scalar in grapheme {
            let info = UnicodeTables.info(scalar.value)
            if first && info.attachesToPrevious { return false }
            if !reader.draws(scalar.value, info, startsGrapheme: first) { return false }
            if first { reader.start(scalar.value, info) } else { reader.extend(scalar.value, info) }
            first = false
            last = info
        }
        return !reader.endsInJoiner && !(last?.isPrepend ?? false)
    }

    /// The scalars of `grapheme` that `GraphemeWidth.draws` keeps, read as the engine reads them,
    /// less the ZWJs that end it when `GraphemeWidth.endsInJoiner` says so.
    private static func drawnScalars<Grapheme: Collection<Unicode.Scalar>>(
        of grapheme: Grapheme, options: TextOptions
    ) -> [Unicode.Scalar] {
        var reader = GraphemeWidth(options: options)
        var kept: [Unicode.Scalar] = []
        var first = true
        for scalar in grapheme {
            let info = UnicodeTables.info(scalar.value)
            if reader.draws(scalar.value, info, startsGrapheme: first) { kept.append(scalar) }
            if first { reader.start(scalar.value, info) } else { reader.extend(scalar.value, info) }
            first = false
        }
        if reader.endsInJoiner {
            while kept.last?.value == 0x200D { kept.removeLast() }
        }
        return kept
    }

    /// Collects ordinary runs and visible-form runs, styling each run once.
    private struct Output {
        let sgr: SGR
        let style: TextStyle
        var measuringOnly = false
        var text = ""
        var plainRun = ""
        var notationRun = ""
        var width = 0

        init(sgr: SGR, style: TextStyle, measuringOnly: Bool = false) {
            self.sgr = sgr
            self.style = style
            self.measuringOnly = measuringOnly
        }

        mutating func appendGrapheme<Scalars: Collection<Unicode.Scalar>>(_ scalars: Scalars, width: Int) {
            self.width += width
            guard !measuringOnly else { return }
            flushNotation()
            plainRun.unicodeScalars.append(contentsOf: scalars)
        }

        mutating func appendPlain(_ string: String, width: Int) {
            self.width += width
            guard !measuringOnly else { return }
            flushNotation()
            plainRun += string
        }

        mutating func appendNotation(_ string: String, width: Int) {
            self.width += width
            guard !measuringOnly, !string.isEmpty else { return }
            flushPlain()
            notationRun += string
        }

        mutating func flushPlain() {
            if !plainRun.isEmpty { text += style.apply(plainRun, sgr) }
            plainRun = ""
        }

        mutating func flushNotation() {
            if !notationRun.isEmpty { text += sgr.reverse(notationRun) }
            notationRun = ""
        }

        mutating func finish() -> DrawnText {
            flushPlain()
            flushNotation()
            return DrawnText(text, width: width)
        }
    }
}
