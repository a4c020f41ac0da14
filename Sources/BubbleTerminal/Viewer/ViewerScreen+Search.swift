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
    /// as drawn. In a row taller than the screen, its text is read for the places where a line
    /// can show the query (`TextLineSearch`), and only the lines there are drawn, a page at a
    /// time (with the row's lines around its text): a search through a very tall message that
    /// does not show the query draws none of its text lines, and one that does draws about a
    /// page to land on it. Where the text cannot be read so, the row is drawn a block of lines
    /// at a time (`drawnMatchingLine`). Either way the line found is the one reading every
    /// line as drawn would find.
    func matchingLine(ofRow row: Int, in range: Range<Int>, forward: Bool, _ matcher: SearchMatcher) -> Int? {
        let height = height(ofRow: row)
        let range = range.clamped(to: 0..<height)
        guard !range.isEmpty else { return nil }
        if height > pageHeight, let found = searchableText(ofRow: row),
           let search = TextLineSearch(matcher, text: found.text.prepared.text, chrome: found.text.chrome,
                                       options: engine.texts.measurer.options) {
            return matchingLine(ofRow: row, in: range, forward: forward, matcher, text: found.text, at: found.shift + found.text.first,
                                search: search)
        }
        return drawnMatchingLine(ofRow: row, in: range, forward: forward, matcher)
    }

    /// The text lines of row `row` for a search (`TranscriptRenderer.searchableText`), with the
    /// lines of its date separator before them (`drawRow` draws those first).
    private func searchableText(ofRow row: Int) -> (shift: Int, text: SearchableText)? {
        let entry = windowRow(row)
        let shift = entry.separatorRow(at: row) != nil ? (entry.dateSeparator?.height ?? 0) : 0
        guard let text = renderer.searchableText(for: entry.messageRow(messageIndex: row), model: entry.model, layout: entry.layout)
        else { return nil }
        return (shift, text)
    }

    /// `matchingLine` through the text lines of `part` (from row line `first` on): the row's
    /// other lines drawn and read, and of the text lines only those from a line holding a place
    /// `search` finds, a page of them at a time.
    private func matchingLine(ofRow row: Int, in range: Range<Int>, forward: Bool, _ matcher: SearchMatcher,
                              text part: SearchableText, at first: Int, search: TextLineSearch) -> Int? {
        let textLines = first..<(first + part.count)
        let before = range.clamped(to: 0..<textLines.lowerBound), after = range.clamped(to: textLines.upperBound..<Int.max)
        let inText = range.clamped(to: textLines)
        /// The first (last) line at `lines` (row lines) that shows the query, drawn.
        func shown(_ lines: Range<Int>) -> Int? {
            guard !lines.isEmpty else { return nil }
            let drawn = drawRow(row, only: lines)
            let shows = { (index: Int) in matcher.isShown(in: drawn[index]) }
            return (forward ? drawn.indices.first(where: shows) : drawn.indices.last(where: shows)).map { lines.lowerBound + $0 }
        }
        let prepared = part.prepared, width = part.wrapWidth
        /// The UTF-8 range of text line `line`; nil past the text's last line.
        func utf8Range(ofLine line: Int) -> Range<Int>? {
            prepared.lines(width: width, in: line..<(line + 1), index: part.index).first?.utf8Range
        }
        let page = max(1, pageHeight)
        // Text lines, numbered from the text's first.
        let low = inText.lowerBound - first, high = inText.upperBound - first
        if forward {
            if let line = shown(before) { return line }
            if !inText.isEmpty, var offset = utf8Range(ofLine: low)?.lowerBound {
                while let place = search.next(from: offset),
                      let line = prepared.line(atUTF8Offset: place, width: width, index: part.index)?.line, line < high {
                    let block = max(line, low)..<min(high, max(line, low) + page)
                    if let found = shown((first + block.lowerBound)..<(first + block.upperBound)) { return found }
                    guard let next = utf8Range(ofLine: block.upperBound)?.lowerBound else { break }
                    offset = next
                }
            }
            return shown(after)
        }
        if let line = shown(after) { return line }
        if !inText.isEmpty {
            var end = utf8Range(ofLine: high - 1)?.upperBound ?? prepared.text.utf8.count
            while let place = search.previous(before: end),
                  let line = prepared.line(atUTF8Offset: place, width: width, index: part.index)?.line, line >= low {
                let top = min(line, high - 1)
                let block = max(low, top - page + 1)..<(top + 1)
                if let found = shown((first + block.lowerBound)..<(first + block.upperBound)) { return found }
                guard block.lowerBound > low, let start = utf8Range(ofLine: block.lowerBound)?.lowerBound else { break }
                end = min(start, place)
            }
        }
        return shown(before)
    }

    /// `matchingLine` by drawing the row at `range` a block of lines at a time (all of it for a
    /// row no taller than the screen), so a search through a very tall message holds a block,
    /// never the message drawn whole.
    func drawnMatchingLine(ofRow row: Int, in range: Range<Int>, forward: Bool, _ matcher: SearchMatcher) -> Int? {
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
