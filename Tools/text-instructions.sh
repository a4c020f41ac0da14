#!/usr/bin/env bash
# Instructions BubbleText takes to prepare the texts of a native log, and to measure them at
# some widths, counted by callgrind (steady on a loaded machine, where wall-clock figures of a
# few per cent are noise). Compiles BubbleText's sources (of this checkout, or of CHECKOUT:
# another worktree, or a `git archive` of an older commit) into one program with a small driver
# that reads the "text" field of each line of LOG, and runs it under valgrind three times: only
# reading the texts, preparing them (and keeping them), and preparing and measuring them at
# WIDTHS. Prints the differences. The table set-up (about 5.5 M, once) is counted in prepare.
# Needs valgrind (apt-get install valgrind).
#
#     Tools/text-instructions.sh LOG [WIDTHS] [CHECKOUT]    # WIDTHS: default 20,36,76
#     git archive REV Sources/BubbleText | tar -x -C /tmp/before && Tools/text-instructions.sh LOG 20,36,76 /tmp/before
set -euo pipefail
log=${1:?usage: text-instructions.sh LOG [WIDTHS] [CHECKOUT]}
widths=${2:-20,36,76}
root=${3:-$(cd "$(dirname "$0")/.." && pwd)}
command -v valgrind >/dev/null || { echo "text-instructions: valgrind is not installed" >&2; exit 1; }
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
cat > "$build/main.swift" <<'EOF'
// Reads the texts of a JSON Lines log, then only counts them ("none"), prepares and keeps them
// ("prepare"), or also measures each at every width ("measure").
import Foundation
let arguments = CommandLine.arguments
let widths = arguments[3].split(separator: ",").map { Int($0)! }
var texts: [String] = []
for line in try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n") {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let text = object["text"] as? String else { continue }
    texts.append(text)
}
var scalars = 0
for text in texts { scalars += text.unicodeScalars.count }
var sink = 0
switch arguments[2] {
case "prepare", "measure":
    var prepared: [PreparedText] = []
    prepared.reserveCapacity(texts.count)
    for text in texts { prepared.append(PreparedText(text)) }
    if arguments[2] == "measure" {
        for text in prepared { for width in widths { sink &+= text.measure(width: width).lineCount } }
    }
    sink &+= prepared.count
default:
    for text in texts { sink &+= text.utf8.count }
}
print(texts.count, scalars, sink)
EOF
# shellcheck disable=SC2046
swiftc -O -wmo -module-name Driver $(find "$root/Sources/BubbleText" -name '*.swift' | sort) "$build/main.swift" -o "$build/texts"
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$build/texts" "$log" "$1" "$widths" 2>&1 >/dev/null | awk '/Collected/ { print $4 }'
}
none=$(instructions none)
prepare=$(instructions prepare)
measure=$(instructions measure)
read -r count scalars _ < <("$build/texts" "$log" none "$widths")
awk -v n="$none" -v p="$prepare" -v m="$measure" -v c="$count" -v s="$scalars" -v w="$widths" -v r="$root" 'BEGIN {
  printf "%s: %d texts, %d scalars: prepare %.2f M (%.1f per scalar), measure at %s %.2f M\n", r, c, s, (p - n) / 1e6, (p - n) / s, w, (m - p) / 1e6 }'
