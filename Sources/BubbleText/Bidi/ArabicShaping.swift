/// Arabic joining for terminals that do not shape: each letter becomes its contextual
/// presentation form (isolated, final, initial or medial; Arabic Presentation Forms-B, and
/// Forms-A for letters Forms-B lacks), chosen from the Joining_Type of its neighbours
/// (ArabicShaping.txt; transparent marks are skipped), and lam followed by alef becomes a
/// lam-alef ligature, as fribidi's shaping does.
///
/// Every form is one cell like its letter. The ligature is one scalar for two letters, and
/// terminals give it one cell (U+FEF5–FEFC are East Asian Width N: glibc's `wcwidth` is 1), so
/// the two cells the layout measured for lam and alef hold one drawn cell: the ligature takes
/// the alef's place. When the lam joins the letter before it (the ligature's final form, `سلام`)
/// and carries no mark, the lam's cell becomes a tatweel (U+0640, a kashida: the joining stroke
/// Arabic lengthens to fill a line), so the word fills the cells measured for it and nothing
/// is left over: a bubble holding the word has the same padding on both sides. Otherwise (an
/// isolated ligature, `الإمارات`, or a lam with a mark) there is no joint to lengthen there,
/// and the lam's becomes `ligated`, which is no scalar and is not drawn; the caller draws that
/// cell as a tatweel at another joint of the word (`joints`), or, in a word without one (`لا`,
/// `الآن`), gives it back at the end of the line (`VisualOrder`), never inside the word.
/// The ligature sits where the alef was because in a right-to-left run the alef's grapheme is
/// drawn just before the lam's: the alef's marks (fathatan in `أهلاً`) follow the ligature in its
/// own grapheme, and the lam's marks (shadda in `إلّا`) follow it from the emptied lam's.
package enum ArabicShaping {
    static let lam: UInt32 = 0x0644
    /// ARABIC TATWEEL: join-causing, one cell (`wcwidth` 1), drawn as the joining stroke.
    package static let tatweel: UInt32 = 0x0640

    /// What a lam joined into the ligature after it becomes: not a Unicode scalar, never drawn.
    /// (A lam joined to the letter before it and without marks becomes `tatweel` instead.)
    package static let ligated: UInt32 = 0xFFFF_FFFF

    /// Shapes `scalars`, one line in logical order, in place; the count never changes (a
    /// ligature's lam becomes `tatweel` or `ligated`). Returns whether anything changed.
    @discardableResult
    package static func shape(_ scalars: inout [UInt32]) -> Bool {
        var joints: [Bool] = []
        return shape(&scalars, joints: &joints)
    }

    /// `shape`, and `joints[i]` true where the letter at `i` is joined to the letter before it
    /// (both letters, marks between them skipped; a ligature's joint is not counted): where a
    /// tatweel may lengthen the word. Empty when nothing joins.
    @discardableResult
    package static func shape(_ scalars: inout [UInt32], joints: inout [Bool]) -> Bool {
        let count = scalars.count
        joints = []
        guard count > 0 else { return false }
        var types = [JoiningType](repeating: .u, count: count)
        var anyJoining = false
        for i in 0..<count {
            let type = BidiTables.properties(scalars[i]).joiningType
            types[i] = type
            if type == .d || type == .r || type == .l { anyJoining = true }
        }
        guard anyJoining else { return false }
        joints = [Bool](repeating: false, count: count)
        let original = scalars
        var changed = false
        var previous: Int? = nil  // the last non-transparent position
        var i = 0
        while i < count {
            let type = types[i]
            if type == .t {
                i &+= 1
                continue
            }
            guard type == .d || type == .r || type == .l else {
                previous = i
                i &+= 1
                continue
            }
            var next = i &+ 1
            while next < count && types[next] == .t { next &+= 1 }
            let joinsBefore = type.joinsBackward && previous.map { types[$0].joinsForward } == true
            let nextType: JoiningType? = next < count ? types[next] : nil

            // Lam then alef, with nothing between but marks; the alef may carry marks too.
            if original[i] == lam, next < count,
               let ligature = BidiTables.lamLigature(with: original[next], final: joinsBefore) {
                scalars[i] = joinsBefore && next == i &+ 1 ? tatweel : ligated
                scalars[next] = ligature
                changed = true
                // The alef's joins nothing after it; the marks after it are skipped as transparent.
                previous = next
                i = next &+ 1
                continue
            }
            if joinsBefore, let previous, types[previous] == .d || types[previous] == .l {
                joints[i] = true
            }
            let joinsAfter = type.joinsForward && nextType?.joinsBackward == true
            let form = joinsBefore ? (joinsAfter ? 3 : 1) : (joinsAfter ? 2 : 0)
            if let shaped = BidiTables.presentationForm(of: original[i], form: form)
                ?? (form == 3 ? BidiTables.presentationForm(of: original[i], form: 1) : nil) {
                scalars[i] = shaped
                changed = true
            }
            previous = i
            i &+= 1
        }
        return changed
    }
}
