import BubbleLayout
import BubbleText
import Foundation

// The conversations of a log of several, each shown as a section of its own.
extension ViewerScreen {
    /// Conversations in the source (1 when it has no sections).
    public var sectionCount: Int { max(1, source.sections?.count ?? 1) }

    /// Whether a header names the conversation: the log holds several, or its one conversation
    /// has a name.
    public var showsHeader: Bool {
        guard let sections = source.sections else { return false }
        return sections.count > 1 || (sections.count == 1 && sections.ids[0] != nil)
    }

    func sectionCounts() -> [Int] {
        guard let sections = source.sections else { return [] }
        return (0..<sections.count).map { sections.count(ofSection: $0) }
    }

    /// The header's lines: none on a terminal too short for it and a line of messages.
    var headerLines: Int { shownHeader && rows >= 3 ? 1 : 0 }

    /// The section holding the source's last message (where the log's latest activity is).
    static func sectionOfLastMessage(_ source: ViewerSource) -> Int {
        guard let sections = source.sections, sections.total > 0 else { return 0 }
        return sections.locate(position: sections.total - 1)?.section ?? 0
    }

    /// Shows section `index` of the source (its window laid out afresh); the place is left to
    /// the caller.
    func showSection(_ index: Int) {
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
    func shownIndex(_ index: Int) -> Int {
        (shown as? SectionSource)?.index(ofListIndex: index) ?? index
    }

    /// Goes to the first message of the next (`step` 1) or previous (-1) conversation.
    func jumpSection(by step: Int) -> ViewerAction {
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
}
