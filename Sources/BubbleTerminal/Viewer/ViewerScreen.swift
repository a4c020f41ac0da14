import BubbleLayout
import Foundation
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

/// The viewer's screen model: a `ViewerSource` of messages, a window of `rows` × `columns` cells
/// onto it, the keys of `less`, search, and the frame they give. It writes nothing itself
/// (`ViewerSession` does), so tests drive it key by key and read the frame.
///
/// Only a few pages of messages around the screen are laid out, in a small live `Conversation`
/// (the window), rebuilt from the source when the screen nears its edge. The screen's place is a
/// message and a line within it (`topRow`, `topLine`), not a line offset into the whole log, so
/// nothing needs the height of a message far from the screen: a resize lays out only the window
/// (the rest is laid out when it is scrolled to), and memory holds what the source keeps plus
/// the window, whatever the log's length. The window holds one message more on each side than it
/// shows, so every shown message is decorated from its real neighbours, and the number of other
/// parties comes from the source, counted over its first messages as every command counts it
/// (`PartyWindow`).
///
/// A log of several conversations (`ViewerSource.sections`) is shown one conversation at a time,
/// each a section of its own, in the order the conversations first appear: a header line at the
/// top names it (`══ work ══ conversation 1 of 2 ══`), its date separators and names are its own,
/// and `]` and `[` go to the next and the previous conversation (scrolling on past a
/// conversation's end does too). Everything above (the window, positions, the keys) is then
/// about the section shown (`shown`).
public final class ViewerScreen {
    /// The messages, by position.
    public private(set) var source: ViewerSource
    /// The messages shown: the conversation `section` of `source`, or `source` itself when it
    /// has no sections.
    public private(set) var shown: ViewerSource
    /// The conversation shown (an index into `source.sections`).
    public private(set) var section = 0
    /// Lays out the window (its cache holds the window's layouts only: rows leaving the window
    /// are forgotten).
    public let engine: LayoutEngine<CellMeasurer>
    /// Shown in the status line: the file, neutralised when drawn.
    public let title: String
    public private(set) var rows: Int
    public private(set) var columns: Int
    /// The message at the top of the screen (0 when there is none), and its first line shown.
    public private(set) var topRow = 0
    public private(set) var topLine = 0
    /// Messages in the source as the screen last saw it (`sourceDidGrow()` looks again).
    public private(set) var count: Int
    /// The laid-out window: source positions `windowStart ..< windowStart + window.count`.
    public private(set) var window: Conversation<CellMeasurer>
    public private(set) var windowStart = 0
    /// Windows laid out so far (a test and the bench read it).
    public private(set) var windowsBuilt = 0
    /// Times the window was moved by adding and dropping messages at its edges.
    public private(set) var windowsSlid = 0
    private var windowValid = false
    /// The other parties the window's rows were decorated for (names show when over one).
    private var windowParties = 0
    /// What the status line says besides the position (loading, rejected records, following).
    public var note: String?
    /// What reading the log said on opening (a guess about its dates, the time zone used), shown
    /// on the status line before `note` while the viewer runs.
    public var notice: String?

    let baseOptions: RenderOptions
    let decoration: DecorationOptions
    private var renderer: TranscriptRenderer
    private let safe: SafeText
    private var keyMode = KeyMode.normal
    /// The last search: its text, direction and outcome.
    public private(set) var search: ViewerSearch?

    enum KeyMode: Equatable {
        case normal
        case searchInput(forward: Bool, text: String)
        /// The help screen, scrolled down `offset` lines.
        case help(offset: Int)
    }

    /// Whether `q` quits now: not while a search is typed, on the help screen or after a count.
    public var quitKeyQuits: Bool { keyMode == .normal && pendingCount == nil }

    /// Whether the help screen is shown.
    public var showsHelp: Bool {
        if case .help = keyMode { return true }
        return false
    }

    /// A screen of `rows` × `columns` cells onto `source`, laid out by `engine` with `decoration`,
    /// opening on the latest messages.
    public init(source: ViewerSource, engine: LayoutEngine<CellMeasurer>, decoration: DecorationOptions = DecorationOptions(),
                title: String, rows: Int, columns: Int, renderOptions: RenderOptions) {
        self.source = source
        shown = source
        self.engine = engine
        self.decoration = decoration
        self.title = title
        self.rows = max(2, rows)
        self.columns = max(1, columns)
        count = 0
        baseOptions = renderOptions
        window = Conversation(engine: engine, width: max(1, columns), options: decoration)
        renderer = TranscriptRenderer(engine: engine, options: renderOptions)
        safe = SafeText(options: engine.texts.measurer.options, sgr: SGR(depth: .none), ellipsis: "…")
        renderer = makeRenderer(width: self.columns)
        showSection(Self.sectionOfLastMessage(source))
        seenCounts = sectionCounts()
        scrollToEnd()
    }

    /// Lines of messages on screen (the last row is the status line, and the first the
    /// conversation's header when there is one).
    public var pageHeight: Int { max(1, rows - 1 - headerLines) }

    // MARK: Sections

    /// Conversations in the source (1 when it has no sections).
    public var sectionCount: Int { max(1, source.sections?.count ?? 1) }

    /// Whether a header names the conversation: the log holds several, or its one conversation
    /// has a name.
    public var showsHeader: Bool {
        guard let sections = source.sections else { return false }
        return sections.count > 1 || (sections.count == 1 && sections.ids[0] != nil)
    }

