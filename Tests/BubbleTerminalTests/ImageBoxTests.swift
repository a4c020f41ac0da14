import BubbleLayout
import BubbleSamples
import BubbleText
import BubbleTestSupport
import Testing
@testable import BubbleTerminal

/// How an image box is drawn: its frame at every size the layout gives, its label padded inside
/// the frame, cut at graphemes, and its pixel size never cut into another number.
@Suite struct ImageBoxTests {
    static let names = ["photo.jpg", "IMG.jpeg", "صورة العائلة.png", "家族の写真.jpg", "🏳️‍🌈 pride.png", "a",
                        "👨‍👩‍👧 family picnic by the lake.heic", "e\u{301}te\u{301}.png", "x\u{1B}[2J.png",
                        "क्षत्रिय.jpg", "verylongfilenamewithoutanybreakwhatsoever.jpeg"]

    /// In logical order, so that what is drawn of a name is a prefix of it (its visual order is
    /// BidiRenderTests.anImageFileNameReadsRightToLeftAsItsCaptionDoes).
    func renderer(ascii: Bool = false) -> TranscriptRenderer {
        var options = RenderOptions(width: 200, asciiBorders: ascii, timeZone: utc)
        options.bidi = .logical
        return TranscriptRenderer(engine: LayoutEngine(), options: options)
    }

