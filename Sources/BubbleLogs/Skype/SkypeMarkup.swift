/// The XML-like markup in a Skype message's `content`, read leniently into a tree: elements with
/// attributes and children, and text with its character references (`&amp;`, `&#128512;`)
/// decoded. A `<` that does not open a tag is text; an end tag closes the nearest open element
/// of its name (an unknown one is ignored); elements still open at the end are closed there.
/// Nesting deeper than `maximumDepth` is read as siblings, so no input makes the tree deep.
///
/// Linear in the content's length; the tree holds no more text than the content.
struct SkypeMarkup {
    indirect enum Node {
        case text(String)
        case element(Element)
    }

    struct Element {
        /// The tag's name, lowercased.
        var name: String
        var attributes: [String: String]
        var children: [Node] = []

        func attribute(_ key: String) -> String? { attributes[key] }

        /// The first descendant element named `name` (lowercase), depth first.
        func first(_ name: String) -> Element? {
            for child in children {
                guard case .element(let element) = child else { continue }
                if element.name == name { return element }
                if let found = element.first(name) { return found }
            }
            return nil
        }

        /// The child elements named `name`.
        func children(named name: String) -> [Element] {
            children.compactMap { node in
                if case .element(let element) = node, element.name == name { return element }
                return nil
            }
        }

        /// All the text inside, markup removed.
        var text: String {
            var out = ""
            appendText(to: &out)
            return out
        }

        private func appendText(to out: inout String) {
            for child in children {
                switch child {
                case .text(let text): out += text
                case .element(let element): element.appendText(to: &out)
                }
            }
        }
    }

    static let maximumDepth = 32

    /// The content as the children of a nameless root element.
    static func parse(_ content: String) -> Element {
        var bytes = Array(content.utf8)
        // Skype writes Windows line ends in some messages.
        if bytes.contains(0x0D) { bytes = normalizedLineEnds(bytes) }
        var stack = [Element(name: "", attributes: [:])]
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            stack[stack.count - 1].children.append(.text(HTMLEntities.decode(text[...])))
            text.removeAll(keepingCapacity: true)
        }
        func close(to depth: Int) {
            while stack.count > depth {
                let done = stack.removeLast()
                stack[stack.count - 1].children.append(.element(done))
            }
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "<"), let tag = readTag(bytes, from: i) else {
                text.append(byte)
                i += 1
                continue
            }
            flushText()
            i = tag.end
            switch tag.kind {
            case .open(let name, let attributes, let selfClosing):
                let element = Element(name: name, attributes: attributes)
                if selfClosing || stack.count > maximumDepth {
                    stack[stack.count - 1].children.append(.element(element))
                } else {
                    stack.append(element)
                }
            case .close(let name):
                if let index = stack.indices.dropFirst().last(where: { stack[$0].name == name }) {
                    close(to: index)
                }
            case .other:
                break
            }
        }
        flushText()
        close(to: 1)
        return stack[0]
    }

    private enum TagKind {
        case open(String, [String: String], selfClosing: Bool)
        case close(String)
        /// A comment, a declaration or a processing instruction: dropped.
        case other
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D || b == 0x3A || b == 0x2E
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// The tag starting at `start` (a `<`), or nil when the `<` is text.
    private static func readTag(_ bytes: [UInt8], from start: Int) -> (kind: TagKind, end: Int)? {
        var i = start + 1
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "!") || bytes[i] == UInt8(ascii: "?") {
            // `<!-- … -->`, `<!DOCTYPE …>`, `<?xml …?>`.
            if bytes[i...].starts(with: Array("!--".utf8)) {
                var k = i + 3
                while k + 2 < bytes.count {
                    if bytes[k] == UInt8(ascii: "-"), bytes[k + 1] == UInt8(ascii: "-"), bytes[k + 2] == UInt8(ascii: ">") { return (.other, k + 3) }
                    k += 1
                }
                return (.other, bytes.count)
            }
            guard let close = bytes[i...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return (.other, close + 1)
        }
        let closing = bytes[i] == UInt8(ascii: "/")
        if closing { i += 1 }
        let nameStart = i
        while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
        guard i > nameStart, i - nameStart <= 64, !(bytes[nameStart] >= 0x30 && bytes[nameStart] <= 0x39) else { return nil }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
        if closing {
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { return nil }
            return (.close(name), i + 1)
        }
        var attributes: [String: String] = [:]
        while true {
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ">") { return (.open(name, attributes, selfClosing: false), i + 1) }
            if bytes[i] == UInt8(ascii: "/") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else { return nil }
                return (.open(name, attributes, selfClosing: true), i + 2)
            }
            let keyStart = i
            while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
            guard i > keyStart else { return nil }
            let key = String(decoding: bytes[keyStart..<i], as: UTF8.self).lowercased()
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            var value = ""
            if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
                i += 1
                while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                guard i < bytes.count else { return nil }
                let quote = bytes[i]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    guard let end = bytes[(i + 1)...].firstIndex(of: quote) else { return nil }
                    value = HTMLEntities.decode(bytes[(i + 1)..<end])
                    i = end + 1
                } else {
                    let valueStart = i
                    while i < bytes.count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
                    value = HTMLEntities.decode(bytes[valueStart..<i])
                }
            }
            if attributes.count < 64, attributes[key] == nil { attributes[key] = value }
        }
    }

    private static func normalizedLineEnds(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0D {
                out.append(0x0A)
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
            } else {
                out.append(bytes[i])
            }
            i += 1
        }
        return out
    }
}
