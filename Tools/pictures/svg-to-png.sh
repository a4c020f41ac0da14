#!/usr/bin/env bash
# Turns an SVG from `bubbles render --format svg` into a PNG with headless Chromium.
#
#   Tools/pictures/svg-to-png.sh IN.svg OUT.png [SCALE]
#
# The page is the SVG's own size (its width and height attributes), drawn at SCALE device pixels
# per px (default 1; 2 for a sharp picture on a high-density screen). Fonts come from the SVG's
# @font-face rules: render with --embed-fonts for a PNG that does not depend on where the font
# files are. Chromium is `chromium` on PATH, or $CHROMIUM.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 IN.svg OUT.png [SCALE]" >&2; exit 2; }
in=$1 out=$2 scale=${3:-1}
chromium=${CHROMIUM:-chromium}
# The size from the root element's attributes (the writer puts whole or exact decimal px there).
read -r width height < <(sed -n 's/.*<svg [^>]*width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1 \2/p' "$in" | head -n 1)
[ -n "${width:-}" ] || { echo "$0: $in: no <svg width=… height=…>" >&2; exit 1; }
width=$(awk -v w="$width" 'BEGIN { printf "%d", (w == int(w)) ? w : int(w) + 1 }')
height=$(awk -v h="$height" 'BEGIN { printf "%d", (h == int(h)) ? h : int(h) + 1 }')
abs=$(cd "$(dirname "$in")" && pwd)/$(basename "$in")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files \
  --force-device-scale-factor="$scale" --window-size="$width,$height" --virtual-time-budget=10000 \
  --screenshot="$tmp/shot.png" "file://$abs" >/dev/null 2>&1
mv "$tmp/shot.png" "$out"
echo "$out: ${width}x${height} px at scale $scale"
