#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Skype's export as delivered: a tar archive (`8_live_ana_export.tar`) holding `messages.json`
/// beside a `media` folder. Only `messages.json` is read: the archive is walked header by header
/// (a regular file is read where it lies, with `pread`; bytes in memory in place; a pipe is held in
/// memory up to `ZipLimits.maximumStreamedArchive`), and the one entry is read within the memory
/// budget. POSIX ustar, GNU long names and pax `path` records are understood; each header's
/// checksum is checked, so a damaged archive is said to be one.
enum SkypeTar {
    /// `ustar` at offset 257 of the first block, or a `.tar` name.
    static func isTar(path: String, head: [UInt8]) -> Bool {
        if path.lowercased().hasSuffix(".tar") { return true }
        return head.count >= 262 && Array(head[257..<262]) == Array("ustar".utf8)
    }

    /// One file found in the archive.
    struct Entry {
        var name: String
        var offset: Int
        var size: Int
    }

    static func open(_ input: InputFile, format: LogFormat, options: LogReadOptions) throws(LogInputError) -> LogReader {
        guard format == .auto || format == .skype else {
            throw LogInputError(file: input.display, message: "a tar archive; only a Skype export is read from one (--input auto or skype)")
        }
        let bytes = try archiveBytes(of: input)
        let entry = try messagesEntry(in: bytes, name: input.display)
        guard entry.size <= options.memoryBudget else {
            throw LogInputError(file: input.display + ":" + entry.name, message: "\(byteCount(entry.size)), past the memory budget of \(byteCount(options.memoryBudget)) for a document read whole")
        }
        guard let json = bytes.read(at: entry.offset, length: entry.size) else {
            throw LogInputError(file: input.display + ":" + entry.name, message: "cannot read the entry: the archive ends inside it")
        }
        let place = input.display + ":" + entry.name
        let document: JSONValue
        do {
            document = try JSONParser(maximumTreeBytes: LogReadOptions.maximumTreeBytes(budget: options.memoryBudget)).parse(json)
        } catch {
            if error.isOverBudget {
                throw LogInputError(file: place, line: error.line, message: "\(error.message), past the memory budget of \(byteCount(options.memoryBudget)) for a document read whole")
            }
            let what = error.isTruncation ? "truncated JSON" : "invalid JSON"
            throw LogInputError(file: place, line: error.line, message: "\(what) at column \(error.column): \(error.message); expected one complete JSON document")
        }
        let export = try SkypeExport.producer(document: document, file: place, options: options)
        let reader = LogReader(file: place, format: .skype, strict: options.strict, producer: export.producer)
        reader.warnings = export.warnings
        return reader
    }

    /// The `messages.json` nearest the archive's root.
    static func messagesEntry(in bytes: ZipBytes, name: String) throws(LogInputError) -> Entry {
        var found: Entry?
        var seen: [String] = []
        var offset = 0
        var longName: String?
        while offset + 512 <= bytes.count {
            guard let header = bytes.read(at: offset, length: 512) else {
                throw LogInputError(file: name, message: "cannot read the tar header at byte \(offset)")
            }
            if header.allSatisfy({ $0 == 0 }) { break }
            guard checksumMatches(header) else {
                throw LogInputError(file: name, message: "not a tar archive, or a damaged one: the header at byte \(offset) fails its checksum")
            }
            guard let size = number(header[124..<136]), size >= 0, size <= bytes.count else {
                throw LogInputError(file: name, message: "a damaged tar archive: the header at byte \(offset) gives no readable size")
            }
            let dataStart = offset + 512
            guard dataStart <= bytes.count - size else {
                throw LogInputError(file: name, message: "a truncated tar archive: an entry of \(byteCount(size)) at byte \(dataStart) runs past its end")
            }
            let type = header[156]
            switch type {
            case UInt8(ascii: "L"), UInt8(ascii: "x"):
                // The next entry's long name (GNU) or its pax records; only a name is taken.
                guard size <= 1 << 20, let data = bytes.read(at: dataStart, length: size) else {
                    throw LogInputError(file: name, message: "a damaged tar archive: an extended header at byte \(offset) of \(byteCount(size))")
                }
                longName = type == UInt8(ascii: "L") ? String(decoding: data.prefix { $0 != 0 }, as: UTF8.self) : paxPath(data)
            case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
                var path = longName ?? headerName(header)
                longName = nil
                while path.hasPrefix("./") { path.removeFirst(2) }
                if seen.count < 5 { seen.append(path) }
                if path == "messages.json" || path.hasSuffix("/messages.json"),
                   found.map({ path.split(separator: "/").count < $0.name.split(separator: "/").count }) ?? true {
                    found = Entry(name: path, offset: dataStart, size: size)
                }
            default:
                longName = nil
            }
            offset = dataStart + (size + 511) / 512 * 512
        }
        guard let found else {
            let names = seen.map { "\"\(DiagnosticText.quoted($0, limit: 40))\"" }.joined(separator: ", ")
            throw LogInputError(file: name, message: "no Skype export in this tar archive: expected messages.json\(seen.isEmpty ? "; the archive is empty" : "; it holds \(names)")")
        }
        return found
    }

