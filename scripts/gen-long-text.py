#!/usr/bin/env python3
"""Writes an ML.ENERGY per-model file whose `model_id` is one long text, over many rows: the
hostile input of issues 46 and 47 (a 1 MB model id over 2,001 rows makes a 1.4 MB file; 2 MB
makes 2.5 MB). Synthetic and deterministic: the same arguments always write the same bytes.

    python3 scripts/gen-long-text.py OUT.json [--text-bytes 1048576] [--rows 2001]

Used to measure the command line's peak memory and time on it (`/usr/bin/time -v
llm-slo-planner plan OUT.json --tps 20`); tests/reader_memory.rs builds the same shape in Rust.
"""
import argparse
import json


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--text-bytes", type=int, default=1 << 20)
    parser.add_argument("--rows", type=int, default=2001)
    args = parser.parse_args()
    configurations = [
        {
            "gpu_model": "H100",
            "num_gpus": 1,
            "max_num_seqs": 8 * (i + 1),
            "median_itl_ms": 10.0 + i * 0.01,
            "output_throughput_tokens_per_sec": 1000.0 + i,
            "parallelization": {"tensor_parallel": 1, "data_parallel": 1, "expert_parallel": 1},
        }
        for i in range(args.rows)
    ]
    doc = {
        "model_id": "m" * args.text_bytes,
        "nickname": "long id",
        "architecture": "Dense Transformer",
        "task": "lm-arena-chat",
        "configurations": configurations,
    }
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(doc, out, separators=(",", ":"))


if __name__ == "__main__":
    main()
