#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Tools/fuzz against the library sources and runs them.
#
#   Tools/fuzz/run.sh build [NAME...]        build each NAME (default every harness) into .build/fuzz/bin
#   Tools/fuzz/run.sh run NAME [ARGS...]     fuzz NAME with its seeds and dictionary; ARGS go to
#                                            libFuzzer (e.g. -runs=10000000 or -max_total_time=600)
#   Tools/fuzz/run.sh smoke [SECONDS]        build, then run each harness from its seeds, seed 1, at most
#                                            SECONDS (default 4) and 2,000 inputs (CI)
#   Tools/fuzz/run.sh long SECONDS [NAME...] fuzz each NAME (default all) for SECONDS in turn and
#                                            print its executions and result (logs in .build/fuzz/logs)
#   Tools/fuzz/run.sh repro NAME [FILE...]   run NAME once on each FILE (a crash file, a seed; default
#                                            its saved findings, Corpora/findings/NAME-*)
#   Tools/fuzz/run.sh merge [NAME...]        shrink each kept corpus to the inputs that give its
#                                            coverage, smallest first (libFuzzer's -merge=1)
#   Tools/fuzz/run.sh speed SECONDS [NAME...] fuzz each from its seeds alone (a throwaway corpus)
#                                            and print executions per CPU-second
#   Tools/fuzz/run.sh replay NAME [COUNT [TIMES]] run NAME TIMES (4) times over each of COUNT (400)
#                                            inputs spread over its corpus and print executions per
#                                            CPU-second: the same work before and after a change
#
# The corpus each harness grows is kept in .build/fuzz/corpus/NAME (FUZZ_CORPUS overrides it), so
# a later run goes on from where the last one stopped. `long` stops a harness at 10 million
# executions (FUZZ_RUNS overrides it), the issue's bar.
#
# Harnesses are built with `swiftc -sanitize=fuzzer,address`: each library module is compiled
# once with coverage and ASan (and -enable-testing, for harnesses that check internal fast paths)
# into .build/fuzz/lib, then each harness file with FuzzSupport.swift is linked against them.
# A failed invariant aborts, and libFuzzer writes the input to .build/fuzz/artifacts/NAME/.
# The harness files are compiled without trace-cmp (see `build`) and libFuzzer is linked after.
# The per-input timeout is wall-clock: on a shared, loaded machine a 0.1 s input can wait 20 s
# for a core, so it is 300 s (FUZZ_TIMEOUT overrides it). Inputs are at most `max_len_for` bytes
# (FUZZ_MAX_LEN overrides it). `build` recompiles only the modules whose sources changed.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v swiftc >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swiftc ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# Every harness, and where its seeds come from (besides Tools/fuzz/seeds/NAME when present).
HARNESSES=(json jsonl telegram whatsapp discord slack messenger imessage imessagehtml signal line matrix skype googlechat hangouts text render zip font subset svg serve)
seeds_for() {
  case "$1" in
    json) echo "Corpora/exports Corpora/logs" ;;
    jsonl) echo "Corpora/logs" ;;
    telegram) echo "Corpora/exports/telegram" ;;
    whatsapp) echo "Corpora/exports/whatsapp" ;;
    discord) echo "Corpora/exports/discord" ;;
    slack) echo "Corpora/exports/slack" ;;
    messenger) echo "Corpora/exports/messenger" ;;
    imessage) echo "Corpora/exports/imessage" ;;
    imessagehtml) echo "Corpora/exports/imessage/html" ;;
    signal) echo "Corpora/exports/signal" ;;
    line) echo "Corpora/exports/line" ;;
    matrix) echo "Corpora/exports/matrix" ;;
    skype) echo "Corpora/exports/skype" ;;
    googlechat) echo "Corpora/exports/googlechat" ;;
    hangouts) echo "Corpora/exports/hangouts" ;;
    text) echo "" ;;
    render) echo "Corpora/logs" ;;
    svg) echo "Corpora/logs" ;;
    zip) echo "Corpora/zip Corpora/exports/zip" ;;
    font | subset) echo "Corpora/fonts" ;;
    serve) echo "" ;;
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
    render | svg) echo 2048 ;;
    text | jsonl | whatsapp | imessage | signal | line | serve) echo 4096 ;;
    json | telegram | discord | slack | messenger | matrix | skype | googlechat | hangouts | imessagehtml) echo 8192 ;;
    zip | font | subset) echo 65536 ;;
  esac
}
dictionary_for() {
  case "$1" in
    whatsapp) echo Tools/fuzz/whatsapp.dict ;;
    imessage) echo Tools/fuzz/imessage.dict ;;
    imessagehtml) echo Tools/fuzz/imessagehtml.dict ;;
    signal) echo Tools/fuzz/signal.dict ;;
    line) echo Tools/fuzz/line.dict ;;
    text) echo Tools/fuzz/text.dict ;;
    render | svg) echo Tools/fuzz/render.dict ;;
    zip) echo Tools/fuzz/zip.dict ;;
    font | subset) echo Tools/fuzz/font.dict ;;
    serve) echo Tools/fuzz/serve.dict ;;
    skype) echo Tools/fuzz/skype.dict ;;
    *) echo Tools/fuzz/json.dict ;;
  esac
}