    /// Conversations other than the one shown that got messages (`--follow`) since they were
    /// last shown: the status line says so.
    public private(set) var grewElsewhere: Set<Int> = []
    /// Each section's count when the source was last looked at.
    private var seenCounts: [Int] = []

    private func sectionCounts() -> [Int] {
        guard let sections = source.sections else { return [] }
        return (0..<sections.count).map { sections.count(ofSection: $0) }
    }

    /// Whether the pages were last worked out with a header line (`sourceDidGrow` looks again).
    private var shownHeader = false

    /// The header's lines: none on a terminal too short for it and a line of messages.
    private var headerLines: Int { shownHeader && rows >= 3 ? 1 : 0 }

    /// The section holding the source's last message (where the log's latest activity is).
    private static func sectionOfLastMessage(_ source: ViewerSource) -> Int {
        guard let sections = source.sections, sections.total > 0 else { return 0 }
        return sections.locate(position: sections.total - 1)?.section ?? 0
    }

    /// Shows section `index` of the source (its window laid out afresh); the place is left to
    /// the caller.
    private func showSection(_ index: Int) {
        if let sections = source.sections {
            section = max(0, min(index, sections.count - 1))
            shown = SectionSource(base: source, sections: sections, section: section)
        } else {
            section = 0
            shown = source
        }
        shownHeader = showsHeader
        grewElsewhere.remove(section)
        dropWindow()
    }

    /// The index in `shown` of its conversation's message `index` as `ConversationSections`
    /// counts them (a heading the section leaves out is counted there).
    private func shownIndex(_ index: Int) -> Int {
        (shown as? SectionSource)?.index(ofListIndex: index) ?? index
    }

    /// Goes to the first message of the next (`step` 1) or previous (-1) conversation.
    private func jumpSection(by step: Int) -> ViewerAction {
        let target = max(0, min(sectionCount - 1, section + step))
        guard target != section else { return .none }
        showSection(target)
        (topRow, topLine) = (0, 0)
        return .redraw
    }

    /// The header line: the conversation's name (neutralised) and which of how many it is.
    func headerLine() -> String {
        let rule = baseOptions.asciiBorders ? "=" : "═"
        let name = (shown as? SectionSource)?.headingText ?? source.sections.flatMap { section < $0.count ? $0.ids[section] : nil }
        let place = " conversation \(NumberText.grouped(section + 1)) of \(NumberText.grouped(sectionCount)) "
        let room = max(1, columns - 8 - safe.width(of: place))
        let drawnName = name.map { safe.draw($0, limit: room).text } ?? "(no conversation named)"
        var text = rule + rule + " " + drawnName + " " + rule + rule + place
        let width = safe.width(of: text)
        if width < columns { text += String(repeating: rule, count: columns - width) }
        let drawn = safe.draw(text, limit: columns).text
        return baseOptions.colorDepth == .none ? drawn : "\u{1B}[1m" + drawn + "\u{1B}[22m"
    }

    // MARK: Window

    /// The window's last position, exclusive.
    private var windowEnd: Int { windowStart + window.count }

    /// Whether the window lays out `low..<high` with every one of them decorated from its real
    /// neighbours (a neighbour in the window, or none in the source).
    private func windowCovers(_ low: Int, _ high: Int) -> Bool {
        windowValid && windowParties == shown.otherParties && (low > windowStart || windowStart == 0) && (high < windowEnd || windowEnd == count)
            && low >= windowStart && high <= windowEnd
    }

    /// Makes the window lay out `low..<high` (clamped to the source), with room on either side.
    private func ensureWindow(_ low: Int, _ high: Int) {
        let low = max(0, min(low, count)), high = max(low, min(high, count))
        guard !windowCovers(low, high) else { return }
        // A quarter page of messages on either side: a jump lays out little more than the rows
        // it shows, and scrolling on adds that many at a time.
        let margin = max(4, pageHeight / 4)
        let start = max(0, low - margin), end = min(count, high + margin)
        if windowValid && windowParties == shown.otherParties && !window.isEmpty && start < windowEnd && end > windowStart {
            slideWindow(start, end)
            return
        }
        var options = decoration
        options.otherParties = shown.otherParties
        windowParties = shown.otherParties
        let rebuilt = Conversation(engine: engine, width: columns, options: options)
        for (offset, model) in sourceMessages(start..<end).enumerated() { add(model, at: start + offset, to: rebuilt, first: false) }
        // Rows leaving the window leave the cache too, so it stays the window's size.
        for row in 0..<window.count {
            let id = window[row].model.id
            if rebuilt.row(withID: id) == nil { engine.forget(id: id) }
        }
        window = rebuilt
        windowStart = start
        windowValid = true
        windowsBuilt += 1
    }

