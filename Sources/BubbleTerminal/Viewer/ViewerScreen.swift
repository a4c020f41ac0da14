import BubbleLayout
import BubbleText

/// What the viewer loop does after a key.
public enum ViewerAction: Hashable, Sendable {
    /// Nothing changed on screen.
    case none
    /// Write a new frame.
    case redraw
    case quit
    /// Give the terminal back and stop the process (ctrl-Z); redraw on resume.
    case suspend
}

/// The viewer's screen model: a live `Conversation`, a window onto it `rows` × `columns`, the
/// keys of `less`, search, and the frame they give. It writes nothing itself (`ViewerSession`
/// does), so tests drive it key by key and read the frame.
///
/// The window is a line offset into the conversation's timeline, found and kept in O(log n). A
/// frame draws only the rows it shows. A width change first draws the rows from the top message
/// down at the new width straight from the prepared texts (`pendingWidth`), and only then re-lays
/// out the whole conversation (`completeResize()`), keeping that message at the top.
public final class ViewerScreen {
    /// The messages shown, laid out at the width they were last completed at.
    public private(set) var conversation: Conversation<CellMeasurer>
    /// Shown in the status line: the file, neutralised when drawn.
    public let title: String
    public private(set) var rows: Int
    public private(set) var columns: Int
    /// First timeline line on screen (at `conversation.width`).
    public private(set) var top = 0
    /// A width the conversation has not been re-laid out at yet, and the row kept at the top.
    public private(set) var pendingWidth: Int?
    private var pendingAnchor = 0
    private var pendingWasAtBottom = false
    /// What the status line says besides the position (loading, rejected records, following).
    public var note: String?

    let baseOptions: RenderOptions
    private var renderer: TranscriptRenderer
    private let safe: SafeText
    private var keyMode = KeyMode.normal
    /// The last search: its text, direction and outcome.
    public private(set) var search: ViewerSearch?

    enum KeyMode: Equatable {
        case normal
        case searchInput(forward: Bool, text: String)
    }

    /// A screen of `rows` × `columns` cells onto `conversation` (whose width should be
    /// `columns`), opening on the latest messages.
    public init(conversation: Conversation<CellMeasurer>, title: String, rows: Int, columns: Int,
                renderOptions: RenderOptions) {
        self.conversation = conversation
        self.title = title
        self.rows = max(2, rows)
        self.columns = max(1, columns)
        baseOptions = renderOptions
        renderer = TranscriptRenderer(engine: conversation.engine, options: renderOptions)
        safe = SafeText(options: conversation.engine.texts.measurer.options, sgr: SGR(depth: .none), ellipsis: "…")
        renderer = makeRenderer(width: conversation.width)
        scrollToEnd()
    }

    /// Lines of messages on screen (the last row is the status line).
    public var pageHeight: Int { max(1, rows - 1) }
    /// The largest `top`: the last page.
    public var maxTop: Int { max(0, conversation.totalHeight - pageHeight) }
    /// Whether the last line of the conversation is on screen.
    public var isAtBottom: Bool { top >= maxTop }
    /// The row at the top of the screen, nil for an empty conversation.
    public var topRow: Int? { pendingWidth != nil ? pendingAnchor : conversation.row(atOffset: top) }

    public func scrollToEnd() { top = maxTop }

    /// Replaces the conversation (the full log, loaded after its end was shown), keeping the
    /// message at the top of the screen there, or the bottom when the view was at the bottom.
    public func replaceConversation(_ replacement: Conversation<CellMeasurer>) {
        let wasAtBottom = isAtBottom
        let anchorID = topRow.map { conversation[$0].model.id }
        conversation = replacement
        if replacement.width != columns { replacement.resize(width: columns) }
        renderer = makeRenderer(width: replacement.width)
        pendingWidth = nil
        if !wasAtBottom, let anchorID, let row = replacement.row(withID: anchorID) {
            top = min(replacement.offset(ofRow: row), maxTop)
        } else {
            scrollToEnd()
        }
    }

    /// Adds messages after the last (`--follow`); scrolls only when the view was at the bottom.
    /// Returns the messages the conversation refused, with why.
    @discardableResult
    public func append(_ models: [any MessageModel]) -> [(id: String, error: ConversationError)] {
        let wasAtBottom = isAtBottom && pendingWidth == nil
        var refused: [(String, ConversationError)] = []
        for model in models {
            do { try conversation.append(model) } catch { refused.append((model.id, error)) }
        }
        if wasAtBottom { scrollToEnd() }
        return refused
    }

    // MARK: Size

    /// The terminal is now `rows` × `columns`. A new width is drawn at once from the top message
    /// down (`frame()`); call `completeResize()` after writing that frame.
    public func resize(rows: Int, columns: Int) {
        let newRows = max(2, rows)
        let newColumns = max(1, columns)
        if newColumns != (pendingWidth ?? conversation.width) {
            if pendingWidth == nil {
                pendingAnchor = topRow ?? 0
                pendingWasAtBottom = isAtBottom
            }
            pendingWidth = newColumns == conversation.width ? nil : newColumns
            if pendingWidth == nil { top = conversation.isEmpty ? 0 : conversation.offset(ofRow: pendingAnchor) }
        }
        self.rows = newRows
        self.columns = newColumns
        renderer = makeRenderer(width: pendingWidth ?? conversation.width)
        if pendingWidth == nil { top = min(top, maxTop) }
    }

