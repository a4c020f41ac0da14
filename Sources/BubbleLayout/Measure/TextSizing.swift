import BubbleText

/// How a cell measures its text: through the engine's prepared-text store, in the engine's
/// measurer's unit (terminal cells today, font points later). Cells never see the measurer.
package protocol TextSizing {
    /// Line count and widest line of `text`, part `part` of the message being laid out, wrapped at
    /// `width`. The Unicode work for that part is done once per message revision.
    func metrics(of text: String, part: Int, width: Int) -> TextMetrics
    /// Width of `text` on one line.
    func width(of text: String) -> Int
}