    /// Moves a window that overlaps `start..<end` onto it: adds the messages it lacks on either
    /// side (each laid out with its neighbours, as a conversation does), and drops those more
    /// than a page away once they are a third of it, so scrolling on lays out only the messages
    /// coming into view.
    private func slideWindow(_ start: Int, _ end: Int) {
        do {
            if end > windowEnd {
                for (offset, model) in sourceMessages(windowEnd..<end).enumerated() { add(model, at: windowEnd + offset, to: window, first: false) }
            }
            if start < windowStart {
                for (offset, model) in sourceMessages(start..<windowStart).enumerated().reversed() { add(model, at: start + offset, to: window, first: true) }
                windowStart = start
            }
            // Keep a page and more around what is needed: the rows of the frame being drawn.
            let keep = pageHeight + (end - start)
            let keepStart = max(windowStart, start - keep), keepEnd = min(windowEnd, end + keep)
            if window.count > 3 * (keepEnd - keepStart) / 2 {
                let leaving = Array(0..<(keepStart - windowStart)) + Array((keepEnd - windowStart)..<window.count)
                let ids = leaving.map { window[$0].model.id }
                for id in ids { try window.remove(id: id) }  // forgets their layouts too
                windowStart = keepStart
            }
        } catch {
            // A row the window held is not there to drop: lay the window out afresh.
            windowValid = false
            ensureWindow(start, end)
            return
        }
        windowsSlid += 1
    }

    /// The source's messages at `range`, exactly one a position: a file changed under the
    /// viewer can give fewer (or more), and the missing ones are shown as such.
    private func sourceMessages(_ range: Range<Int>) -> [any MessageModel] {
        var models = shown.messages(in: range)
        if models.count > range.count { models.removeLast(models.count - range.count) }
        while models.count < range.count { models.append(MissingMessage(position: range.lowerBound + models.count)) }
        return models
    }

    /// Adds `model` (at source position `position`) to `conversation`, at its start when `first`.
    /// A source gives only messages a conversation takes (unique ids, registered kinds); if a
    /// file changed under the viewer breaks that, the message is shown as missing, never trusted.
    private func add(_ model: any MessageModel, at position: Int, to conversation: Conversation<CellMeasurer>, first: Bool) {
        do {
            if first { try conversation.prepend(model) } else { try conversation.append(model) }
        } catch {
            let missing = MissingMessage(position: position)
            if first { try? conversation.prepend(missing) } else { try? conversation.append(missing) }
        }
    }

    /// Row `row` of the source, from the window (built around it if it does not hold it).
    private func windowRow(_ row: Int) -> ConversationRow {
        if !windowCovers(row, row + 1) { ensureWindow(row, row + 1) }
        return window[row - windowStart]
    }

    /// Lines row `row` takes.
    private func height(ofRow row: Int) -> Int {
        if !windowCovers(row, row + 1) { ensureWindow(row, row + 1) }
        return window.height(ofRow: row - windowStart)
    }

    private var endCache: (key: [Int], value: (row: Int, line: Int))?

    /// The place of the last page: its top message and line. Kept until the log, the size or
    /// the parties change; worked out from a small conversation of the log's end when the window
    /// is elsewhere, so that asking does not move the window.
    public var endPosition: (row: Int, line: Int) {
        guard count > 0 else { return (0, 0) }
        let key = [count, columns, pageHeight, shown.otherParties, section]
        if let endCache, endCache.key == key { return endCache.value }
        let low = max(0, count - pageHeight)
        var heightOf: (Int) -> Int = { self.height(ofRow: $0) }
        var temporary: Conversation<CellMeasurer>?
        if !windowCovers(low, count) {
            let start = max(0, low - 1)
            var options = decoration
            options.otherParties = shown.otherParties
            let end = Conversation(engine: engine, width: columns, options: options)
            // One row a position, as the window has, whatever the source gives.
            for (offset, model) in sourceMessages(start..<count).enumerated() { add(model, at: start + offset, to: end, first: false) }
            heightOf = { end.height(ofRow: $0 - start) }
            temporary = end
        }
        defer {
            if let temporary {
                for row in 0..<temporary.count where !windowValid || window.row(withID: temporary[row].model.id) == nil {
                    engine.forget(id: temporary[row].model.id)
                }
            }
        }
        var row = count - 1
        var above = pageHeight - heightOf(row)
        while above > 0 && row > 0 {
            row -= 1
            above -= heightOf(row)
        }
        let value = above >= 0 ? (row, 0) : (row, -above)
        endCache = (key, value)
        return value
    }

    /// Whether the last line of the log is on screen.
    public var isAtBottom: Bool {
        let end = endPosition
        return (topRow, topLine) >= (end.row, end.line)
    }

    /// The row at the top of the screen, nil when there are no messages.
    public var topRowIfAny: Int? { count > 0 ? topRow : nil }

    public func scrollToEnd() {
        (topRow, topLine) = endPosition
    }

    /// The place `lines` lines below (or above, when negative) `row`/`line`, within the log.
    private func moved(_ row: Int, _ line: Int, by lines: Int) -> (row: Int, line: Int) {
        guard count > 0 else { return (0, 0) }
        var row = row, line = line + lines
        if lines >= 0 {
            while row < count - 1 && line >= height(ofRow: row) {
                line -= height(ofRow: row)
                row += 1
            }
            return (row, min(line, height(ofRow: row) - 1))
        }
        while line < 0 && row > 0 {
            row -= 1
            line += height(ofRow: row)
        }
        return (row, max(0, line))
    }

    /// Moves the top to `row`/`line`, no further than the last page.
    private func setTop(_ row: Int, _ line: Int) {
        let end = endPosition
        (topRow, topLine) = (row, line) > (end.row, end.line) ? end : (row, line)
    }

