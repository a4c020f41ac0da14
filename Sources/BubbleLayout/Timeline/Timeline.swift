/// An ordered list of rows with their heights, answering in O(log n) the row at a vertical offset,
/// the offset of a row, and the rows a viewport shows.
///
/// Rows live in a slot array with free room at both ends (so appends and prepends are O(1)
/// amortised, like an array's appends), and two Fenwick trees over the slots hold the prefix sums
/// of heights and of live rows. Editing a height and deleting a row update O(log n) tree nodes;
/// a deleted row leaves an empty slot until empty slots outnumber rows, when the slots are
/// compacted (amortised O(1) per delete). Nothing is ever recomputed on a query.
///
/// A row may carry a header at its top (a conversation's date separator above the day's first
/// message). Its height is part of the row's, and the timeline also answers in O(log n) by
/// *parts*: the headers and the rows' bodies in order, as a table view lists them (a third
/// Fenwick tree counts 1 or 2 parts per live slot).
package struct Timeline<Element> {
    private var slots: [Element?] = []
    private var slotHeights: [Int] = []
    /// Each slot's header height, or -1 when it has no header.
    private var slotHeaders: [Int] = []
    /// Fenwick tree (1-based) of heights per slot.
    private var heightTree: [Int] = [0]
    /// Fenwick tree (1-based) of 1 per live slot.
    private var liveTree: [Int32] = [0]
    /// Fenwick tree (1-based) of parts per live slot: 2 with a header, else 1.
    private var partTree: [Int32] = [0]
    private var lowest = 0
    private var end = 0
    private var holes = 0
    /// Bumped whenever slots move (growth or compaction), which invalidates slot positions.
    private(set) var layoutEpoch = 0

    /// Rows in the timeline.
    package private(set) var count = 0
    /// The sum of all row heights.
    package private(set) var totalHeight = 0
    /// Headers and bodies in the timeline.
    package private(set) var partCount = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }

    private var capacity: Int { slots.count }

    // MARK: Fenwick trees

    private mutating func add(slot: Int, height: Int, live: Int32, parts: Int32) {
        var i = slot + 1
        while i <= capacity {
            heightTree[i] += height
            liveTree[i] += live
            partTree[i] += parts
            i += i & -i
        }
        partCount += Int(parts)
    }

    /// Parts in slots before `slot`.
    private func partsBefore(slot: Int) -> Int {
        var sum = 0, i = slot
        while i > 0 { sum += Int(partTree[i]); i -= i & -i }
        return sum
    }

    /// Sum of heights of slots before `slot`.
    private func heightBefore(slot: Int) -> Int {
        var sum = 0, i = slot
        while i > 0 { sum += heightTree[i]; i -= i & -i }
        return sum
    }

    /// Live rows in slots before `slot`.
    private func rowsBefore(slot: Int) -> Int {
        var sum = 0, i = slot
        while i > 0 { sum += Int(liveTree[i]); i -= i & -i }
        return sum
    }

    /// The first slot at which the running sum of `tree` exceeds `target`.
    private static func firstSlot<T: BinaryInteger>(exceeding target: Int, in tree: [T], capacity: Int) -> Int {
        var position = 0, remaining = target
        var step = 1
        while step * 2 <= capacity { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= capacity && Int(tree[next]) <= remaining {
                position = next
                remaining -= Int(tree[next])
            }
            step /= 2
        }
        return position
    }

    func slot(ofRow row: Int) -> Int {
        precondition(row >= 0 && row < count, "Timeline: row \(row) out of 0..<\(count)")
        return Self.firstSlot(exceeding: row, in: liveTree, capacity: capacity)
    }

    // MARK: Queries

    /// The element of row `row`.
    package subscript(row: Int) -> Element {
        get { slots[slot(ofRow: row)]! }
        set { slots[slot(ofRow: row)] = newValue }
    }

    /// The height of row `row`.
    package func height(ofRow row: Int) -> Int { slotHeights[slot(ofRow: row)] }

    /// The vertical offset of row `row`'s top: the sum of the heights above it.
    package func offset(ofRow row: Int) -> Int { heightBefore(slot: slot(ofRow: row)) }

    /// The row covering vertical offset `y`, or nil when `y` is outside 0..<totalHeight.
    package func row(atOffset y: Int) -> Int? {
        guard y >= 0 && y < totalHeight else { return nil }
        return rowsBefore(slot: Self.firstSlot(exceeding: y, in: heightTree, capacity: capacity))
    }

    /// The rows a viewport from `y` spanning `height` rows shows, fully or in part.
    package func rows(inViewportAt y: Int, height: Int) -> Range<Int> {
        let top = max(0, y), bottom = min(totalHeight, y + height)
        guard top < bottom, let first = row(atOffset: top), let last = row(atOffset: bottom - 1) else {
            return 0..<0
        }
        return first..<(last + 1)
    }

    // MARK: Updates

    /// Adds a row at the end.
    package mutating func append(_ element: Element, height: Int) {
        if end == capacity { respace() }
        place(element, height: height, at: end)
        end += 1
    }

    /// Adds a row at the start.
    package mutating func prepend(_ element: Element, height: Int) {
        if lowest == 0 { respace() }
        lowest -= 1
        place(element, height: height, at: lowest)
    }

    /// Changes the height of row `row`.
    package mutating func setHeight(_ height: Int, ofRow row: Int) {
        let s = slot(ofRow: row)
        let delta = height - slotHeights[s]
        guard delta != 0 else { return }
        slotHeights[s] = height
        totalHeight += delta
        add(slot: s, height: delta, live: 0, parts: 0)
    }

    /// Removes row `row` and returns its element.
    @discardableResult
    package mutating func remove(row: Int) -> Element {
        let s = slot(ofRow: row)
        let element = slots[s]!
        add(slot: s, height: -slotHeights[s], live: -1, parts: slotHeaders[s] >= 0 ? -2 : -1)
        totalHeight -= slotHeights[s]
        slots[s] = nil
        slotHeights[s] = 0
        slotHeaders[s] = -1
        count -= 1
        holes += 1
        if holes > max(64, count) { respace() }
        return element
    }

    private mutating func place(_ element: Element, height: Int, at s: Int) {
        slots[s] = element
        slotHeights[s] = height
        slotHeaders[s] = -1
        count += 1
        totalHeight += height
        add(slot: s, height: height, live: 1, parts: 1)
    }

    /// Moves the live rows into a fresh slot array with room at both ends, and rebuilds the trees
    /// in linear time.
    private mutating func respace() {
        var liveElements: [Element] = []
        var liveHeights: [Int] = []
        var liveHeaders: [Int] = []
        liveElements.reserveCapacity(count)
        liveHeights.reserveCapacity(count)
        liveHeaders.reserveCapacity(count)
        for s in lowest..<end {
            if let element = slots[s] {
                liveElements.append(element)
                liveHeights.append(slotHeights[s])
                liveHeaders.append(slotHeaders[s])
            }
        }
        let newCapacity = max(16, 2 * count + 16)
        let start = (newCapacity - count) / 2
        slots = [Element?](repeating: nil, count: newCapacity)
        slotHeights = [Int](repeating: 0, count: newCapacity)
        slotHeaders = [Int](repeating: -1, count: newCapacity)
        heightTree = [Int](repeating: 0, count: newCapacity + 1)
        liveTree = [Int32](repeating: 0, count: newCapacity + 1)
        partTree = [Int32](repeating: 0, count: newCapacity + 1)
        for (i, element) in liveElements.enumerated() {
            slots[start + i] = element
            slotHeights[start + i] = liveHeights[i]
            slotHeaders[start + i] = liveHeaders[i]
            heightTree[start + i + 1] = liveHeights[i]
            liveTree[start + i + 1] = 1
            partTree[start + i + 1] = liveHeaders[i] >= 0 ? 2 : 1
        }
        for i in 1...newCapacity {
            let parent = i + (i & -i)
            if parent <= newCapacity {
                heightTree[parent] += heightTree[i]
                liveTree[parent] += liveTree[i]
                partTree[parent] += partTree[i]
            }
        }
        lowest = start
        end = start + count
        holes = 0
        layoutEpoch += 1
    }
}

