/// How a terminal counts the cells of a grapheme. Terminals disagree, and a bubble's right border
/// lines up only when we count as the terminal drawing it does.
public enum WidthProfile: String, Hashable, Sendable, CaseIterable {
    /// By Unicode 15 grapheme cluster, as `CellWidth` documents: a grapheme is as wide as its
    /// widest scalar, VS16 makes it 2 (kitty, WezTerm, foot, Ghostty, and any terminal with
    /// mode 2027 on).
    case unicode
    /// Per code point, as glibc's `wcwidth` and tmux 3.3a count: the sum of each scalar's
    /// `WcwidthTable` width, so VS16 and the keycap mark add nothing, a skin-tone modifier is 2
    /// more, a spacing mark (Mc) is 1 more, and a code point glibc does not know is 0. As tmux
    /// does, the scalar after a ZWJ joins the character before it and adds nothing (so an emoji
    /// ZWJ sequence is as wide as its first emoji). tmux joins the first non-ASCII scalar written
    /// after a ZWJ however far after it (past ASCII, into the next line's border), so a ZWJ is
    /// drawn only inside its grapheme, before the scalar it joins; one that ends its grapheme is
    /// not drawn and joins nothing (`GraphemeWidth.endsInJoiner`).
    case wcwidth
    /// By grapheme cluster as Ghostty 1.3 and later draws with mode 2027 on (its `print` after
    /// ghostty-org/ghostty#10465; widths from `GhosttyTable`): a cluster starts at its first
    /// scalar's cells, and any later scalar that takes room alone (a spacing mark, a second
    /// consonant of a conjunct, a further Hangul L jamo, an emoji after a ZWJ) makes it 2, so
    /// `का` and `क्षि` are 2 where `unicode` says 1. VS16 makes it 2 and VS15 1, only after a
    /// scalar with an emoji variation sequence; the keycap mark adds nothing (`#⃣` is 1, `#️⃣` 2);
    /// a skin-tone modifier not right after an Emoji_Modifier_Base takes 2 cells of its own.
    /// Ghostty joins Indic conjuncts (GB9c) that our Unicode 15.0 graphemes split: a grapheme
    /// that goes on such a conjunct counts only the cells it adds to it (`क्` then `षि` are 1 + 1).
    case ghostty
}