    /// Replaces the source (the whole log, indexed after its end was shown), in which old
    /// position p is `p + shift`: keeps the message at the top of the screen, or the bottom when
    /// the view was at the bottom.
    public func replaceSource(_ replacement: ViewerSource, shift: Int) {
        let wasAtBottom = isAtBottom
        let oldID = source.sections.flatMap { section < $0.count ? $0.ids[section] : nil }
        let oldTop = count > 0 ? (shown as? SectionSource)?.basePosition(topRow) ?? topRow : 0
        source = replacement
        seenCounts = sectionCounts()
        grewElsewhere = []
        // Its positions are not the old ones: a repeated search goes on from the screen.
        search?.matchedRow = nil
        guard let sections = replacement.sections else {
            showSection(0)
            if wasAtBottom || count == 0 { scrollToEnd() } else { setTop(max(0, min(count - 1, oldTop + shift)), 0) }
            return
        }
        if wasAtBottom || count == 0 {
            // The same conversation, at its end.
            showSection(sections.section(ofConversation: oldID) ?? Self.sectionOfLastMessage(replacement))
            scrollToEnd()
        } else if let place = sections.locate(position: oldTop + shift) {
            showSection(place.section)
            setTop(shownIndex(place.index), 0)
        } else {
            showSection(Self.sectionOfLastMessage(replacement))
            scrollToEnd()
        }
    }

    /// Forgets the window and the end's place (the source's positions now hold other
    /// messages), and takes the source's count.
    private func dropWindow() {
        for row in 0..<window.count { engine.forget(id: window[row].model.id) }
        tallRows = [:]
        count = shown.count
        windowValid = false
        window = Conversation(engine: engine, width: columns, options: decoration)
        windowStart = 0
        endCache = nil
    }

    /// The source was read again from its start (`--follow` on a file truncated, rewritten or
    /// replaced): every position may hold another message now, and there may be fewer. Shows
    /// the end, as `tail -f` does; a search's last match is forgotten.
    public func sourceWasReadAgain() {
        grewElsewhere = []
        seenCounts = sectionCounts()
        showSection(Self.sectionOfLastMessage(source))
        search?.matchedRow = nil
        scrollToEnd()
    }

    /// The source has grown at its end (`--follow`): shows the new messages, scrolling only
    /// when the view was at the bottom.
    public func sourceDidGrow() {
        let counts = sectionCounts()
        for (index, now) in counts.enumerated() where index != section && now > (index < seenCounts.count ? seenCounts[index] : 0) {
            grewElsewhere.insert(index)
        }
        seenCounts = counts
        let header = showsHeader != shownHeader
        guard shown.count != count || header else { return }
        let wasAtBottom = count == 0 || isAtBottom
        // The last shown row may now end a group with a neighbour it did not have before.
        if windowEnd == count { windowValid = false }
        count = shown.count
        // A header line now comes (a second conversation): the pages are a line shorter.
        shownHeader = showsHeader
        if wasAtBottom { scrollToEnd() } else { setTop(topRow, topLine) }
    }

    // MARK: Size

    /// The terminal is now `rows` × `columns`. A width change lays out the window only, from
    /// its prepared texts, keeping the message at the top there (or the bottom when the view
    /// was at the bottom); messages further away are laid out when they are scrolled to.
    public func resize(rows: Int, columns: Int) {
        let newRows = max(2, rows)
        let newColumns = max(1, columns)
        let wasAtBottom = isAtBottom
        if newColumns != self.columns {
            self.columns = newColumns
            window.resize(width: newColumns)
            renderer = makeRenderer(width: newColumns)
            topLine = 0
        }
        self.rows = newRows
        if wasAtBottom { scrollToEnd() } else { setTop(topRow, topLine) }
    }

    private func makeRenderer(width: Int) -> TranscriptRenderer {
        var options = baseOptions
        options.width = width
        return TranscriptRenderer(engine: engine, options: options) { [weak self] id in
            self?.replyPreview(id)
        }
    }

    private func replyPreview(_ id: String) -> String? {
        var model: (any MessageModel)?
        if let row = window.row(withID: id) {
            model = window[row].model
        } else if let position = source.position(ofID: id), position < source.count {
            model = source.messages(in: position..<(position + 1)).first
        }
        guard let model else { return nil }
        var previews = ReplyPreviews(capacity: 1)
        previews.record(model, registry: engine.registry)
        return previews.body(for: id, in: model.conversationID)
    }

    // MARK: Keys

    /// Acts on one key, as `less` would (the keys `ViewerKeyHelp` lists). Digits typed before a
    /// key make a count (shown on the status line while typed) that repeats it: `50j` goes down
    /// 50 lines, `10b` back 10 pages, `3n` to the third match; `g` and `G` with a count go to
    /// that message of the conversation shown, as `less` goes to a line. Any other key drops it.
    public func handle(_ key: ViewerKey) -> ViewerAction {
        switch keyMode {
        case let .searchInput(forward, text): return handleSearchInput(key, forward: forward, text: text)
        case let .help(offset): return handleHelp(key, offset: offset)
        case .normal: break
        }
        if case let .character(character) = key, let digit = character.wholeNumberValue, character.isASCII {
            guard pendingCount != nil || digit != 0 else { return .none }
            // Past seven digits a count only repeats what the log's end stops anyway.
            pendingCount = min(9_999_999, (pendingCount ?? 0) * 10 + digit)
            return .redraw
        }
        let count = pendingCount
        pendingCount = nil
        let times = count ?? 1
        let action = act(on: key, count: count, times: times)
        // The count shown on the status line goes away with the key that used it.
        return count != nil && action == .none ? .redraw : action
    }

