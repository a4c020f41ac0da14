extension PreparedText {
    /// The text may hold a right-to-left character (Hebrew, Arabic, an RLM…): only then does
    /// drawing it in visual order need the bidi algorithm. False for every ASCII text.
    ///
    /// Worked out when asked, by `BidiTables.mayContainRightToLeft` over the UTF-8 (about a
    /// nanosecond per scalar; drawing asks, once per text drawn), not while preparing: so
    /// preparing costs not a cycle more and the prepared text not a byte more, and nothing of
    /// the bidi algorithm is kept (levels are resolved again when a right-to-left text is drawn).
    package var mayContainRightToLeft: Bool {
        BidiTables.mayContainRightToLeft(text)
    }
}
