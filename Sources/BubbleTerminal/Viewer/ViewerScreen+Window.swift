import BubbleLayout
import BubbleText
import Foundation

// The window of laid-out messages around the screen, and the screen's place in the source.
extension ViewerScreen {
    /// The window's last position, exclusive.
    private var windowEnd: Int { windowStart + window.messageCount }

    /// Whether the window lays out `low..<high` with every one of them decorated from its real
    /// neighbours (a neighbour in the window, or none in the source).
    private func windowCovers(_ low: Int, _ high: Int) -> Bool {
        windowValid && windowParties == shown.otherParties && (low > windowStart || windowStart == 0) && (high < windowEnd || windowEnd == count)
            && low >= windowStart && high <= windowEnd
    }

    /// Makes the window lay out `low..<high` (clamped to the source), with room on either side.
    func ensureWindow(_ low: Int, _ high: Int) {
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
        for row in 0..<window.messageCount {
            let id = window[message: row].model.id
            if rebuilt.index(ofID: id) == nil { engine.forget(id: id) }
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
            if window.messageCount > 3 * (keepEnd - keepStart) / 2 {
                let leaving = Array(0..<(keepStart - windowStart)) + Array((keepEnd - windowStart)..<window.messageCount)
                let ids = leaving.map { window[message: $0].model.id }
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
    func windowRow(_ row: Int) -> ConversationRow {
        if !windowCovers(row, row + 1) { ensureWindow(row, row + 1) }
        return window[message: row - windowStart]
    }

    /// Lines row `row` takes.
    func height(ofRow row: Int) -> Int {
        if !windowCovers(row, row + 1) { ensureWindow(row, row + 1) }
        return window.height(ofMessage: row - windowStart)
    }

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
            heightOf = { end.height(ofMessage: $0 - start) }
            temporary = end
        }
        defer {
            if let temporary {
                for row in 0..<temporary.messageCount where !windowValid || window.index(ofID: temporary[message: row].model.id) == nil {
                    engine.forget(id: temporary[message: row].model.id)
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
    func moved(_ row: Int, _ line: Int, by lines: Int) -> (row: Int, line: Int) {
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
    func setTop(_ row: Int, _ line: Int) {
        let end = endPosition
        (topRow, topLine) = (row, line) > (end.row, end.line) ? end : (row, line)
    }

    /// Replaces the source (the whole log, indexed after its end was shown), in which old
    /// position p is `p + shift`: keeps the message at the top of the screen, or the bottom when
    /// the view was at the bottom.
    package func replaceSource(_ replacement: ViewerSource, shift: Int) {
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
    func dropWindow() {
        for row in 0..<window.messageCount { engine.forget(id: window[message: row].model.id) }
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