extension Timeline {
    // MARK: Slots, for owners that keep their own index of rows (valid until `layoutEpoch` changes)

    /// The row now in slot `slot`.
    func row(ofSlot slot: Int) -> Int { rowsBefore(slot: slot) }

    /// Calls `body` with each live slot and its element, in row order.
    func forEachSlot(_ body: (Int, Element) -> Void) {
        for s in lowest..<end { if let element = slots[s] { body(s, element) } }
    }

    /// Lets `body` update every row in order and return its new height and header height (nil
    /// for none; the header is part of the height), then rebuilds the prefix sums in linear time:
    /// for changes that touch every row (a new width).
    mutating func updateAll(_ body: (inout Element) -> (height: Int, header: Int?)) {
        var total = 0, parts = 0
        for i in heightTree.indices { heightTree[i] = 0; partTree[i] = 0 }
        for s in lowest..<end {
            // Moved out and back (no copy, no retain) rather than mutated through `!`.
            guard var element = slots[s].take() else { continue }
            let (height, header) = body(&element)
            slots[s] = consume element
            slotHeights[s] = height
            slotHeaders[s] = header ?? -1
            heightTree[s + 1] = height
            partTree[s + 1] = header == nil ? 1 : 2
            total += height
            parts += header == nil ? 1 : 2
        }
        let n = capacity
        if n > 0 {
            for i in 1...n {
                let parent = i + (i & -i)
                if parent <= n {
                    heightTree[parent] += heightTree[i]
                    partTree[parent] += partTree[i]
                }
            }
        }
        totalHeight = total
        partCount = parts
    }
}

