import BubbleLayout
import BubbleText

/// Text with styled stretches, as a markup parser produces it: the words a person reads (the
/// markers gone) and where each style applies, by UTF-8 offsets into `text`.
struct StyledText: Sendable, Equatable {
    private(set) var spans: [TextSpan] = []
    /// Bounded as any expanded message is (`ExpansionLimit.messageBytes`).
    private var bounded = BoundedText()

    init() {}

    init(plain: String) { append(plain) }

    var text: String { bounded.text }

    var utf8Count: Int { bounded.text.utf8.count }

    mutating func append<S: StringProtocol>(_ piece: S) {
        bounded.append(piece)
    }

    /// Appends `other`, its spans moved along.
    mutating func append(_ other: StyledText) {
        let offset = utf8Count
        append(other.text)
        let end = utf8Count
        for span in other.spans where offset + span.start < end {
            spans.append(TextSpan(start: offset + span.start, end: min(end, offset + span.end), style: span.style))
        }
    }

    /// Styles what was appended from `start` on with `style` (nothing when that is empty).
    mutating func style(from start: Int, _ style: TextSpanStyle) {
        guard utf8Count > start else { return }
        spans.append(TextSpan(start: start, end: utf8Count, style: style))
    }

    static func == (a: StyledText, b: StyledText) -> Bool { a.text == b.text && a.spans == b.spans }
}

/// Discord's and Slack's message markup read as the apps read it: the markers taken out of the
/// text, their styles kept as spans (`StyledText`). Markup inside code is literal, a marker with
/// no partner stays text, and a web address (`URLSpans`) is never split by markup.
///
/// **Discord** (the rules DiscordChatExporter's parser follows, after Discord's own clients): at
/// each place the first of these that matches wins, in this order: `¯\_(ツ)_/¯` as written; a
/// backslash before a character that is not an ASCII letter, digit or space, which is then that
/// character; `***x***` (bold italic); `___x___` (underlined italic); `**x**` (the earliest `**`
/// not followed by `*` closes it); `*x*` (not opened before a space, not closed after a space or
/// `*`, nor before `*`); `__x__` (closed by the earliest `__` not followed by `_`); `_x_` (no `_`
/// inside, not closed before a letter or digit); `~~x~~`; `||x||` (a spoiler: `[spoiler]` unless
/// revealed); ```` ```lang⏎code``` ```` and `` `code` `` or ``` ``code`` ``` (closed by a run of
/// as many backticks), blank lines at either end of code dropped; `[label](url)` as `label (url)`; `<https://…>` as
/// the address; a web address as written. `<@id>`, `<#id>`, `<:emoji:id>` and `<t:…>` are read
/// whole by `token`. Spans nest 32 deep; deeper markup is text.
///
/// **Slack** (`mrkdwn`): ```` ```code``` ````, `` `code` `` (one line), `*bold*`, `_italic_` and
/// `~strike~`, each opened at the start or after a character that is not a letter or digit,
/// closed before the end or a character that is not a letter or digit, on one line, with no
/// space just inside either marker. Slack has no escapes.
///
/// Time: linear in the text for each kind of marker (the next closing marker is remembered), so
/// a hostile text costs no more than a long one.
struct ChatMarkup {
    enum Dialect { case discord, slack }

    let dialect: Dialect
    let revealsSpoilers: Bool
    /// Reads a `<…>` token whole (Discord's mentions, emoji and times): the text it stands for,
    /// or nil when it is not one.
    var token: (Substring) -> String? = { _ in nil }

    /// What a hidden spoiler shows, as for Telegram's.
    static let hiddenSpoiler = "[spoiler]"
    /// Deeper markup than this is left as text.
    static let maximumDepth = 32

    /// `text` read.
    func parse(_ text: String) -> StyledText {
        let bytes = Array(text.utf8)
        var state = ParseState(bytes: bytes, urls: URLSpans.find(in: bytes))
        var out = StyledText()
        parse(&state, from: 0, to: bytes.count, depth: 0, into: &out)
        return out
    }

    private struct ParseState {
        let bytes: [UInt8]
        let urls: [Range<Int>]
        /// Per closing marker, the last search: from where, and what it found (nil: none to the end).
        var memo: [String: (from: Int, found: Int?, to: Int)] = [:]
    }

