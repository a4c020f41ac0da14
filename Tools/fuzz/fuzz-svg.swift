// libFuzzer harness: the picture writers (render --format svg and html), over JSON Lines read as
// the CLI reads them, laid out in px from the bundled Noto subsets (Latin, Hebrew, Arabic, CJK,
// emoji) at a width and theme taken from the input's hash.
// Invariants: the SVG parses as XML (Foundation's XMLParser, libxml2: nothing of ours); its
// elements and attributes are only the writer's own (so no input became markup); neither the SVG
// nor the HTML holds a raw C0 or C1 control or a bidi control, a `<script`, an `on…=` handler or
// a `javascript:` URL; and the rows stack to the picture's height. The rows are laid out as
// `render` lays them out (streamed, each window keeping its texts for the writer) and must be the
// rows made afresh from a plain batch; the writers spill their rows to the temporary file after
// every few hundred bytes on half the inputs, and the documents must be those kept in memory.
import BubbleFonts
import BubbleLayout
import BubbleLogs
@testable import BubblePictures
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

private let utc = TimeZone(identifier: "UTC")!

/// The measurer over the bundled fonts, read once (the harness runs from the repository's root).
private let measurer: PixelLayoutMeasurer = {
    let files = ["NotoSans-Subset.ttf", "NotoSansHebrew-Subset.ttf", "NotoSansArabic-Subset.ttf", "NotoSansCJK-Subset.ttc",
                 "NotoColorEmoji-Subset.ttf"]
    let fonts = files.map { name -> OpenTypeFont in
        let bytes = Array(FileManager.default.contents(atPath: "Corpora/fonts/" + name) ?? Data())
        return try! OpenTypeFont(bytes: bytes, faceIndex: 0)
    }
    return PixelLayoutMeasurer(PixelMeasurer(chain: try! FontChain(fonts: fonts, size: 16), lineHeight: .normal))
}()
private let fonts = PictureFonts([PictureFonts.Source(path: "Corpora/fonts/NotoSans-Subset.ttf")])

private let svgElements: Set<String> = ["svg", "style", "rect", "g", "path", "text", "tspan"]
private let svgAttributes: Set<String> = ["xmlns", "width", "height", "viewBox", "x", "y", "rx", "fill", "class", "d", "transform",
                                          "text-anchor", "data-id", "data-kind", "data-y", "data-height", "data-width", "xml:lang"]

/// Collects element and attribute names.
private final class Names: NSObject, XMLParserDelegate {
    var elements: Set<String> = []
    var attributes: Set<String> = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.insert(name)
        self.attributes.formUnion(attributes.keys)
    }
}

/// No raw control, C1 or bidi control but the writer's own line feeds and left-to-right marks.
private func checkScalars(_ text: String, _ what: String) {
    for scalar in text.unicodeScalars {
        let v = scalar.value
        require(v == 0x0A || !(v < 0x20 || (0x7F...0x9F).contains(v)), "\(what) holds control U+\(String(v, radix: 16))")
        require(v == 0x0A || v == 0x200E || !MarkupText.isDropped(v), "\(what) holds U+\(String(v, radix: 16))")
    }
    let lower = text.lowercased()
    require(!lower.contains("<script"), "\(what) holds <script")
    require(!lower.contains("javascript:"), "\(what) holds javascript:")
    // Inside a tag only: text between tags is escaped, so a message saying "wrap onto =" is text.
    require(lower.range(of: #"<[^<>]*\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(what) holds an event handler attribute")
}

/// A row as drawn: its geometry and each line's runs, width and height.
private func describe(_ row: PictureRow) -> String {
    func lines(_ lines: [PictureLine]) -> String {
        lines.map { line in line.runs.map { "\($0.rightToLeft ? "<" : ">")\($0.text)" }.joined() + " \(line.width) \(line.height64)" }
            .joined(separator: "|")
    }
    return "\(row.id) \(row.kind) \(row.pixels) \(row.x) \(row.width) \(row.image.map { "\($0.width)x\($0.height)" } ?? "-") [\(lines(row.lines))] [\(lines(row.imageLabel))]"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let hash = inputHash(raw)
    guard let reader = try? LogSource.open(bytes: Array(raw), name: "svg.jsonl", format: .jsonl,
                                           options: LogReadOptions(timeZone: utc)) else { return 0 }
    let models: [any MessageModel] = reader.compactMap { $0.record }
    guard !models.isEmpty else { return 0 }
    let style = PixelStyle()
    let width = 60 + Int((hash >> 8) % 700)
    let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
    func layout(keepingTexts: Bool) -> BatchLayout? {
        var streaming = StreamingLayout(engine: engine, widths: [width], options: utcDecoration, remembering: false, inInputOrder: true,
                                        keepingTexts: keepingTexts)
        for model in models { streaming.append(model) }
        return try? streaming.flush(final: true)
    }
    guard let batch = layout(keepingTexts: false), let kept = layout(keepingTexts: true) else { return 0 }
    require(kept.rows.count == batch.rows.count, "the streamed rows are \(kept.rows.count), not \(batch.rows.count)")
    let theme: PictureTheme = hash & 1 == 0 ? .light : .dark
    var fresh = PictureRowMaker(engine: engine, style: style, timeZone: utc)
    var maker = PictureRowMaker(engine: engine, style: style, timeZone: utc)
    var svg = TranscriptSVG(style: style, theme: theme, fonts: fonts, measurer: measurer.pixels)
    var html = TranscriptHTML(style: style, theme: theme, fonts: fonts, measurer: measurer.pixels, width: width)
    var plainSVG = svg, plainHTML = html
    let spills = hash & 2 != 0
    if spills {
        svg.spill.threshold = 256
        html.spill.threshold = 256
    }
    var total = 0
    for r in batch.rows.indices {
        let row = maker.row(r, of: kept)
        let plain = fresh.row(r, of: batch)
        require(describe(row) == describe(plain), "row \(r) from the kept texts is \(describe(row)), afresh \(describe(plain))")
        svg.append(row)
        html.append(row)
        if spills {
            plainSVG.append(plain)
            plainHTML.append(plain)
        }
        total += row.pixels.height64
    }
    require(svg.height64 == total && html.height64 == total, "the rows stack to \(total), not \(svg.height64)")
    let picture = svg.document(width: width)
    let page = html.document(width: width)
    if spills {
        require(picture == plainSVG.document(width: width), "the spilled SVG is not the one kept in memory")
        require(page == plainHTML.document(width: width), "the spilled HTML is not the one kept in memory")
    }
    checkScalars(picture, "the SVG")
    checkScalars(page, "the HTML")
    let parser = XMLParser(data: Data(picture.utf8))
    let names = Names()
    parser.delegate = names
    require(parser.parse(), "the SVG does not parse: \(String(describing: parser.parserError)) at line \(parser.lineNumber)")
    require(names.elements.isSubset(of: svgElements), "elements not the writer's: \(names.elements.subtracting(svgElements))")
    require(names.attributes.isSubset(of: svgAttributes), "attributes not the writer's: \(names.attributes.subtracting(svgAttributes))")
    return 0
}