    /// A name with no digits and no letter a size form uses, so every digit in a label is the size's.
    func randomName(_ random: inout SeededGenerator) -> String {
        let pieces = ["ph", "oto", "bild", "صورة", "写真", "🏳️‍🌈", "é", "क्ष", " ", ".jpg", ".png", "_", "ab", "café"]
        return (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    func randomSide(_ random: inout SeededGenerator) -> Int {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: [1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000, 999_999, 1_000_000].randomElement(using: &random)!
        case 1: Int.random(in: 1...9_999, using: &random)
        case 2: Int.random(in: 10_000...10_000_000, using: &random)
        case 3: Int.random(in: 10_000_000...Int(Int32.max), using: &random)
        default: Int.random(in: 1...Int.max / 2, using: &random)
        }
    }

    /// Runs of size characters (digits, `.`, unit letters, the times sign) holding a digit.
    func sizeTokens(_ text: String, times: String) -> [String] {
        var tokens: [String] = [], current = ""
        let sizeCharacters = Set("0123456789.kMGTP" + times)
        for character in text {
            if sizeCharacters.contains(character) {
                current.append(character)
            } else {
                if current.contains(where: \.isNumber) { tokens.append(current) }
                current = ""
            }
        }
        if current.contains(where: \.isNumber) { tokens.append(current) }
        return tokens
    }

    @Test func labelsKeepACellOfPaddingInsideTheFrameOnEachSide() {
        for ascii in [false, true] {
            let renderer = renderer(ascii: ascii)
            let vertical = renderer.glyphs.boxVertical
            for name in Self.names {
                for (w, h) in [(1200, 900), (1, 100_000), (100_000, 1), (640, 480)] {
                    let image = ImageContent(name: name, pixelWidth: w, pixelHeight: h)
                    for columns in 3...60 {
                        for rows in 3...6 {
                            let box = renderer.imageBox(image, columns: columns, rows: rows)
                            #expect(box.count == rows)
                            for line in box[1..<(rows - 1)] {
                                let plain = stripSGR(line.text)
                                #expect(CellWidth.of(plain, options: TextOptions()) == columns && line.width == columns,
                                        "\(name) \(columns)×\(rows): \(plain)")
                                let inner = plain.dropFirst(vertical.count).dropLast(vertical.count)
                                #expect(plain.hasPrefix(vertical) && plain.hasSuffix(vertical))
                                // The cell next to each side is blank, but for a size that
                                // fits only in the padding too (it is never left out for it).
                                let sizeOnly = sizeTokens(String(inner), times: renderer.glyphs.times)
                                    == [inner.trimmingCharacters(in: .whitespaces)]
                                let takesPadding = sizeOnly && CellWidth.of(String(inner).trimmingCharacters(in: .whitespaces),
                                                                            options: TextOptions()) > columns - 4
                                #expect((inner.first == " " && inner.last == " ") || takesPadding, "\(name) \(columns)×\(rows): \(plain)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// A portrait screenshot's `828×1792` in a box too narrow for it and its padding: over two
    /// lines, padded, when the box has three label rows (`828×` then `1792`); with two it takes
    /// the padding and with one the same, rather than being left out; with room for the padding
    /// it keeps it on one line.
    @Test func aSizeTooWideForItsPaddingGoesOverTwoLinesOrTakesThePadding() {
        let renderer = renderer()
        for (w, h, top) in [(828, 1792, "828×"), (1170, 2532, "1170×"), (1284, 2778, "1284×")] {
            let image = ImageContent(name: "IMG_1234.PNG", pixelWidth: w, pixelHeight: h)
            for columns in 7...12 where columns - 4 < "\(w)×\(h)".count && columns - 4 >= top.count {
                let tall = renderer.imageBox(image, columns: columns, rows: 10).map { stripSGR($0.text) }
                let rows = tall.map { $0.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) }
                #expect(rows.contains(top) && rows.contains("\(h)"), "\(tall)")
                for line in tall.dropFirst().dropLast() {
                    #expect(line.dropFirst().first == " " && line.dropLast().last == " ", "\(tall)")
                }
            }
        }
        let image = ImageContent(name: "Screenshot_2024.png", pixelWidth: 828, pixelHeight: 1792)
        let twoRows = renderer.imageBox(image, columns: 10, rows: 4).map { stripSGR($0.text) }
        #expect(twoRows.contains("│828×1792│"), "\(twoRows)")
        let roomy = renderer.imageBox(image, columns: 12, rows: 5).map { stripSGR($0.text) }
        #expect(roomy.contains("│ 828×1792 │"), "\(roomy)")
        let oneLine = renderer.imageBox(image, columns: 10, rows: 3).map { stripSGR($0.text) }
        #expect(oneLine[1] == "│828×1792│", "\(oneLine)")
    }

    @Test func aLabelThatFitsIsDrawnWholeWithItsExactSize() {
        let renderer = renderer()
        let box = renderer.imageBox(ImageContent(name: "photo.jpg", pixelWidth: 1200, pixelHeight: 900),
                                    columns: 16, rows: 5).map { stripSGR($0.text) }
        #expect(box == ["┌──────────────┐", "│ 📷 photo.jpg │", "│   1200×900   │", "│              │",
                        "└──────────────┘"])
        let wide = renderer.imageBox(ImageContent(name: "wide.png", pixelWidth: 100_000, pixelHeight: 1),
                                     columns: 26, rows: 3).map { stripSGR($0.text) }
        #expect(wide[1] == "│  📷 wide.png 100000×1  │")
    }

    /// The size stays whole while the name gives way; then it is abbreviated, then dropped with
    /// an ellipsis, never cut.
    @Test func theNameGivesWayBeforeTheSizeAndTheSizeIsNeverCut() {
        let renderer = renderer()
        let image = ImageContent(name: "wide.png", pixelWidth: 100_000, pixelHeight: 1)
        func label(_ room: Int) -> String { renderer.imageLabel(image, room: room, lines: 1).map { stripSGR($0.text) }.joined() }
        #expect(label(21) == "📷 wide.png 100000×1")
        #expect(label(15) == "📷 wi… 100000×1")
        #expect(label(12) == "📷 w… 100k×1")
        #expect(label(8) == "100000×1")
        #expect(label(6) == "100k×1")
        #expect(label(5) == "📷 w…")
        #expect(label(2) == "…")
        let tall = ImageContent(name: "tall.png", pixelWidth: 1, pixelHeight: 100_000)
        #expect(renderer.imageLabel(tall, room: 2, lines: 2).map { stripSGR($0.text) } == ["📷", "…"])
        #expect(renderer.imageLabel(tall, room: 7, lines: 2).map { stripSGR($0.text) } == ["📷 tal…", "1×100k"])
    }

    @Test func abbreviatedSidesRoundToTheLastDigitShown() {
        let cases: [(Int, String)] = [(9_999, "9999"), (10_000, "10k"), (10_499, "10k"), (10_500, "11k"), (100_000, "100k"),
                                      (123_456, "123k"), (999_499, "999k"), (999_500, "1M"), (1_250_000, "1.3M"),
                                      (1_000_000, "1M"), (9_960_000, "10M"), (2_147_483_647, "2.1G"),
                                      (Int.max, "9223P")]
        for (n, text) in cases { #expect(ImageSizeText.abbreviated(n) == text, "\(n)") }
        #expect(ImageSizeText.forms(width: 1200, height: 900, times: "×") == ["1200×900"])
        #expect(ImageSizeText.forms(width: 1, height: 100_000, times: "×") == ["1×100000", "1×100k"])
    }

    /// At every room from 1 to 80 cells, on one line and on two, for random names and sizes
    /// (fixed seeds): each label fits its room exactly as measured, the name is cut only at a
    /// grapheme, and any size drawn is the exact size or a true abbreviation of it: never a cut
    /// number such as `1×1000` for `1×100000`.
    @Test func noDrawnLabelIsAMisleadingPrefixOfTheSize() {
        for ascii in [false, true] {
            let renderer = renderer(ascii: ascii)
            let times = renderer.glyphs.times
            var random = SeededGenerator(seed: ascii ? 0x1A6E : 0x51CE)
            var checked = 0
            for trial in 0..<60 {
                let w = trial == 0 ? 1 : trial == 1 ? 100_000 : randomSide(&random)
                let h = trial == 0 ? 100_000 : trial == 1 ? 1 : randomSide(&random)
                let name = randomName(&random)
                let image = ImageContent(name: name, pixelWidth: w, pixelHeight: h)
                let forms = ImageSizeText.forms(width: w, height: h, times: times)
                for (index, form) in forms.enumerated() where index > 0 {
                    #expect(isTrueAbbreviation(form, of: (w, h), times: times), "\(form) for \(w)×\(h)")
                }
                for room in 1...80 {
                    for lines in [1, 2, 3] {
                        let label = renderer.imageLabel(image, room: room, lines: lines)
                        #expect(label.count <= lines)
                        // A size over two lines (`828×` then `1792`) is read as one token.
                        var tokens: [String] = []
                        for line in label {
                            for token in sizeTokens(stripSGR(line.text), times: times) {
                                if let last = tokens.last, last.hasSuffix(times) {
                                    tokens[tokens.count - 1] = last + token
                                } else {
                                    tokens.append(token)
                                }
                            }
                        }
                        for token in tokens {
                            #expect(forms.contains(token), "\(w)×\(h) in \(room) cells on \(lines) lines drew \(token)")
                            checked += 1
                        }
                        for line in label {
                            let plain = stripSGR(line.text)
                            #expect(line.width <= room && CellWidth.of(plain, options: TextOptions()) == line.width,
                                    "room \(room): \(plain)")
                            // What is drawn of the name is a prefix of it that ends on a grapheme
                            // boundary, by the engine's graphemes (Unicode 15.0).
                            let icon = (ascii ? "[img]" : "📷") + " "
                            guard plain.hasPrefix(icon) else { continue }
                            var shown = String(plain.dropFirst(icon.count))
                            if let end = forms.map({ " " + $0 }).first(where: shown.hasSuffix) {
                                shown = String(shown.dropLast(end.count))
                            }
                            if let end = [" " + renderer.glyphs.ellipsis, renderer.glyphs.ellipsis].first(where: shown.hasSuffix) {
                                shown = String(shown.dropLast(end.count))
                            }
                            #expect(name.utf8.starts(with: shown.utf8) && graphemeBoundaries(of: name).contains(shown.utf8.count),
                                    "\(plain.debugDescription) of \(name.debugDescription)")
                        }
                    }
                }
            }
            #expect(checked > 1_000)
        }
    }

    /// `form` is `w`×`h` with each side exact or rounded to its last digit shown (k, M, G, T, P).
    func isTrueAbbreviation(_ form: String, of size: (Int, Int), times: String) -> Bool {
        let sides = form.components(separatedBy: times)
        guard sides.count == 2 else { return false }
        func holds(_ text: String, _ n: Int) -> Bool {
            guard let unit = text.last, let scale = ["k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15][String(unit)] else {
                return text == String(n)
            }
            guard let value = Double(text.dropLast()) else { return false }
            let step = text.contains(".") ? scale / 10 : scale
            return abs(value * scale - Double(n)) <= step / 2 + 1e-6 * Double(n)
        }
        return holds(sides[0], size.0) && holds(sides[1], size.1)
    }
}

extension TranscriptRenderer {
    /// The box of picture `image` (`ContentBox(picture:)`), as its cell describes it.
    func imageBox(_ image: ImageContent, columns: Int, rows: Int) -> [DrawnText] {
        imageBox(ContentBox(picture: image), columns: columns, rows: rows)
    }

    /// The label of picture `image`'s box.
    func imageLabel(_ image: ImageContent, room: Int, lines: Int, sizeRoom: Int = 0) -> [DrawnText] {
        imageLabel(ContentBox(picture: image), room: room, lines: lines, sizeRoom: sizeRoom)
    }
}