    // MARK: The scan

    private func parse(_ state: inout ParseState, from start: Int, to end: Int, depth: Int, into out: inout StyledText) {
        let b = state.bytes
        var plainStart = start
        var i = start
        func flush(_ upTo: Int) {
            if upTo > plainStart { out.append(String(decoding: b[plainStart..<upTo], as: UTF8.self)) }
        }
        var urlIndex = state.urls.firstIndex { $0.lowerBound >= start } ?? state.urls.count
        while i < end {
            // A web address is text, whole.
            while urlIndex < state.urls.count && state.urls[urlIndex].lowerBound < i { urlIndex += 1 }
            if urlIndex < state.urls.count, state.urls[urlIndex].lowerBound == i, state.urls[urlIndex].upperBound <= end {
                i = state.urls[urlIndex].upperBound
                continue
            }
            guard let step = match(&state, at: i, end: end, depth: depth) else {
                i += 1
                continue
            }
            flush(i)
            let before = out.utf8Count
            switch step.node {
            case .text(let text):
                out.append(text)
            case .styled(let styles, let inner):
                parse(&state, from: inner.lowerBound, to: inner.upperBound, depth: depth + 1, into: &out)
                for style in styles { out.style(from: before, style) }
            case .code(let inner):
                var lo = inner.lowerBound, hi = inner.upperBound
                while lo < hi && (b[lo] == 0x0A || b[lo] == 0x0D) { lo += 1 }
                while hi > lo && (b[hi - 1] == 0x0A || b[hi - 1] == 0x0D) { hi -= 1 }
                out.append(String(decoding: b[lo..<hi], as: UTF8.self))
                out.style(from: before, .code)
            case .spoiler(let inner):
                if revealsSpoilers {
                    parse(&state, from: inner.lowerBound, to: inner.upperBound, depth: depth + 1, into: &out)
                } else {
                    out.append(Self.hiddenSpoiler)
                }
            case .link(let label, let url):
                parse(&state, from: label.lowerBound, to: label.upperBound, depth: depth + 1, into: &out)
                out.append(" (" + String(decoding: b[url], as: UTF8.self) + ")")
            }
            i = step.end
            plainStart = i
        }
        flush(end)
    }

    private enum Node {
        case text(String)
        case styled([TextSpanStyle], Range<Int>)
        case code(Range<Int>)
        case spoiler(Range<Int>)
        case link(label: Range<Int>, url: Range<Int>)
    }

    private func match(_ state: inout ParseState, at i: Int, end: Int, depth: Int) -> (node: Node, end: Int)? {
        let b = state.bytes
        let c = b[i]
        guard c == 0x2A || c == 0x5F || c == 0x7E || c == 0x7C || c == 0x60 || c == 0x5C || c == 0x5B || c == 0x3C || c == 0xC2 else { return nil }
        switch dialect {
        case .discord: return discord(&state, at: i, end: end, depth: depth)
        case .slack: return slack(&state, at: i, end: end, depth: depth)
        }
    }

    // MARK: Discord

