/// One code point's entry in `GhosttyTable`: what `WidthProfile.ghostty` needs to count cells
/// as Ghostty 1.3 and later does (Tools/generate-ghostty-table.swift says where each comes from).
///
/// Bit layout of `raw` (the generator writes these values; keep the two in step):
/// - bits 0–1: cells of the scalar when it starts a cell (0, 1 or 2)
/// - bit 2: adds nothing to a grapheme it joins (Mn, Me, Hangul V/T, Prepend, emoji modifiers,
///   and what is 0 alone)
/// - bit 3: has an emoji variation sequence (VS15/VS16 change its width)
/// - bit 4: Emoji_Modifier_Base
/// - bit 5: Emoji_Modifier
/// - bits 6–7: Indic_Conjunct_Break (0 None, 1 Consonant, 2 Linker, 3 Extend)
package struct GhosttyEntry: Hashable, Sendable {
    package let raw: UInt16

    @inlinable package init(raw: UInt16) { self.raw = raw }

    @inlinable package var width: Int { Int(raw & 3) }
    @inlinable package var isZeroInGrapheme: Bool { raw & (1 << 2) != 0 }
    @inlinable package var isVariationBase: Bool { raw & (1 << 3) != 0 }
    @inlinable package var isEmojiModifierBase: Bool { raw & (1 << 4) != 0 }
    @inlinable package var isEmojiModifier: Bool { raw & (1 << 5) != 0 }
    @inlinable package var isConjunctConsonant: Bool { raw >> 6 & 3 == 1 }
    @inlinable package var isConjunctLinker: Bool { raw >> 6 & 3 == 2 }
    @inlinable package var isConjunctExtend: Bool { raw >> 6 & 3 == 3 }
}
