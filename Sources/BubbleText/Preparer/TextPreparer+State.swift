// The preparer's state, grouped by what it tracks. Plain stored values: they live inline in
// `TextPreparer`, so reading `segment.contentWidth` costs what reading a field of its own did.

extension TextPreparer {
    enum GraphemeKind { case content, space, tab, lineBreak }

    /// The grapheme being read.
    struct OpenGrapheme {
        /// UTF-8 offset of its first scalar.
        var start = 0
        var kind = GraphemeKind.content
        var width: GraphemeWidth
    }

    /// The segment being built: its content, then its hang (the spaces and tabs after it), then
    /// its break characters.
    struct OpenSegment {
        var contentWidth = 0
        /// UTF-8 offset where the hang starts; -1 before it has one.
        var hangStart = -1
        var hangWidth = 0
        /// UTF-8 bytes of the mandatory break (CR, LF, CR LF, NEL…) that ends it.
        var breakLength = 0
        var hasTab = false
        var graphemeCount = 0
        /// Every content grapheme so far is one cell and `unitLength` bytes, and every grapheme of
        /// the hang is a space (no map entries written yet): layout finds the graphemes by division.
        var simple = true
        /// The UTF-8 length of each content grapheme while `simple` (0 before the first).
        var unitLength = 0
        /// Where its entries start in the grapheme map.
        var mapStart = 0
        // The same three, as they were where the hang began (the hang is not content).
        var contentGraphemeCount = 0
        var contentSimple = true
        var contentMapEnd = 0

        @inline(__always)
        var inHang: Bool { hangStart >= 0 }

        /// Makes this the next segment, empty, with entries from `mapStart`. (The three fields
        /// kept for the hang are left: they are set whenever a hang begins, and read only in one,
        /// so resetting them would be work for nothing.)
        @inline(__always)
        mutating func startNext(mapStart: Int) {
            contentWidth = 0
            hangStart = -1
            hangWidth = 0
            breakLength = 0
            hasTab = false
            graphemeCount = 0
            simple = true
            unitLength = 0
            self.mapStart = mapStart
        }
    }

    /// What `measure(width: Int.max)` finds, kept as segments are written: the open hard line's
    /// width, the hang after its last segment (it counts only if more follows), the widest
    /// finished hard line, whether a mandatory break ended one, whether the text holds a tab,
    /// and where the last segment's content ends.
    struct HardLineFigures {
        var width = 0
        var hang = 0
        var widest = 0
        var sawMandatoryBreak = false
        var sawTab = false
        var lastContentEnd = 0
    }

    /// Tabs, which `HardLineFigures` counts as no cells in content and one in a hang: the cells
    /// they take beyond that on the open hard line, in the hang after its last segment, and, in
    /// the segment being built, in its content and its hang (with the tabs in that hang). With no
    /// wrapping, a tab's column is the sum of everything before it on its hard line.
    struct TabCells {
        var lineExtra = 0
        var hangExtra = 0
        var content = 0
        var openHang = 0
        var openHangTabs = 0
    }
}
