import BubbleTerminal

/// Number formatting for reports, without Foundation's locale-dependent formatters.
enum Format {
    /// `value` with `digits` decimals: `fixed(3.14159, 2)` is "3.14".
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }

    /// `1234567` as "1,234,567" (as the viewer writes its counts).
    static func grouped(_ value: Int) -> String { NumberText.grouped(value) }
}
