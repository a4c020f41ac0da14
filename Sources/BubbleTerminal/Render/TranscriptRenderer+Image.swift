import BubbleLayout
import BubbleText

extension TranscriptRenderer {
    /// An image as a box of `columns` × `rows` cells, framed when it has room for a frame (3 × 3
    /// cells), with its label centred: `📷 IMG_0001.jpg` and `1280×720` (on one line when only one
    /// fits), a cell of padding inside the frame on each side. Exactly `rows` lines, each exactly
    /// `columns` cells when framed and at most `columns` when not.
    func imageBox(_ image: ContentBox, columns: Int, rows: Int) -> [DrawnText] {
        guard rows > 0 else { return [] }
        let columns = max(0, columns)
        let framed = rows >= 3 && columns >= 3
        let innerRows = framed ? rows - 2 : rows
        let innerWidth = framed ? columns - 2 : columns
        // Inside a frame the label keeps a cell from it on each side: a frame too narrow for
        // padding and one cell of label holds no label (the frame alone says "image"). The
        // padding gives way before the size would be left out (`828×1792` in 8 cells of 8).
        // Unframed, the label has it all.
        let room = framed ? (innerWidth >= 3 ? innerWidth - 2 : 0) : innerWidth
        let labels = imageLabel(image, room: room, lines: innerRows, sizeRoom: room > 0 ? innerWidth : 0)
        let firstLabelRow = framed ? (innerRows - labels.count) / 2 : 0

        var inner: [DrawnText] = []
        inner.reserveCapacity(innerRows)
        for r in 0..<innerRows {
            let index = r - firstLabelRow
            guard index >= 0 && index < labels.count else {
                inner.append(.empty)
                continue
            }
            let drawn = labels[index]
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

    /// The label of `image` in at most `lines` lines of at most `room` cells each: the icon and
    /// file name on one line and the pixel size on the next, or both on one line. A size that
    /// fits in no form in `room` may take up to `sizeRoom` cells alone on its line (the padding
    /// inside a frame), before it is left out.
    ///
    /// A size is never cut: a cut number reads as another number (`1×1000` for `1×100000`). It
    /// is drawn exactly, or abbreviated truly (`1×100k`, `12k×9`: a side of 10,000 or more in
    /// thousands, millions or billions, rounded to the last digit shown), or left out, and then
    /// an ellipsis says something is missing. The file name gives way first: it is cut (at a
    /// grapheme, with the ellipsis) before the size is abbreviated or dropped.
    func imageLabel(_ image: ContentBox, room: Int, lines: Int, sizeRoom: Int = 0) -> [DrawnText] {
        let icon = glyphs.isASCII ? image.asciiIcon : image.icon
        guard room > 0, lines > 0 else { return [] }
        let name = icon + " " + image.title
        guard let w = image.pixelWidth, let h = image.pixelHeight, w > 0, h > 0 else {
            return [inVisualOrder(safe.draw(name, limit: room), source: name)]
        }
        let forms = ImageSizeText.forms(width: w, height: h, times: glyphs.times)
        let ellipsis = DrawnText(glyphs.ellipsis, width: safe.ellipsisWidth)
        // Digits and unit letters are ASCII, a cell each; the times sign is measured.
        let timesWidth = CellWidth.of(glyphs.times, options: safe.options)
        func size(_ form: String) -> DrawnText { DrawnText(form, width: form.utf8.count - glyphs.times.utf8.count + timesWidth) }
        let fitting = forms.lazy.map(size).first { $0.width <= room }
            ?? forms.lazy.map(size).first { $0.width <= sizeRoom }

        let nameWidth = safe.width(of: name)
        let iconWidth = safe.width(of: icon)
        // The name in `limit` cells: whole, or cut with the ellipsis, or the icon alone when no
        // letter of the name would be left beside the ellipsis.
        func cutName(_ limit: Int) -> DrawnText {
            if nameWidth <= limit || limit >= iconWidth + ellipsis.width { return inVisualOrder(safe.draw(name, limit: limit), source: name) }
            return iconWidth <= limit ? safe.draw(icon, limit: limit) : inVisualOrder(safe.draw(name, limit: limit), source: name)
        }
        if lines >= 2 {
            // A size too wide for the padded room goes over two lines when there are three
            // (`828×` then `1792`, a portrait screenshot in a narrow box), still whole and padded;
            // failing that it may take the padding (`sizeRoom`) rather than be left out.
            if lines >= 3, forms.lazy.map(size).first(where: { $0.width <= room }) == nil {
                for (width, height) in ImageSizeText.sides(width: w, height: h, times: glyphs.times) {
                    let top = size(width), bottom = DrawnText(height, width: height.utf8.count)
                    if top.width <= room && bottom.width <= room { return [cutName(room), top, bottom] }
                }
            }
            let sizeLine = fitting ?? (ellipsis.width <= room ? ellipsis : .empty)
            return [cutName(room), sizeLine]
        }
        let exact = size(forms[0])
        if nameWidth + 1 + exact.width <= room {
            return [DrawnText(cutName(nameWidth).text + " " + exact.text, width: nameWidth + 1 + exact.width)]
        }
        // The name cut to what the size leaves, while a letter of it is left beside the icon.
        let shortestCut = safe.width(of: icon + " ") + 1 + ellipsis.width
        for form in forms {
            let drawnSize = size(form)
            let left = room - 1 - drawnSize.width
            guard left >= shortestCut else { continue }
            let cut = cutName(left)
            return [DrawnText(cut.text + " " + drawnSize.text, width: cut.width + 1 + drawnSize.width)]
        }
        if let fitting { return [fitting] }
        // No form of the size fits: the name, and the ellipsis for the size left out.
        if nameWidth + 1 + ellipsis.width <= room {
            return [DrawnText(cutName(nameWidth).text + " " + ellipsis.text, width: nameWidth + 1 + ellipsis.width)]
        }
        // Cut, so the ellipsis ends the line: it stands for the size too.
        let cut = inVisualOrder(safe.draw(name + " " + glyphs.ellipsis, limit: room), source: name + " " + glyphs.ellipsis)
        return cut.width > 0 ? [cut] : []
    }

    /// `drawn` (SafeText's drawing of `source`, a file name) in visual order under `--bidi
    /// visual`, as names, quotes and captions are: as wide as measured, a cell a lam-alef
    /// ligature saves kept as a trailing blank.
    private func inVisualOrder(_ drawn: DrawnText, source: String) -> DrawnText {
        let visual = visualIfRightToLeft(drawn, source: source)
        guard visual.trailingBlanks > 0 else { return visual.drawn }
        return DrawnText(visual.drawn.text + repeated(" ", visual.trailingBlanks), width: visual.fullWidth)
    }
}

/// The pixel size of an image as text, `1200×900`, and its shorter true forms.
enum ImageSizeText {
    /// The forms of `width`×`height` to try, longest first: exact, then (when shorter) with each
    /// side of 10,000 or more abbreviated (`abbreviated`). ASCII but for `times`.
    static func forms(width: Int, height: Int, times: String) -> [String] {
        let exact = "\(width)\(times)\(height)"
        let short = abbreviated(width) + times + abbreviated(height)
        return short.utf8.count < exact.utf8.count ? [exact, short] : [exact]
    }

    /// The forms of `forms` split after the times sign, for a size over two lines: (`828×`,
    /// `1792`), then with sides of 10,000 or more abbreviated when that is shorter.
    static func sides(width: Int, height: Int, times: String) -> [(String, String)] {
        let exact = ("\(width)\(times)", "\(height)")
        let short = (abbreviated(width) + times, abbreviated(height))
        return short == exact ? [exact] : [exact, short]
    }

    /// `n` in at most four characters when it is 10,000 or more: in thousands (`k`), millions
    /// (`M`) or billions (`G`), rounded half up to a tenth under 10 (`1.5M`) and to a unit from
    /// 10 (`100k`, `123k`); a rounding that reaches 1,000 moves to the next unit (`999,999` is
    /// `1M`). Under 10,000 the number is as short written out as abbreviated, and exact.
    static func abbreviated(_ n: Int) -> String {
        guard n >= 10_000 else { return String(n) }
        let units: [(value: Int, suffix: String)] = [(1_000, "k"), (1_000_000, "M"), (1_000_000_000, "G"),
                                                     (1_000_000_000_000, "T"), (1_000_000_000_000_000, "P")]
        var index = 0
        while index + 1 < units.count && n >= units[index + 1].value { index += 1 }
        while true {
            let unit = units[index]
            // Tenths when under 10 units, units otherwise; integer arithmetic, half up.
            let tenths = n / unit.value < 10
            let step = tenths ? unit.value / 10 : unit.value
            let q = n / step + (n % step >= step - step / 2 ? 1 : 0)
            let whole = tenths ? q / 10 : q
            if whole >= 1_000 && index + 1 < units.count {
                index += 1
                continue
            }
            if tenths && q % 10 != 0 { return "\(q / 10).\(q % 10)\(unit.suffix)" }
            return "\(whole)\(unit.suffix)"
        }
    }
}
