/// The one place that tells a user what their input's encoding looks like when it is not what
/// the readers take as it is (UTF-8, or UTF-16 with a byte order mark), for every text format:
/// decided once, from the first bytes read for detection, and said once per file rather than on
/// every line that fails.
enum TextEncodingHint {
    /// Notes for the reader to say when it opens: UTF-16 read without a mark, or text that is
    /// not UTF-8 but looks like a legacy 8-bit encoding (then its lines with accents are rejected).
    /// `file` names the input in the notes; `path` is the file to convert, nil for a file inside
    /// an archive (which is converted once taken out).
    static func notes(magic: InputMagic, decodedPrefix: [UInt8], isWhole: Bool, file: String, path: String?) -> [String] {
        switch magic {
        case .utf16LittleEndianUnmarked, .utf16BigEndianUnmarked:
            return ["\(file): read as UTF-16 \(magic.isBigEndian ? "big" : "little")-endian: it has no byte order mark, but every other byte of its start is zero"]
        case .none, .utf8BOM:
            guard looksLikeLegacyEncoding(decodedPrefix, isWhole: isWhole) else { return [] }
            return ["\(file): \(legacyAdvice(path: path))"]
        case .utf16LittleEndian, .utf16BigEndian, .utf32:
            return []
        }
    }

    /// What to do about text in a legacy encoding, naming the file in the command when there is one.
    static func legacyAdvice(path: String?) -> String {
        var command = "iconv -f WINDOWS-1252 -t UTF-8"
        if let path, path != "-" {
            let target = path.hasSuffix(".txt") ? String(path.dropLast(4)) + "-utf8.txt" : path + ".utf8"
            command += " \(shellWord(path)) > \(shellWord(target))"
        }
        return "not UTF-8: its bytes look like a legacy 8-bit encoding such as Windows-1252 (Latin-1), so each line holding one is rejected; convert the file first: \(command) (with the file's own encoding if it is another, such as WINDOWS-1251 for Cyrillic)"
    }

    /// Text that fails UTF-8 the way a legacy 8-bit encoding does: few control bytes (so not a
    /// binary file), and at least half of the bytes above 0x7F not part of a well-formed UTF-8
    /// sequence (an accented letter in Windows-1252 or Latin-1 is one byte among ASCII, which
    /// UTF-8 never allows). A UTF-8 file with a stray damaged byte has most of its non-ASCII
    /// bytes in good sequences, and gets only its per-line diagnostics.
    static func looksLikeLegacyEncoding(_ bytes: [UInt8], isWhole: Bool) -> Bool {
        // A prefix cut at its end may cut a good sequence: that end is not held against it.
        let sample = isWhole ? bytes[...] : bytes.dropLast(3)
        var controls = 0, high = 0
        for byte in sample {
            if byte >= 0x80 {
                high += 1
            } else if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C && byte != 0x1B || byte == 0x7F {
                controls += 1
            }
        }
        guard high > 0, controls * 200 <= sample.count else { return false }
        let invalid = Array(sample).withByteView { buffer in
            var count = 0
            var position = 0
            while position < buffer.count, let offset = firstInvalidUTF8Offset(buffer.bytes(from: position)) {
                count += 1
                position += offset + 1
            }
            return count
        }
        return invalid > 0 && invalid * 2 >= high
    }

    /// `word` as one shell word: as it is when it holds only safe characters, else single-quoted.
    private static func shellWord(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "._-/+:@,".unicodeScalars.contains(s)
        }
        if safe && !word.isEmpty { return word }
        var quoted = "'"
        for s in word.unicodeScalars {
            if s == "'" { quoted += "'\\''" } else { quoted.unicodeScalars.append(s) }
        }
        return quoted + "'"
    }
}
