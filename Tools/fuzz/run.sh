#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Tools/fuzz against the library sources and runs them.
#
#   Tools/fuzz/run.sh build                  build every harness into .build/fuzz/bin
#   Tools/fuzz/run.sh run NAME [ARGS...]     fuzz NAME with its seeds and dictionary; ARGS go to
#                                            libFuzzer (e.g. -runs=10000000 or -max_total_time=600)
#   Tools/fuzz/run.sh smoke [SECONDS]        build, then run each harness SECONDS (default 4) (CI)
#   Tools/fuzz/run.sh long SECONDS [NAME...] fuzz each NAME (default all) for SECONDS in turn and
#                                            print its executions and result (logs in .build/fuzz/logs)
#   Tools/fuzz/run.sh repro NAME FILE...     run NAME once on each FILE (a crash file, a seed)
#
# Harnesses are built with `swiftc -sanitize=fuzzer,address`: each library module is compiled
# once with coverage and ASan (and -enable-testing, for harnesses that check internal fast paths)
# into .build/fuzz/lib, then each harness file with FuzzSupport.swift is linked against them.
# A failed invariant aborts, and libFuzzer writes the input to .build/fuzz/artifacts/NAME/.
# The per-input timeout is wall-clock: on a shared, loaded machine a 0.1 s input can wait 20 s
# for a core, so it is 300 s (FUZZ_TIMEOUT overrides it). Inputs are at most `max_len_for` bytes
# (FUZZ_MAX_LEN overrides it). `build` recompiles only the modules whose sources changed.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v swiftc >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swiftc ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# Every harness, and where its seeds come from (besides Tools/fuzz/seeds/NAME when present).
HARNESSES=(json jsonl telegram whatsapp discord slack text render zip font)
seeds_for() {
  case "$1" in
    json) echo "Corpora/exports Corpora/logs" ;;
    jsonl) echo "Corpora/logs" ;;
    telegram) echo "Corpora/exports/telegram" ;;
    whatsapp) echo "Corpora/exports/whatsapp" ;;
    discord) echo "Corpora/exports/discord" ;;
    slack) echo "Corpora/exports/slack" ;;
    text) echo "" ;;
    render) echo "Corpora/logs" ;;
    zip) echo "Corpora/zip Corpora/exports/zip" ;;
    font) echo "Corpora/fonts" ;;
  esac
}
# The longest input libFuzzer makes, per harness. A harness's cost grows with its input (the
# renderer draws every message at up to 100 columns), and libFuzzer's inputs grow toward this
# limit, so it sets the executions a second: 64 KiB gave the renderer about 100 a CPU-second.
# Readers and the text engine meet every rule they have within a few kilobytes (chunk boundaries
# are the property tests' job: InputPropertyTests, UTF16DecodingTests); zips and fonts need room
# for their structures. FUZZ_MAX_LEN overrides it.
max_len_for() {
  case "$1" in
    render) echo 2048 ;;
    text | jsonl | whatsapp) echo 4096 ;;
    json | telegram | discord | slack) echo 8192 ;;
    zip | font) echo 65536 ;;
  esac
}
dictionary_for() {
  case "$1" in
    whatsapp) echo Tools/fuzz/whatsapp.dict ;;
    text) echo Tools/fuzz/text.dict ;;
    render) echo Tools/fuzz/render.dict ;;
    zip) echo Tools/fuzz/zip.dict ;;
    font) echo Tools/fuzz/font.dict ;;
    *) echo Tools/fuzz/json.dict ;;
  esac
}

OUT=.build/fuzz
FLAGS=(-O -sanitize=fuzzer,address -enable-testing -parse-as-library -I "$OUT/lib" -L "$OUT/lib")

build_module() {  # NAME [EARLIER...]: Sources/NAME as a static library with its .swiftmodule
  local name=$1
  shift
  # Up to date when the library is newer than every source of its module and than the libraries
  # built before it (a rebuilt one is newer), so a harness-only change relinks in seconds.
  local inputs=("Sources/$name")
  for earlier in "$@"; do inputs+=("$OUT/lib/lib$earlier.a"); done
  if [ -f "$OUT/lib/lib$name.a" ] && [ -z "$(find "${inputs[@]}" -newer "$OUT/lib/lib$name.a" \( -name '*.swift' -o -name '*.a' \) | head -n 1)" ]; then
    echo "fuzz: $name is up to date"
    return
  fi
  echo "fuzz: compiling $name"
  swiftc "${FLAGS[@]}" -module-name "$name" -emit-module -emit-module-path "$OUT/lib/$name.swiftmodule" \
    -emit-library -static -o "$OUT/lib/lib$name.a" $(find "Sources/$name" -name '*.swift' | sort)
}

