import BubbleText
import Dispatch
import Foundation

/// A live conversation: its messages in order, their decorations, and their heights at the
/// current width in a `Timeline`, kept up to date change by change.
///
/// Each change lays out only the rows whose inputs changed: the message itself, and a neighbour
/// whose decoration the change altered (it now opens or closes a group, gains or loses its name
/// line, its footer or the date separator above it). Every other row keeps its layout and its
/// height in the timeline, which updates in O(log n) per row. One exception is inherent: when the
/// number of other parties is counted (not given in the options: `PartyWindow`, over the first 32
/// rows) and a change takes it across one, every group's first incoming row gains or loses its
/// name line; then every row's decoration is recomputed (arithmetic) and only the rows whose
/// decoration changed are laid out.
///
/// Its rows are what a table view lists, and what `bubbles heights` prints: each message, and
/// above each day's first message its date separator, a row of its own. `messageIndex(ofRow:)`
/// and `row(ofMessage:)` map rows and messages both ways; ids name messages. Every query by row
/// (`height(ofRow:)`, `frame(ofRow:)`, `row(atOffset:)`) is O(log n). `resize(width:)` lays every
/// row out again from the prepared texts the rows keep: no Unicode work, no prepared-text store
/// lookups.
///
/// Heights are in the unit of the conversation's measurer: terminal rows for a `CellMeasurer`
/// (`init(width:style:registry:options:)`), LayoutUnits (1/64 px) for a
/// `PixelTextMeasurer` such as BubbleFonts' `PixelLayoutMeasurer`
/// (`init(measurer:style:width:registry:options:)`); frames are in the same unit. Widths are the
/// measurer's (cells, or whole px). Every question and change is the same either way.
///
/// Layouts go through the engine's shared `LayoutCache`. Not `Sendable`: one task owns it.
public final class Conversation<Measurer: TextMeasurer> {
    /// The engine laying rows out (its cache is shared with whoever else uses it).
    package let engine: LayoutEngine<Measurer>
    /// How rows are decorated from their neighbours.
    package let options: DecorationOptions
    /// The container width every row is laid out at.
    package internal(set) var width: Int

    /// Rows in order: each element is an index into `entries`.
    var timeline = Timeline<Int32>()
    /// The rows' state, in no particular order (so it never moves when rows are added in front or
    /// removed); `free` lists unused entries.
    var entries: ContiguousArray<ConversationEntry> = []
    /// Each entry's prepared texts, by entry index.
    var texts: ContiguousArray<RowTexts<Measurer.Prepared>> = []
    private var free: [Int32] = []
    private var entryByID: [String: Int32] = [:]
    /// Each entry's timeline slot, valid while the timeline's `layoutEpoch` is `indexedEpoch`.
    private var slotOfEntry: [Int] = []
    private var indexedEpoch = -1
    /// Other parties among the first `PartyWindow.size` rows (see `recountParties`).
    private var countedParties = 0
    private var clock: ZoneClock
    private var labelMetrics: [CalendarDay: TextMetrics] = [:]

    /// The ids of the messages the last change laid out (from the cache or afresh), in the order it
    /// did so. Empty after `resize(width:)`, which lays out every row.
    package internal(set) var lastLaidOut: [String] = []
    /// Row layouts looked up or computed for messages since creation.
    package internal(set) var layoutsRequested = 0
    /// Of those, the ones the cache did not have (computed by a cell).
    package internal(set) var layoutsComputed = 0

    /// A message's row and its separator's (nil without one) in pixels, from their layouts, the
    /// content and the prepared texts, for rows whose heights are not the layouts' own: the one
    /// measure of a row this conversation uses (its heights, `pixelRow(ofRow:)`).
    let measuredRows: MeasuredRows?
    typealias MeasuredRows = @Sendable (_ layout: RowLayout, _ separator: RowLayout?, _ content: BubbleContent,
                                        _ texts: RowTexts<Measurer.Prepared>) -> (row: PixelRow, separator: PixelRow?)

    /// The style of rows in pixels (nil for rows in cells): frames take their bubbles' widths
    /// from it and are in LayoutUnits.
    let pixelStyle: PixelStyle?

