import BubbleLayout
import Foundation

// A kind that exists only in the tests, added as the README's "Adding a kind" says: one model
// protocol, one cell subclass naming the kind and saying what it shows, one registration line.
// It is not read from logs, so the checklist's log steps do not apply to it.

/// A voice message: its length is all a bubble shows of it.
public protocol VoiceMessageModel: MessageModel {
    var duration: Double { get }
}

/// `▶ ` + a waveform of one cell per 5 seconds (2 to 20) + ` m:ss`: one line, measured by the
/// base cell and drawn by the renderer from this same content.
public final class VoiceBubbleCell: BubbleCell, ConfigurableCell {
    public static let kindName = "voice"

    public static func content(of model: any VoiceMessageModel) -> BubbleContent {
        BubbleContent(text: label(seconds: Int(model.duration.rounded())))
    }

    public static func previewText(of model: any VoiceMessageModel) -> String { "voice message" }

    /// The drawn line for a message `seconds` long.
    public static func label(seconds: Int) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        let wave = String((0..<min(20, max(2, seconds / 5))).map { bars[($0 * 5) % bars.count] })
        let clock = "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
        return "▶ " + wave + " " + clock
    }
}

/// A voice message for tests.
public struct VoiceNote: VoiceMessageModel {
    public var id: String
    public var senderName: String?
    public var direction: MessageDirection
    public var date: Date
    public var duration: Double

    public init(id: String, senderName: String? = "Carol", direction: MessageDirection = .incoming,
                date: Date = may1, duration: Double) {
        self.id = id
        self.senderName = senderName
        self.direction = direction
        self.date = date
        self.duration = duration
    }
}