    /// Re-lays out the whole conversation at the pending width (every row, from the prepared
    /// texts), keeping the message that was at the top there.
    public func completeResize() {
        guard let width = pendingWidth else { return }
        conversation.resize(width: width)
        pendingWidth = nil
        renderer = makeRenderer(width: width)
        if pendingWasAtBottom || conversation.isEmpty {
            scrollToEnd()
        } else {
            top = min(conversation.offset(ofRow: min(pendingAnchor, conversation.count - 1)), maxTop)
        }
    }

    private func makeRenderer(width: Int) -> TranscriptRenderer {
        var options = baseOptions
        options.width = width
        return TranscriptRenderer(engine: conversation.engine, options: options) { [weak self] id in
            self?.replyPreview(id)
        }
    }

    private func replyPreview(_ id: String) -> String? {
        guard let row = conversation.row(withID: id) else { return nil }
        var previews = ReplyPreviews(capacity: 1)
        let model = conversation[row].model
        previews.record(model, registry: conversation.engine.registry)
        let quote = previews.quote(for: id, in: model.conversationID)
        return quote.hasPrefix("↩ ") ? String(quote.dropFirst(2)) : quote
    }

    // MARK: Keys

    /// Acts on one key, as `less` would.
    public func handle(_ key: ViewerKey) -> ViewerAction {
        if case let .searchInput(forward, text) = keyMode { return handleSearchInput(key, forward: forward, text: text) }
        switch key {
        case .character("q"), .character("Q"), .interrupt: return .quit
        case .suspend: return .suspend
        case .redraw: return .redraw
        case .character("j"), .character("e"), .down, .enter: return scroll(by: 1)
        case .character("k"), .character("y"), .up: return scroll(by: -1)
        case .wheelDown: return scroll(by: 3)
        case .wheelUp: return scroll(by: -3)
        case .character(" "), .character("f"), .character("z"), .pageDown: return scroll(by: pageHeight)
        case .character("b"), .character("w"), .pageUp: return scroll(by: -pageHeight)
        case .character("d"): return scroll(by: max(1, pageHeight / 2))
        case .character("u"): return scroll(by: -max(1, pageHeight / 2))
        case .character("g"), .character("<"), .home: return scroll(to: 0)
        case .character("G"), .character(">"), .end: return scroll(to: Int.max)
        case .character("/"):
            keyMode = .searchInput(forward: true, text: "")
            return .redraw
        case .character("?"):
            keyMode = .searchInput(forward: false, text: "")
            return .redraw
        case .character("n"): return repeatSearch(reverse: false)
        case .character("N"): return repeatSearch(reverse: true)
        case .escape:
            guard search != nil else { return .none }
            search = nil
            return .redraw
        default: return .none
        }
    }

    private func scroll(by lines: Int) -> ViewerAction {
        scroll(to: top + lines)
    }

    private func scroll(to line: Int) -> ViewerAction {
        if pendingWidth != nil { completeResize() }
        let target = max(0, min(line == Int.max ? maxTop : line, maxTop))
        guard target != top else { return .none }
        top = target
        return .redraw
    }

    private func handleSearchInput(_ key: ViewerKey, forward: Bool, text: String) -> ViewerAction {
        switch key {
        case let .character(character):
            keyMode = .searchInput(forward: forward, text: text + String(character))
        case .backspace:
            if text.isEmpty { keyMode = .normal } else { keyMode = .searchInput(forward: forward, text: String(text.dropLast())) }
        case .escape, .interrupt:
            keyMode = .normal
        case .enter:
            keyMode = .normal
            if text.isEmpty {
                return repeatSearch(reverse: false)
            }
            search = ViewerSearch(query: text, forward: forward)
            return find(forward: forward, fromCurrent: false)
        default:
            return .none
        }
        return .redraw
    }

    private func repeatSearch(reverse: Bool) -> ViewerAction {
        guard let search else { return .none }
        return find(forward: search.forward != reverse, fromCurrent: true)
    }

    /// Moves the next matching message (after the top row, or before it) to the top.
    private func find(forward: Bool, fromCurrent: Bool) -> ViewerAction {
        guard var state = search else { return .none }
        if pendingWidth != nil { completeResize() }
        let start = topRow ?? 0
        let count = conversation.count
        let matcher = SearchMatcher(state.query)
        var found: Int?
        if forward {
            var row = fromCurrent ? start + 1 : start
            while row < count {
                if rowMatches(row, matcher) { found = row; break }
                row += 1
            }
        } else {
            var row = start - 1
            while row >= 0 {
                if rowMatches(row, matcher) { found = row; break }
                row -= 1
            }
        }
        state.notFound = found == nil
        if let found {
            state.matchedRow = found
            top = min(conversation.offset(ofRow: found), maxTop)
        }
        search = state
        return .redraw
    }

