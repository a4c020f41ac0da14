import BubbleLogs

/// A usage mistake: printed with the command's usage, and the process exits with code 2.
public struct UsageError: Error, CustomStringConvertible, Equatable {
    public var message: String
    /// Escapes `message` here, once, since most usage errors quote the token the user gave.
    public init(_ message: String) { self.message = DiagnosticText.escaped(message) }
    public var description: String { message }
}

/// Arguments parsed against a `CommandSpec`: typed accessors that reject bad values by name.
///
/// Options are read by their declaration (`arguments.integer(Options.width, in: …)`), the same
/// `OptionSpec` value the spec lists, so the key is written once and a typo does not compile.
/// There are no accessors by name. Reading a declaration the spec does not list is a programming
/// error, and stops the program instead of reading nil.
public struct ParsedArguments: Sendable {
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The primary names of the options the spec declares.
    private let declared: Set<String>
    private let command: String

    /// Parses `arguments` (without the program and command names) against `spec`. `elsewhere`,
    /// the other commands, lets an unknown option be answered with where it does belong.
    public init(_ arguments: [String], spec: CommandSpec, elsewhere: [CommandSpec] = []) throws(UsageError) {
        var byName: [String: OptionSpec] = [:]
        for option in spec.options { for name in option.names { byName[name] = option } }
        declared = Set(spec.options.map(\.primaryName))
        command = spec.name
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if onlyPositionals || token == "-" || !token.hasPrefix("-") {
                positionals.append(token)
                continue
            }
            if token == "--" { onlyPositionals = true; continue }
            var name = token
            var inlineValue: String?
            if token.hasPrefix("--"), let equals = token.firstIndex(of: "=") {
                name = String(token[..<equals])
                inlineValue = String(token[token.index(after: equals)...])
            } else if !token.hasPrefix("--"), byName[token] == nil, byName["-" + token] == nil,
                      let short = byName[String(token.prefix(2))], !short.isFlag {
                // As getopt reads it: `-w40` is `-w 40` for an option that takes a value. But a
                // long name typed with one dash (`-width`) is that mistake, not `-w idth`.
                name = String(token.prefix(2))
                inlineValue = String(token.dropFirst(2))
            }
            guard let option = byName[name] else {
                throw UsageError("unknown option '\(name)'\(Self.hint(for: name, among: byName.keys, elsewhere: elsewhere, command: spec.name))")
            }
            let key = option.primaryName
            if option.isFlag {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
                flags.insert(key)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("option '\(name)' needs a value (\(name) \(option.valueName ?? "VALUE"))")
            }
            if !option.repeats, values[key] != nil {
                throw UsageError("option '\(name)' was given more than once")
            }
            values[key, default: []].append(value)
        }
        let required = spec.arguments.filter { !$0.isOptional }.count
        if positionals.count > spec.arguments.count, !flags.contains(CommandSpec.helpOption.primaryName) {
            throw UsageError("unexpected argument '\(positionals[spec.arguments.count])'")
        }
        if positionals.count < required, !flags.contains(CommandSpec.helpOption.primaryName) {
            throw UsageError("missing argument \(spec.arguments[positionals.count].name)")
        }
    }

    /// `option`'s primary name (`--width`), which the spec must declare.
    private func checked(_ option: OptionSpec) -> String {
        let name = option.primaryName
        precondition(declared.contains(name), "bubbles \(command) reads option '\(name)', which its spec does not declare")
        return name
    }

    /// Whether the command's spec declares `option` (for options that several commands read
    /// through one shared reader, but only some declare).
    public func declares(_ option: OptionSpec) -> Bool { declared.contains(option.primaryName) }

    /// Whether the flag was given.
    public func flag(_ option: OptionSpec) -> Bool { flags.contains(checked(option)) }

    /// The last value given for `option`, if any.
    public func string(_ option: OptionSpec) -> String? { values[checked(option)]?.last }

    /// Every value given for a repeating option, in order.
    public func strings(_ option: OptionSpec) -> [String] { values[checked(option)] ?? [] }

    public func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }

    /// An integer option within `range`, or a usage error naming the bad token.
    public func integer(_ option: OptionSpec, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = string(option) else { return nil }
        return try Self.integer(text, option: option.primaryName, in: range)
    }

    /// Every integer given for `option`, accepting repeats and comma lists (`--width 40,80`). With
    /// `distinct`, a value given twice (`--width 40,40`, `--width 80 --width 80`) is a usage error
    /// rather than quietly dropped or used twice: it is most likely a typo for another value, and
    /// each value is one column of the output.
    public func integers(_ option: OptionSpec, in range: ClosedRange<Int>, distinct: Bool = false) throws(UsageError) -> [Int] {
        var result: [Int] = []
        for text in strings(option) {
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let value = try Self.integer(String(part), option: option.primaryName, in: range)
                guard !distinct || !result.contains(value) else {
                    throw UsageError("invalid value '\(text)' for \(option.primaryName): \(value) is given more than once")
                }
                result.append(value)
            }
        }
        return result
    }

    /// One of the option's declared `choices`, or a usage error that lists them.
    public func choice(_ option: OptionSpec) throws(UsageError) -> String? {
        precondition(!option.choices.isEmpty, "\(option.primaryName) declares no choices")
        return try choice(option, from: option.choices)
    }

    /// One of a fixed set of words, or a usage error that lists them.
    public func choice(_ option: OptionSpec, from choices: [String]) throws(UsageError) -> String? {
        guard let text = string(option) else { return nil }
        guard choices.contains(text) else {
            throw UsageError("invalid value '\(text)' for \(option.primaryName): expected one of \(choices.joined(separator: ", "))")
        }
        return text
    }

    /// What follows "unknown option 'NAME'": the option of this command it most likely meant, else
    /// the other commands that have it (`-n` is `bench`'s `--messages`), else nothing.
    static func hint(for name: String, among names: some Sequence<String>, elsewhere: [CommandSpec], command: String) -> String {
        if let near = closestName(to: name, among: names) { return " (did you mean '\(near)'?)" }
        let owners = elsewhere.filter { $0.name != command }.compactMap { other in
            other.options.first { $0.names.contains(name) }.map { option in
                "'bubbles \(other.name)'" + (option.primaryName == name ? "" : ", as \(option.primaryName)")
            }
        }
        guard !owners.isEmpty else { return "" }
        return " (\(name) belongs to \(owners.joined(separator: " and ")); 'bubbles \(command)' has no such option)"
    }

    /// The known option a mistyped one most likely meant (`--colour` → `--color`, `-width` →
    /// `--width`). Names are compared without their dashes, and the edits allowed grow with the
    /// name: none for one or two letters (`-n` is one edit from `-h` and from every other short
    /// option, which says nothing of what was meant), one up to five letters, two beyond.
    static func closestName(to name: String, among names: some Sequence<String>) -> String? {
        let typedName = name.drop { $0 == "-" }
        // A long option typed with one dash (`-width`) or with three.
        if typedName.count > 1, let long = names.first(where: { $0 == "--" + typedName }) { return long }
        // The right name in the wrong case (`-W`, `--Width`).
        if let same = names.sorted().first(where: { $0.lowercased() == name.lowercased() }) { return same }
        let typed = Array(typedName.unicodeScalars)
        let allowed = typed.count <= 2 ? 0 : typed.count <= 5 ? 1 : 2
        guard allowed > 0 else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in names.sorted() where candidate.hasPrefix("--") {
            let distance = editDistance(typed, Array(candidate.dropFirst(2).unicodeScalars))
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Edit distance where swapping two neighbours is one edit, as in the typo `--widht` (optimal
    /// string alignment), one row at a time.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }

    static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text) else {
            // Digits too many for an Int are a number out of range, not "not a number".
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            let isNumber = !digits.isEmpty && digits.utf8.allSatisfy { (0x30...0x39).contains($0) }
            throw UsageError("invalid value '\(text)' for \(option): expected \(isNumber ? "\(range.lowerBound) to \(range.upperBound)" : "a whole number")")
        }
        guard range.contains(value) else {
            throw UsageError("invalid value '\(text)' for \(option): expected \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
