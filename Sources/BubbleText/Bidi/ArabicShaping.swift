/// Arabic joining for terminals that do not shape: each letter becomes its contextual
/// presentation form (isolated, final, initial or medial; Arabic Presentation Forms-B, and
/// Forms-A for letters Forms-B lacks), chosen from the Joining_Type of its neighbours
/// (ArabicShaping.txt; transparent marks are skipped), and lam followed by alef becomes a
/// lam-alef ligature, as fribidi's shaping does.
///
/// Cell widths never change: every form is one cell like its letter, and the ligature, one
/// cell for two letters, is followed by a space in the alef's place. Alef does not join the
/// letter after it, so the space sits where the word had no join anyway.
public enum ArabicShaping {
    static let lam: UInt32 = 0x0644

    /// Shapes `scalars`, one line in logical order, in place; the count never changes.
    /// Returns whether anything changed.
    @discardableResult
    public static func shape(_ scalars: inout [UInt32]) -> Bool {
        let count = scalars.count
        guard count > 0 else { return false }
        var types = [JoiningType](repeating: .u, count: count)
        var anyJoining = false
        for i in 0..<count {
            let type = BidiTables.properties(scalars[i]).joiningType
            types[i] = type
            if type == .d || type == .r || type == .l { anyJoining = true }
        }
        guard anyJoining else { return false }
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

            // Lam then alef (with nothing between but the lam's marks, nothing on the alef).
            if original[i] == lam, next < count, next &+ 1 >= count || types[next &+ 1] != .t,
               let ligature = BidiTables.lamLigature(with: original[next], final: joinsBefore) {
                scalars[i] = ligature
                scalars[next] = 0x20
                changed = true
                // Marks between them stay on the lam's grapheme; the alef's joins nothing after.
                previous = next
                i = next &+ 1
                continue
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