# The smoke run builds without the optimiser into a directory of its own: it only shows that each
# harness builds and passes its seeds, and -Onone compiles in about a third of the CPU time and
# keeps the debug-build assertions (the fences' bounds and lifetime checks) on. Long runs, speed
# and replays use the optimised build in .build/fuzz.
if [ "${1:-}" = smoke ]; then
  OUT=.build/fuzz-smoke OPT=-Onone
else
  OUT=.build/fuzz OPT=-O
fi
FLAGS=($OPT -sanitize=fuzzer,address -enable-testing -parse-as-library -package-name BubbleLayout -I "$OUT/lib" -L "$OUT/lib")

# How a library module is instrumented. `-sanitize=fuzzer` also traces every comparison
# (trace-cmp: a call into libFuzzer for each compare, so it can learn the operands), which pays
# where inputs must match magic values: the parsers and the font reader. The text engine, the
# layout and the renderer compare bytes and classes from tables in their inner loops, where those
# calls were 30-45% of the text and renderer harnesses' time and teach libFuzzer nothing a
# dictionary does not: they keep edge coverage (what libFuzzer's corpus grows by), indirect
# calls and ASan, without trace-cmp.
# FUZZ_TRACE_CMP=0 builds the parsers and the font reader without it too, for long runs over a
# corpus that has learnt the formats' values already: it was 40% of the font harness's profile
# and 10-11% of the readers' (replaying 400 inputs of each live corpus, best of 3-4: font 1.8x,
# jsonl 1.3x, whatsapp 1.2x the executions per CPU-second). Only the search changes (libFuzzer
# no longer learns compared operands); every check and sanitizer is the same. Switching it
# rebuilds the modules (their flags are recorded).
module_flags() {
  local engine="$OPT -sanitize=address -sanitize-coverage=edge,indirect-calls,inline-8bit-counters,pc-table -enable-testing -parse-as-library -package-name BubbleLayout -I $OUT/lib -L $OUT/lib"
  case "$1" in
    BubbleText | BubbleLayout | BubbleTerminal | BubblePictures | Harness) echo "$engine" ;;
    *) if [ "${FUZZ_TRACE_CMP:-1}" = 0 ]; then echo "$engine"; else echo "${FLAGS[*]}"; fi ;;
  esac
}

build_module() {  # NAME [EARLIER...]: Sources/NAME as a static library with its .swiftmodule
  local name=$1
  shift
  # Up to date when the library is newer than every source of its module and than the libraries
  # built before it (a rebuilt one is newer), and was built with the same flags, so a
  # harness-only change relinks in seconds.
  local inputs=("Sources/$name") flags
  flags=$(module_flags "$name")
  for earlier in "$@"; do inputs+=("$OUT/lib/lib$earlier.a"); done
  if [ -f "$OUT/lib/lib$name.a" ] && [ "$(cat "$OUT/lib/$name.flags" 2>/dev/null)" = "$flags" ] \
    && [ -z "$(find "${inputs[@]}" -newer "$OUT/lib/lib$name.a" \( -name '*.swift' -o -name '*.a' \) | head -n 1)" ]; then
    echo "fuzz: $name is up to date"
    return
  fi
  echo "fuzz: compiling $name"
  # shellcheck disable=SC2086 # the flags are words
  swiftc $flags -module-name "$name" -emit-module -emit-module-path "$OUT/lib/$name.swiftmodule" \
    -emit-library -static -o "$OUT/lib/lib$name.a" $(find "Sources/$name" -name '*.swift' | sort)
  echo "$flags" >"$OUT/lib/$name.flags"
}

