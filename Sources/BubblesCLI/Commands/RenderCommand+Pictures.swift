import BubbleFonts
import BubbleLayout
import BubbleLogs
import BubblePictures
import Foundation

extension RenderCommand {
    /// `render --format svg|html`: the same reader, decorations, cells and streaming layout as
    /// `heights --font` (the pixel measurer in the engine, the pixel style's geometry), each row
    /// written from its `PixelRow`, in input order.
    func runPictures(_ pictures: PictureOptions, context: CommandContext) throws -> Int32 {
        guard let (measurer, style) = try pictures.pixels.load(errors: context.errors),
              let fonts = try pictures.fontSources(errors: context.errors) else { return ExitCode.failure }
        let width = pictureWidth
        var document: any TranscriptDocument = switch pictures.format {
        case .html: TranscriptHTML(style: style, theme: pictures.theme, fonts: fonts, measurer: measurer.pixels, width: width)
        default: TranscriptSVG(style: style, theme: pictures.theme, fonts: fonts, measurer: measurer.pixels)
        }
        if let output = pictures.output {
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                try context.errors.write("bubbles: \(DiagnosticText.escaped(output)): cannot create the folder\n")
                return ExitCode.failure
            }
        }
        guard let reader = try input.open(errors: context.errors, command: Self.spec.name, inputIsTerminal: context.inputIsTerminal) else { return ExitCode.failure }
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        var decoration = DecorationOptions()
        decoration.timeZone = input.timeZone
        decoration.clock = input.clock(for: reader)
        var stream = TimelineStream(engine: engine, widths: [width], decorationOptions: decoration)
        stream.inInputOrder = true
        // Each row is laid out and drawn once: the engine's layout cache and text store would only
        // be filled, never read, and grow with the transcript. Each window hands its rows' prepared
        // texts and lines to the writer instead, so nothing is prepared or broken twice.
        stream.remembering = false
        stream.keepingTexts = true
        var maker = PictureRowMaker(engine: engine, style: style, timeZone: input.timeZone)
        if let media = reader.media {
            // The pictures the export holds, embedded in their boxes; each at most its budget.
            maker.pictures = { name in
                media.picture(named: name, maximumBytes: EmbeddedPicture.maximumBytes)
                    .flatMap { EmbeddedPicture(bytes: $0.bytes, mediaType: $0.mediaType) }
            }
        }
        var range = RowRange(from: pictures.from, to: pictures.to, timeZone: input.timeZone)
        var pending: PictureRow?
        var pages = 0
        func writePage() throws {
            pages += 1
            if let output = pictures.output {
                let name = output + "/page-" + String(repeating: "0", count: max(0, 4 - String(pages).count)) + String(pages)
                    + "." + document.fileExtension
                guard FileManager.default.createFile(atPath: name, contents: Data(document.documentBytes(width: width))) else {
                    throw OutputFileError(path: name)
                }
            } else {
                let sink = context.output
                try document.writeDocument(width: width) { bytes in try sink.write(bytes: bytes) }
            }
            document.clear()
        }
        func add(_ row: PictureRow) throws {
            if let limit = pictures.pageHeight, document.height64 > 0, document.height64 + row.pixels.height64 > limit * 64 {
                try writePage()
            }
            document.append(row)
        }
        let counts: LogCounts
        do {
            counts = try stream.run(reader, errors: context.errors) { chunk in
                for r in chunk.rows.indices {
                    // Every row is made, drawn or not: later rows quote earlier ones and keep their colours.
                    let row = maker.row(r, of: chunk)
                    let decorated = chunk.rows[r]
                    if decorated.isDateSeparator {
                        pending = range.ended ? nil : row
                        continue
                    }
                    let model = chunk.models[decorated.messageIndex]
                    guard range.includes(id: model.id, date: model.date) else { continue }
                    if let separator = pending { try add(separator) }
                    pending = nil
                    try add(row)
                }
            }
        } catch let error as OutputFileError {
            try context.errors.write("bubbles: \(DiagnosticText.escaped(error.path)): cannot write the file\n")
            return ExitCode.failure
        }
        if document.height64 > 0 || pages == 0 { try writePage() }
        try context.output.flush()
        try input.reportEnd(of: reader, done: "drawn", to: context.errors)
        return exitCode(for: counts)
    }

    /// A page file that could not be written.
    struct OutputFileError: Error { var path: String }
}