    /// An empty conversation laid out at `width` by `engine`; heights are the layouts' own (for an
    /// engine in terminal cells: rows).
    package convenience init(engine: LayoutEngine<Measurer>, width: Int, options: DecorationOptions = DecorationOptions()) {
        self.init(engine: engine, width: width, options: options, measuredRows: nil)
    }

    init(engine: LayoutEngine<Measurer>, width: Int, options: DecorationOptions, pixelStyle: PixelStyle? = nil,
         measuredRows: MeasuredRows?) {
        self.pixelStyle = pixelStyle
        self.engine = engine
        self.options = options
        self.width = width
        self.clock = ZoneClock(timeZone: options.timeZone, style: options.clock)
        self.measuredRows = measuredRows
    }

    // MARK: Rows: date separators and messages, in order

    /// Rows in the conversation: each message, and above each day's first message its date
    /// separator. This is what a table view lists (one cell per row).
    public var rowCount: Int { timeline.partCount }
    /// Messages in the conversation (rows that are not date separators).
    public var messageCount: Int { timeline.count }
    package var isEmpty: Bool { timeline.isEmpty }
    /// The sum of all row heights.
    public var totalHeight: Int { timeline.totalHeight }

    /// The position among the messages of the message row `row` shows, or nil when `row` is a
    /// date separator (whose day is that of the message below it, `row + 1`). O(log n).
    public func messageIndex(ofRow row: Int) -> Int? {
        let (message, isHeader) = timeline.locate(part: row)
        return isHeader ? nil : message
    }

    /// The row showing message `index` (a position among the messages). O(log n).
    public func row(ofMessage index: Int) -> Int { timeline.bodyPart(ofRow: index) }

    /// The row showing message `id`, nil when absent. O(log n).
    public func row(withID id: String) -> Int? { index(ofID: id).map(row(ofMessage:)) }

    /// The height of row `row`.
    public func height(ofRow row: Int) -> Int { timeline.height(ofPart: row) }
    /// The vertical offset of row `row`'s top.
    public func offset(ofRow row: Int) -> Int { timeline.offset(ofPart: row) }
    /// The row covering vertical offset `y`, or nil outside 0..<totalHeight. O(log n).
    public func row(atOffset y: Int) -> Int? { timeline.part(atOffset: y) }
    /// The rows a viewport from `y` spanning `height` shows, fully or in part.
    package func rows(inViewportAt y: Int, height: Int) -> Range<Int> { timeline.parts(inViewportAt: y, height: height) }

    /// Row `row`'s frame in the conversation's units: its top and height, and its bubble's left
    /// edge and width within the conversation's width (incoming bubbles at the left, outgoing at
    /// the right, notices and date separators centred). O(log n).
    public func frame(ofRow row: Int) -> RowFrame {
        let layout = layout(ofRow: row)
        var x = layout.x, width = layout.bubbleWidth
        if let pixelStyle {
            // A bubble in pixels is at least the style's least width, widened away from its edge
            // (its cell's pixel row says how wide, as for `heights --font`).
            let cell = engine.registry.cell(of: layout.kind)
            width = cell.pixelRow(layout, textHeight64: 0, labelHeight64: nil, style: pixelStyle).bubbleWidth
            if layout.alignment == .right { x -= width - layout.bubbleWidth }
            x *= 64
            width *= 64
        }
        return RowFrame(y: offset(ofRow: row), height: height(ofRow: row), x: x, width: width)
    }

    /// Row `row` in pixels, as `heights --font` prints it, for a conversation measured in pixels
    /// (nil in cells).
    package func pixelRow(ofRow row: Int) -> PixelRow? {
        guard let measuredRows else { return nil }
        let (message, isHeader) = timeline.locate(part: row)
        let e = Int(timeline[message])
        let rows = measuredRows(entries[e].layout, entries[e].dateLayout, entries[e].content.content, texts[e])
        return isHeader ? rows.separator : rows.row
    }

    /// Row `row`'s layout: its message's, or its date separator's.
    package func layout(ofRow row: Int) -> RowLayout {
        let (message, isHeader) = timeline.locate(part: row)
        let e = Int(timeline[message])
        return isHeader ? entries[e].dateLayout ?? .empty : entries[e].layout
    }

