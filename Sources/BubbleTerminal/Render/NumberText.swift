/// Numbers as the product shows them to people (the viewer's status line, `bench`'s reports):
/// one way of writing them everywhere, without Foundation's locale-dependent formatters.
public enum NumberText {
    /// `1234567` as "1,234,567".
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }
}
