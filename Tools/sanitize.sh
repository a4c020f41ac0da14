#!/usr/bin/env bash
# Runs the tests under a sanitizer, in a build folder of its own (.build/sanitize-KIND).
#
#   Tools/sanitize.sh address [FILTER]   swift test --sanitize=address
#   Tools/sanitize.sh thread [FILTER]    swift test --sanitize=thread, with BUBBLES_TSAN_LOCKS
#   Tools/sanitize.sh mutex-check        shows why BUBBLES_TSAN_LOCKS exists (see below)
#
# FILTER is a `swift test --filter` pattern; without it every test runs (slow under TSan: the
# concurrent suites alone are `Tools/sanitize.sh thread 'LayoutCacheTests|ConversationTests|PreparedTextStoreTests|TranscriptRendererTests|RenderedLineWidthTests'`).
#
# Under ThreadSanitizer the layout caches take a pthread mutex (`LayoutLock`, compiled with
# -DBUBBLES_TSAN_LOCKS): TSan on this toolchain does not see `Synchronization.Mutex` as a lock,
# and reports every access under it as a race. `mutex-check` builds a program that only touches
# shared state under a lock, with a Mutex and with a pthread mutex, and shows TSan's verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

kind=${1:-}
filter=()
[ $# -ge 2 ] && filter=(--filter "$2")

case "$kind" in
  address)
    # handle_segv/handle_sigbus=0: `TmuxViewerTests.aFatalSignalStillGivesTheTerminalBack` sends
    # those signals to the viewer and checks it gives the terminal back and dies of them; ASan's
    # own handlers would take them first and exit 1. Bad accesses are still caught by the
    # instrumentation, which does not need the handlers.
    ASAN_OPTIONS="detect_leaks=0:handle_segv=0:handle_sigbus=0:${ASAN_OPTIONS:-}" SWIFT_BACKTRACE=enable=no \
      swift test --scratch-path .build/sanitize-address --sanitize=address "${filter[@]}"
    ;;
  thread)
    # halt_on_error: a race fails the run, not only a line in the log.
    TSAN_OPTIONS="halt_on_error=1:${TSAN_OPTIONS:-}" SWIFT_BACKTRACE=enable=no \
      swift test --scratch-path .build/sanitize-thread --sanitize=thread -Xswiftc -DBUBBLES_TSAN_LOCKS "${filter[@]}"
    ;;
  mutex-check)
    out=.build/sanitize-mutex-check
    mkdir -p "$out"
    swiftc -sanitize=thread Tools/sanitizers/tsan-mutex-check.swift -o "$out/mutex"
    swiftc -sanitize=thread -DPTHREAD_LOCK Tools/sanitizers/tsan-mutex-check.swift -o "$out/pthread"
    for lock in mutex pthread; do
      reports=0
      for _ in 1 2 3; do
        count=$(SWIFT_BACKTRACE=enable=no "$out/$lock" 2>&1 | grep -c "WARNING: ThreadSanitizer" || true)
        reports=$((reports + count))
      done
      echo "$lock: $reports ThreadSanitizer reports in 3 runs"
    done
    ;;
  *)
    echo "usage: $0 address [FILTER] | thread [FILTER] | mutex-check" >&2
    exit 2
    ;;
esac
