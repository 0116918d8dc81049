#!/usr/bin/env python3
"""Adds up the --stats-file summaries of a sharded batch and checks that the shards cover it.

Usage: merge-stats.py SHARD.json...   Prints one JSON object: totals, the shards seen and missing, and every failed
file. Exits 1 when a shard is missing, two summaries disagree on the batch, a file was rendered by two shards, or a
file failed.
"""
import json
import sys


def main(paths):
    shards, totals, failures, outputs, problems = {}, {"rendered": 0, "skipped": 0, "failed": 0, "seconds": 0.0}, [], {}, []
    counts, listed = set(), set()
    for path in paths:
        with open(path) as f:
            stats = json.load(f)
        shard = stats.get("shard") or {"index": 0, "count": 1}
        counts.add(shard["count"])
        listed.add(stats["listed"])
        shards[shard["index"]] = path
        for key in ("rendered", "skipped", "failed"):
            totals[key] += stats[key]
        totals["seconds"] = max(totals["seconds"], stats["seconds"])
        for entry in stats["files"]:
            if entry["status"] == "failed":
                failures.append({"input": entry["input"], "error": entry.get("error", "")})
            if entry["status"] in ("rendered", "skipped"):
                if entry["output"] in outputs and outputs[entry["output"]] != shard["index"]:
                    problems.append(f"{entry['output']} in shards {outputs[entry['output']]} and {shard['index']}")
                outputs[entry["output"]] = shard["index"]
    if len(counts) != 1 or len(listed) != 1:
        problems.append(f"the summaries are of different batches (shard counts {sorted(counts)}, listed {sorted(listed)})")
    count = max(counts) if counts else 0
    missing = [i for i in range(count) if i not in shards]
    if missing:
        problems.append(f"no summary for shards {missing}")
    result = dict(totals, listed=max(listed) if listed else 0, shards=count, missing=missing, failures=failures,
                  covered=len(outputs), problems=problems)
    print(json.dumps(result, indent=2))
    return 1 if problems or failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