    /// A count being typed (the digits before a key), nil when none is.
    public private(set) var pendingCount: Int?

    private func act(on key: ViewerKey, count: Int?, times: Int) -> ViewerAction {
        switch key {
        case .character("q"), .character("Q"), .interrupt: return .quit
        case .suspend: return .suspend
        case .redraw: return .redraw
        case .character("j"), .character("e"), .down, .enter: return scroll(by: times)
        case .character("k"), .character("y"), .up: return scroll(by: -times)
        case .wheelDown: return scroll(by: 3)
        case .wheelUp: return scroll(by: -3)
        case .character(" "), .character("f"), .character("z"), .pageDown: return scroll(by: Self.product(pageHeight, times))
        case .character("b"), .character("w"), .pageUp: return scroll(by: -Self.product(pageHeight, times))
        case .character("d"): return scroll(by: Self.product(max(1, pageHeight / 2), times))
        case .character("u"): return scroll(by: -Self.product(max(1, pageHeight / 2), times))
        case .character("g"), .character("<"), .home:
            if let count { return goToMessage(count) }
            return goToLogStart()
        case .character("G"), .character(">"), .end:
            if let count { return goToMessage(count) }
            return goToLogEnd()
        case .character("/"):
            keyMode = .searchInput(forward: true, text: "")
            return .redraw
        case .character("?"):
            keyMode = .searchInput(forward: false, text: "")
            return .redraw
        case .character("n"), .character("N"):
            var action = ViewerAction.none
            for _ in 0..<times {
                let step = repeatSearch(reverse: key == .character("N"))
                if step != .none { action = step }
                if search?.notFound ?? true { break }
            }
            return action
        case .character("]"): return jumpSection(by: min(times, sectionCount))
        case .character("["): return jumpSection(by: -min(times, sectionCount))
        case .character("h"), .character("H"), .f1:
            keyMode = .help(offset: 0)
            return .redraw
        case .escape:
            guard search != nil else { return .none }
            search = nil
            return .redraw
        default: return .none
        }
    }

    /// `a` × `b`, no further than a count can take the screen.
    private static func product(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max / 2 : min(value, Int.max / 2)
    }

    /// The first message of the log: its first conversation's start.
    private func goToLogStart() -> ViewerAction {
        if section != 0 {
            showSection(0)
            (topRow, topLine) = (0, 0)
            return .redraw
        }
        return scroll(to: 0)
    }

    /// The last page of the log: its last conversation's end.
    private func goToLogEnd() -> ViewerAction {
        if section != sectionCount - 1 {
            showSection(sectionCount - 1)
            scrollToEnd()
            return .redraw
        }
        return scroll(to: Int.max)
    }

    /// Message `number` (from 1) of the conversation shown at the top, or the last page when
    /// it is on it.
    private func goToMessage(_ number: Int) -> ViewerAction {
        guard count > 0 else { return .none }
        return scroll(to: min(count, max(1, number)) - 1, line: 0)
    }

    /// Scrolls by `lines`; at a conversation's end (or start), on into the next one's start (the
    /// previous one's end), so the log reads through with the same keys.
    private func scroll(by lines: Int) -> ViewerAction {
        let target = moved(topRow, topLine, by: lines)
        let action = scroll(to: target.row, line: target.line)
        guard action == .none, lines != 0 else { return action }
        if lines > 0 { return jumpSection(by: 1) }
        guard section > 0 else { return action }
        showSection(section - 1)
        scrollToEnd()
        return .redraw
    }

    private func scroll(to row: Int, line: Int) -> ViewerAction {
        let before = (topRow, topLine)
        setTop(max(0, row), max(0, line))
        return (topRow, topLine) == before ? .none : .redraw
    }

    /// The first or the last page.
    private func scroll(to line: Int) -> ViewerAction {
        line == Int.max ? scroll(to: Int.max, line: 0) : scroll(to: 0, line: 0)
    }

    // MARK: Help

    /// The help screen's lines at the width: a title, then each of `ViewerKeyHelp.bindings`, its
    /// keys in a column and its action beside them, wrapped at spaces when narrow.
    func helpLines() -> [String] {
        var lines = [safe.draw("Keys of bubbles view (q or any other key returns to the log)", limit: columns).text, ""]
        let bindings = ViewerKeyHelp.bindings
        let keyWidth = min(bindings.map { safe.width(of: $0.keys) }.max() ?? 0, max(4, columns / 2))
        let actionRoom = max(8, columns - keyWidth - 4)
        for binding in bindings {
            let keys = safe.draw(binding.keys, limit: keyWidth)
            var first = "  " + keys.text + String(repeating: " ", count: max(0, keyWidth - keys.width)) + "  "
            var words = binding.action.split(separator: " ")[...]
            var line = ""
            var wrapped: [String] = []
            while let word = words.popFirst() {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if !line.isEmpty && safe.width(of: candidate) > actionRoom {
                    wrapped.append(line)
                    line = String(word)
                } else {
                    line = candidate
                }
            }
            wrapped.append(line)
            let indent = String(repeating: " ", count: keyWidth + 4)
            for (index, part) in wrapped.enumerated() {
                let text = (index == 0 ? first : indent) + part
                lines.append(safe.draw(text, limit: columns).text)
                first = ""
            }
        }
        return lines
    }

