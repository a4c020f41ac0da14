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
///
/// This file holds the state and the size; each aspect has a file of its own:
/// `ViewerScreen+Window` (the window and the screen's place), `+Sections`, `+Keys`, `+Help`,
/// `+Search` and `+Drawing` (the frame and the status line).
public final class ViewerScreen {
    /// The messages, by position.
    package internal(set) var source: ViewerSource
    /// The messages shown: the conversation `section` of `source`, or `source` itself when it
    /// has no sections.
    package internal(set) var shown: ViewerSource
    /// The conversation shown (an index into `source.sections`).
    public internal(set) var section = 0
    /// Lays out the window (its cache holds the window's layouts only: rows leaving the window
    /// are forgotten).
    package let engine: LayoutEngine<CellMeasurer>
    /// Shown in the status line: the file, neutralised when drawn.
    public let title: String
    public private(set) var rows: Int
    public private(set) var columns: Int
    /// The message at the top of the screen (0 when there is none), and its first line shown.
    public internal(set) var topRow = 0
    public internal(set) var topLine = 0
    /// Messages in the source as the screen last saw it (`sourceDidGrow()` looks again).
    public internal(set) var count: Int
    /// The laid-out window: source positions `windowStart ..< windowStart + window.count`.
    public internal(set) var window: Conversation<CellMeasurer>
    public internal(set) var windowStart = 0
    /// Windows laid out so far (a test and the bench read it).
    public internal(set) var windowsBuilt = 0
    /// Times the window was moved by adding and dropping messages at its edges.
    public internal(set) var windowsSlid = 0
    var windowValid = false
    /// The other parties the window's rows were decorated for (names show when over one).
    var windowParties = 0
    /// What the status line says besides the position (loading, rejected records, following).
    public var note: String?
    /// What reading the log said on opening (a guess about its dates, the time zone used), shown
    /// on the status line before `note` while the viewer runs.
    public var notice: String?

    let baseOptions: RenderOptions
    let decoration: DecorationOptions
    var renderer: TranscriptRenderer
    let safe: SafeText
    var keyMode = KeyMode.normal
    /// The last search: its text, direction and outcome.
    public internal(set) var search: ViewerSearch?

    /// Conversations other than the one shown that got messages (`--follow`) since they were
    /// last shown: the status line says so.
    public internal(set) var grewElsewhere: Set<Int> = []
    /// Each section's count when the source was last looked at.
    var seenCounts: [Int] = []
    /// Whether the pages were last worked out with a header line (`sourceDidGrow` looks again).
    var shownHeader = false
    /// The last page's place, and the count, size, parties and section it was worked out for
    /// (`endPosition`).
    var endCache: (key: [Int], value: (row: Int, line: Int))?
    /// A count being typed (the digits before a key), nil when none is.
    public internal(set) var pendingCount: Int?
    /// Rows drawn whole so far, and lines drawn of rows taller than the screen, which are drawn
    /// only in part (a test reads them: a tall message is drawn a page at a time, never whole).
    public internal(set) var rowsDrawn = 0
    package internal(set) var tallRowLinesDrawn = 0

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
    package init(source: ViewerSource, engine: LayoutEngine<CellMeasurer>, decoration: DecorationOptions = DecorationOptions(),
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
        if let row = window.index(ofID: id) {
            model = window[message: row].model
        } else if let position = source.position(ofID: id), position < source.count {
            model = source.messages(in: position..<(position + 1)).first
        }
        guard let model else { return nil }
        var previews = ReplyPreviews(capacity: 1)
        previews.record(model, registry: engine.registry)
        return previews.body(for: id, in: model.conversationID)
    }
}
