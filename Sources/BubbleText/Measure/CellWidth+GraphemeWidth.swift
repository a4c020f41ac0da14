/// The cell width of the grapheme being read, updated one scalar at a time by the rule
/// documented on `CellWidth`. Pair it with `GraphemeBreaker` in a scalar loop:
///
/// ```swift
/// var breaker = GraphemeBreaker()
/// var grapheme = GraphemeWidth(options: options)
/// for scalar in text.unicodeScalars {
///     let info = UnicodeTables.info(scalar.value)
///     if breaker.breaksBefore(info) {
///         // `grapheme.width` is final for the grapheme that just ended (if any).
///         grapheme.start(scalar.value, info)
///     } else {
///         grapheme.extend(scalar.value, info)
///     }
/// }
/// ```
///
/// Allocates nothing; `width` is meaningful once `start` has been called.
package struct GraphemeWidth: Hashable, Sendable {
    /// Cells of the grapheme read so far.
    package private(set) var width: Int = 0
    /// Cells an East Asian Ambiguous scalar takes (1 or 2).
    package let ambiguousWidth: Int
    private var baseIsVisible = false
    /// The grapheme's first scalar; a keycap (U+20E3) checks it only when one arrives.
    private var base: UInt32 = 0
    /// The `ScalarInfo` bits that send a scalar off the common path: the neutralised-control bit
    /// for `unicode`, every bit for `wcwidth` (whose scalars all take `codePointWidth`). So the
    /// grapheme-cluster profile tests one bit per scalar, as it did before profiles existed.
    private let slowBits: UInt32
    /// `slowBits` for a cell group's first scalar: under `unicode` also the bit of the scalars
    /// that join what is before them (Extend, ZWJ, SpacingMark), which take no cells when they
    /// start a grapheme (see `draws`), so the common path still tests one mask.
    private let startSlowBits: UInt32
    /// `WidthProfile.ghostty`: every scalar takes `ghosttyStart` and `ghosttyExtend`.
    private let ghostty: Bool
    private var perCodePoint: Bool { slowBits == ~0 && !ghostty }
    /// Per code point: the last scalar read was a drawn ZWJ, which joins the next scalar of its
    /// grapheme (never one past its end: see `endsInJoiner`).
    private var afterJoiner = false
    /// Cells of the grapheme's leading Prepend scalars and what they join to (GB9b), before the
    /// cell group being read: terminals draw a prepended scalar (U+0600 ARABIC NUMBER SIGN…) in
    /// a cell of its own and what follows it in the next cells, so its cell adds to the
    /// grapheme's width instead of being covered by the widest scalar. 0 in other graphemes.
    private var prefix = 0
    /// The cell group being read began at a Prepend scalar: the next scalar that is not an
    /// extender (Extend, ZWJ) begins a group of its own.
    private var afterPrepend = false
    // `ghostty` only: the cell being filled (Ghostty's grapheme-clustered cell), the cells of it
    // that earlier graphemes already counted (when an Indic conjunct joins it across one of our
    // grapheme boundaries), the entry of the last scalar it took, and the GB9c state at its end
    // (0 none, 1 after a consonant, 2 after a consonant and a linker).
    private var cell = 0
    private var cellCounted = 0
    private var lastEntry = GhosttyEntry(raw: 0)
    private var conjunct: UInt8 = 0

    /// A reader measuring ambiguous scalars as `options.ambiguousWidth` cells, by
    /// `options.widthProfile`.
    package init(options: TextOptions = TextOptions()) {
        ambiguousWidth = options.ambiguousWidth == 2 ? 2 : 1
        ghostty = options.widthProfile == .ghostty
        slowBits = options.widthProfile != .unicode ? ~0 : ScalarInfo.neutralisedControlBit | ScalarInfo.prependBit
        startSlowBits = slowBits | ScalarInfo.attachingBit
    }

    /// Starts a new grapheme whose first scalar is `scalar`, with `info` its table entry.
    @inline(__always)
    package mutating func start(_ scalar: UInt32, _ info: ScalarInfo) {
        prefix = 0
        startGroup(scalar, info, startsGrapheme: true)
    }

    /// Starts a cell group (a grapheme, or the part of one after a Prepend scalar) at `scalar`;
    /// `prefix` holds the cells before it.
    @inline(__always)
    private mutating func startGroup(_ scalar: UInt32, _ info: ScalarInfo, startsGrapheme: Bool) {
        afterPrepend = false
        if info.raw & startSlowBits != 0 {
            if _slowPath(slowBits == ~0) {
                if ghostty {
                    ghosttyStart(scalar, info)
                    return
                }
                if startsGrapheme { afterJoiner = false }  // a join stops at its grapheme's end
                width = codePointWidth(scalar, info, continuing: false)
                baseIsVisible = width > 0 && !info.isNeutralisedControl
                base = scalar
                return
            }
            if info.isNeutralisedControl {
                width = ControlNotation.visibleWidth(of: scalar)
                baseIsVisible = false
            } else if info.raw & ScalarInfo.attachingBit != 0 {
                // An extender or spacing mark that starts a grapheme is not drawn (`draws`), so
                // it takes no cells, however wide it is alone; after a Prepend scalar it is part
                // of the grapheme and counts as usual.
                width = startsGrapheme ? prefix : prefix &+ scalarWidth(info)
                baseIsVisible = width > prefix
            } else {
                // A Prepend scalar: its own cell, and whatever follows it begins the next.
                width = prefix &+ scalarWidth(info)
                baseIsVisible = width > prefix
                afterPrepend = true
            }
        } else {
            width = prefix &+ scalarWidth(info)
            baseIsVisible = width > prefix
        }
        base = scalar
    }

    /// Adds `scalar`, which continues the current grapheme, with `info` its table entry.
    @inline(__always)
    package mutating func extend(_ scalar: UInt32, _ info: ScalarInfo) {
        if _slowPath(ghostty) {
            ghosttyExtend(scalar, info)
            return
        }
        if _slowPath(afterPrepend) {
            let property = info.graphemeBreak
            if property != .extend && property != .zwj {
                prefix = width
                startGroup(scalar, info, startsGrapheme: false)
                return
            }
        }
        if scalar == 0xFE0F {
            if _slowPath(perCodePoint) {
                width &+= codePointWidth(scalar, info, continuing: true)
            } else if baseIsVisible {
                width = prefix &+ 2  // VS16 asks for emoji presentation
            }
        } else if scalar == 0x20E3 && (base == 0x23 || base == 0x2A || (base >= 0x30 && base <= 0x39) || perCodePoint) {
            width = perCodePoint ? width &+ codePointWidth(scalar, info, continuing: true) : prefix &+ 2  // keycap
        } else if info.raw & slowBits == 0 {
            let scalarCells = scalarWidth(info)
            if scalarCells > 0 {
                // A grapheme that began with an extender (only at a text's or line's start or
                // after a control) is not drawn up to its first visible scalar (`draws`): under
                // `unicode` an extender or spacing mark is never that scalar, whatever its width.
                if _slowPath(!baseIsVisible) {
                    if !perCodePoint && info.raw & ScalarInfo.attachingBit != 0 { return }
                    baseIsVisible = true
                }
                width = max(width, prefix &+ scalarCells)
            }
        } else if _slowPath(perCodePoint) {
            let cells = codePointWidth(scalar, info, continuing: true)
            width &+= cells
            if cells > 0 && !info.isNeutralisedControl { baseIsVisible = true }
        }
    }

    /// `WidthProfile.ghostty`: a grapheme starts a cell of its own, or, when it begins with an
    /// Indic consonant right after a grapheme that ended in consonant + linker (GB9c, which our
    /// Unicode 15.0 graphemes do not join and Ghostty's do), goes on filling that grapheme's cell:
    /// then it counts only the cells it adds to it.
    @inline(never)
    private mutating func ghosttyStart(_ scalar: UInt32, _ info: ScalarInfo) {
        afterPrepend = false
        afterJoiner = false
        base = scalar
        prefix = 0
        if info.isNeutralisedControl {
            width = ControlNotation.visibleWidth(of: scalar)
            baseIsVisible = false
            (cell, cellCounted, lastEntry, conjunct) = (0, 0, GhosttyEntry(raw: 0), 0)
            return
        }
        let entry = GhosttyTable.entry(scalar)
        if conjunct == 2 && entry.isConjunctConsonant && baseIsVisible {
            cellCounted = cell
            cell = 2  // a consonant takes room: the cell is wide
            lastEntry = entry
            conjunct = 1
            width = cell - cellCounted
            return
        }
        cellCounted = 0
        lastEntry = entry
        conjunct = entry.isConjunctConsonant ? 1 : 0
        if info.raw & ScalarInfo.attachingBit != 0 && !info.isEmojiModifier {
            // Not drawn (`draws`): nothing before it in its grapheme to join.
            cell = 0
            baseIsVisible = false
        } else {
            cell = ghosttyCells(entry, info)
            baseIsVisible = cell > 0
        }
        width = cell
    }

    /// `WidthProfile.ghostty`: a scalar that continues the grapheme. As Ghostty's `print` does
    /// with mode 2027 on: VS16 and VS15 make the cell 2 or 1 after a scalar with an emoji
    /// variation sequence and are ignored after any other; a skin-tone modifier not right after
    /// an Emoji_Modifier_Base, and a scalar up to U+00FF, start a cell of their own; any other
    /// scalar that is not zero in a grapheme makes the cell wide (2).
    @inline(never)
    private mutating func ghosttyExtend(_ scalar: UInt32, _ info: ScalarInfo) {
        let entry = GhosttyTable.entry(scalar)
        if entry.isConjunctConsonant {
            conjunct = 1
        } else if entry.isConjunctLinker {
            if conjunct != 0 { conjunct = 2 }
        } else if !entry.isConjunctExtend {
            conjunct = 0
        }
        // An extender before any visible scalar of its grapheme is not drawn (`draws`).
        if !baseIsVisible && info.raw & ScalarInfo.attachingBit != 0 && !info.isEmojiModifier { return }
        if scalar <= 0xFF || (entry.isEmojiModifier && !lastEntry.isEmojiModifierBase) || cell == 0 {
            // A cell of its own after the one before (Ghostty clusters only scalars above U+00FF,
            // and a modifier only onto a modifier base; a first scalar of no cells is not kept).
            prefix &+= max(0, cell &- cellCounted)
            cellCounted = 0
            cell = ghosttyCells(entry, info)
            if cell > 0 { baseIsVisible = true }
        } else if scalar == 0xFE0F || scalar == 0xFE0E {
            guard lastEntry.isVariationBase else { return }  // ignored: not even the last scalar
            cell = scalar == 0xFE0F ? 2 : min(cell, 1)
        } else if !entry.isZeroInGrapheme {
            cell = 2
        }
        lastEntry = entry
        width = prefix &+ max(0, cell &- cellCounted)
    }

    /// Cells of a scalar that starts a Ghostty cell: the table's, or `ambiguousWidth` for an East
    /// Asian Ambiguous one of 1 (Ghostty draws those in 1; a terminal set to wide ones, in 2).
    @inline(__always)
    private func ghosttyCells(_ entry: GhosttyEntry, _ info: ScalarInfo) -> Int {
        let cells = entry.width
        return cells == 1 && info.isAmbiguous ? ambiguousWidth : cells
    }

    /// `WidthProfile.wcwidth`'s cells for one scalar: glibc's width, a neutralised control's
    /// visible form, and nothing for a non-ASCII scalar right after a drawn ZWJ of its grapheme
    /// (`continuing`: read by `extend`), which tmux joins to the cell before.
    ///
    /// tmux 3.3a joins the first non-ASCII scalar written after a ZWJ, however far: past ASCII,
    /// escapes and line ends (a bubble's border included). A ZWJ is therefore drawn only inside
    /// its grapheme, where the next scalar is non-ASCII (UAX #29 keeps only extenders, spacing
    /// marks and, in an emoji sequence, a pictograph after it) and moves and wraps with it; one
    /// that ends its grapheme is not drawn (`endsInJoiner`) and joins nothing.
    @inline(never)
    private mutating func codePointWidth(_ scalar: UInt32, _ info: ScalarInfo, continuing: Bool) -> Int {
        var joined = false
        if scalar >= 0x80 {
            joined = afterJoiner
            // Drawn only after a visible base of its grapheme (else `draws` leaves it out).
            afterJoiner = scalar == 0x200D && continuing && baseIsVisible
        }
        if info.isNeutralisedControl { return ControlNotation.visibleWidth(of: scalar) }
        if joined { return 0 }
        let width = WcwidthTable.width(scalar)
        if info.isAmbiguous && width == 1 { return ambiguousWidth }
        return width
    }

    /// Under `WidthProfile.wcwidth`, the grapheme read so far ends in ZWJs that `draws` kept:
    /// if it ends here, they are not drawn either (drawn, tmux would join the next non-ASCII
    /// scalar it writes, wherever that is, to the cell before). They measure no cells, so the
    /// width is the same either way. Always false under `unicode`.
    @inline(__always)
    package var endsInJoiner: Bool { afterJoiner }

    /// Whether `scalar`, about to be read into the grapheme by `start` (`startsGrapheme`) or
    /// `extend`, is drawn. An extender that comes before any visible scalar of its grapheme has
    /// nothing to modify: UAX #29 leaves it so only at a text's start, after a line break and
    /// after a control. Drawn, the terminal would join it to whatever it shows before it (a
    /// control's visible form, a bubble's padding or border), so it is not drawn, and it
    /// measures no cells. Which scalars the terminal joins depends on the profile:
    /// - `unicode`: every Extend, ZWJ and SpacingMark scalar (GB9, GB9a), whatever its width
    ///   alone: a grapheme-clustering terminal joins U+302E HANGUL SINGLE DOT TONE MARK (2 cells
    ///   alone) or a skin-tone modifier to the space before it, where it no longer takes the cells
    ///   it measures alone.
    /// - `ghostty`: the same, but for a skin-tone modifier, which Ghostty draws in 2 cells of its
    ///   own after anything but an Emoji_Modifier_Base (uucode's tailoring of UAX #29).
    /// - `wcwidth`: an Extend or ZWJ scalar of no cells (a combining mark, variation selector,
    ///   ZWJ, tag…), which tmux 3.3a adds to the cell before; one with cells of its own (U+302E,
    ///   a skin-tone modifier, U+09BE BENGALI VOWEL SIGN AA) it draws in those cells wherever
    ///   it comes, so it is drawn as measured.
    @inline(__always)
    package func draws(_ scalar: UInt32, _ info: ScalarInfo, startsGrapheme: Bool) -> Bool {
        guard startsGrapheme || !baseIsVisible else { return true }
        guard info.raw & ScalarInfo.attachingBit != 0 else { return true }
        if ghostty { return info.isEmojiModifier }
        return perCodePoint && (scalarWidth(info) > 0 || info.graphemeBreak == .spacingMark)
    }

    /// `WidthProfile.ghostty` only: `scalar`, before which our Unicode 15.0 graphemes break, goes
    /// on the grapheme read so far in Ghostty's clusters (GB9c: a consonant after consonant and
    /// linker, `क्` + `ष`). A reader that keeps grapheme boundaries extends the grapheme with it
    /// instead of starting one, so that no line is broken inside the conjunct (drawn apart, its
    /// parts would take more cells than together). Readers that start a grapheme there measure
    /// the same total: the second part counts only what it adds. Always false for the other
    /// profiles.
    @inline(__always)
    package func joinsConjunct(_ scalar: UInt32) -> Bool {
        conjunct == 2 && baseIsVisible && GhosttyTable.entry(scalar).isConjunctConsonant
    }

    @inline(__always)
    private func scalarWidth(_ info: ScalarInfo) -> Int {
        let width = info.width
        if info.isEmojiPresentation && width != 0 { return 2 }
        if info.isAmbiguous && width == 1 { return ambiguousWidth }
        return width
    }
}
