#!/usr/bin/env python3
"""Row heights of a native JSON Lines log on Apache Spark (PySpark, local mode), by piping each
partition through `bubbles heights -`.

Why this is correct: a row's height never depends on messages more than one ahead in its own
conversation, and messages of different conversations never affect each other. So any split that
keeps each conversation whole and in order gives the same heights as one process: here records
are partitioned by their `conversation` field and sorted by input position within a partition.

  heights_spark.py --bubbles .build/release/bubbles --input log.jsonl --output spark.jsonl
"""
import argparse
import json
import os

from pyspark import SparkConf, SparkContext
from pyspark.rdd import portable_hash


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bubbles", required=True, help="path of the bubbles binary")
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--widths", default="24,40,80")
    args = parser.parse_args()

    conf = SparkConf().setMaster(f"local[{os.environ.get('SPARK_CORES', '2')}]").setAppName("bubbles-heights")
    conf.set("spark.ui.enabled", "false")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    try:
        lines = sc.textFile(args.input).zipWithIndex()

        def keyed(pair):
            line, position = pair
            conversation = json.loads(line).get("conversation")
            return ((str(conversation), position), line)

        ordered = lines.map(keyed).repartitionAndSortWithinPartitions(
            numPartitions=args.partitions,
            partitionFunc=lambda key: portable_hash(key[0]),
            keyfunc=lambda key: key)
        command = [os.path.abspath(args.bubbles), "heights", "-", "--input", "jsonl", "--width", args.widths]
        env = {"TZ": os.environ.get("TZ", "UTC")}
        heights = ordered.values().pipe(" ".join(command), env=env)
        with open(args.output, "w", encoding="utf-8") as out:
            for line in heights.toLocalIterator():
                out.write(line + "\n")
    finally:
        sc.stop()


if __name__ == "__main__":
    main()
