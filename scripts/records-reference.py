#!/usr/bin/env python3
"""The reference for scripts/bench-records.sh: the straightforward Python a user would write to
judge a folder of vLLM `--save-detailed` results per request (json.load plus numpy): for each
file, each request's TPOT, (end-to-end - TTFT) / (output tokens - 1) with end-to-end = TTFT +
the sum of its ITLs, and the share of requests that completed with TPOT at most the target.
Prints one line per level and the time taken."""
import json
import pathlib
import sys
import time

import numpy as np

folder, target_ms = pathlib.Path(sys.argv[1]), float(sys.argv[2])
start = time.perf_counter()
for path in sorted(folder.glob("*.json")):
    with open(path) as f:
        run = json.load(f)
    out = np.array(run["output_lens"])
    decode = np.array([np.sum(gaps) for gaps in run["itls"]]) * 1000
    ok = np.array([not e for e in run["errors"]]) & (out > 0)
    tpot = np.where(out > 1, decode / np.maximum(out - 1, 1), 0)
    good = ok & (tpot <= target_ms)
    print(f"{run['max_concurrency']}: {good.sum()} of {len(out)} good ({100 * good.mean():.1f}%)")
print(f"seconds {time.perf_counter() - start:.3f}")
