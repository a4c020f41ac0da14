#!/usr/bin/env bash
# Runs the Spark example end to end and checks it: installs what it needs (a JRE from Debian,
# PySpark from PyPI), builds bubbles, generates a multi-conversation log (interleaved
# conversations), computes its heights once in one process and once on Spark (local mode,
# partitioned by conversation), and compares the two. Heavy (a JVM and a Python worker per
# core): not part of .ci/run.
#
#   Tools/spark/run.sh                      # 20,000 messages, 12 conversations, 4 partitions
#   MESSAGES=100000 CONVERSATIONS=40 Tools/spark/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
MESSAGES=${MESSAGES:-20000}
CONVERSATIONS=${CONVERSATIONS:-12}
PARTITIONS=${PARTITIONS:-4}
WIDTHS=${WIDTHS:-24,40,80}

if ! command -v java >/dev/null; then
    apt-get update
    apt-get install -y --no-install-recommends default-jre-headless
fi
python3 -c "import pyspark" 2>/dev/null || python3 -m pip install pyspark

swift build -c release --product bubbles
BIN="$(swift build -c release --show-bin-path)/bubbles"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 Tools/spark/generate_log.py --messages "$MESSAGES" --conversations "$CONVERSATIONS" > "$work/log.jsonl"
export TZ=UTC
"$BIN" heights "$work/log.jsonl" --input jsonl --width "$WIDTHS" > "$work/single.jsonl"
python3 Tools/spark/heights_spark.py --bubbles "$BIN" --input "$work/log.jsonl" --output "$work/spark.jsonl" \
    --partitions "$PARTITIONS" --widths "$WIDTHS"
python3 Tools/spark/compare_heights.py "$work/single.jsonl" "$work/spark.jsonl"
