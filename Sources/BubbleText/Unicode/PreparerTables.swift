import Synchronization

/// Where `PreparerTables.sharedCopyAddress` points, once published (0 before): a global with a
/// constant initial value, which needs no lazy initialisation.
private let preparerTablesAddress = Atomic<UInt>(0)

/// What the scalar loop reads from process-wide tables, found with one atomic load per text: the
/// generated tables, unpacked once into a form that takes fewer loads per scalar; which ASCII
/// bytes are plain letters; and the line-break pair table.
struct PreparerTables: Sendable {
    // Built once for the process and never freed (`TableMemory`): no reference counting per text.
    /// The entries of U+0000–U+07FF (ASCII, Latin, Greek, Cyrillic, Hebrew, Arabic): one load.
    let narrow: TableMemory<ScalarInfo>
    /// `UnicodeTables`' stage 1 as 16-bit block numbers, and its values as whole entries (the
    /// generated file packs both into 7-bit bytes, which costs five loads and shifts a lookup).
    let stage1: TableMemory<UInt16>
    let stage2: TableMemory<UInt8>
    let values: TableMemory<ScalarInfo>
    /// Bit `b` of the pair (bytes 0–63, bytes 64–127) is set when ASCII byte `b` is a plain letter.
    let plainLetters: (UInt64, UInt64)
    let pairs: LineBreakPairTable

    static let shared = PreparerTables()

    /// `shared`, without the lazy-global check a `static let` costs on every read (on Linux
    /// that check is a `std::call_once`, about 100 instructions: as many as preparing "ok").
    @inline(__always)
    static var current: PreparerTables {
        let address = preparerTablesAddress.load(ordering: .acquiring)
        if _fastPath(address != 0) { return PublishedValue.read(at: address, as: PreparerTables.self) }
        return publishShared()
    }

    @inline(never)
    static func publishShared() -> PreparerTables {
        // Every thread that gets here stores the same address.
        preparerTablesAddress.store(sharedCopyAddress, ordering: .releasing)
        return shared
    }

    /// The address of a copy of `shared` that is never freed, so that it can be published.
    private static let sharedCopyAddress = PublishedValue.immortalAddress(of: shared)

    static let narrowLimit: UInt32 = 0x800

    private init() {
        let packedStage1 = TableMemory(generated: UnicodeTables.stage1Bytes)
        stage1 = TableMemory((0..<(0x110000 >> 7)).map { block in
            UInt16(packedStage1[2 * block]) | UInt16(packedStage1[2 * block + 1]) << 7
        })
        stage2 = TableMemory(generated: UnicodeTables.stage2Bytes)
        let packedValues = TableMemory(generated: UnicodeTables.valueBytes)
        values = TableMemory((0..<(packedValues.count / 3)).map { value in
            ScalarInfo(raw: UInt32(packedValues[3 * value]) | UInt32(packedValues[3 * value + 1]) << 7
                | UInt32(packedValues[3 * value + 2]) << 14)
        })
        let narrow = TableMemory((0..<Self.narrowLimit).map { UnicodeTables.info($0) })
        self.narrow = narrow
        plainLetters = (0..<128).reduce((0, 0)) { bits, byte in
            guard TextPreparer.isPlainLetter(narrow[byte]) else { return bits }
            return byte < 64 ? (bits.0 | 1 << UInt64(byte), bits.1) : (bits.0, bits.1 | 1 << UInt64(byte - 64))
        }
        pairs = LineBreakPairTable.shared
        // The letter run reads ASCII letters eight at a time, taking them as plain.
        precondition((UInt8(ascii: "A")...UInt8(ascii: "Z")).allSatisfy { TextPreparer.isPlainLetter(narrow[Int($0)]) && TextPreparer.isPlainLetter(narrow[Int($0 | 0x20)]) },
                     "PreparerTables: an ASCII letter is not a plain letter")
    }

    /// `UnicodeTables.info(scalar)` for a valid scalar (at most U+10FFFF), in fewer loads.
    @inline(__always)
    func info(_ scalar: UInt32) -> ScalarInfo {
        if scalar < Self.narrowLimit { return narrow[Int(scalar)] }
        let block = Int(stage1[Int(scalar &>> 7)])
        return values[Int(stage2[block &<< 7 | Int(scalar & 127)])]
    }
}
