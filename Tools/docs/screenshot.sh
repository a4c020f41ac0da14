#!/usr/bin/env bash
# Makes Tools/docs/screenshot.png, the README's picture: the start of `bubbles render` on the
# bundled sample, in colour, drawn by headless Chromium from Tools/docs/ansi-to-html.py's page.
#
#   Tools/docs/screenshot.sh [BUBBLES]     (default .build/release/bubbles, else .build/debug/bubbles)
#
# Needs Chromium and the Noto fonts (Debian: apt-get install chromium fonts-noto-core
# fonts-noto-cjk fonts-noto-color-emoji) and, to shrink the PNG, optipng or pngquant if present.
set -euo pipefail
cd "$(dirname "$0")/../.."

bubbles=${1:-}
if [ -z "$bubbles" ]; then
  for b in .build/release/bubbles .build/debug/bubbles; do [ -x "$b" ] && { bubbles=$b; break; }; done
fi
[ -n "$bubbles" ] || { echo "build bubbles first (swift build -c release)" >&2; exit 1; }
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chromium" ] || { echo "Chromium is not installed" >&2; exit 1; }

lines=${LINES_SHOWN:-67}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
COLORTERM=truecolor "$bubbles" render Corpora/logs/sample.jsonl --width 64 --tz UTC --me Sam \
  --color always --cell-widths unicode | head -n "$lines" > "$work/render.ansi"
python3 Tools/docs/ansi-to-html.py --title "bubbles render Corpora/logs/sample.jsonl --me Sam" \
  < "$work/render.ansi" > "$work/page.html"

# The window is 64 cells of 14 px DejaVu Sans Mono (8.43 px) plus padding; the height follows the lines.
height=$(( 36 + 30 + 24 + lines * 17 ))
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=610,"$height" --screenshot="$work/shot.png" "file://$work/page.html" >/dev/null 2>&1
if command -v optipng >/dev/null 2>&1; then optipng -quiet -o2 "$work/shot.png"; fi
cp "$work/shot.png" Tools/docs/screenshot.png
echo "Tools/docs/screenshot.png: $(wc -c < Tools/docs/screenshot.png) bytes"
