import BubbleText

/// Finds how the terminal counts cells by asking it: each test grapheme is written at the start
/// of a line and the cursor position queried after it (`CSI 6 n`); the profile whose prediction
/// matches what the terminal did is chosen. Mode 2027 (grapheme clustering) is asked about too:
/// a terminal that has it measures by grapheme cluster, so a clustering profile is chosen
/// (`ghostty` when its cursor reports say so: a spacing mark widened `का`, else `unicode`) and
/// the mode turned on where it is off. Where it is off, the reports were made code point by code
/// point, so the graphemes the clustering profiles part on are measured again with the mode on
/// (`clusterGraphemes`, `chooseClustered`). This type is the decision; `TerminalProbe` does the
/// input and output.
public enum WidthProbe {
    /// The graphemes written: where the profiles and ambiguous widths part.
    public static let graphemes: [String] = [
        "\u{2600}\u{FE0F}",                          // ☀️ VS16 emoji
        "\u{1F44D}\u{1F3FD}",                        // 👍🏽 skin-tone sequence
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",  // 👨‍👩‍👧 ZWJ sequence
        "\u{1F1EB}\u{1F1F7}",                        // 🇫🇷 flag
        "#\u{FE0F}\u{20E3}",                         // #️⃣ keycap
        "\u{1FAE8}",                                 // 🫨 emoji new in Unicode 15
        "\u{0915}\u{093E}",                         // का a letter and a spacing mark: `unicode` 1, `ghostty` 2
        "\u{0915}\u{094D}\u{0937}\u{093F}",          // क्षि Devanagari cluster with a spacing mark
        "\u{2500}",                                  // ─ East Asian Ambiguous
    ]

    /// The test graphemes `unicode` and `ghostty` measure differently (`का`, `क्षि`): measured
    /// again, with mode 2027 on, when the terminal reported the mode off but settable. Derived
    /// from the profiles, so a new test grapheme or a changed rule is measured too.
    public static let clusterGraphemes: [String] = graphemes.filter { grapheme in
        [1, 2].contains { ambiguous in
            CellWidth.of(grapheme, options: TextOptions(ambiguousWidth: ambiguous, widthProfile: .unicode))
                != CellWidth.of(grapheme, options: TextOptions(ambiguousWidth: ambiguous, widthProfile: .ghostty))
        }
    }

    /// The text options the probe can choose between, most preferred first (on a tie).
    public static func candidates(base: TextOptions) -> [TextOptions] {
        var result: [TextOptions] = []
        for profile in WidthProfile.allCases {
            for ambiguous in [1, 2] {
                var options = base
                options.widthProfile = profile
                options.ambiguousWidth = ambiguous
                result.append(options)
            }
        }
        return result
    }

    /// What `options` predicts the terminal advances for each test grapheme.
    public static func predictions(_ options: TextOptions) -> [Int] {
        graphemes.map { CellWidth.of($0, options: options) }
    }

    /// The answer of a probe.
    public struct Result: Hashable, Sendable {
        /// The options to measure with.
        public var options: TextOptions
        /// Mode 2027 was off and the terminal supports it: it must be turned on (and off at exit).
        public var enableGraphemeClustering: Bool
        /// Whether the terminal answered at all.
        public var answered: Bool

        public init(options: TextOptions, enableGraphemeClustering: Bool, answered: Bool) {
            self.options = options
            self.enableGraphemeClustering = enableGraphemeClustering
            self.answered = answered
        }
    }

    /// The options that predict `advances` (the cells the terminal moved for each test grapheme,
    /// nil where it did not answer) best, given the mode 2027 report (`CSI ? 2027 ; value $ y`,
    /// nil when none came). Falls back to `base` (its own profile) when nothing answered.
    public static func choose(advances: [Int?], graphemeClustering: Int?, base: TextOptions) -> Result {
        if let mode = graphemeClustering, mode == 1 || mode == 2 || mode == 3 {
            var options = base
            options.widthProfile = .unicode
            // With clustering on, the ambiguous test still says how wide ambiguous characters are.
            if let last = advances.last, let ambiguous = last { options.ambiguousWidth = ambiguous == 2 ? 2 : 1 }
            // With it on (1, 3) the cursor reports were made clustering: the clustering profile
            // that predicts more of them wins, `unicode` on a tie. With it off (2) they were made
            // code point by code point and say nothing of how the terminal clusters: `unicode`,
            // until the second round, made with the mode on, says more (`chooseClustered`).
            if mode != 2 {
                var ghostty = options
                ghostty.widthProfile = .ghostty
                if score(advances, ghostty) > score(advances, options) { options = ghostty }
            }
            return Result(options: options, enableGraphemeClustering: mode == 2, answered: true)
        }
        guard advances.contains(where: { $0 != nil }) else {
            return Result(options: base, enableGraphemeClustering: false, answered: false)
        }
        var best = base
        var bestScore = -1
        for candidate in candidates(base: base) {
            let candidateScore = score(advances, candidate)
            if candidateScore > bestScore {
                best = candidate
                bestScore = candidateScore
            }
        }
        return Result(options: best, enableGraphemeClustering: false, answered: true)
    }

    /// The choice after the second round, for a terminal that reported mode 2027 off but
    /// settable: `first` (made from per-code-point reports, so `unicode`) becomes `ghostty` when
    /// `advances`, the cells the terminal moved for each of `clusterGraphemes` with the mode on
    /// (nil where it did not answer), match `ghostty`'s predictions better than `unicode`'s
    /// (Ghostty with `grapheme-width-method = legacy` draws `का` in 2 cells once the mode is on).
    /// `graphemeClustering` is the mode report asked for in that round: unless it says the mode
    /// is set (1, 3), the reports were not made clustering, and the first choice stands, as it
    /// does without answers. The ambiguous width is the first round's: the mode does not change it.
    public static func chooseClustered(advances: [Int?], graphemeClustering: Int?, after first: Result) -> Result {
        guard first.enableGraphemeClustering, graphemeClustering == 1 || graphemeClustering == 3,
              advances.contains(where: { $0 != nil }) else { return first }
        var result = first
        var unicode = first.options
        unicode.widthProfile = .unicode
        var ghostty = first.options
        ghostty.widthProfile = .ghostty
        let reference = clusterGraphemes
        result.options = score(advances, ghostty, graphemes: reference) > score(advances, unicode, graphemes: reference) ? ghostty : unicode
        return result
    }

    /// How many of the answers `options` predicts (`advances` in the order of `graphemes`).
    static func score(_ advances: [Int?], _ options: TextOptions, graphemes: [String] = graphemes) -> Int {
        let predicted = graphemes.map { CellWidth.of($0, options: options) }
        var score = 0
        for (index, advance) in advances.enumerated() where index < predicted.count {
            if let advance, advance == predicted[index] { score += 1 }
        }
        return score
    }
}