extension Timeline {
    // MARK: Parts: headers and bodies, in order

    /// Changes the height of row `row` and its header's (nil: the row has no header). The header
    /// is part of `height`.
    package mutating func setHeight(_ height: Int, header: Int?, ofRow row: Int) {
        let s = slot(ofRow: row)
        let newHeader = header ?? -1
        let partDelta = Int32((newHeader >= 0 ? 2 : 1) - (slotHeaders[s] >= 0 ? 2 : 1))
        let delta = height - slotHeights[s]
        slotHeaders[s] = newHeader
        guard delta != 0 || partDelta != 0 else { return }
        slotHeights[s] = height
        totalHeight += delta
        add(slot: s, height: delta, live: 0, parts: partDelta)
    }

    /// Part `part`: the row it belongs to and whether it is that row's header.
    package func locate(part: Int) -> (row: Int, isHeader: Bool) {
        precondition(part >= 0 && part < partCount, "Timeline: part \(part) out of 0..<\(partCount)")
        let s = Self.firstSlot(exceeding: part, in: partTree, capacity: capacity)
        return (rowsBefore(slot: s), slotHeaders[s] >= 0 && partsBefore(slot: s) == part)
    }

    /// The part of row `row`'s body (its header, if any, is the part before).
    package func bodyPart(ofRow row: Int) -> Int {
        let s = slot(ofRow: row)
        return partsBefore(slot: s) + (slotHeaders[s] >= 0 ? 1 : 0)
    }

    /// Whether row `row` has a header.
    package func hasHeader(row: Int) -> Bool { slotHeaders[slot(ofRow: row)] >= 0 }

    /// The vertical offset of part `part`'s top.
    package func offset(ofPart part: Int) -> Int {
        let (row, isHeader) = locate(part: part)
        let s = slot(ofRow: row)
        return heightBefore(slot: s) + (isHeader ? 0 : max(0, slotHeaders[s]))
    }

    /// The height of part `part`.
    package func height(ofPart part: Int) -> Int {
        let (row, isHeader) = locate(part: part)
        let s = slot(ofRow: row)
        return isHeader ? slotHeaders[s] : slotHeights[s] - max(0, slotHeaders[s])
    }

    /// The part covering vertical offset `y`, or nil when `y` is outside 0..<totalHeight.
    package func part(atOffset y: Int) -> Int? {
        guard y >= 0 && y < totalHeight else { return nil }
        let s = Self.firstSlot(exceeding: y, in: heightTree, capacity: capacity)
        let inBody = slotHeaders[s] >= 0 && y - heightBefore(slot: s) >= slotHeaders[s]
        return partsBefore(slot: s) + (inBody ? 1 : 0)
    }

    /// The parts a viewport from `y` spanning `height` shows, fully or in part.
    package func parts(inViewportAt y: Int, height: Int) -> Range<Int> {
        let top = max(0, y), bottom = min(totalHeight, y + height)
        guard top < bottom, let first = part(atOffset: top), let last = part(atOffset: bottom - 1) else {
            return 0..<0
        }
        return first..<(last + 1)
    }
}

extension Timeline: Sendable where Element: Sendable {}
