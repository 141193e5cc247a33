// Measures the comparison of two arms (issue 44) on the release build in dist/:
// - in the page's WASM (`bench_ab_ms`, the comparison's code loaded on demand): two synthetic
//   arms of 10 repeats × 50 levels, 2,000 per-request records per level (core::plan::bench::
//   synthetic_arms) made ready once, then compared and worded at CHANGES targets in turn, on p50
//   TPOT and under attain=95: each change's time;
// - in the page: a link comparing Llama 3.1 8B on 1 × H100 with 1 × B200, the target typed in
//   turn (30, 25) CHANGES times: from the input event to the new verdict in the panel
//   (`ab-verdict`).
// Prints a table and one JSON line. Usage: node scripts/bench-ab.mjs (after a release build).
import { launchBrowser, startServer } from '../tests/e2e/harness.mjs';
import { median, pct, round } from './bench-lib.mjs';

const CHANGES = 200;
const BUDGET_MS = 16;

/** Types the target in turn, `n` times; each time the ms until the verdict's text changes. */
function verdictTimes(page, n) {
  return page.evaluate(async (n) => {
    const input = document.querySelector('[data-testid="target-input"]');
    const panel = document.querySelector('[data-testid="ab-panel"]');
    const out = [];
    for (let i = 0; i < n; i++) {
      const value = i % 2 === 0 ? '30' : '25';
      const done = new Promise((resolve) => {
        const check = () => {
          const text = document.querySelector('[data-testid="ab-verdict"]')?.textContent ?? '';
          if (text.includes(`at ${value} tok/s per user`)) { obs.disconnect(); resolve(performance.now()); }
        };
        const obs = new MutationObserver(check);
        obs.observe(panel, { childList: true, subtree: true, characterData: true, attributes: true });
      });
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      out.push((await done) - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return out;
  }, n);
}

const summary = (xs) => ({ median: round(median(xs), 3), p95: round(pct(xs, 0.95), 3), max: round(Math.max(...xs), 3) });

const server = await startServer();
const browser = await launchBrowser();
const page = await browser.newPage();
await page.goto(`${server.base}?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=40&vs=gpu%3DB200%26gpus%3D1`);
await page.waitForSelector('[data-testid="ab-verdict"][data-verdict]');
const synthetic = {};
for (const attain of [false, true]) {
  const times = await page.evaluate(async (attain) => Array.from(await window.wasmBindings.bench_ab_ms(10, 50, 2000, 200, attain)), attain);
  if (!times.length || times.some((t) => !Number.isFinite(t))) throw new Error('bench_ab_ms gave no times');
  synthetic[attain ? 'attain_95' : 'p50_tpot'] = summary(times);
}
const page_ms = summary(await verdictTimes(page, CHANGES));
await browser.close();
await server.close();

const result = {
  synthetic_compare_ms: synthetic,
  bundled_target_change_to_verdict_ms: page_ms,
  budget_p95_ms: BUDGET_MS,
};
console.log('\n| measure | median | p95 | max |\n|---|---|---|---|');
for (const [k, s] of Object.entries(synthetic)) {
  console.log(`| compare + words, 2 × 10 repeats × 50 levels × 2,000 records, ${k}, in the page's WASM (${200} changes) | ${s.median} | ${s.p95} | ${s.max} ms |`);
}
console.log(`| target change to the new verdict shown, H100 against B200 (${CHANGES} changes) | ${page_ms.median} | ${page_ms.p95} | ${page_ms.max} ms |`);
console.log(`\n${JSON.stringify(result)}`);
