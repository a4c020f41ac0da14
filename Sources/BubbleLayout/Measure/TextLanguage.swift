import BubbleText

/// A message whose text is in a language the log names (a BCP 47 tag, as HTML's `lang`): a pixel
/// measurer shapes its text for that language; terminal cells do not depend on it.
package protocol LanguageTaggedMessage {
    /// The text's BCP 47 language tag, already checked to be well formed; nil when the log does not say.
    var textLanguage: String? { get }
}

/// BCP 47 language tags as HTML's `lang` takes them.
package enum LanguageTag {
    /// True when `tag` is a well-formed tag: a primary subtag of 2–3 letters, then subtags of 1–8
    /// letters or digits, separated by '-' (or '_', as locales are often written). O(length).
    package static func isWellFormed(_ tag: String) -> Bool {
        var count = 0, index = 0
        for byte in tag.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "_"):
                guard index == 0 ? (2...3).contains(count) : (1...8).contains(count) else { return false }
                count = 0
                index += 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                count += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9") where index > 0:
                count += 1
            default:
                return false
            }
        }
        return index == 0 ? (2...3).contains(count) : (1...8).contains(count)
    }
}

/// A measurer whose preparation depends on the text's language (the fonts' `locl` forms, the
/// script a chain shapes in). Other measurers prepare a text the same in every language.
package protocol LanguagePreparingMeasurer: TextMeasurer {
    /// `text` prepared as in a document whose `lang` is `tag`.
    func prepare(_ text: String, inLanguage tag: String) -> Prepared
}

extension TextMeasurer {
    /// `text` prepared in `language` (a BCP 47 tag) when there is one and the measurer depends on
    /// it; else as `prepare(_:)` does.
    @inline(__always)
    package func prepare(_ text: String, language: String?) -> Prepared {
        guard let language else { return prepare(text) }
        return preparedInLanguage(text, language)
    }

    @inline(never)
    func preparedInLanguage(_ text: String, _ language: String) -> Prepared {
        guard let tagged = self as? any LanguagePreparingMeasurer else { return prepare(text) }
        func open<M: LanguagePreparingMeasurer>(_ measurer: M) -> Any { measurer.prepare(text, inLanguage: language) }
        return open(tagged) as! Prepared
    }
}
