/// The subtables of one GSUB or GPOS lookup, extension subtables followed to what they wrap.
///
/// An extension lookup (type 7 in GSUB, 9 in GPOS) wraps every one of its subtables, each naming
/// the real lookup type; the spec requires them all to name the same one. So the lookup's type is
/// its first subtable's real type, and a later subtable naming another type is skipped.
struct LookupSubtables {
    /// The lookup's real type (0 for an extension that names itself, which no reader takes).
    private(set) var type: UInt16
    /// Its subtables, unwrapped; empty when `wanted` turned the lookup's type away.
    private(set) var subtables: [FontBytes] = []

    /// Reads the Lookup table `lookup`. `wanted` says which real types are read at all: a lookup
    /// of any other type stops at its first subtable, so its other subtables are never touched.
    init(_ lookup: FontBytes, extensionType: UInt16, wanted: (UInt16) -> Bool) throws(FontError) {
        let declared = try lookup.u16(0)
        let count = Int(try lookup.u16(4))
        type = declared
        for s in 0..<count {
            var subtable = try lookup.from(Int(try lookup.u16(6 + 2 * s)))
            if declared == extensionType {
                guard try subtable.u16(0) == 1 else { throw subtable.error(0, "extension subtable format is not 1") }
                let realType = try subtable.u16(2)
                subtable = try subtable.from(Int(try subtable.u32(4)))
                if s == 0 { type = realType == extensionType ? 0 : realType }
                guard realType == type else { continue }
            }
            guard wanted(type) else { return }
            subtables.append(subtable)
        }
    }
}