    /// The lines of row `row`'s text (its message's text part 0) as laid out, each with its
    /// UTF-8 range and width; empty for a date separator and for a message without text.
    public func textLines(ofRow row: Int) -> [TextLine] {
        guard let message = messageIndex(ofRow: row) else { return [] }
        let e = Int(timeline[message])
        guard let text = entries[e].content.content.text, entries[e].layout.textLines > 0 else { return [] }
        let measurer = engine.texts.measurer
        let prepared = texts[e].prepared(part: 0, text: text)
            ?? measurer.prepare(text, language: entries[e].content.content.language)
        return measurer.layout(prepared, width: entries[e].layout.wrapWidth).lines
    }

    // MARK: Messages, each with the date separator above it (for the package's renderers)

    /// Message `index`: its model, decoration and layouts.
    package subscript(message index: Int) -> ConversationRow {
        let e = entries[Int(timeline[index])]
        return ConversationRow(model: e.model, configuratorIndex: e.facts.configuratorIndex, day: e.facts.day,
                               decoration: e.decoration, layout: e.layout, dateSeparator: e.dateLayout)
    }

    /// The messages in order.
    package var models: [any MessageModel] {
        var models: [any MessageModel] = []
        models.reserveCapacity(messageCount)
        timeline.forEachSlot { _, e in models.append(entries[Int(e)].model) }
        return models
    }

    /// The position of message `id` among the messages, in O(log n); nil when absent.
    package func index(ofID id: String) -> Int? {
        guard let e = entryByID[id] else { return nil }
        syncSlots()
        return timeline.row(ofSlot: slotOfEntry[Int(e)])
    }

    /// The height of message `index` with its date separator, if it has one.
    package func height(ofMessage index: Int) -> Int { timeline.height(ofRow: index) }
    /// The vertical offset of message `index`'s top (its separator's, if it has one).
    package func offset(ofMessage index: Int) -> Int { timeline.offset(ofRow: index) }
    /// The message covering vertical offset `y` (its separator's rows count as its), or nil
    /// outside 0..<totalHeight.
    package func message(atOffset y: Int) -> Int? { timeline.row(atOffset: y) }
    /// The messages a viewport from `y` spanning `height` shows, fully or in part.
    package func messages(inViewportAt y: Int, height: Int) -> Range<Int> {
        timeline.rows(inViewportAt: y, height: height)
    }

    // MARK: Changes

    /// Adds `model` after the last message.
    public func append(_ model: any MessageModel) throws(ConversationError) {
        let e = try add(model)
        lastLaidOut = []
        timeline.append(e, height: 0)
        indexSlot(ofEntry: e, row: messageCount - 1)
        let crossed = recountParties(changedRow: messageCount - 1)
        refresh(row: messageCount - 1, force: true)
        if messageCount > 1 { refresh(row: messageCount - 2) }
        if crossed { refreshAll() }
    }

    /// Adds each of `models` after the last message, in order.
    public func append(contentsOf models: some Sequence<any MessageModel>) throws(ConversationError) {
        for model in models { try append(model) }
    }

    /// Adds `model` before the first message (older history arriving).
    public func prepend(_ model: any MessageModel) throws(ConversationError) {
        let e = try add(model)
        lastLaidOut = []
        timeline.prepend(e, height: 0)
        indexSlot(ofEntry: e, row: 0)
        let crossed = recountParties(changedRow: 0)
        refresh(row: 0, force: true)
        if messageCount > 1 { refresh(row: 1) }
        if crossed { refreshAll() }
    }

    /// Replaces the message with `model.id` by `model` (an edit). It is laid out from its own
    /// content even when its revision did not change: the cache finds layouts by content.
    public func replace(_ model: any MessageModel) throws(ConversationError) {
        guard let row = index(ofID: model.id), let e = entryByID[model.id] else { throw .unknownID(model.id) }
        let entry = try makeEntry(for: model)
        lastLaidOut = []
        entries[Int(e)] = entry
        texts[Int(e)] = RowTexts()
        let crossed = recountParties(changedRow: row)
        refresh(row: row, force: true)
        if row > 0 { refresh(row: row - 1) }
        if row + 1 < messageCount { refresh(row: row + 1) }
        if crossed { refreshAll() }
    }