    private func discord(_ state: inout ParseState, at i: Int, end: Int, depth: Int) -> (node: Node, end: Int)? {
        let b = state.bytes
        func has(_ s: String, at k: Int) -> Bool {
            let u = Array(s.utf8)
            return k + u.count <= end && Array(b[k..<k + u.count]) == u
        }
        let shrug = "¯\\_(ツ)_/¯"
        if has(shrug, at: i) { return (.text(shrug), i + shrug.utf8.count) }
        if b[i] == 0x5C, i + 1 < end {
            let next = b[i + 1]
            let isAlnum = URLSpans.isAlphanumeric(next)
            if !isAlnum && next != 0x20 && next != 0x0A && next != 0x09 && next != 0x0D {
                let length = Self.scalarLength(next)
                if i + 1 + length <= end { return (.text(String(decoding: b[i + 1..<i + 1 + length], as: UTF8.self)), i + 1 + length) }
            }
            return nil
        }
        let nested = depth < Self.maximumDepth
        func after(_ k: Int) -> UInt8? { k < end ? b[k] : nil }
        func isSpace(_ x: UInt8?) -> Bool { x == 0x20 || x == 0x0A || x == 0x09 || x == 0x0D }
        if nested, has("***", at: i), let close = closer(&state, "**", tag: "***", from: i + 4, end: end, valid: { k in after(k + 2) == 0x2A && after(k + 3) != 0x2A }) {
            // *(**x**)* : the bold's earliest close, then the italic's star.
            return (.styled([.bold, .italic], i + 3..<close), close + 3)
        }
        if nested, has("___", at: i), let close = closer(&state, "__", tag: "___", from: i + 4, end: end, valid: { k in after(k + 2) == 0x5F && after(k + 3) != 0x5F }) {
            return (.styled([.underline, .italic], i + 3..<close), close + 3)
        }
        if nested, has("**", at: i), let close = closer(&state, "**", tag: "**", from: i + 3, end: end, valid: { k in after(k + 2) != 0x2A }) {
            return (.styled([.bold], i + 2..<close), close + 2)
        }
        if nested, b[i] == 0x2A, !isSpace(after(i + 1)), i + 2 < end,
           let close = closer(&state, "*", tag: "*", from: i + 2, end: end, valid: { k in
               !isSpace(b[k - 1]) && b[k - 1] != 0x2A && after(k + 1) != 0x2A }) {
            return (.styled([.italic], i + 1..<close), close + 1)
        }
        if nested, has("__", at: i), let close = closer(&state, "__", tag: "__", from: i + 3, end: end, valid: { k in after(k + 2) != 0x5F }) {
            return (.styled([.underline], i + 2..<close), close + 2)
        }
        if nested, b[i] == 0x5F, i + 2 < end, b[i + 1] != 0x5F,
           let close = closer(&state, "_", tag: "_", from: i + 2, end: end, valid: { _ in true }),
           !(after(close + 1).map(Self.isWordByte) ?? false) {
            return (.styled([.italic], i + 1..<close), close + 1)
        }
        if nested, has("~~", at: i), let close = closer(&state, "~~", tag: "~~", from: i + 3, end: end, valid: { _ in true }) {
            return (.styled([.strikethrough], i + 2..<close), close + 2)
        }
        if nested, has("||", at: i), let close = closer(&state, "||", tag: "||", from: i + 3, end: end, valid: { _ in true }) {
            return (.spoiler(i + 2..<close), close + 2)
        }
        if has("```", at: i) {
            var contentStart = i + 3
            // A language word right after the fence, then a newline, is not code.
            var k = contentStart
            while k < end && Self.isWordByte(b[k]) { k += 1 }
            if k < end && b[k] == 0x0A { contentStart = k + 1 }
            if let close = closer(&state, "```", tag: "```", from: contentStart + 1, end: end, valid: { _ in true }) {
                return (.code(contentStart..<close), close + 3)
            }
            if contentStart != i + 3, let close = closer(&state, "```", tag: "```", from: i + 4, end: end, valid: { _ in true }) {
                return (.code(i + 3..<close), close + 3)
            }
        }
        if b[i] == 0x60, i == 0 || b[i - 1] != 0x60 {
            // A run of backticks, closed by the next run of as many (the code may hold shorter
            // or longer runs), as Discord's clients read it.
            var run = 1
            while i + run < end && b[i + run] == 0x60 { run += 1 }
            guard let close = closer(&state, String(repeating: "`", count: run), tag: "`\(run)", from: i + run + 1, end: end,
                                     valid: { k in b[k - 1] != 0x60 && after(k + run) != 0x60 }) else { return nil }
            return (.code(i + run..<close), close + run)
        }
        if b[i] == 0x5B, let close = closer(&state, "](", tag: "](", from: i + 2, end: end, valid: { _ in true }) {
            // [label](url): the label up to the earliest "](", the address up to the next ")".
            let lineEnd = closer(&state, "\n", tag: "\n", from: i, end: end, valid: { _ in true }) ?? end
            guard close < lineEnd, let k = closer(&state, ")", tag: ")", from: close + 2, end: lineEnd, valid: { _ in true }),
                  k > close + 2 else { return nil }
            return (.link(label: i + 1..<close, url: close + 2..<k), k + 1)
        }
        if b[i] == 0x3C {
            var k = i + 1
            while k < end && b[k] != 0x3E && b[k] != 0x3C && !isSpace(b[k]) { k += 1 }
            guard k < end, b[k] == 0x3E else { return nil }
            let inner = b[i + 1..<k]
            if let url = state.urls.first(where: { $0.lowerBound == i + 1 }), url.upperBound == k {
                return (.text(String(decoding: inner, as: UTF8.self)), k + 1)
            }
            if let replaced = token(Substring(String(decoding: inner, as: UTF8.self))) { return (.text(replaced), k + 1) }
        }
        return nil
    }