    private static func headerName(_ header: [UInt8]) -> String {
        let name = String(decoding: header[0..<100].prefix { $0 != 0 }, as: UTF8.self)
        guard Array(header[257..<262]) == Array("ustar".utf8) else { return name }
        let prefix = String(decoding: header[345..<500].prefix { $0 != 0 }, as: UTF8.self)
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    /// The `path` of pax records (`"25 path=dir/messages.json\n"`), or nil.
    private static func paxPath(_ data: [UInt8]) -> String? {
        for record in data.split(separator: 0x0A) {
            guard let space = record.firstIndex(of: 0x20) else { continue }
            let field = record[(space + 1)...]
            if field.starts(with: Array("path=".utf8)) { return String(decoding: field.dropFirst(5), as: UTF8.self) }
        }
        return nil
    }

    /// An octal field (NUL or space ended), or GNU's base-256 form for large sizes.
    private static func number(_ field: ArraySlice<UInt8>) -> Int? {
        if let first = field.first, first & 0x80 != 0 {
            var value = 0
            for byte in field.dropFirst() {
                guard value < Int.max >> 9 else { return nil }
                value = value << 8 | Int(byte)
            }
            return value
        }
        var value = 0
        var digits = 0
        for byte in field {
            if byte == 0 || byte == 0x20 {
                if digits > 0 { break }
                continue
            }
            guard byte >= 0x30, byte <= 0x37, value < Int.max >> 4 else { return nil }
            value = value * 8 + Int(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The sum of the header's bytes with its checksum field read as spaces, against that field.
    private static func checksumMatches(_ header: [UInt8]) -> Bool {
        guard let stated = number(header[148..<156]) else { return false }
        var sum = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 0x20 : Int(byte) }
        return sum == stated
    }

    /// The archive's bytes: a regular file or bytes in memory in place; a pipe into memory.
    private static func archiveBytes(of input: InputFile) throws(LogInputError) -> ZipBytes {
        if let memory = input.memoryBytes { return MemoryZipBytes(bytes: memory) }
        var info = stat()
        if input.path != "-", fstat(input.fileDescriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            let descriptor = dup(input.fileDescriptor)
            if descriptor >= 0 { return FileZipBytes(descriptor: descriptor, count: Int(info.st_size)) }
        }
        let limit = ZipLimits.standard.maximumStreamedArchive
        let tooLarge = LogInputError(file: input.display, message: "an archive read from a pipe is held in memory, and this one is larger than the limit of \(byteCount(limit)); read it from a file")
        var bytes = input.prefix
        guard bytes.count <= limit else { throw tooLarge }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = SystemIO.readSome(input.fileDescriptor, into: &chunk)
            if got < 0 { throw LogInputError(file: input.display, message: "cannot read: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            guard bytes.count + got <= limit else { throw tooLarge }
            bytes += chunk[..<got]
        }
        return MemoryZipBytes(bytes: bytes)
    }
}
