import BubbleText
import Foundation
import Synchronization
@testable import BubbleLayout
import BubbleTestSupport

/// Counts the texts it prepares: proves the Unicode work is not repeated.
final class CountingMeasurer: TextMeasurer, Sendable {
    let inner = CellMeasurer()
    let preparations = Atomic<Int>(0)
    let widthMeasurements = Atomic<Int>(0)

    func prepare(_ text: String) -> PreparedText {
        preparations.add(1, ordering: .relaxed)
        return inner.prepare(text)
    }
    func measure(_ prepared: PreparedText, width: Int) -> TextMetrics { inner.measure(prepared, width: width) }
    func layout(_ prepared: PreparedText, width: Int) -> TextLayout { inner.layout(prepared, width: width) }
    func width(of text: String) -> Int {
        widthMeasurements.add(1, ordering: .relaxed)
        return inner.width(of: text)
    }
    var count: Int { preparations.load(ordering: .relaxed) }
    /// Every call that looks at Unicode data: preparations and one-line width measurements.
    var unicodeWork: Int { count + widthMeasurements.load(ordering: .relaxed) }
}

let minute = 60.0

func options(parties: Int? = nil, zone: TimeZone = utc) -> DecorationOptions {
    DecorationOptions(timeZone: zone, otherParties: parties)
}

/// The content height the text engine gives, for expectations that must not hard-code it.
func lines(_ text: String, width: Int) -> Int { PreparedText(text).measure(width: width).lineCount }
func widest(_ text: String, width: Int) -> Int { PreparedText(text).measure(width: width).widestLine }

/// Lays out one model as a lone row (a group of its own, no name).
func layoutAlone(_ model: any MessageModel, width: Int, engine: LayoutEngine<CellMeasurer> = LayoutEngine(),
                 decoration: RowDecoration = RowDecoration()) throws -> RowLayout {
    try engine.layout(model, decoration: decoration, width: width)
}
