#!/usr/bin/env bash
# Counts the public API of the libraries an app imports and fails above their limits or on a
# public declaration without a doc comment. What is counted is what the compiler exports: the
# symbol graphs of the debug build (Tools/docs/symbol-graphs.sh, the graphs Tools/docs/build-docc.sh
# documents), read by Tools/api/count-public.swift.
#
#   Tools/api/count-public.sh [--list] [MODULE=LIMIT...]   (default: the limits below)
#
# --list also prints every counted declaration.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
list=()
limits=()
for argument in "$@"; do
  if [ "$argument" = "--list" ]; then list=(--list); else limits+=("$argument"); fi
done
if [ ${#limits[@]} -eq 0 ]; then
  limits=(BubbleText=80 BubbleLayout=155 BubbleFonts=50)
fi

targets=()
for limit in "${limits[@]}"; do
  targets+=("${limit%%=*}")
done
graphs=$(Tools/docs/symbol-graphs.sh "${targets[@]}")

tool=$(mktemp -d)
trap 'rm -rf "$tool"' EXIT
swiftc -O Tools/api/count-public.swift -o "$tool/count-public"
"$tool/count-public" ${list[@]+"${list[@]}"} "$graphs" "${limits[@]}"
