#!/usr/bin/env bash
# Runs one of the Unicode table generators in Tools/, compiled with the UCD reading they share
# (Tools/UCD.swift). From the package root:
#
#     Tools/generate.sh generate-unicode-tables /usr/share/unicode > Sources/BubbleText/Unicode/UnicodeTables.swift
#     Tools/generate.sh generate-wcwidth-table /usr/share/unicode > Sources/BubbleText/Unicode/WcwidthTable.swift
#     Tools/generate.sh generate-ghostty-table /usr/share/unicode > Sources/BubbleText/Unicode/GhosttyTable.swift
#     Tools/generate.sh generate-bidi-tables /usr/share/unicode > Sources/BubbleText/Bidi/BidiTables.swift
#     Tools/generate.sh generate-syllabic-categories /usr/share/unicode > Sources/BubbleFonts/OpenType/SyllabicCategories.swift
#
# .ci/run does the same and compares the output with the committed tables.
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 2 ] || [ ! -f "$tools/$1.swift" ]; then
  echo "usage: Tools/generate.sh GENERATOR UCD_DIRECTORY > OUTPUT_FILE (GENERATOR: generate-unicode-tables, generate-wcwidth-table, generate-ghostty-table, generate-bidi-tables or generate-syllabic-categories)" >&2
  exit 2
fi
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
# The generator's top-level code must be in main.swift when it is compiled with another file.
cp "$tools/$1.swift" "$build/main.swift"
swiftc -O -module-name Generator "$build/main.swift" "$tools/UCD.swift" -o "$build/$1"
"$build/$1" "$2"