    /// Removes the message `id`, and forgets its cached layouts and prepared texts.
    public func remove(id: String) throws(ConversationError) {
        guard let row = index(ofID: id), let e = entryByID[id] else { throw .unknownID(id) }
        lastLaidOut = []
        timeline.remove(row: row)
        entries[Int(e)] = entries[Int(e)].emptied
        texts[Int(e)] = RowTexts()
        free.append(e)
        entryByID[id] = nil
        engine.forget(id: id)
        let crossed = recountParties(changedRow: row)
        if row > 0 { refresh(row: row - 1) }
        if row < messageCount { refresh(row: row) }
        if crossed { refreshAll() }
    }

    /// Lays every row out at `width`, from the prepared texts the rows keep: cached layouts are
    /// reused, the others are arithmetic over prepared texts. Heights are rebuilt in linear time.
    public func resize(width: Int) {
        self.width = width
        lastLaidOut = []
        reserveCacheRoom()
        let (heights, separators) = relayoutEntries()
        timeline.updateAll { e in (heights[Int(e)], separators[Int(e)] < 0 ? nil : separators[Int(e)]) }
    }

    // MARK: Internals

    /// A new entry for `model` (not yet in the timeline); throws for a duplicate id or a kind
    /// without a cell.
    private func add(_ model: any MessageModel) throws(ConversationError) -> Int32 {
        if entryByID[model.id] != nil { throw .duplicateID(model.id) }
        let entry = try makeEntry(for: model)
        let e: Int32
        if let reused = free.popLast() {
            e = reused
            entries[Int(e)] = entry
            texts[Int(e)] = RowTexts()
        } else {
            e = Int32(entries.count)
            entries.append(entry)
            texts.append(RowTexts())
        }
        entryByID[entry.id] = e
        return e
    }

    private func makeEntry(for model: any MessageModel) throws(ConversationError) -> ConversationEntry {
        // The first configurator that shows the model: one cast per kind tried, and the content
        // read is kept for every later layout and for its stamp.
        var found: (index: Int, content: RowContent)?
        for (i, configurator) in engine.registry.configurators.enumerated() {
            if let content = configurator.rowContent(of: model) {
                found = (i, content)
                break
            }
        }
        guard let (configuratorIndex, content) = found else {
            throw .layout(.unregisteredKind(modelType: String(describing: type(of: model)), id: model.id))
        }
        let facts = Decorator.facts(of: model, index: 0, configuratorIndex: configuratorIndex,
                                    registry: engine.registry, footerWidths: engine.footerWidths, clock: &clock)
        let id = model.id
        let idHash = identityHash(id)
        // Stamped once per change: every later layout of this entry finds only this content's.
        let stamped = LayoutContent(cell: ObjectIdentifier(engine.registry.configurators[configuratorIndex].cellType),
                                    direction: content.direction, revision: model.revision, body: content.content)
        let stamp = engine.cache.stamp(id: id, idHash: idHash, content: stamped)
        return ConversationEntry(model: model, id: id, revision: model.revision, stamp: stamp, idHash: idHash,
                                 content: content, facts: facts, dateLabel: label(of: facts.day))
    }

    /// The measure of the day's label, taken once per day.
    private func label(of day: CalendarDay) -> TextMetrics {
        if let metrics = labelMetrics[day] { return metrics }
        let metrics = engine.dateLabelMetrics(day)
        labelMetrics[day] = metrics
        return metrics
    }

    /// Counts the other parties again after a change at `changedRow` (the row a message was added
    /// at or removed from), when that row is among the first `PartyWindow.size`, which decide
    /// (at most that many rows are read). True when that takes the number across one (which
    /// shows or hides names everywhere).
    private func recountParties(changedRow: Int) -> Bool {
        guard options.otherParties == nil, changedRow < PartyWindow.size else { return false }
        var window = PartyWindow()
        for row in 0..<min(messageCount, PartyWindow.size) { window.count(entries[Int(timeline[row])].facts) }
        let before = countedParties
        countedParties = window.otherParties
        return (before > 1) != (countedParties > 1)
    }

