import BubbleFonts
import BubbleLayout
import BubbleLogs
import Foundation

/// `--font`, `--size`, `--line-height`, `--lang` and `--style`: heights in pixels from font files instead of
/// terminal cells. Parsed with the other options; the files are read when the command runs, so a
/// bad font or style file is an input error naming the file, not a usage error.
struct PixelOptions {
    static let specs: [OptionSpec] = [Options.font, Options.size, Options.lineHeight, Options.lang, Options.style]

    /// The options, each declared once: the specs list them and `init` reads them.
    enum Options {
        static let font = OptionSpec("--font", value: "FILE", repeats: true, help: "Measure in px with this font file (.ttf, .otf, or .ttc#FACE); repeat for a fallback chain, first font first.")
        static let size = OptionSpec("--size", value: "PX", help: "Font size in px for --font (default 16; fractions allowed).")
        static let lineHeight = OptionSpec("--line-height", value: "PX", help: "Line height for --font: px, a multiple of --size written 1.4em, or normal for the fonts' own (default normal).")
        static let lang = OptionSpec("--lang", value: "TAG", help: "Language of the texts for --font, as HTML's lang (ja, zh-Hant, ko, ur, ...): the fonts' local forms and script (default: none).")
        static let style = OptionSpec("--style", value: "FILE", help: "Bubble geometry in px for --font, a JSON file (see the README; default: a phone chat app's).")
    }

    /// Font files with their face index (`B.ttc#2`).
    var fonts: [(path: String, face: Int)]
    var size: Double
    var lineHeight: LineHeight
    var language: TextLanguage
    var stylePath: String?

    /// The pixel options given, or nil when `--font` is not (and then no other of them may be).
    /// `cellOptions`: the command also declares the cell-width options, which `--font` excludes.
    init?(_ arguments: ParsedArguments, cellOptions: Bool = true) throws(UsageError) {
        let specs = arguments.strings(Options.font)
        guard !specs.isEmpty else {
            for option in [Options.size, Options.lineHeight, Options.lang, Options.style] where arguments.string(option) != nil {
                throw UsageError("\(option.primaryName) needs --font (heights are in cells without it)")
            }
            return nil
        }
        if cellOptions && arguments.string(CellWidthsOption.spec) != nil {
            throw UsageError("\(CellWidthsOption.spec.primaryName) applies to cells, not to --font")
        }
        if cellOptions && arguments.flag(CellWidthsOption.ambiguousWide) {
            throw UsageError("\(CellWidthsOption.ambiguousWide.primaryName) applies to cells, not to --font")
        }
        fonts = try specs.map { spec throws(UsageError) in try Self.font(spec) }
        size = 16
        if let text = arguments.string(Options.size) {
            guard let value = Self.pixels(text), value * 64 >= 1, value <= 1000 else {
                throw UsageError("invalid value '\(text)' for --size: expected px from 0.015625 (1/64 px, the smallest step) to 1000, such as 16 or 17.5")
            }
            size = value
        }
        lineHeight = .normal
        if let text = arguments.string(Options.lineHeight), text != "normal" {
            if text.hasSuffix("em") {
                // A multiple of the font size, as CSS's unitless line-height (floored to 1/64 px).
                guard let factor = Self.pixels(String(text.dropLast(2))), factor * size * 64 >= 1, factor * size <= 10_000 else {
                    throw UsageError("invalid value '\(text)' for --line-height: expected a multiple of --size such as 1.4em, from 1/64 px to 10000 px")
                }
                lineHeight = .factor(factor)
            } else {
                let number = text.hasSuffix("px") ? String(text.dropLast(2)) : text
                guard let value = Self.pixels(number), value * 64 >= 1, value <= 10_000 else {
                    throw UsageError("invalid value '\(text)' for --line-height: expected px from 0.015625 (1/64 px) to 10000 such as 20, 1.4em, or normal")
                }
                lineHeight = .pixels(value)
            }
        }
        language = .none
        if let tag = arguments.string(Options.lang) {
            guard let parsed = TextLanguage(bcp47: tag) else {
                throw UsageError("invalid value '\(tag)' for --lang: expected a language tag such as ja, zh-Hant or ko")
            }
            language = parsed
        }
        stylePath = arguments.string(Options.style)
    }

    /// A length in px as people write it: digits, with a fraction after a dot (`16`, `17.5`,
    /// `.5`); not Swift's other spellings of a Double (`0x10`, `1e-9`, `inf`, ` 16`).
    static func pixels(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              parts.contains(where: { !$0.isEmpty }), !(parts.count == 2 && parts[1].isEmpty) else { return nil }
        return Double(text)
    }

    /// `path` or `path#FACE`: a trailing `#` and digits pick a face of a collection. A file
    /// whose own name ends in `#` and digits is taken whole when it exists.
    static func font(_ spec: String) throws(UsageError) -> (path: String, face: Int) {
        guard !spec.isEmpty else { throw UsageError("invalid value '' for --font: expected a font file") }
        guard let hash = spec.lastIndex(of: "#"), !FileManager.default.fileExists(atPath: spec) else { return (spec, 0) }
        let suffix = spec[spec.index(after: hash)...]
        guard !suffix.contains("/") else { return (spec, 0) }  // a '#' in a folder's name
        guard !suffix.isEmpty, suffix.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            // `X.ttc#x`, `#-1`, `#`: a face index was meant, unless the file is named so (checked above).
            throw UsageError("invalid value '\(spec)' for --font: the face index after '#' must be a number from 0, such as \(spec[..<hash])#0")
        }
        guard let face = Int(suffix), face < 65_536 else {
            throw UsageError("invalid value '\(spec)' for --font: the face index after '#' is out of range")
        }
        return (String(spec[..<hash]), face)
    }

    /// Reads the fonts and the style file. A file that cannot be used is said on `errors` as
    /// `bubbles: FILE: reason`, and nil is returned.
    func load(errors: TextSink) throws -> (measurer: PixelLayoutMeasurer, style: PixelStyle)? {
        var loaded: [FontChain] = []
        for font in fonts {
            let data: [UInt8]
            switch FileBytes.read(font.path) {
            case .success(let bytes): data = bytes
            case .failure(let error):
                try errors.write("bubbles: \(DiagnosticText.escaped(font.path)): cannot read the font file (\(error.reason))\n")
                return nil
            }
            do {
                let face = try OpenTypeFont(bytes: data, faceIndex: font.face)
                // The chain reads each font's kerning and substitutions for the text's script:
                // checked font by font, so an error names its file; then the chains are joined.
                loaded.append(try FontChain(fonts: [face], size: size, language: language))
            } catch {
                try errors.write("bubbles: \(DiagnosticText.escaped(font.path)): not a usable font: \(DiagnosticText.escaped(error.description))\n")
                return nil
            }
        }
        let chain = FontChain(joining: loaded)
        var style = PixelStyle()
        if let stylePath {
            do {
                style = try PixelStyle(contentsOf: stylePath)
            } catch {
                try errors.write("bubbles: \(DiagnosticText.escaped(error.description))\n")
                return nil
            }
        }
        return (PixelLayoutMeasurer(PixelMeasurer(chain: chain, lineHeight: lineHeight)), style)
    }
}
