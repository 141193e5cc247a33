#!/usr/bin/env python3
"""Writes a folder of vLLM `bench serve --save-result --save-detailed` results, one file per
concurrency level, in the shape vLLM writes them (the keys and their order, floats as Python's
json.dump writes them, `request_rate` "inf", per-request `input_lens`, `output_lens`, `ttfts`,
`itls`, `start_times`, `generated_texts` and `errors`): synthetic but seeded, so the same
arguments always write the same bytes. For the benchmark of reading per-request records
(`scripts/bench-records.sh`), not for tests of figures.

Per request: TTFT grows with the level, each request has its own decode speed, each gap between
streamed chunks varies around it with a rare stall, and about 1 request in 500 fails (an error,
no output). Defaults: 10 levels (1 to 512), 2,000 requests each of 1,024 output tokens: about
540 MB, of which the latencies (`itls`, each a float as Python writes it, at full precision:
about 21 bytes) hold 440 MB and the texts 90 MB. With `--empty-texts` each text is "", so the
folder is almost all latencies (10 levels of 1,000 requests: 222 MB, 10 million numbers).
"""
import argparse
import json
import math
import os
import random

WORDS = ("the of and to in is that for it as with was on be by this are or at from an have "
         "not which but they can more will one all their there has been would when what if "
         "so out about up into than its only other time some could new these two may first "
         "then do any like my now over such our man me even most made after also did many "
         "before must through back years where much your way well down should because each "
         "just those people how too little state good very make world still own see men work "
         "long get here between both life being under never day same another know while last "
         "might us great old year off come since against go came right used take three").split()


def percentile(sorted_values, p):
    """numpy's default (linear) percentile of a sorted list."""
    if not sorted_values:
        return 0.0
    k = (len(sorted_values) - 1) * p / 100
    lo = math.floor(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def stats(name, values_ms, out):
    values = sorted(values_ms)
    n = len(values)
    mean = sum(values) / n if n else 0.0
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / n) if n else 0.0
    out[f"mean_{name}_ms"] = mean
    out[f"median_{name}_ms"] = percentile(values, 50)
    out[f"std_{name}_ms"] = std
    out[f"p99_{name}_ms"] = percentile(values, 99)


def level(rng, model, concurrency, requests, output_len, input_len, empty_texts):
    ttfts, itls, out_lens, texts, errors, starts = [], [], [], [], [], []
    clock = 0.0
    for i in range(requests):
        starts.append(clock)
        if rng.random() < 0.002:
            ttfts.append(0.0)
            itls.append([])
            out_lens.append(0)
            texts.append("")
            errors.append("Traceback (most recent call last):\naiohttp.client_exceptions.ServerDisconnectedError: Server disconnected\n")
            continue
        ttft = 0.03 * (1 + concurrency / 16) * rng.lognormvariate(0, 0.5)
        tpot = 0.008 * (1 + concurrency / 48) * rng.lognormvariate(0, 0.08)
        gaps = []
        for _ in range(output_len - 1):
            gap = tpot * rng.lognormvariate(0, 0.3)
            if rng.random() < 0.002:
                gap *= 20
            gaps.append(gap)
        ttfts.append(ttft)
        itls.append(gaps)
        out_lens.append(output_len)
        texts.append("" if empty_texts else " ".join(rng.choices(WORDS, k=output_len)))
        errors.append("")
        clock += (ttft + sum(gaps)) / concurrency
    completed = [i for i in range(requests) if not errors[i]]
    duration = max(clock, 1e-9)
    total_out = sum(out_lens)
    result = {
        "date": "20261203-120000",
        "endpoint_type": "vllm",
        "backend": "vllm",
        "label": None,
        "model_id": model,
        "tokenizer_id": model,
        "num_prompts": requests,
        "request_rate": "inf",
        "burstiness": 1.0,
        "max_concurrency": concurrency,
        "duration": duration,
        "completed": len(completed),
        "failed": requests - len(completed),
        "total_input_tokens": input_len * len(completed),
        "total_output_tokens": total_out,
        "request_throughput": len(completed) / duration,
        "request_goodput": None,
        "output_throughput": total_out / duration,
        "total_token_throughput": (total_out + input_len * len(completed)) / duration,
        "input_lens": [input_len] * requests,
        "output_lens": out_lens,
        "ttfts": ttfts,
        "itls": itls,
        "start_times": starts,
        "generated_texts": texts,
        "errors": errors,
        "max_output_tokens_per_s": total_out / duration * 1.2,
        "max_concurrent_requests": concurrency,
    }
    stats("ttft", [ttfts[i] * 1000 for i in completed], result)
    stats("tpot", [sum(itls[i]) * 1000 / (out_lens[i] - 1) for i in completed if out_lens[i] > 1], result)
    stats("itl", [g * 1000 for i in completed for g in itls[i]], result)
    stats("e2el", [(ttfts[i] + sum(itls[i])) * 1000 for i in completed], result)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the folder to write (created)")
    parser.add_argument("--levels", type=int, default=10, help="concurrency levels: 1, 2, 4, ...")
    parser.add_argument("--requests", type=int, default=2000, help="requests per level")
    parser.add_argument("--output-len", type=int, default=1024, help="output tokens per request")
    parser.add_argument("--input-len", type=int, default=1024, help="input tokens per request")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", default="meta-llama/Llama-3.1-8B-Instruct")
    parser.add_argument("--empty-texts", action="store_true", help='write each generated text as ""')
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    total = 0
    for k in range(args.levels):
        concurrency = 2 ** k
        result = level(rng, args.model, concurrency, args.requests, args.output_len, args.input_len,
                       args.empty_texts)
        name = args.model.split("/")[-1]
        path = os.path.join(args.out, f"vllm-infqps-concurrency{concurrency}-{name}-20261203-120000.json")
        with open(path, "w") as f:
            json.dump(result, f)
        total += os.path.getsize(path)
    print(f"{args.out}: {args.levels} files, {total / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
