import BubbleText

/// Finds how the terminal counts cells by asking it: each test grapheme is written at the start
/// of a line and the cursor position queried after it (`CSI 6 n`); the profile whose prediction
/// matches what the terminal did is chosen. Mode 2027 (grapheme clustering) is asked about too:
/// a terminal that has it measures by grapheme cluster, so a clustering profile is chosen
/// (`ghostty` when its cursor reports say so: a spacing mark widened `का`, else `unicode`) and
/// the mode turned on where it is off. This type is the decision; `TerminalProbe` does the input
/// and output.
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
            // code point by code point and say nothing of how the terminal clusters: `unicode`.
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

    /// How many of the answers `options` predicts.
    static func score(_ advances: [Int?], _ options: TextOptions) -> Int {
        let predicted = predictions(options)
        var score = 0
        for (index, advance) in advances.enumerated() where index < predicted.count {
            if let advance, advance == predicted[index] { score += 1 }
        }
        return score
    }
}
