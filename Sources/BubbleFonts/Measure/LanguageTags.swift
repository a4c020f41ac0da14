import BubbleLayout

/// What an HTML `lang` attribute tells a browser's shaper: the OpenType script a text in that
/// language is shaped as, and the OpenType language system (`locl` forms, `text-spacing-trim`'s
/// punctuation) it selects, as HarfBuzz maps BCP 47 tags.
public struct TextLanguage: Sendable, Hashable {
    /// The OpenType script tag (`latn`, `hani`, `hang`, `arab`, `thai`, …).
    package let script: String
    /// The OpenType language system tag (`JAN `, `ZHS `, `KOR `, `URD `, …); nil for the default.
    package let language: String?

    /// No `lang`: Latin shaping with the default language system.
    public static let none = TextLanguage(script: "latn", language: nil)

    package init(script: String, language: String?) {
        self.script = script
        self.language = language
    }

    /// The language of the BCP 47 tag `tag` (`ja`, `zh-Hant`, `zh-HK`, `ko`, `ur`, `sr-Latn`, …),
    /// matched case-insensitively; a language not listed shapes as Latin in its default system;
    /// nil when `tag` is not a well-formed tag (a letter subtag of 2–3 letters first, then
    /// subtags of 1–8 letters or digits, separated by '-' or '_').
    public init?(bcp47 tag: String) {
        guard LanguageTag.isWellFormed(tag) else { return nil }
        let subtags = tag.lowercased().split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        let primary = subtags[0]
        let rest = Set(subtags.dropFirst().map(String.init))
        switch primary {
        case "ja": self.init(script: "hani", language: "JAN ")
        case "zh":
            if rest.contains("hk") || rest.contains("mo") { self.init(script: "hani", language: "ZHH ") }
            else if rest.contains("hant") || rest.contains("tw") { self.init(script: "hani", language: "ZHT ") }
            else { self.init(script: "hani", language: "ZHS ") }
        case "ko": self.init(script: "hang", language: "KOR ")
        case "th": self.init(script: "thai", language: "THA ")
        case "lo": self.init(script: "lao ", language: "LAO ")
        case "km": self.init(script: "khmr", language: "KHM ")
        case "my": self.init(script: "mym2", language: "BRM ")
        case "ar": self.init(script: "arab", language: "ARA ")
        case "ur": self.init(script: "arab", language: "URD ")
        case "fa": self.init(script: "arab", language: "FAR ")
        case "he", "iw": self.init(script: "hebr", language: "IWR ")
        case "yi": self.init(script: "hebr", language: "JII ")
        case "hi": self.init(script: "dev2", language: "HIN ")
        case "mr": self.init(script: "dev2", language: "MAR ")
        case "ne": self.init(script: "dev2", language: "NEP ")
        case "el": self.init(script: "grek", language: "ELL ")
        case "ru": self.init(script: "cyrl", language: "RUS ")
        case "uk": self.init(script: "cyrl", language: "UKR ")
        case "be": self.init(script: "cyrl", language: "BEL ")
        case "bg": self.init(script: "cyrl", language: "BGR ")
        case "mk": self.init(script: "cyrl", language: "MKD ")
        case "sr": self.init(script: rest.contains("latn") ? "latn" : "cyrl", language: "SRB ")
        default:
            let latin: [String: String] = [
                "en": "ENG ", "de": "DEU ", "fr": "FRA ", "es": "ESP ", "it": "ITA ", "pt": "PTG ", "nl": "NLD ", "pl": "PLK ",
                "ro": "ROM ", "mo": "MOL ", "tr": "TRK ", "az": "AZE ", "ca": "CAT ", "vi": "VIT ", "sv": "SVE ", "cs": "CSY ",
                "hu": "HUN ", "fi": "FIN ", "da": "DAN ", "nb": "NOR ", "no": "NOR ", "id": "IND ", "ms": "MLY ", "hr": "HRV ",
                "kk": "KAZ ", "tt": "TAT ", "crh": "CRT ", "sk": "SKY ", "sl": "SLV ", "lt": "LTH ", "lv": "LVI ", "et": "ETI ",
            ]
            self.init(script: "latn", language: latin[String(primary)])
        }
    }
}

extension FontChain {
    /// The chain `fonts` at `size` px shaped for `language` (HTML `lang`).
    public init(fonts: [OpenTypeFont], size: Double, language: TextLanguage) throws(FontError) {
        try self.init(fonts: fonts, size: size, script: language.script, language: language.language)
    }
}
