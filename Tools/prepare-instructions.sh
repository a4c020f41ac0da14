#!/usr/bin/env bash
# Instructions `PreparedText` takes to prepare chat text, counted by callgrind: steady on a
# loaded machine, where wall-clock figures of a few per cent are noise. Compiles BubbleText's
# sources (of this checkout, or of CHECKOUT: another worktree, or a `git archive` of an older
# commit) into one program with a small driver, runs it under valgrind with and without the
# prepare loop, and prints the difference per scalar. Needs valgrind (apt-get install valgrind).
#
#     Tools/prepare-instructions.sh [CHECKOUT] [MESSAGES]    # default: this checkout, 3000
#     git archive REV Sources | tar -x -C /tmp/before && Tools/prepare-instructions.sh /tmp/before
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
count=${2:-3000}
command -v valgrind >/dev/null || { echo "prepare-instructions: valgrind is not installed" >&2; exit 1; }
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
cat > "$build/main.swift" <<'EOF'
// Prepares the text benchmark's messages once each ("prepare"), or only makes them ("none").
let count = Int(CommandLine.arguments[1])!
let texts = TextBenchmarkCorpus.messages(count: count)
var scalars = 0
for text in texts { scalars += text.unicodeScalars.count }
var sink = 0
if CommandLine.arguments[2] == "prepare" {
    for text in texts { sink &+= PreparedText(text).segmentCount }
} else {
    for text in texts { sink &+= text.utf8.count }
}
print(scalars, sink)
EOF
# TextBenchmarkCorpus.swift wherever it is under Sources outside BubbleText (older checkouts have it in BubbleText).
sources=$( (find "$root/Sources/BubbleText" -name '*.swift'; find "$root/Sources" -name TextBenchmarkCorpus.swift -not -path '*/BubbleText/*') | sort)
# shellcheck disable=SC2086
swiftc -O -wmo -module-name Driver $sources "$build/main.swift" -o "$build/prepare"
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$build/prepare" "$count" "$1" 2>&1 >/dev/null | awk '/Collected/ { print $4 }'
}
with=$(instructions prepare)
without=$(instructions none)
scalars=$("$build/prepare" "$count" none | cut -d ' ' -f 1)
awk -v w="$with" -v wo="$without" -v s="$scalars" -v n="$count" -v r="$root" 'BEGIN {
  printf "%s: %d messages, %d scalars: prepare %.2f M instructions, %.1f per scalar\n", r, n, s, (w - wo) / 1e6, (w - wo) / s }'