    /// Lines of help on a screen (all rows but the status line).
    private var helpPage: Int { max(1, rows - 1) }

    /// On the help screen: the scrolling keys move it when it is taller than the screen; any
    /// other key (q, h, Esc included) returns to the log, as `less`'s help does.
    private func handleHelp(_ key: ViewerKey, offset: Int) -> ViewerAction {
        let last = max(0, helpLines().count - helpPage)
        var target: Int?
        switch key {
        case .character("j"), .character("e"), .down, .enter, .wheelDown: target = offset + (key == .wheelDown ? 3 : 1)
        case .character("k"), .character("y"), .up, .wheelUp: target = offset - (key == .wheelUp ? 3 : 1)
        case .character(" "), .character("f"), .pageDown: target = offset + helpPage
        case .character("b"), .pageUp: target = offset - helpPage
        case .suspend: return .suspend
        case .interrupt: return .quit
        case .redraw: return .redraw
        default: break
        }
        guard last > 0, let target else {
            keyMode = .normal
            return .redraw
        }
        keyMode = .help(offset: max(0, min(last, target)))
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

    /// Brings the next match into view: the next line showing the query, in the row at the top
    /// (below the top line; a message may be taller than the screen) and then in the messages
    /// after it (or, backwards, above the top line and then before it), as `less` searches by
    /// line. A repeat (`n`, `N`) goes on from the match last found while it is still on screen:
    /// on a conversation's last page a match cannot reach the top, and going on from the top
    /// line would find it again and again. A message that holds the query where no drawn line
    /// shows it whole (a match wrapped across lines, a name not drawn in a group) is found at
    /// its first line.
    private func find(forward: Bool, fromCurrent: Bool) -> ViewerAction {
        guard var state = search else { return .none }
        let matcher = SearchMatcher(state.query, options: engine.texts.measurer.options)
        var found: (row: Int, line: Int)?
        if count > 0 {
            var anchor = (row: topRow, line: topLine)
            if fromCurrent, let row = state.matchedRow, state.matchedSection == section, row >= topRow, row <= lastRowOnScreen() {
                anchor = (row, state.matchedLine)
            }
            let lines = matchingLines(ofRow: anchor.row, matcher)
            let within = forward ? lines.first { fromCurrent ? $0 > anchor.line : $0 >= anchor.line } : lines.last { $0 < anchor.line }
            if let line = within {
                found = (anchor.row, line)
            } else {
                let start = forward ? anchor.row + 1 : anchor.row - 1
                if start >= 0 && start < count,
                   let row = shown.find(from: start, forward: forward, query: matcher, matches: { self.modelMatches($0, matcher) }), row < count {
                    found = (row, matchLine(ofRow: row, matcher, forward: forward))
                }
            }
        }
        if found == nil, let place = findInOtherSections(forward: forward, matcher: matcher) {
            showSection(place.section)
            let index = shownIndex(place.index)
            found = (index, matchLine(ofRow: index, matcher, forward: forward))
        }
        state.notFound = found == nil
        if let found {
            state.matchedRow = found.row
            state.matchedLine = found.line
            state.matchedSection = section
            // The message's start when the match is on its first page, else the match's line.
            setTop(found.row, found.line < pageHeight ? 0 : found.line)
        }
        search = state
        return .redraw
    }

    /// The lines of row `row`, as drawn, that show the query.
    private func matchingLines(ofRow row: Int, _ matcher: SearchMatcher) -> [Int] {
        drawRow(row).enumerated().compactMap { matcher.isShown(in: $0.element) ? $0.offset : nil }
    }

    /// The first (or, backwards, the last) line of row `row` showing the query; its first line
    /// when none shows it whole.
    private func matchLine(ofRow row: Int, _ matcher: SearchMatcher, forward: Bool) -> Int {
        let lines = matchingLines(ofRow: row, matcher)
        return (forward ? lines.first : lines.last) ?? 0
    }

    /// The last row with a line on screen.
    private func lastRowOnScreen() -> Int {
        guard count > 0 else { return 0 }
        var row = topRow
        var lines = height(ofRow: row) - topLine
        while lines < pageHeight && row < count - 1 {
            row += 1
            lines += height(ofRow: row)
        }
        return row
    }

    /// The nearest match in the conversations after the one shown (or, backwards, before it):
    /// the first match of the next conversation holding one (the last of the previous). One
    /// pass over the source, which restarts after each match found in a conversation further
    /// than the best so far.
    private func findInOtherSections(forward: Bool, matcher: SearchMatcher) -> (section: Int, index: Int)? {
        guard let sections = source.sections, sections.count > 1 else { return nil }
        let total = source.count
        var best: (section: Int, position: Int)?
        var from = forward ? 0 : total - 1
        while from >= 0 && from < total {
            var matchedSection = -1
            let bound = best?.section
            let found = source.find(from: from, forward: forward, query: matcher) { model in
                guard self.modelMatches(model, matcher), let other = sections.section(ofConversation: model.conversationID) else { return false }
                let wanted = forward ? other > self.section && other < (bound ?? Int.max) : other < self.section && other > (bound ?? -1)
                if wanted { matchedSection = other }
                return wanted
            }
            guard let found, found < total, matchedSection >= 0 else { break }
            best = (matchedSection, found)
            if matchedSection == section + (forward ? 1 : -1) { break }
            from = found + (forward ? 1 : -1)
        }
        guard let best, let index = sections.index(ofPosition: best.position, inSection: best.section) else { return nil }
        return (best.section, index)
    }

    /// Whether the sender's name, the text (caption, notice) or the file name of `model` holds
    /// the query.
    func modelMatches(_ model: any MessageModel, _ matcher: SearchMatcher) -> Bool {
        if let name = model.senderName, matcher.matches(name) { return true }
        guard let index = try? engine.registry.index(for: model) else { return false }
        let content = engine.registry.configurators[index].content(model)
        if let text = content.text, matcher.matches(text) { return true }
        if let image = content.image, matcher.matches(image.name) { return true }
        return false
    }

    // MARK: Frame

    /// The screen: `rows` lines, the last the status line. Lines hold our own escapes only:
    /// the renderer's colours, reverse video on search matches and on the status line.
    public func frame() -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(rows)
        if case let .help(offset) = keyMode {
            let help = helpLines()
            lines = Array(help.dropFirst(offset).prefix(helpPage))
            while lines.count < helpPage { lines.append("") }
            let more = offset + helpPage < help.count ? " │ more below: j, space" : ""
            let text = safe.draw(" HELP │ q returns to the log" + more, limit: columns)
            lines.append("\u{1B}[7m" + text.text + String(repeating: " ", count: max(0, columns - text.width)) + "\u{1B}[27m")
            return lines
        }
        if headerLines > 0 { lines.append(headerLine()) }
        if count > 0 {
            var row = topRow
            var skip = topLine
            while lines.count < headerLines + pageHeight && row < count {
                let room = headerLines + pageHeight - lines.count
                let drawn = drawRow(row, only: skip..<(skip + room))
                if skip < drawn.count { lines += drawn[skip...].prefix(room) }
                skip = 0
                row += 1
            }
        }
        if let search, !search.query.isEmpty {
            let matcher = SearchMatcher(search.query, options: engine.texts.measurer.options)
            lines = lines.enumerated().map { $0.offset < headerLines ? $0.element : matcher.highlight($0.element) }
        }
        while lines.count < headerLines + pageHeight { lines.append("") }
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

    /// The lines of source row `row` (its date separator, then its message); the window must
    /// hold it.
    /// A row taller than the screen is drawn, for a frame (`only`: the row's lines it shows),
    /// only in those lines, the others left empty: a page of a long message costs a page. Drawn
    /// whole (a search reads every line), it is kept (the last few such rows), so that is done
    /// once.
    func drawRow(_ row: Int, only: Range<Int>? = nil) -> [String] {
        let entry = windowRow(row)
        let messageRow = entry.messageRow(messageIndex: row)
        var key: TallRowKey?
        if entry.height > pageHeight, let only {
            var lines: [String] = []
            if let separatorRow = entry.separatorRow(at: row), let layout = entry.dateSeparator {
                lines += renderer.lines(for: separatorRow, model: nil, layout: layout)
            }
            let shift = lines.count
            lines += renderer.lines(for: messageRow, model: entry.model, layout: entry.layout,
                                    only: max(0, only.lowerBound - shift)..<max(0, only.upperBound - shift))
            return lines
        }
        if entry.height > pageHeight {
            let tall = TallRowKey(id: entry.model.id, revision: entry.model.revision, section: section, row: row, columns: columns,
                                  message: messageRow, layout: entry.layout, separator: entry.dateSeparator)
            if let lines = tallRows[tall] { return lines }
            key = tall
            tallRowsDrawnWhole += 1
        }
        rowsDrawn += 1
        var lines: [String] = []
        if let separatorRow = entry.separatorRow(at: row), let layout = entry.dateSeparator {
            lines += renderer.lines(for: separatorRow, model: nil, layout: layout)
        }
        lines += renderer.lines(for: messageRow, model: entry.model, layout: entry.layout)
        if let key {
            if tallRows.count >= 4 { tallRows.removeAll() }
            tallRows[key] = lines
        }
        return lines
    }

    /// Rows drawn whole so far, and those of them taller than the screen (a test reads them: a
    /// tall message is drawn a page at a time, and whole at most once).
    public private(set) var rowsDrawn = 0
    public private(set) var tallRowsDrawnWhole = 0
    /// The lines of the tall rows drawn last, by what they were drawn from.
    private var tallRows: [TallRowKey: [String]] = [:]

    /// Everything a row's lines are drawn from (the renderer's options are the screen's own).
    private struct TallRowKey: Hashable {
        let id: String
        let revision: Int
        let section: Int
        let row: Int
        let columns: Int
        let message: DecoratedRow
        let layout: RowLayout
        let separator: RowLayout?
    }

    /// `…/exports/chat.jsonl │ Wed 1 May 2024 │ message 12 of 340 │ /search`, in reverse video,
    /// one line: the message at the top of the screen and its date, or at the bottom (`(END)`)
    /// the last message, which is then the one on screen the count is about (as `less` counts to
    /// the bottom line). Counts are grouped as everywhere else (`1,234`); a count being typed
    /// shows at the end (`:50`). What does not fit goes, least useful first: the date, then the
    /// note; the title is shortened from its start (`titleText(limit:)`), never dropped.
    func statusLine() -> String {
        var day: String?
        var position = "no messages"
        let atBottom = isAtBottom
        if count > 0 {
            let shown = atBottom ? count - 1 : topRow
            ensureWindow(topRow, shown + 1)
            day = windowRow(shown).day.label
            position = "message \(NumberText.grouped(shown + 1)) of \(NumberText.grouped(count))"
        }
        var searchText: String?
        if case let .searchInput(forward, text) = keyMode {
            searchText = (forward ? "/" : "?") + safe.draw(text, limit: max(1, columns / 3)).text + "▏"
        } else if let search {
            let query = safe.draw(search.query, limit: max(1, columns / 4)).text
            searchText = (search.forward ? "/" : "?") + query + (search.notFound ? " (not found)" : "")
        }
        let said = [notice, self.note].compactMap { $0 }.joined(separator: "; ")
        var elsewhere: String?
        if let first = grewElsewhere.min() {
            // Under --follow: new messages in conversations not shown.
            let name = source.sections.flatMap { first < $0.count ? $0.ids[first] : nil } ?? "(no conversation named)"
            elsewhere = grewElsewhere.count == 1 ? "new in " + safe.draw(name, limit: max(1, columns / 5)).text
                : "new in \(grewElsewhere.count) conversations"
        }
        /// What is said, drawn in about `limit` cells.
        func noteText(_ limit: Int) -> String? {
            guard !said.isEmpty || elsewhere != nil else { return nil }
            let tail = elsewhere.map { (said.isEmpty ? "" : ", ") + $0 } ?? ""
            let head = said.isEmpty ? "" : safe.draw(said, limit: max(1, limit - safe.width(of: tail))).text
            return head + tail
        }
        var note = noteText(max(1, columns / 2))
        let end = atBottom ? "(END)" : nil
        let typed = pendingCount.map { ":" + String($0) }
        func rest() -> String {
            [day, position, searchText, note, end, typed].compactMap { $0 }.joined(separator: " │ ")
        }
        // The title takes what the rest leaves; the date and then the note go while that is
        // less than the file name needs (`…/name`, or a third of the line for a long name).
        let fileName = title.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(title)
        let wanted = min(titleWidth, max(8, min(columns / 3, safe.width(of: fileName) + 2)))
        var room = columns - 4 - safe.width(of: rest())
        if room < wanted {
            day = nil
            room = columns - 4 - safe.width(of: rest())
        }
        if room < wanted, note != nil {
            // The note, cut to what is left when that is enough to read, else gone.
            note = nil
            let left = columns - 4 - safe.width(of: rest()) - 3 - wanted
            if left >= 12 { note = noteText(left) }
            room = columns - 4 - safe.width(of: rest())
        }
        let title = titleText(limit: max(min(wanted, columns - 2), room))
        let drawn = safe.draw(" " + title + " │ " + rest(), limit: columns)
        let padding = max(0, columns - drawn.width)
        return "\u{1B}[7m" + drawn.text + String(repeating: " ", count: padding) + "\u{1B}[27m"
    }

    /// Cells the whole title takes.
    private var titleWidth: Int { safe.width(of: title) }

    /// The title (a path) in at most `limit` cells, drawn safe: whole when it fits, else
    /// shortened from its start, a folder at a time (`…/exports/chat.txt`), so the file name
    /// stays; a file name wider than `limit` by itself keeps its end (`…t-export.txt`).
    func titleText(limit: Int) -> String {
        let limit = max(1, limit)
        if safe.width(of: title) <= limit { return safe.draw(title, limit: limit).text }
        let parts = title.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > 1 {
            for start in 1..<parts.count {
                let candidate = "…/" + parts[start...].joined(separator: "/")
                if safe.width(of: candidate) <= limit { return safe.draw(candidate, limit: limit).text }
            }
        }
        // The file name alone is too wide: its last graphemes, as many as fit after the "…".
        let name = Array(parts.last ?? Substring(title))
        var low = 0, high = name.count  // drop `low` graphemes at least, `high` at most
        while low < high {
            let middle = (low + high) / 2
            if safe.width(of: "…" + String(name[middle...])) <= limit { high = middle } else { low = middle + 1 }
        }
        return safe.draw("…" + String(name[low...]), limit: limit).text
    }
}

/// Stands in a message the source no longer gives (its file changed under the viewer).
private struct MissingMessage: SystemMessageModel {
    let position: Int
    /// Starts with a noncharacter (U+10FFFE), which no exporter writes into an id.
    var id: String { "\u{10FFFE}missing-\(position)" }
    var direction: MessageDirection { .incoming }
    var date: Date { Date(timeIntervalSince1970: 0) }
    var notice: String { "this message is no longer in the file" }
}

/// A search: what was typed, which way, and what it found.
public struct ViewerSearch: Hashable, Sendable {
    public var query: String
    public var forward: Bool
    public var matchedRow: Int?
    /// The line of `matchedRow` that shows the match (0 when no line shows it whole).
    public var matchedLine = 0
    /// The conversation (section) `matchedRow` is in.
    public var matchedSection = 0
    public var notFound = false

    public init(query: String, forward: Bool) {
        self.query = query
        self.forward = forward
    }
}
