import BubbleLayout
import BubbleText
import Foundation

// Keys: counts, scrolling, jumps.
extension ViewerScreen {
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
}
