#!/usr/bin/env bash
# `bubbles heights` beside its ICU peer (Tools/bench/icu-peer.cpp) on the same texts at the same
# widths: builds the peer, extracts the "text" of every record of LOG (JSON Lines) into a file of
# NUL-separated texts, then runs, alternately, RUNS times each: the peer walking the break
# iterator once per width, the peer walking it once (--prepare-once), and the whole `heights`
# process (read, parse, prepare, layout, write). Prints the best CPU time (user + system) of each
# in ns per scalar of those texts, and the ratios. Needs g++ and libicu-dev.
#
#     Tools/bench/icu-peer.sh LOG [WIDTHS] [RUNS] [BUBBLES]   # default 24,40,80; 5; .build/release/bubbles
#     bubbles bench --save-log /tmp/syn.jsonl -n 150000 && Tools/bench/icu-peer.sh /tmp/syn.jsonl
set -euo pipefail
log=${1:?usage: icu-peer.sh LOG [WIDTHS] [RUNS] [BUBBLES]}
widths=${2:-24,40,80}
runs=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
bubbles=${4:-$here/../../.build/release/bubbles}
[ -x "$bubbles" ] || { echo "icu-peer: no $bubbles (swift build -c release)" >&2; exit 1; }
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
# shellcheck disable=SC2046
g++ -O2 -o "$build/icu-peer" "$here/icu-peer.cpp" $(pkg-config --cflags --libs icu-uc)
python3 - "$log" "$build/texts" <<'EOF'
import json, sys
with open(sys.argv[1], 'rb') as log, open(sys.argv[2], 'wb') as out:
    for line in log:
        try:
            text = json.loads(line).get('text')
        except ValueError:
            continue
        if isinstance(text, str):
            out.write(text.encode('utf-8', 'surrogatepass').replace(b'\0', b' ') + b'\0')
EOF
scalars=$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().replace("\0", "")))' "$build/texts")
widthFlags=() peerWidths=()
IFS=, read -ra list <<< "$widths"
for w in "${list[@]}"; do widthFlags+=(--width "$w"); peerWidths+=("$w"); done
# CPU seconds (user + system) of one run of a command.
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2 }'; }
best() { sort -g | head -1; }
peer=() once=() ours=()
for _ in $(seq "$runs"); do
  peer+=("$(cpu "$build/icu-peer" "$build/texts" "${peerWidths[@]}")")
  once+=("$(cpu "$build/icu-peer" --prepare-once "$build/texts" "${peerWidths[@]}")")
  ours+=("$(cpu "$bubbles" heights "${widthFlags[@]}" --cell-widths unicode --tz UTC --me Me "$log")")
done
p=$(printf '%s\n' "${peer[@]}" | best)
o=$(printf '%s\n' "${once[@]}" | best)
b=$(printf '%s\n' "${ours[@]}" | best)
awk -v p="$p" -v o="$o" -v b="$b" -v s="$scalars" -v w="$widths" -v r="$runs" 'BEGIN {
  printf "%d scalars of text, widths %s, best CPU of %d alternating runs:\n", s, w, r
  printf "  ICU peer, a walk per width:    %6.3f s  %5.1f ns per scalar\n", p, p * 1e9 / s
  printf "  ICU peer, --prepare-once:      %6.3f s  %5.1f ns per scalar\n", o, o * 1e9 / s
  printf "  bubbles heights, whole process: %5.3f s  %5.1f ns per scalar\n", b, b * 1e9 / s
  printf "  peer CPU / ours: %.2f (a walk per width), %.2f (--prepare-once)\n", p / b, o / b
}'
