#!/usr/bin/env bash
# Measures how real terminals size the test clusters of cluster-widths.sh, headless, and writes
# one results file per terminal and setting into DIR (default Tools/terminals/results):
#   Tools/terminals/measure.sh [DIR]
# Both run on an Xvfb display: kitty with Mesa's software GL, foot in weston on that display
# (weston's X11 backend with pixman: its headless backend has no seat, which foot needs), once
# per grapheme setting foot has. Needs (Debian): xvfb kitty weston foot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/results}
mkdir -p "$dir"
export LC_ALL=C.UTF-8
scratch=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$scratch"; }
trap cleanup EXIT

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$scratch/xvfb.log" 2>&1 &
pids+=($!)
sleep 2
if command -v kitty >/dev/null; then
  version=$(kitty --version | awk '{print $2}')
  DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1 TERMINAL_NAME="kitty $version" timeout 60 \
    kitty --config NONE bash "$here/cluster-widths.sh" "$dir/kitty-$version.tsv" >"$scratch/kitty.log" 2>&1 \
    || { cat "$scratch/kitty.log" >&2; echo "kitty did not run" >&2; }
fi

if command -v foot >/dev/null && command -v weston >/dev/null; then
  export XDG_RUNTIME_DIR=$scratch
  socket=wayland-measure
  DISPLAY=$display weston --backend=x11-backend.so --use-pixman --socket=$socket --idle-time=0 >"$scratch/weston.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do [ -S "$scratch/$socket" ] && break; sleep 0.2; done
  version=$(foot --version | awk '{print $3}')
  # foot's grapheme settings: off (its default: code point by code point), and clustering with
  # each width method this version has.
  for setting in "default" "wcswidth" "double-width" "max"; do
    args=()
    [ "$setting" != default ] && args=(-o tweak.grapheme-shaping=yes -o "tweak.grapheme-width-method=$setting")
    WAYLAND_DISPLAY=$socket TERMINAL_NAME="foot $version ($setting)" timeout 60 \
      foot --config=/dev/null "${args[@]}" bash "$here/cluster-widths.sh" "$dir/foot-$version-$setting.tsv" \
      >"$scratch/foot-$setting.log" 2>&1 || { cat "$scratch/foot-$setting.log" >&2; echo "foot ($setting) did not run" >&2; rm -f "$dir/foot-$version-$setting.tsv"; }
  done
fi
ls "$dir"
