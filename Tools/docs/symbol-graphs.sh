#!/usr/bin/env bash
# Writes the public symbol graphs of the given library targets to .build/docc/symbol-graphs,
# extracted (swift-symbolgraph-extract) from the modules of the ordinary debug build, the build
# the tests use, so documenting and counting the API costs no second compile.
# Doc comments a declaration only inherits (a protocol's, a superclass's) are left out, as the
# compiler's -emit-symbol-graph leaves them out.
#
#   Tools/docs/symbol-graphs.sh TARGET...     (prints the graphs' directory)
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
extract=$(command -v swift-symbolgraph-extract || true)
if [ -z "$extract" ]; then
  extract=$(dirname "$(command -v swift)")/swift-symbolgraph-extract
fi
[ -x "$extract" ] || { echo "symbol-graphs.sh: no swift-symbolgraph-extract beside swift in this toolchain" >&2; exit 1; }

swift build >&2
modules="$(swift build --show-bin-path)/Modules"
triple=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1)
graphs=.build/docc/symbol-graphs
rm -rf "$graphs"
mkdir -p "$graphs"
for target in "$@"; do
  "$extract" -module-name "$target" -I "$modules" -target "$triple" -output-dir "$graphs" \
    -minimum-access-level public -skip-inherited-docs >&2
done
echo "$graphs"
