/// The man page's longer text: what an option's one help line (`OptionSpec.help`, shown by
/// `--help`) leaves out, and notes on a command after its options. Keyed by an option's first
/// name and a command's name; a test checks every key names a declared option or command.
enum ReferenceDetails {
    /// Paragraphs printed under an option in the man page, by the option's first name. An
    /// option that several commands take has the same details under each.
    static let options: [String: String] = [
        "--me": """
            The name must match as the log writes it (case counts), apart from invisible formatting: \
            bidi marks, embeddings and isolates around it, and the ~ and U+202F that WhatsApp puts before \
            a name not in the exporter's contacts (--me Ana matches ~ Ana; --me "+44 7700 900123" matches a \
            phone number WhatsApp wrapped in U+202A ... U+202C). A name that matches no sender gets a warning \
            listing the first senders read. A Telegram full export defaults to the account that exported it.
            """,
        "--tz": """
            A tz database name or link in any case (Europe/Berlin, europe/berlin, Asia/Calcutta for \
            Asia/Kolkata, utc), or a fixed offset (+05:30, -0800, UTC+2). Abbreviations follow one rule: \
            only the tz database's own names are read (EST, MST and HST are fixed offsets; CET, EET, EST5EDT \
            and PST8PDT keep summer time); any other abbreviation (PST, CEST, IST, BST) is a usage error that \
            suggests a zone, since most stand for several. TZ is read as POSIX reads it: a zone name, or a rule \
            whose offset counts hours west of UTC (TZ=UTC+2 is --tz -02:00, as date shows it); a TZ that names \
            no zone gets a warning.
            """,
        "--channel": """
            A Slack channel is named with or without # or by its id; a Telegram chat by its name or id; a \
            JSON Lines conversation by its conversation value, with or without a leading # (so the names \
            convert writes choose on its output). Without it every conversation is read, in file order. \
            From JSON Lines, the records of other conversations are skipped as they come and counted on the \
            summary line. A name that is none of the input's conversations is a usage error (exit 2) naming \
            those it has: on opening an export, at the end of a JSON Lines stream. On an input with one \
            conversation (WhatsApp, Discord) it is a usage error, not ignored.
            """,
        "--date-order": """
            The default decides it from the file's dates. A value that does not fit the file (ymd for dates \
            that end with the year) is a whole-file error; a file that holds dates of both orders needs it, \
            and then the dates that do not fit are rejected at their line.
            """,
        "--reveal-spoilers": "convert hides spoilers too unless it is given.",
        "--strict": "The counts line then says the run stopped at the first rejected record.",
        "--input": """
            auto detects the format from the start of the input. A Slack export is a folder; a WhatsApp or \
            Slack export can also be given as its .zip, also from a pipe. Files may be UTF-8 or UTF-16 with \
            any line endings.
            """,
        "--width": """
            render: from --width, else COLUMNS, else the terminal's width. heights: each width once (a repeated \
            width is a usage error); in px with --font.
            """,
        "--color": """
            NO_COLOR, or TERM=dumb, turns colour off; CLICOLOR_FORCE or FORCE_COLOR turns it on when the output \
            is not a terminal. Colours are 24-bit when COLORTERM is truecolor or 24bit, else 256-colour; each \
            sender keeps one colour for the whole transcript.
            """,
        "--bidi": """
            visual draws right-to-left text in visual order, right-aligned, with Arabic letters joined: right \
            for terminals that put each character in the next cell (xterm, Alacritty, st, Ghostty, Windows \
            Terminal, tmux; kitty with force_ltr yes). Terminals that reorder by themselves and honour the \
            bidi mode switch are switched to explicit mode (CSI 8 l) around the output, and back (CSI 8 h): \
            those whose environment names VTE_VERSION, KONSOLE_VERSION, MLTERM or TERM_PROGRAM=mintty. For \
            terminals that reorder and cannot be switched (Konsole, mlterm, Apple Terminal, PuTTY) use logical.
            """,
        "--cell-widths": """
            auto sends the terminal a short probe (at most 100 ms; BUBBLES_PROBE_TIMEOUT_MS, 1 to 5000, \
            changes it) and uses the profile its answers show. When the output is not a terminal nothing can \
            be asked. BubbleText's Width Profiles article has the terminal-by-terminal table.
            """,
        "--format": """
            heights: jsonl writes one object a row and width, with conversation after row when the log has \
            conversations; csv writes a header line and the same fields, conversation last. CSV never carries a \
            raw control character: caret form (^M, ^J, ^I), C1 as <85>, bidi controls as <RLO>, separators as \
            <LS> and <PS>.
            """,
        "--font": """
            Repeat it for a fallback chain, first font first; FILE#N picks face N of a collection (.ttc). A \
            file named with # is read whole when it exists. A font or style file that cannot be used is an \
            input error (exit 3) naming the file and the reason.
            """,
        "--style": """
            A JSON object of PixelStyle's keys (the bubble's maximum width fraction, paddings, name, reply \
            quote, footer, image and date heights, group spacing); BubbleFonts' Pixels article lists them and \
            their defaults. Keys it does not know, and values out of range, are errors naming the key.
            """,
        "--follow": """
            JSON Lines files only; the file is checked four times a second. A file truncated, rewritten or \
            replaced is read again from the start, and the status line says which. Other formats, standard \
            input, zips and UTF-16 files refuse --follow with a usage error that says why.
            """,
        "--messages": "bench's synthetic log: several people and days, short and long messages in a dozen scripts, emoji, URLs, images, notices, replies and edits, from --seed.",
        "--save-log": "Writes the synthetic log as JSON Lines and exits, for timing the other commands on it; - writes it to standard output.",
        "--pixels": "Loads each test font, then prepares (words new and seen) and re-lays out the synthetic log's texts and the Chromium sweep's at two widths; ns per scalar.",
        "--viewer": "On FILE (JSON Lines) or the synthetic log: the first screen, a key press's and a resize's frame, a search, and memory with where the bytes go.",
    ]