    // MARK: Slack

    private func slack(_ state: inout ParseState, at i: Int, end: Int, depth: Int) -> (node: Node, end: Int)? {
        let b = state.bytes
        if i + 3 <= end, b[i] == 0x60, b[i + 1] == 0x60, b[i + 2] == 0x60,
           let close = closer(&state, "```", tag: "```", from: i + 4, end: end, valid: { _ in true }) {
            return (.code(i + 3..<close), close + 3)
        }
        if b[i] == 0x60 {
            let lineEnd = closer(&state, "\n", tag: "\n", from: i, end: end, valid: { _ in true }) ?? end
            guard let close = closer(&state, "`", tag: "`", from: i + 1, end: lineEnd, valid: { _ in true }), close > i + 1 else { return nil }
            return (.code(i + 1..<close), close + 1)
        }
        guard depth < Self.maximumDepth else { return nil }
        let style: TextSpanStyle
        switch b[i] {
        case 0x2A: style = .bold
        case 0x5F: style = .italic
        case 0x7E: style = .strikethrough
        default: return nil
        }
        let marker = b[i]
        // Opened at a word's start, with no space just inside.
        if i > 0, Self.isWordByte(b[i - 1]) { return nil }
        guard i + 2 < end, b[i + 1] != 0x20, b[i + 1] != 0x0A, b[i + 1] != marker else { return nil }
        // On one line: closed before the line's end, by a marker with no space before it and no
        // letter or digit after it.
        let lineEnd = closer(&state, "\n", tag: "\n", from: i, end: end, valid: { _ in true }) ?? end
        let closing = String(UnicodeScalar(marker))
        guard let close = closer(&state, closing, tag: "slack" + closing, from: i + 2, end: lineEnd, valid: { k in
            b[k - 1] != 0x20 && (k + 1 == b.count || !Self.isWordByte(b[k + 1]))
        }) else { return nil }
        return (.styled([style], i + 1..<close), close + 1)
    }

    // MARK: Helpers

    /// The earliest `marker` at or after `from` whose end is not after `end` and that `valid`
    /// accepts, skipping backslash escapes (Discord) and web addresses. `valid` depends only on
    /// the place (never on the opener), so answers are remembered by `tag`: a search from `from`
    /// that found `c` (or nothing up to `e`) answers every later search from `from...c` (or up to
    /// `e`) at once, and a text is scanned about once per tag.
    private func closer(_ state: inout ParseState, _ marker: String, tag: String, from: Int, end: Int,
                        valid: (Int) -> Bool) -> Int? {
        let m = Array(marker.utf8)
        if let memo = state.memo[tag], memo.from <= from {
            if let found = memo.found {
                if found >= from { return found + m.count <= end ? found : nil }
            } else if end <= memo.to {
                return nil
            }
        }
        let b = state.bytes
        var k = from
        var urlIndex = state.urls.firstIndex { $0.upperBound > from } ?? state.urls.count
        var result: Int? = nil
        while k + m.count <= end {
            if urlIndex < state.urls.count, state.urls[urlIndex].lowerBound <= k {
                k = max(k, state.urls[urlIndex].upperBound)
                urlIndex += 1
                continue
            }
            if dialect == .discord && b[k] == 0x5C {
                k += 2
                continue
            }
            if b[k] == m[0] && (m.count == 1 || b[k..<k + m.count].elementsEqual(m)) && valid(k) {
                result = k
                break
            }
            k += 1
        }
        state.memo[tag] = (from, result, end)
        return result
    }

    /// ASCII letters, digits and `_`, and any non-ASCII byte (letters of other scripts).
    static func isWordByte(_ x: UInt8) -> Bool { URLSpans.isAlphanumeric(x) || x == 0x5F || x >= 0x80 }

    /// The UTF-8 length of the scalar whose first byte is `lead`.
    static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
