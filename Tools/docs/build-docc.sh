#!/usr/bin/env bash
# Builds the DocC catalogs of the library targets with the toolchain's docc (no package plugin)
# and fails on any warning: a symbol link that does not resolve, a missing article, a bad
# directive.
#
#   Tools/docs/build-docc.sh [TARGET...]    (default every target with a catalog)
#
# Each archive is written to .build/docs/TARGET.doccarchive; open it with `docc preview`, or
# serve it as a static site (docc's --transform-for-static-hosting is not used here).
# The symbol graphs are extracted from the ordinary debug build (Tools/docs/symbol-graphs.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
docc=$(command -v docc || true)
if [ -z "$docc" ]; then
  docc=$(dirname "$(command -v swift)")/docc
fi
[ -x "$docc" ] || { echo "build-docc.sh: no docc beside swift in this toolchain" >&2; exit 1; }

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for catalog in Sources/*/*.docc; do
    targets+=("$(basename "$(dirname "$catalog")")")
  done
fi

all=$(Tools/docs/symbol-graphs.sh "${targets[@]}")

graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT

mkdir -p .build/docs
status=0
for target in "${targets[@]}"; do
  catalog="Sources/$target/$target.docc"
  [ -d "$catalog" ] || { echo "build-docc.sh: $catalog does not exist" >&2; exit 1; }
  # Only this module's graphs (its own and its extensions of other modules'), so the archive
  # documents one module.
  mkdir -p "$graphs/$target"
  cp "$all/$target.symbols.json" "$graphs/$target/"
  for extension in "$all/$target@"*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$graphs/$target/"
  done
  log="$graphs/$target.log"
  failed=0
  if ! "$docc" convert "$catalog" \
      --additional-symbol-graph-dir "$graphs/$target" \
      --fallback-display-name "$target" \
      --fallback-bundle-identifier "org.bubblelayout.$target" \
      --output-path ".build/docs/$target.doccarchive" \
      --warnings-as-errors > "$log" 2>&1; then
    failed=1
  fi
  # --warnings-as-errors turns every warning into an error; say them either way.
  if grep -qE "(warning|error):" "$log"; then
    grep -E -A3 "(warning|error):" "$log" >&2
    failed=1
  fi
  if [ "$failed" -eq 0 ]; then
    echo "$target: documentation built without warnings (.build/docs/$target.doccarchive)"
  else
    echo "$target: documentation has warnings or errors" >&2
    status=1
  fi
done
exit "$status"