    /// Paragraphs printed after a command's options in the man page.
    static let commands: [String: String] = [
        "render": """
            Each row is drawn in exactly the number of lines heights gives it at the same width and options, \
            and no line is wider than the width. Standard input and output are streams: a pipe, a FIFO or a \
            process substitution (<(unzip -p chat.zip)) is read once, and rows come out as their messages come \
            in.
            """,
        "heights": """
            height counts terminal rows (or px with --font): the blank line above a group, the sender's name, \
            the bubble's borders, the text's lines (textLines, wrapped at wrapWidth), a reply quote, an image \
            box and the footer when it needs a line of its own. Summing it over the rows gives the \
            transcript's length. heights is a filter: it lays out as the input streams in, on every core, \
            with memory bounded by a window of messages.
            """,
        "view": """
            Several conversations are shown one at a time, each under its heading; the viewer opens on the \
            conversation of the last message. A JSON Lines file of 4 MB or more opens on its last 256 KB \
            while the rest is indexed behind the screen. A pipe, a FIFO or a zip is read once and shown whole. \
            The terminal is always given back: on q, on SIGINT, SIGTERM, SIGHUP or SIGQUIT (then the exit code \
            is 128 plus the signal's number), when the terminal closes, on ctrl-Z and fg, and on a fatal signal.
            """,
        "convert": """
            A filter: any input format in, the native JSON Lines out, with the input's format and counts said \
            on standard error. outgoing is written only for outgoing messages. Exports that write times \
            without a zone (WhatsApp, old Telegram dates) are read in --tz's zone; without --tz a note says \
            which zone read them.
            """,
        "bench": "Run it from a release build (swift run -c release bubbles bench); a debug build says so. BubbleLayout's Performance article has today's figures, each with the command that made it.",
    ]
}