build() {
  mkdir -p "$OUT/lib" "$OUT/bin"
  local earlier=()
  for module in BubbleText BubbleFonts BubbleLayout BubbleLogs BubbleTerminal; do
    build_module "$module" "${earlier[@]}"
    earlier+=("$module")
  done
  for name in "${HARNESSES[@]}"; do
    echo "fuzz: linking fuzz-$name"
    swiftc "${FLAGS[@]}" -module-name "Fuzz_$name" Tools/fuzz/FuzzSupport.swift "Tools/fuzz/fuzz-$name.swift" \
      -lBubbleTerminal -lBubbleLogs -lBubbleLayout -lBubbleFonts -lBubbleText -o "$OUT/bin/fuzz-$name"
  done
}

run() {  # NAME [libFuzzer args]
  local name=$1
  shift
  local corpus="$OUT/corpus/$name" artifacts="$OUT/artifacts/$name/"
  mkdir -p "$corpus" "$artifacts"
  local dirs=()
  for dir in $(seeds_for "$name") "Tools/fuzz/seeds/$name"; do
    [ -d "$dir" ] && dirs+=("$dir")
  done
  # Leaks are not what these harnesses look for (the readers keep process-wide tables); Swift's
  # own crash backtracer fights ASan, and libFuzzer reports the crash anyway. ASan records no
  # stack for each allocation (malloc_context_size=0: that was an eighth of the renderer's time);
  # a memory error is still caught, and `repro` replays its input with the full stacks. Readers
  # spool to TMPDIR: in memory, not on disk, for each input.
  local tmp=/dev/shm
  [ -d "$tmp" ] || tmp=${TMPDIR:-/tmp}
  TMPDIR="$tmp" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:malloc_context_size=0:${ASAN_OPTIONS:-}" "$OUT/bin/fuzz-$name" \
    -dict="$(dictionary_for "$name")" -max_len="${FUZZ_MAX_LEN:-$(max_len_for "$name")}" -timeout="${FUZZ_TIMEOUT:-300}" -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts" "$@" "$corpus" "${dirs[@]}"
}

case "${1:-}" in
  build) build ;;
  run)
    [ $# -ge 2 ] || { echo "usage: $0 run NAME [libFuzzer args...]" >&2; exit 2; }
    shift
    run "$@"
    ;;
  smoke)
    seconds=${2:-4}
    build
    log=$(mktemp)
    for name in "${HARNESSES[@]}"; do
      if run "$name" -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
        runs=$(grep -oE 'number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+' || echo "?")
        echo "fuzz-$name: $runs runs in ${seconds}s, no crash, no invariant failure"
      else
        tail -n 40 "$log" >&2
        echo "fuzz-$name failed its smoke run (the input is in $OUT/artifacts/$name/)" >&2
        exit 1
      fi
    done
    rm -f "$log"
    ;;
  long)
    [ $# -ge 2 ] || { echo "usage: $0 long SECONDS [NAME...]" >&2; exit 2; }
    seconds=$2
    shift 2
    names=("$@")
    [ ${#names[@]} -gt 0 ] || names=("${HARNESSES[@]}")
    mkdir -p "$OUT/logs"
    for name in "${names[@]}"; do
      log="$OUT/logs/$name-$(date -u +%Y%m%dT%H%M%S).log"
      if run "$name" -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then result="no crash, no invariant failure"
      else result="FAILED (see $log and $OUT/artifacts/$name/)"; fi
      runs=$(grep -oE 'number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+' || echo "?")
      echo "$(date -u +%Y-%m-%dT%H:%MZ) fuzz-$name: $runs runs in ${seconds}s: $result"
    done
    ;;
  repro)
    [ $# -ge 3 ] || { echo "usage: $0 repro NAME FILE..." >&2; exit 2; }
    name=$2
    shift 2
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$OUT/bin/fuzz-$name" "$@"
    ;;
  *)
    echo "usage: $0 build | run NAME [libFuzzer args...] | smoke [SECONDS] | long SECONDS [NAME...] | repro NAME FILE..." >&2
    exit 2
    ;;
esac
