import BubbleLayout
import BubbleText

extension TranscriptRenderer {
    /// An image as a box of `columns` × `rows` cells, framed when it has room for a frame, with
    /// its label centred: `🖼 IMG_0001.jpg` and `1280×720` (on one line when only one fits).
    /// Exactly `rows` lines, each at most `columns` cells.
    func imageBox(_ image: ImageContent, columns: Int, rows: Int) -> [DrawnText] {
        guard rows > 0 else { return [] }
        let columns = max(0, columns)
        let name = glyphs.imageIcon + " " + image.name
        var size: String?
        if let w = image.pixelWidth, let h = image.pixelHeight, w > 0, h > 0 { size = "\(w)\(glyphs.times)\(h)" }
        let framed = rows >= 3 && columns >= 4
        let innerRows = framed ? rows - 2 : rows
        let innerWidth = framed ? columns - 2 : columns
        let labels: [String]
        if let size {
            labels = innerRows >= 2 ? [name, size] : [name + " " + size]
        } else {
            labels = [name]
        }
        let firstLabelRow = framed ? (innerRows - labels.count) / 2 : 0

        var inner: [DrawnText] = []
        inner.reserveCapacity(innerRows)
        for r in 0..<innerRows {
            let index = r - firstLabelRow
            guard index >= 0 && index < labels.count else {
                inner.append(.empty)
                continue
            }
            let drawn = safe.draw(labels[index], limit: innerWidth)
            let left = framed ? max(0, innerWidth - drawn.width) / 2 : 0
            inner.append(DrawnText(repeated(" ", left) + drawn.text, width: left + drawn.width))
        }
        guard framed else { return inner }

        let rule = repeated(glyphs.boxHorizontal, innerWidth)
        var box = [DrawnText(sgr.dim(glyphs.boxTopLeft + rule + glyphs.boxTopRight), width: columns)]
        let side = sgr.dim(glyphs.boxVertical)
        for drawn in inner {
            box.append(DrawnText(side + drawn.text + repeated(" ", innerWidth - drawn.width) + side, width: columns))
        }
        box.append(DrawnText(sgr.dim(glyphs.boxBottomLeft + rule + glyphs.boxBottomRight), width: columns))
        return box
    }
}