    private var otherParties: Int { options.otherParties ?? countedParties }

    /// Recomputes row `row`'s decoration and separator from its neighbours and lays out what
    /// changed (everything when `force`, for a new or edited message).
    private func refresh(row: Int, force: Bool = false) {
        let e = Int(timeline[row])
        let previous = row > 0 ? entries[Int(timeline[row - 1])].facts : nil
        let next = row + 1 < messageCount ? entries[Int(timeline[row + 1])].facts : nil
        let facts = entries[e].facts
        let startsGroup = previous.map { !Decorator.continuesGroup($0, facts, gap: options.groupGap) } ?? true
        let endsGroup = next.map { !Decorator.continuesGroup(facts, $0, gap: options.groupGap) } ?? true
        let decoration = Decorator.decoration(of: facts, startsGroup: startsGroup, endsGroup: endsGroup,
                                              options: options, otherParties: otherParties)
        let separator = previous.map { $0.day != facts.day } ?? true ? RowDecoration(isFirstRow: row == 0) : nil
        let relayout = force || decoration != entries[e].decoration
        guard relayout || separator != entries[e].separatorDecoration else { return }
        if relayout {
            entries[e].decoration = decoration
            let result = engine.layoutKeepingTexts(id: entries[e].id, revision: entries[e].revision, stamp: entries[e].stamp,
                                       configuratorIndex: facts.configuratorIndex, content: entries[e].content,
                                       decoration: decoration, width: width, idHash: entries[e].idHash,
                                       texts: &texts[e])
            entries[e].layout = result.layout
            layoutsRequested += 1
            if !result.cached { layoutsComputed += 1 }
            lastLaidOut.append(entries[e].id)
        }
        entries[e].separatorDecoration = separator
        entries[e].dateLayout = separator.map {
            engine.dateLayout(facts.day, label: entries[e].dateLabel, decoration: $0, width: width)
        }
        let (height, separatorHeight) = height(ofEntry: e)
        timeline.setHeight(height, header: separatorHeight, ofRow: row)
    }

    /// Entry `e`'s height, its separator's included, and its separator's (nil without one).
    private func height(ofEntry e: Int) -> (height: Int, separator: Int?) {
        guard let measuredRows else { return (entries[e].height, entries[e].dateLayout?.height) }
        let rows = measuredRows(entries[e].layout, entries[e].dateLayout, entries[e].content.content, texts[e])
        return (rows.row.height64 + (rows.separator?.height64 ?? 0), rows.separator?.height64)
    }

    /// Recomputes every row's decoration; lays out only the rows whose decoration changed.
    private func refreshAll() {
        for row in 0..<messageCount { refresh(row: row) }
    }

    // MARK: Slot index

    private func indexSlot(ofEntry e: Int32, row: Int) {
        syncSlots()
        while slotOfEntry.count < entries.count { slotOfEntry.append(-1) }
        slotOfEntry[Int(e)] = timeline.slot(ofRow: row)
    }

    /// Rebuilds the entry → slot index after the timeline moved its slots.
    private func syncSlots() {
        guard indexedEpoch != timeline.layoutEpoch else { return }
        while slotOfEntry.count < entries.count { slotOfEntry.append(-1) }
        timeline.forEachSlot { slot, e in slotOfEntry[Int(e)] = slot }
        indexedEpoch = timeline.layoutEpoch
    }
}

extension Conversation where Measurer == CellMeasurer {
    /// An empty conversation measured in terminal cells, with a new engine.
    public convenience init(width: Int, style: BubbleStyle = BubbleStyle(), registry: CellRegistry = .standard,
                            options: DecorationOptions = DecorationOptions()) {
        self.init(width: width, style: style, registry: registry, cache: LayoutCache(), options: options)
    }

    /// An empty conversation measured in terminal cells, with a new engine keeping its layouts in
    /// `cache`.
    package convenience init(width: Int, style: BubbleStyle = BubbleStyle(), registry: CellRegistry = .standard,
                             cache: LayoutCache, options: DecorationOptions = DecorationOptions()) {
        self.init(engine: LayoutEngine(style: style.clamped, registry: registry, cache: cache), width: width, options: options)
    }
}