    /// Whether the sender's name, the text (caption, notice) or the file name of row `row` holds
    /// the query.
    func rowMatches(_ row: Int, _ matcher: SearchMatcher) -> Bool {
        let entry = conversation[row]
        if let name = entry.model.senderName, matcher.matches(name) { return true }
        let content = conversation.engine.registry.configurators[entry.configuratorIndex].content(entry.model)
        if let text = content.text, matcher.matches(text) { return true }
        if let image = content.image, matcher.matches(image.name) { return true }
        return false
    }

    /// What search looks in: the sender's name and the message's text, caption or notice.
    func rowText(_ row: Int) -> String {
        let entry = conversation[row]
        let content = conversation.engine.registry.configurators[entry.configuratorIndex].content(entry.model)
        return (entry.model.senderName ?? "") + "\n" + (content.text ?? "") + "\n" + (content.image?.name ?? "")
    }

    // MARK: Frame

    /// The screen: `rows` lines, the last the status line. Lines hold our own escapes only:
    /// the renderer's colours, reverse video on search matches and on the status line.
    public func frame() -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(rows)
        let width = pendingWidth ?? conversation.width
        if !conversation.isEmpty {
            var row: Int
            var skip: Int
            if pendingWidth != nil {
                row = pendingAnchor
                skip = 0
            } else {
                row = conversation.row(atOffset: top) ?? 0
                skip = top - conversation.offset(ofRow: row)
            }
            while lines.count < pageHeight && row < conversation.count {
                let drawn = drawRow(row, width: width)
                if skip < drawn.count { lines += drawn[skip...].prefix(pageHeight - lines.count) }
                skip = 0
                row += 1
            }
        }
        if let search, !search.query.isEmpty {
            let matcher = SearchMatcher(search.query)
            lines = lines.map { matcher.highlight($0) }
        }
        while lines.count < pageHeight { lines.append("") }
        lines.append(statusLine())
        return lines
    }

    /// The frame as bytes for the terminal: home, each line cleared to its end.
    public func frameText() -> String {
        let lines = frame()
        var text = "\u{1B}[H"
        for (index, line) in lines.enumerated() {
            text += line
            text += index == lines.count - 1 ? "\u{1B}[m\u{1B}[K" : "\u{1B}[m\u{1B}[K\r\n"
        }
        return text
    }

    /// The lines of conversation row `row` (its date separator, then its message) at `width`.
    func drawRow(_ row: Int, width: Int) -> [String] {
        let entry = conversation[row]
        var lines: [String] = []
        let model = entry.model
        if let separatorRow = entry.separatorRow(at: row) {
            let layout = width == conversation.width && entry.dateSeparator != nil
                ? entry.dateSeparator!
                : conversation.engine.dateLayout(entry.day, decoration: separatorRow.decoration, width: width)
            lines += renderer.lines(for: separatorRow, model: nil, layout: layout)
        }
        let messageRow = entry.messageRow(messageIndex: row)
        if width == conversation.width {
            lines += renderer.lines(for: messageRow, model: model, layout: entry.layout)
        } else if let drawn = try? renderer.lines(for: messageRow, model: model) {
            lines += drawn
        }
        return lines
    }

    /// `title │ Wed 1 May 2024 │ message 12 of 340 │ /search`, in reverse video, one line. What
    /// does not fit goes, least useful first: the title, the date, the note.
    func statusLine() -> String {
        var title: String? = safe.draw(title, limit: max(8, columns / 3)).text
        var day: String?
        var position = "no messages"
        if let row = topRow, !conversation.isEmpty {
            day = conversation[row].day.label
            position = "message \(row + 1) of \(conversation.count)"
        }
        var searchText: String?
        if case let .searchInput(forward, text) = keyMode {
            searchText = (forward ? "/" : "?") + safe.draw(text, limit: max(1, columns / 3)).text + "▏"
        } else if let search {
            let query = safe.draw(search.query, limit: max(1, columns / 4)).text
            searchText = (search.forward ? "/" : "?") + query + (search.notFound ? " (not found)" : "")
        }
        var note = self.note.map { safe.draw($0, limit: max(1, columns / 3)).text }
        let end = isAtBottom && pendingWidth == nil ? "(END)" : nil
        func compose() -> String {
            " " + [title, day, position, searchText, note, end].compactMap { $0 }.joined(separator: " │ ")
        }
        var text = compose()
        for drop in 0..<3 where safe.width(of: text) > columns {
            switch drop {
            case 0: title = nil
            case 1: day = nil
            default: note = nil
            }
            text = compose()
        }
        let drawn = safe.draw(text, limit: columns)
        let padding = max(0, columns - drawn.width)
        return "\u{1B}[7m" + drawn.text + String(repeating: " ", count: padding) + "\u{1B}[27m"
    }
}

/// A search: what was typed, which way, and what it found.
public struct ViewerSearch: Hashable, Sendable {
    public var query: String
    public var forward: Bool
    public var matchedRow: Int?
    public var notFound = false

    public init(query: String, forward: Bool) {
        self.query = query
        self.forward = forward
    }
}
