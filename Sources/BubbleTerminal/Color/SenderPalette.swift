/// A colour in both of the depths we emit.
public struct TerminalColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// The nearest entry of the xterm 256-colour cube.
    public var paletteIndex: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
        func level(_ component: UInt8) -> Int {
            // The cube's levels are 0, 95, 135, 175, 215, 255.
            component < 48 ? 0 : component < 115 ? 1 : Int(component - 35) / 40
        }
        paletteIndex = UInt8(16 + 36 * level(red) + 6 * level(green) + level(blue))
    }
}

/// Gives every sender one colour for the whole transcript, the same on every run.
///
/// The choice hashes the name with FNV-1a rather than Swift's `Hasher`, which is seeded per
/// process and would change colours between runs.
public struct SenderPalette: Sendable {
    public var colors: [TerminalColor]

    public init(colors: [TerminalColor] = SenderPalette.defaultColors) {
        precondition(!colors.isEmpty, "a palette needs at least one colour")
        self.colors = colors
    }

    public func color(for sender: String) -> TerminalColor {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sender.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return colors[Int(hash % UInt64(colors.count))]
    }

    /// Readable on dark and light backgrounds alike.
    public static let defaultColors: [TerminalColor] = [
        TerminalColor(red: 0xE0, green: 0x6C, blue: 0x75),
        TerminalColor(red: 0x98, green: 0xC3, blue: 0x79),
        TerminalColor(red: 0xE5, green: 0xC0, blue: 0x7B),
        TerminalColor(red: 0x61, green: 0xAF, blue: 0xEF),
        TerminalColor(red: 0xC6, green: 0x78, blue: 0xDD),
        TerminalColor(red: 0x56, green: 0xB6, blue: 0xC2),
        TerminalColor(red: 0xD1, green: 0x9A, blue: 0x66),
        TerminalColor(red: 0xBE, green: 0x50, blue: 0x46),
    ]
}
