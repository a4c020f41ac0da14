/// Which bidi formatting controls a terminal can leave out instead of labelling.
///
/// No bidi control ever reaches the terminal raw (`ControlNotation` gives each a label such as
/// `<RLO>`). But chat apps wrap ordinary text in them: WhatsApp puts U+202A … U+202C around phone
/// numbers and mentions and starts notices with U+200E, so labels would cover real chats. A
/// control whose effect is confined and benign is therefore left out of what is shown, and the
/// text engine measures the text without it, so what is measured is what is drawn:
///
/// - the marks LRM, RLM and ALM (U+200E, U+200F, U+061C), always;
///
/// (the controls and their roles come from the generated `BidiControl`: Bidi_Control in
/// PropList.txt, each by its Bidi_Class)
/// - an embedding (LRE, RLE … PDF) or an isolate (LRI, RLI, FSI … PDI) opened and closed inside
///   the same text, provided every control between them is left out too.
///
/// Everything else stays and is labelled as before: overrides (LRO, RLO, which reorder what a
/// reader sees) and the PDF that closes one, anything left open at the end of the text, a closer
/// with nothing to close, and a pair holding any of those. Pairs are matched as UAX #9 (X6a, X7)
/// matches them: a PDI closes the innermost open isolate and every embedding opened inside it; a
/// PDF closes the innermost embedding or override, but not across an open isolate.
///
/// Applying it to its own result, or to any part of its result (one wrapped line), leaves that
/// unchanged: what is left forms no removable pair however it is cut. So a renderer may apply it
/// to every field and every line it draws.
package enum InvisibleFormatting {
    /// `text` without its removable formatting; `text` itself when it holds none.
    package static func displayed(_ text: String) -> String {
        guard mayHoldBidiControl(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        let removed = removable(scalars.map(\.value))
        guard removed.contains(true) else { return text }
        var out = String.UnicodeScalarView()
        for (i, scalar) in scalars.enumerated() where !removed[i] { out.append(scalar) }
        return String(out)
    }

    /// False when `text` surely holds no bidi control: a test of its UTF-8 eight bytes at a time
    /// for the two lead bytes of those scalars (`BidiControl.utf8LeadBytes`), then the scalar at each
    /// such byte is decoded and looked up.
    @inlinable
    package static func mayHoldBidiControl<Text: StringProtocol>(_ text: Text) -> Bool {
        ElementsView.reading(text) { mayHoldBidiControl(utf8: $0) }
    }

    /// `mayHoldBidiControl(_:)` on UTF-8 bytes, eight at a time. A word of ASCII is skipped on
    /// one test; in any other word, each byte the zero-byte test flags as either lead byte (it can
    /// flag a byte wrongly, never miss one) is checked exactly, and the scan goes on with the next
    /// word, so an Arabic text (whose lead byte is one of the two) is not read a byte at a time.
    @inlinable
    static func mayHoldBidiControl(utf8 bytes: ElementsView<UInt8>) -> Bool {
        let n = bytes.count, base = bytes
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let (lead0, lead1) = BidiControl.utf8LeadBytes
        while i &+ 8 <= n {
            let word = base.word(at: i)
            if word & highs != 0 {
                let a = word ^ (UInt64(lead0) &* ones), b = word ^ (UInt64(lead1) &* ones)
                var hit = ((a &- ones) & ~a | (b &- ones) & ~b) & highs
                while hit != 0 {
                    if isBidiControl(base, at: i &+ hit.trailingZeroBitCount &>> 3, count: n) { return true }
                    hit &= hit &- 1
                }
            }
            i &+= 8
        }
        while i < n {
            if isBidiControl(base, at: i, count: n) { return true }
            i &+= 1
        }
        return false
    }

    /// Whether a bidi control starts at `i` (a lead byte of one, then the scalar it starts).
    @inlinable @inline(__always)
    static func isBidiControl(_ base: ElementsView<UInt8>, at i: Int, count n: Int) -> Bool {
        let byte = base[i]
        let (lead0, lead1) = BidiControl.utf8LeadBytes
        guard byte == lead0 || byte == lead1 else { return false }
        // A two- or three-byte scalar (the lead bytes of bidi controls are below 0xF0).
        let length = byte >= 0xE0 ? 3 : 2
        guard i &+ length <= n else { return false }
        var scalar = UInt32(byte) & (length == 3 ? 0x0F : 0x1F)
        for k in 1..<length { scalar = scalar << 6 | UInt32(base[i &+ k] & 0x3F) }
        return BidiControl(scalar) != nil
    }

    /// `line` without the PDFs (U+202C) that close nothing: with no embedding or override open,
    /// or with an isolate opened since the last one. UAX #9 (X7) ignores such a PDF, so it changes
    /// nothing a reader sees; left in, it would be labelled (`<PDF>`), since a PDF that closes
    /// something on an earlier line of a drawn text looks the same. For a reader of one paragraph
    /// (a line: a paragraph ends every embedding, X8); `line` itself when it has no such PDF.
    package static func withoutUnmatchedPopFormatting(_ line: String) -> String {
        guard mayHoldBidiControl(line) else { return line }
        var innermost: [Bool] = []  // for each open embedding, override or isolate: is it an isolate
        var dropped: [Int] = []
        let scalars = Array(line.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            switch BidiControl(scalar.value) {
            case .embedding?, .override?: innermost.append(false)
            case .isolate?: innermost.append(true)
            case .popFormatting?:
                if innermost.last == false { innermost.removeLast() } else { dropped.append(i) }
            case .popIsolate?:
                // Closes the innermost isolate and what was opened inside it; one with none open does nothing here.
                if let isolate = innermost.lastIndex(of: true) { innermost.removeSubrange(isolate...) }
            default: break
            }
        }
        guard !dropped.isEmpty else { return line }
        var out = String.UnicodeScalarView()
        var next = 0
        for (i, scalar) in scalars.enumerated() {
            if next < dropped.count, dropped[next] == i { next += 1; continue }
            out.append(scalar)
        }
        return String(out)
    }

    /// For each scalar of `scalars`, whether it is a control left out of display (see the type).
    package static func removable(_ scalars: [UInt32]) -> [Bool] {
        var removed = [Bool](repeating: false, count: scalars.count)
        /// An open embedding, override or isolate: where, which, and whether everything inside it
        /// so far is left out (only then may the pair go too).
        struct Frame {
            var index: Int
            var kind: Kind
            var clean = true
        }
        enum Kind { case embedding, override, isolate }
        var stack: [Frame] = []
        var openIsolates = 0
        /// A control at the top level or inside the innermost frame stays: that frame cannot go.
        func kept() {
            if !stack.isEmpty { stack[stack.count - 1].clean = false }
        }
        for (i, scalar) in scalars.enumerated() {
            guard let control = BidiControl(scalar) else { continue }
            switch control {
            case .mark:
                removed[i] = true
            case .embedding:
                stack.append(Frame(index: i, kind: .embedding))
            case .override:
                stack.append(Frame(index: i, kind: .override))
            case .isolate:
                stack.append(Frame(index: i, kind: .isolate))
                openIsolates += 1
            case .popFormatting:
                guard let top = stack.last, top.kind != .isolate else {
                    kept()
                    continue
                }
                stack.removeLast()
                if top.kind == .embedding && top.clean {
                    removed[top.index] = true
                    removed[i] = true
                } else {
                    kept()
                }
            case .popIsolate:
                guard openIsolates > 0 else {
                    kept()
                    continue
                }
                // Embeddings and overrides still open inside the isolate end here unclosed: they
                // stay, and so the isolate does too.
                var clean = true
                while let top = stack.last, top.kind != .isolate {
                    stack.removeLast()
                    clean = false
                }
                let isolate = stack.removeLast()
                openIsolates -= 1
                if clean && isolate.clean {
                    removed[isolate.index] = true
                    removed[i] = true
                } else {
                    kept()
                }
            }
        }
        return removed
    }
}
