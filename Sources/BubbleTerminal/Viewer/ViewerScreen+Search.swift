import BubbleLayout
import BubbleText
import Foundation

// Search: typing a query, finding the next match, in the conversation shown and the others.
extension ViewerScreen {
    func handleSearchInput(_ key: ViewerKey, forward: Bool, text: String) -> ViewerAction {
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

    func repeatSearch(reverse: Bool) -> ViewerAction {
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
            let within = forward
                ? matchingLine(ofRow: anchor.row, in: (fromCurrent ? anchor.line + 1 : anchor.line)..<Int.max, forward: true, matcher)
                : matchingLine(ofRow: anchor.row, in: 0..<anchor.line, forward: false, matcher)
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

    /// The first (or, backwards, the last) line of row `row` at `range` that shows the query,
    /// as drawn. A row taller than the screen is drawn a block of lines at a time, so a search
    /// through a very tall message holds a block, never the message drawn whole.
    private func matchingLine(ofRow row: Int, in range: Range<Int>, forward: Bool, _ matcher: SearchMatcher) -> Int? {
        let height = height(ofRow: row)
        let range = range.clamped(to: 0..<height)
        guard !range.isEmpty else { return nil }
        let block = height > pageHeight ? max(pageHeight, 512) : height
        var low = forward ? range.lowerBound : max(range.lowerBound, range.upperBound - block)
        while low < range.upperBound && low >= range.lowerBound {
            let part = low..<min(range.upperBound, low + block)
            let lines = drawRow(row, only: part)
            let shown = { (index: Int) in matcher.isShown(in: lines[index]) }
            if let index = forward ? lines.indices.first(where: shown) : lines.indices.last(where: shown) {
                return part.lowerBound + index
            }
            if forward {
                low = part.upperBound
            } else {
                guard low > range.lowerBound else { break }
                low = max(range.lowerBound, low - block)
            }
        }
        return nil
    }

    /// The first (or, backwards, the last) line of row `row` showing the query; its first line
    /// when none shows it whole.
    private func matchLine(ofRow row: Int, _ matcher: SearchMatcher, forward: Bool) -> Int {
        matchingLine(ofRow: row, in: 0..<Int.max, forward: forward, matcher) ?? 0
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
