import BubbleSamples
import BubbleText
import Testing
@testable import BubbleLayout

/// The layout core's one id hash (`identityHash`, `IDHash`): keyed, so ids crafted to collide
/// without the key do not; alike for ids `String` calls equal; the same word by word as byte by
/// byte.
@Suite struct IdentityHashTests {
    /// An unkeyed fold-and-multiply over 8-byte words, the shape of the hash the cache used before:
    /// anyone can compute its state, so anyone can choose ids that share its result.
    private static func unkeyedHash(_ id: String) -> UInt64 {
        var state: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(id.utf8.count)
        for word in words(id) {
            state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
            state ^= state >> 32
        }
        return state
    }

    /// `id`'s UTF-8 as little-endian words, the last padded with zeros.
    private static func words(_ id: String) -> [UInt64] {
        var words: [UInt64] = []
        for (i, byte) in id.utf8.enumerated() {
            if i % 8 == 0 { words.append(0) }
            words[words.count - 1] |= UInt64(byte) << (UInt64(i % 8) * 8)
        }
        return words
    }

    private static func string(ofWords words: [UInt64]) -> String {
        var bytes: [UInt8] = []
        for word in words { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: word >> (UInt64(i) * 8))) } }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Ids of two words that all end in the same state of a hash whose state after one word is
    /// `state(first)` and which xors the next word in: the second word cancels the first's state
    /// (`w₂′ = w₂ ⊕ s(w₁) ⊕ s(w₁′)`), kept only where that leaves it ASCII, so the ids are strings.
    private static func collidingIDs(count: Int, state: (UInt64) -> UInt64) -> [String] {
        let firstWord: UInt64 = 0x6161_6161_6161_6161  // "aaaaaaaa"
        let secondWord: UInt64 = 0x3030_3030_3030_3030  // "00000000"
        let target = state(firstWord) ^ secondWord
        var ids = [string(ofWords: [firstWord, secondWord])]
        var n: UInt64 = 1
        while ids.count < count {
            // Eight letters a–p spelling the counter in base 16: distinct and ASCII.
            var candidate: UInt64 = 0
            for k in 0..<8 { candidate |= (0x61 + (n >> (UInt64(k) * 4)) & 15) << (UInt64(k) * 8) }
            let second = target ^ state(candidate)
            if second & 0x8080_8080_8080_8080 == 0 { ids.append(string(ofWords: [candidate, second])) }
            n += 1
        }
        return ids
    }

    @Test func idsCraftedToCollideUnderAnUnkeyedHashDoNotCollideUnderTheIdHash() {
        let ids = Self.collidingIDs(count: 64) { word in
            let state = (0x243F_6A88_85A3_08D3 ^ 16 ^ word) &* 0x9E37_79B9_7F4A_7C15
            return state ^ state >> 32
        }
        #expect(Set(ids).count == 64 && ids.allSatisfy { $0.utf8.count == 16 })
        #expect(Set(ids.map(Self.unkeyedHash)).count == 1, "the construction makes them collide")
        #expect(Set(ids.map(identityHash)).count == 64)
    }

    @Test func idsCraftedToCollideUnderOneKeyDoNotCollideUnderAnother() {
        let known = IDHash(seed: 0x0123_4567_89AB_CDEF, multiplier: 0x9E37_79B9_7F4A_7C15)
        let ids = Self.collidingIDs(count: 64) { IDHash.mix(0x0123_4567_89AB_CDEF ^ $0, 0x9E37_79B9_7F4A_7C15) }
        #expect(Set(ids.map(known.hash)).count == 1, "whoever knows the key can make ids collide")
        let other = IDHash(seed: 0x0123_4567_89AB_CDEF ^ 1 << 40, multiplier: 0x9E37_79B9_7F4A_7C15)
        #expect(Set(ids.map(other.hash)).count == 64)
        #expect(Set(ids.map(identityHash)).count == 64)
    }

    @Test func theKeyIsDrawnOncePerProcessFromHasher() {
        // Drawn again, from the same per-process `Hasher` seed, it is the same key: cached layouts
        // found by an id's hash are found again for as long as the process lives.
        #expect(IDHash() == IDHash.process)
        // Two keys give unrelated hashes to the same ids: no two of 1,000 agree.
        let a = IDHash(seed: 1, multiplier: 3), b = IDHash(seed: 2, multiplier: 3), c = IDHash(seed: 1, multiplier: 5)
        let ids = (0..<1_000).map { "m\($0)" }
        #expect(zip(ids.map(a.hash), ids.map(b.hash)).allSatisfy { $0 != $1 })
        #expect(zip(ids.map(a.hash), ids.map(c.hash)).allSatisfy { $0 != $1 })
        #expect(Set(ids.map(identityHash)).count == ids.count)
    }

    @Test func idsStringCallsEqualHashAlike() {
        let pairs: [(String, String)] = [
            ("caf\u{E9}", "cafe\u{301}"),  // precomposed and decomposed
            ("\u{212A}-7", "K-7"),  // a Kelvin sign is a K: a non-ASCII id equal to an ASCII one
            ("\u{212B}", "A\u{30A}"),  // Ångström sign
            ("\u{AC00}", "\u{1100}\u{1161}"),  // a Hangul syllable and its jamo
            ("q\u{307}\u{323}", "q\u{323}\u{307}"),  // combining marks put in canonical order
            ("id-\u{1E0B}\u{323}-long-enough-for-words", "id-d\u{323}\u{307}-long-enough-for-words"),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(identityHash(a) == identityHash(b), "\(a.unicodeScalars.map(\.value))")
        }
        // Random ids over an alphabet of base letters, precomposed letters and marks of different
        // combining classes: hashes agree exactly when `String` says the ids are equal.
        var rng = SeededGenerator(seed: 0x1d12)
        let alphabet: [Unicode.Scalar] = ["a", "e", "\u{E9}", "\u{301}", "\u{323}", "\u{307}", "\u{1E0B}", "d", "K", "\u{212A}", "7"]
        var byHash: [UInt64: String] = [:]
        var byID: [String: (hash: UInt64, spelling: String)] = [:]  // keys compare as `String` does
        var equalButSpelledApart = 0
        for i in 0..<4_000 {
            var id = String.UnicodeScalarView()
            for _ in 0..<(1 + i % 13) { id.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let made = String(id), hash = identityHash(made)
            if let earlier = byHash[hash] {
                #expect(earlier == made, "\(earlier.unicodeScalars.map(\.value)) and \(made.unicodeScalars.map(\.value))")
            } else {
                byHash[hash] = made
            }
            if let equal = byID[made] {
                #expect(equal.hash == hash, "\(equal.spelling.unicodeScalars.map(\.value)) and \(made.unicodeScalars.map(\.value))")
                if !equal.spelling.utf8.elementsEqual(made.utf8) { equalButSpelledApart += 1 }
            } else {
                byID[made] = (hash, made)
            }
        }
        #expect(byHash.count > 2_000)
        #expect(equalButSpelledApart > 0, "no two ids were equal in different bytes: the draw checks only one way")
    }

    @Test func theWordAtATimeHashAgreesWithTheByteAtATimeOne() {
        var rng = SeededGenerator(seed: 0x7a11)
        for key in [IDHash.process, IDHash(seed: 5, multiplier: 7)] {
            for length in 0...40 {
                for _ in 0..<8 {
                    // Distinct bytes at every place, so a tail read with the wrong shift shows.
                    let ascii = String(decoding: (0..<length).map { _ in UInt8(1 + rng.next() % 127) }, as: UTF8.self)
                    var copy = ascii
                    let wordwise = copy.withUTF8Elements { key.asciiHash(bytes: $0) }
                    #expect(wordwise == key.hashNFC(ascii), "length \(length)")
                }
            }
        }
    }
}
