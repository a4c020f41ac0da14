#!/usr/bin/env bash
# Lists the source files that hold unsafe code (pointers, unchecked exclusivity, bit casts,
# unmanaged references, unsafe isolation) outside comments, per module, and fails when more than
# LIMIT files (default 12) hold any. Generated tables (`*Table.swift`, `*Tables.swift`) are not
# counted. Unsafe code belongs in a few files named for what they fence (`…+Unsafe`, `…Storage`,
# `…Bytes`, `…Buffer`), behind safe APIs; see the Architecture article of BubbleLayout.
#
#   Tools/api/count-unsafe.sh [--list] [LIMIT]
set -euo pipefail
cd "$(dirname "$0")/../.."

list=0
limit=12
for argument in "$@"; do
  case "$argument" in
    --list) list=1 ;;
    *) limit=$argument ;;
  esac
done

pattern='Unsafe[A-Za-z]*Pointer|withUnsafe|unsafeBitCast|unsafeDowncast|Unmanaged|@exclusivity|nonisolated\(unsafe\)|unsafeUninitialized|assumingMemoryBound|bindMemory|withMemoryRebound'
files=$(grep -rnE "$pattern" Sources --include='*.swift' \
  | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|\*|/\*)' \
  | cut -d: -f1 | grep -vE 'Tables?\.swift$' | sort -u || true)
count=$(printf '%s' "$files" | grep -c . || true)

if [ "$list" -eq 1 ] && [ -n "$files" ]; then
  printf '%s\n' "$files"
fi
printf '%s\n' "$files" | grep . | awk -F/ '{print $2}' | sort | uniq -c | awk '{printf "%-18s %d\n", $2, $1}'
if [ "$count" -gt "$limit" ]; then
  echo "unsafe code sits in $count files, more than $limit" >&2
  exit 1
fi
echo "unsafe code sits in $count files (at most $limit)"