build() {  # [NAME...]: only those harnesses are linked (another may be running)
  local names=("$@")
  [ ${#names[@]} -gt 0 ] || names=("${HARNESSES[@]}")
  mkdir -p "$OUT/lib" "$OUT/bin"
  local earlier=()
  local modules=(BubbleText BubbleLayout BubbleFonts BubbleLogs BubbleTerminal BubblePictures)
  # The serve harness drives the command line's service: its modules too.
  if [[ " ${names[*]} " == *" serve "* ]]; then modules+=(BubbleSamples BubbleBenchmarks BubblesCLI); fi
  for module in "${modules[@]}"; do
    build_module "$module" "${earlier[@]}"
    earlier+=("$module")
  done
  mkdir -p "$OUT/obj"
  for name in "${names[@]}"; do
    # Up to date when newer than its sources, the libraries and this script (which holds the
    # flags): a smoke run or a replay after a library-only change relinks only what it must.
    if [ -x "$OUT/bin/fuzz-$name" ] && [ -z "$(find Tools/fuzz/FuzzSupport.swift "Tools/fuzz/fuzz-$name.swift" \
         Tools/fuzz/run.sh "$OUT"/lib/lib*.a -newer "$OUT/bin/fuzz-$name" | head -n 1)" ]; then
      echo "fuzz: fuzz-$name is up to date"
      continue
    fi
    echo "fuzz: linking fuzz-$name"
    # The harness itself (its checks, and FuzzSupport's) is compiled as the engine modules are:
    # ASan and edge coverage, no trace-cmp. Its loops compare every scalar and byte of what was
    # drawn or read against constants (the renderer's independent width count, the line counts),
    # and each compare was a call into libFuzzer (5-10% of the renderer harness) whose operands
    # are the harness's own constants, not the library's. libFuzzer is linked in below.
    # shellcheck disable=SC2046 # the flags are words
    swiftc $(module_flags Harness) -module-name "Fuzz_$name" -wmo -c Tools/fuzz/FuzzSupport.swift "Tools/fuzz/fuzz-$name.swift" \
      -o "$OUT/obj/fuzz-$name.o"
    local extra=()
    [ "$name" = serve ] && extra=(-lBubblesCLI -lBubbleBenchmarks -lBubbleSamples)
    swiftc -sanitize=fuzzer,address -L "$OUT/lib" "$OUT/obj/fuzz-$name.o" "${extra[@]}" \
      -lBubblePictures -lBubbleTerminal -lBubbleLogs -lBubbleFonts -lBubbleLayout -lBubbleText -lFoundationXML -o "$OUT/bin/fuzz-$name" 2>&1 \
      | { grep -v "Cannot export local symbol '__asan" || true; }
  done
}

run() {  # NAME [libFuzzer args]
  local name=$1
  shift
  local corpus="${FUZZ_CORPUS:-$OUT/corpus/$name}" artifacts="$OUT/artifacts/$name/"
  mkdir -p "$corpus" "$artifacts"
  local dirs=()
  for dir in $(seeds_for "$name") "Tools/fuzz/seeds/$name"; do
    [ -d "$dir" ] && dirs+=("$dir")
  done
  # Leaks are not what these harnesses look for (the readers keep process-wide tables); Swift's
  # own crash backtracer fights ASan, and libFuzzer reports the crash anyway. ASan records no
  # stack for each allocation (malloc_context_size=0: that was an eighth of the renderer's time);
  # a memory error is still caught, and `repro` replays its input with the full stacks. The
  # harnesses hand each input to the readers in memory (`LogSource.open(bytes:name:)`; the Slack
  # export as an in-memory folder), so nothing is written per input; TMPDIR is in memory too, for
  # anything that still spools.
  # libFuzzer's own -detect_leaks is off too: with ASan's leak checking off its check can find
  # nothing, yet it counted every malloc and free through hooks and ran again every input that
  # ended with more allocations than frees (a lazy global, a cache): 1.5-4% of the renderer
  # harness's profiles, fuzzing and replaying.
  local tmp=/dev/shm
  [ -d "$tmp" ] || tmp=${TMPDIR:-/tmp}
  TMPDIR="$tmp" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:malloc_context_size=0:${ASAN_OPTIONS:-}" "$OUT/bin/fuzz-$name" \
    -detect_leaks=0 -dict="$(dictionary_for "$name")" -max_len="${FUZZ_MAX_LEN:-$(max_len_for "$name")}" -timeout="${FUZZ_TIMEOUT:-300}" -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts" "$@" "$corpus" "${dirs[@]}"
}

case "${1:-}" in
  build)
    shift
    build "$@"
    ;;
  run)
    [ $# -ge 2 ] || { echo "usage: $0 run NAME [libFuzzer args...]" >&2; exit 2; }
    shift
    run "$@"
    ;;
  smoke)
    seconds=${2:-4}
    build
    log=$(mktemp)
    # The same run on every machine: a fixed seed, a throwaway corpus (the seeds only, not what
    # earlier long runs kept) and at most FUZZ_SMOKE_RUNS inputs, so CI is red for a harness that
    # no longer builds or fails at once, never for the luck of a mutation that reaches an open
    # finding (those are the long runs' business, and are listed in Tools/fuzz/README.md).
    smoke_corpus=$(mktemp -d)
    for name in "${HARNESSES[@]}"; do
      mkdir -p "$smoke_corpus/$name"
      if FUZZ_CORPUS="$smoke_corpus/$name" run "$name" -seed=1 -runs="${FUZZ_SMOKE_RUNS:-2000}" -max_total_time="$seconds" \
           -print_final_stats=1 >"$log" 2>&1; then
        runs=$(grep -oE 'number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+' || echo "?")
        echo "fuzz-$name: $runs runs (seed 1, at most ${seconds}s), no crash, no invariant failure"
      else
        tail -n 40 "$log" >&2
        echo "fuzz-$name failed its smoke run (the input is in $OUT/artifacts/$name/)" >&2
        exit 1
      fi
    done
    rm -rf "$log" "$smoke_corpus"
    ;;
  merge)
    shift
    names=("$@")
    [ ${#names[@]} -gt 0 ] || names=("${HARNESSES[@]}")
    for name in "${names[@]}"; do
      corpus="$OUT/corpus/$name"
      [ -d "$corpus" ] || continue
      rm -rf "$corpus.merged" && mkdir -p "$corpus.merged"
      before=$(find "$corpus" -type f | wc -l)
      # A crash during the merge leaves the old corpus as it was.
      SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:malloc_context_size=0:${ASAN_OPTIONS:-}" TMPDIR=/dev/shm \
        "$OUT/bin/fuzz-$name" -merge=1 -detect_leaks=0 -max_len="${FUZZ_MAX_LEN:-$(max_len_for "$name")}" -timeout="${FUZZ_TIMEOUT:-300}" \
        -rss_limit_mb=2048 -artifact_prefix="$OUT/artifacts/$name/" "$corpus.merged" "$corpus" >"$OUT/merge-$name.log" 2>&1
      rm -rf "$corpus" && mv "$corpus.merged" "$corpus"
      echo "fuzz-$name: corpus of $before inputs merged to $(find "$corpus" -type f | wc -l) ($(du -sh "$corpus" | cut -f1))"
    done
    ;;
  speed)
    [ $# -ge 2 ] || { echo "usage: $0 speed SECONDS [NAME...]" >&2; exit 2; }
    seconds=$2
    shift 2
    names=("$@")
    [ ${#names[@]} -gt 0 ] || names=("${HARNESSES[@]}")
    scratch=$(mktemp -d)
    for name in "${names[@]}"; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      mkdir -p "$scratch/$name"
      # User+sys CPU of the run, so a loaded machine's waits do not count as the harness's time.
      start=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
      FUZZ_CORPUS="$scratch/$name" run "$name" -max_total_time="$seconds" -print_final_stats=1 >"$scratch/$name.log" 2>&1 \
        || { tail -n 40 "$scratch/$name.log" >&2; echo "fuzz-$name failed" >&2; exit 1; }
      ticks=$(( $(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat) - start ))
      runs=$(grep -oE 'number_of_executed_units: [0-9]+' "$scratch/$name.log" | grep -oE '[0-9]+')
      echo "fuzz-$name: $runs runs in ${seconds}s, $(( runs * $(getconf CLK_TCK) / (ticks > 0 ? ticks : 1) )) per CPU-second (load $load)"
    done
    rm -rf "$scratch"
    ;;
  replay)
    # Fuzzing runs differ from binary to binary (what a mutation reaches changes what is tried
    # next) and move by a third between runs on a loaded machine; a replay of the same inputs
    # does the same work each time. The inputs: every Nth file by name of the corpus
    # (FUZZ_CORPUS, or the kept one), COUNT of them; each run TIMES times so that the process's
    # start (the Unicode tables, ASan) weighs little. User+sys CPU, so waiting for a core does
    # not count.
    [ $# -ge 2 ] || { echo "usage: $0 replay NAME [COUNT [TIMES]]" >&2; exit 2; }
    name=$2
    count=${3:-400}
    times=${4:-4}
    corpus="${FUZZ_CORPUS:-$OUT/corpus/$name}"
    [ -d "$corpus" ] || { echo "fuzz: no corpus at $corpus" >&2; exit 1; }
    total=$(find "$corpus" -maxdepth 1 -type f | wc -l)
    step=$(( total / count > 0 ? total / count : 1 ))
    mapfile -t files < <(find "$corpus" -maxdepth 1 -type f | sort | awk -v step="$step" 'NR % step == 0' | head -n "$count")
    [ ${#files[@]} -gt 0 ] || { echo "fuzz: $corpus is empty" >&2; exit 1; }
    log=$(mktemp)
    start=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:malloc_context_size=0:${ASAN_OPTIONS:-}" TMPDIR=/dev/shm \
      "$OUT/bin/fuzz-$name" -detect_leaks=0 -runs="$times" "${files[@]}" >"$log" 2>&1 \
      || { tail -n 40 "$log" >&2; echo "fuzz-$name failed (replaying $corpus)" >&2; exit 1; }
    ticks=$(( $(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat) - start ))
    rm -f "$log"
    runs=$(( ${#files[@]} * times ))
    echo "fuzz-$name: ${#files[@]} inputs of $corpus, $times times each: $runs runs, $(( runs * $(getconf CLK_TCK) / (ticks > 0 ? ticks : 1) )) per CPU-second (load $(cut -d' ' -f1 /proc/loadavg))"
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
      if run "$name" -max_total_time="$seconds" -runs="${FUZZ_RUNS:-10000000}" -print_final_stats=1 >"$log" 2>&1; then result="no crash, no invariant failure"
      else result="FAILED (see $log and $OUT/artifacts/$name/)"; fi
      runs=$(grep -oE 'number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+' || echo "?")
      echo "$(date -u +%Y-%m-%dT%H:%MZ) fuzz-$name: $runs runs in ${seconds}s: $result"
    done
    ;;
  repro)
    [ $# -ge 2 ] || { echo "usage: $0 repro NAME [FILE...]" >&2; exit 2; }
    name=$2
    shift 2
    if [ $# -eq 0 ]; then
      shopt -s nullglob
      set -- Corpora/findings/"$name"-*
      shopt -u nullglob
      [ $# -gt 0 ] || { echo "repro: no findings of $name in Corpora/findings" >&2; exit 2; }
    fi
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$OUT/bin/fuzz-$name" "$@"
    ;;
  *)
    echo "usage: $0 build [NAME...] | run NAME [libFuzzer args...] | smoke [SECONDS] | long SECONDS [NAME...] | repro NAME [FILE...] | merge [NAME...] | speed SECONDS [NAME...] | replay NAME [COUNT [TIMES]]" >&2
    exit 2
    ;;
esac
