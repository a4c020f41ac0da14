import Foundation

/// The shells `bubbles completions` writes a script for.
enum CompletionShell: String, CaseIterable {
    case bash, zsh, fish
}

/// Completion scripts made from the commands' specs: the commands, each command's options, the
/// values of options with fixed choices, and file names where a `FILE` is expected.
enum CompletionScript {
    static func text(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    static var specs: [CommandSpec] { BubblesCommandLine.commands.map { $0.spec } }
    static var commandNames: [String] { specs.map(\.name) }

    /// An option's help cut to its first sentence, for the shells' menus.
    static func summary(_ help: String) -> String {
        var text = help
        if let end = text.range(of: ". ") { text = String(text[..<end.lowerBound]) }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    // MARK: bash

    static func bash() -> String {
        var lines = [
            "# bash completion for bubbles. Made by 'bubbles completions bash' from the option declarations.",
            "# Load it with: source <(bubbles completions bash)",
            "",
            "_bubbles_reply() {",
            "    COMPREPLY=()",
            "    local line",
            "    while IFS= read -r line; do COMPREPLY+=(\"$line\"); done",
            "}",
            "",
            "# $1: files, dirs, none, or words with the words in $2.",
            "_bubbles_complete_value() {",
            "    case $1 in",
            "        files) compopt -o filenames 2>/dev/null; _bubbles_reply < <(compgen -f -- \"$cur\") ;;",
            "        dirs) compopt -o filenames 2>/dev/null; _bubbles_reply < <(compgen -d -- \"$cur\") ;;",
            "        none) COMPREPLY=() ;;",
            "        words) _bubbles_reply < <(compgen -W \"$2\" -- \"$cur\") ;;",
            "    esac",
            "}",
            "",
            "_bubbles() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=\"\" i word command=\"\" start=0",
            "    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    # --option=value: bash splits the word at '='.",
            "    if [[ $cur == \"=\" ]]; then cur=\"\"",
            "    elif [[ $prev == \"=\" ]] && (( COMP_CWORD > 1 )); then prev=${COMP_WORDS[COMP_CWORD-2]}",
            "    fi",
            "    for (( i = 1; i < COMP_CWORD; i++ )); do",
            "        word=${COMP_WORDS[i]}",
            "        case $word in",
            "            -*) ;;",
            "            *) command=$word; start=$i; break ;;",
            "        esac",
            "    done",
            "    if [[ -z $command ]]; then",
            "        if [[ $cur == -* ]]; then",
            "            _bubbles_complete_value words \(bashWords(BubblesCommandLine.options.flatMap(\.names)))",
            "        else",
            "            _bubbles_complete_value words \(bashWords(commandNames))",
            "        fi",
            "        return 0",
            "    fi",
            "    local options=\"\" valued=\"\" count=0",
            "    case $command in",
        ]
        for spec in specs {
            let valued = spec.options.filter { !$0.isFlag }.flatMap(\.names)
            lines.append("        \(spec.name))")
            lines.append("            options=\(bashWords(spec.options.flatMap(\.names)))")
            lines.append("            valued=\(bashWords(valued))")
            let valueOptions = spec.options.filter { !$0.isFlag }
            if !valueOptions.isEmpty {
                lines.append("            case $prev in")
                for option in valueOptions {
                    lines.append("                \(option.names.joined(separator: "|"))) _bubbles_complete_value \(bashCompletion(option.valueCompletion)); return 0 ;;")
                }
                lines.append("            esac")
            }
            lines.append("            ;;")
        }
        lines += [
            "        *) return 0 ;;",
            "    esac",
            "    # Which positional argument this is: the words after the command, less options and their values.",
            "    local positionals_only=0",
            "    for (( i = start + 1; i < COMP_CWORD; i++ )); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ $word == -- ]]; then",
            "            (( count += COMP_CWORD - i - 1 ))",
            "            positionals_only=1",
            "            break",
            "        elif [[ $word == -?* ]]; then",
            "            if [[ \" $valued \" == *\" $word \"* ]]; then",
            "                if [[ ${COMP_WORDS[i+1]} == \"=\" ]]; then (( i += 2 )); else (( i += 1 )); fi",
            "            elif [[ ${COMP_WORDS[i+1]} == \"=\" ]]; then",
            "                (( i += 2 ))",
            "            fi",
            "        else",
            "            (( count += 1 ))",
            "        fi",
            "    done",
            "    if [[ $cur == -?* ]] && (( ! positionals_only )); then",
            "        _bubbles_complete_value words \"$options\"",
            "        return 0",
            "    fi",
            "    case $command:$count in",
        ]
        for spec in specs {
            for (index, argument) in spec.arguments.enumerated() {
                lines.append("        \(spec.name):\(index)) _bubbles_complete_value \(bashCompletion(argument.valueCompletion)) ;;")
            }
        }
        lines += [
            "        *) COMPREPLY=() ;;",
            "    esac",
            "    return 0",
            "}",
            "",
            "complete -F _bubbles bubbles",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A list of words as one double-quoted bash word. The words are our own option names and
    /// choices: letters, digits and dashes.
    static func bashWords(_ words: [String]) -> String {
        "\"" + words.joined(separator: " ") + "\""
    }

    static func bashCompletion(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: "none"
        case .files: "files"
        case .directories: "dirs"
        case .words(let words): "words " + bashWords(words)
        case .commands: "words " + bashWords(commandNames)
        }
    }

    // MARK: zsh

    static func zsh() -> String {
        var lines = [
            "#compdef bubbles",
            "# zsh completion for bubbles. Made by 'bubbles completions zsh' from the option declarations.",
            "# Install it as _bubbles in a folder on fpath, or load it with: source <(bubbles completions zsh)",
            "",
            "_bubbles() {",
            "    local curcontext=$curcontext state line ret=1",
            "    typeset -A opt_args",
            "    _arguments -C \\",
        ]
        for option in BubblesCommandLine.options {
            lines.append("        \(zshOption(option, exclusive: true)) \\")
        }
        lines += [
            "        '1:command:->command' \\",
            "        '*::argument:->argument' && ret=0",
            "    case $state in",
            "        command)",
            "            local -a commands",
            "            commands=(",
        ]
        for spec in specs {
            lines.append("                \(zshQuoted(spec.name + ":" + zshEscapedDescription(summary(spec.abstract))))")
        }
        lines += [
            "            )",
            "            _describe -t commands 'bubbles command' commands && ret=0",
            "            ;;",
            "        argument)",
            "            curcontext=${curcontext%:*:*}:bubbles-$words[1]:",
            "            case $words[1] in",
        ]
        for spec in specs {
            lines.append("                \(spec.name)) _bubbles_\(spec.name) && ret=0 ;;")
        }
        lines += [
            "            esac",
            "            ;;",
            "    esac",
            "    return ret",
            "}",
        ]
        for spec in specs {
            lines += ["", "_bubbles_\(spec.name)() {", "    _arguments -S \\"]
            var specLines = spec.options.map { zshOption($0, exclusive: false) }
            for (index, argument) in spec.arguments.enumerated() {
                let action = zshAction(argument.valueCompletion)
                specLines.append(zshQuoted("\(index + 1):\(argument.isOptional ? ":" : "")\(argument.name):\(action)"))
            }
            for (index, line) in specLines.enumerated() {
                lines.append("        " + line + (index == specLines.count - 1 ? "" : " \\"))
            }
            lines.append("}")
        }
        lines += [
            "",
            "if [[ $funcstack[1] == _bubbles ]]; then",
            "    _bubbles \"$@\"",
            "else",
            "    compdef _bubbles bubbles",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `_arguments` spec for `option`: its names, each of its names excluding the others (or,
    /// with `exclusive`, everything else, as `--help` and `--version` do), its description, and
    /// its value's completion.
    static func zshOption(_ option: OptionSpec, exclusive: Bool) -> String {
        let description = "[" + zshEscapedDescription(summary(option.help)) + "]"
        let value = option.valueName.map { ":" + zshEscapedDescription($0) + ":" + zshAction(option.valueCompletion) } ?? ""
        let forms = option.names.map { name -> String in
            guard !option.isFlag else { return name }
            return name.hasPrefix("--") ? name + "=" : name + "+"
        }
        var prefix = ""
        if exclusive {
            prefix = "(- *)"
        } else if !option.repeats && option.names.count > 1 {
            prefix = "(" + option.names.joined(separator: " ") + ")"
        }
        if option.repeats { prefix += "*" }
        if forms.count == 1 { return zshQuoted(prefix + forms[0] + description + value) }
        return (prefix.isEmpty ? "" : zshQuoted(prefix)) + "{" + forms.joined(separator: ",") + "}" + zshQuoted(description + value)
    }

    static func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: " "
        case .files: "_files"
        case .directories: "_files -/"
        case .words(let words): "(" + words.joined(separator: " ") + ")"
        case .commands: "(" + commandNames.joined(separator: " ") + ")"
        }
    }

    /// Text inside an `_arguments` description or message: `\`, `[`, `]` and `:` escaped.
    static func zshEscapedDescription(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\[]:".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `text` in single quotes for zsh.
    static func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: fish

    static func fish() -> String {
        var lines = [
            "# fish completion for bubbles. Made by 'bubbles completions fish' from the option declarations.",
            "# Install it as ~/.config/fish/completions/bubbles.fish, or load it with: bubbles completions fish | source",
            "",
            "complete -c bubbles -e",
            "complete -c bubbles -f",
        ]
        for option in BubblesCommandLine.options {
            lines.append(fishOption(option, condition: "__fish_use_subcommand"))
        }
        for spec in specs {
            lines.append("complete -c bubbles -n __fish_use_subcommand -a \(fishQuoted(spec.name)) -d \(fishQuoted(summary(spec.abstract)))")
        }
        for spec in specs {
            let condition = "__fish_seen_subcommand_from \(spec.name)"
            for option in spec.options { lines.append(fishOption(option, condition: condition)) }
            // Positional arguments (fish cannot tell them apart by place: any one of them is offered).
            for argument in spec.arguments {
                let argumentCompletion: String
                switch argument.valueCompletion {
                case .none: continue
                case .files: argumentCompletion = "-F"
                case .directories: argumentCompletion = "-a '(__fish_complete_directories)'"
                case .words(let words): argumentCompletion = "-a " + fishQuoted(words.joined(separator: " "))
                case .commands: argumentCompletion = "-a " + fishQuoted(commandNames.joined(separator: " "))
                }
                lines.append("complete -c bubbles -n \(fishQuoted(condition)) \(argumentCompletion) -d \(fishQuoted(summary(argument.help)))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func fishOption(_ option: OptionSpec, condition: String) -> String {
        var parts = ["complete -c bubbles -n", fishQuoted(condition)]
        for name in option.names {
            if name.hasPrefix("--") {
                parts.append("-l " + fishQuoted(String(name.dropFirst(2))))
            } else if name.count == 2 {
                parts.append("-s " + fishQuoted(String(name.dropFirst())))
            } else {
                parts.append("-o " + fishQuoted(String(name.dropFirst())))
            }
        }
        if !option.isFlag {
            switch option.valueCompletion {
            case .none: parts.append("-x")
            case .files: parts.append("-r -F")
            case .directories: parts.append("-x -a '(__fish_complete_directories)'")
            case .words(let words): parts.append("-x -a " + fishQuoted(words.joined(separator: " ")))
            case .commands: parts.append("-x -a " + fishQuoted(commandNames.joined(separator: " ")))
            }
        }
        parts.append("-d " + fishQuoted(summary(option.help)))
        return parts.joined(separator: " ")
    }

    /// `text` in single quotes for fish, where `\` and `'` are escaped with `\`.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
