import BubbleLayout
import BubbleText
import Foundation

// The frame: the header, the rows drawn, the status line.
extension ViewerScreen {
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
                lines += drawRow(row, only: skip..<(skip + room))
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

    /// The lines of source row `row` (its date separator, then its message) at `only` (all of
    /// them when nil); the window must hold it. A row taller than the screen is wrapped and drawn
    /// only at `only` (`TranscriptRenderer.lines(for:…only:)`): a page of a long message costs a
    /// page, wherever it is in the message, and the message is never drawn whole.
    func drawRow(_ row: Int, only: Range<Int>? = nil) -> [String] {
        let entry = windowRow(row)
        let messageRow = entry.messageRow(messageIndex: row)
        var lines: [String] = []
        if let separatorRow = entry.separatorRow(at: row), let layout = entry.dateSeparator {
            lines += renderer.lines(for: separatorRow, model: nil, layout: layout)
        }
        guard let only, entry.height > pageHeight else {
            rowsDrawn += 1
            lines += renderer.lines(for: messageRow, model: entry.model, layout: entry.layout)
            return only.map { Array(lines[$0.clamped(to: 0..<lines.count)]) } ?? lines
        }
        let shift = lines.count
        let part = only.clamped(to: 0..<shift).map { lines[$0] }
            + renderer.lines(for: messageRow, model: entry.model, layout: entry.layout,
                             only: max(0, only.lowerBound - shift)..<max(0, only.upperBound - shift))
        tallRowLinesDrawn += part.count
        return part
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
