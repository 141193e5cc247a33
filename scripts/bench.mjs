// Measures the release build in dist/ (see scripts/bench.sh): bytes of the first load (raw,
// gzip -9, brotli -q 11) by kind and the lazily loaded files apart; time to the recommendation
// in 7 fresh, cache-disabled contexts against a static blank page; input change to new result
// over 500 changes (and, for reference, until the evidence beneath it has caught up); the planning core on 100,000 levels in the browser's WASM (and natively,
// from criterion's output); JS heap plus WASM memory after load; and, for generated hostile inputs
// (issue 13), the longest main-thread task, the time to the answer and the renderer's peak memory;
// and a synthetic import of 900 sweeps of one model (issue 16). Each figure is printed beside its
// budget; exits 1 when one is missed.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import http from 'node:http';
import zlib from 'node:zlib';
import { launchBrowser, startServer } from '../tests/e2e/harness.mjs';
import { manySweeps } from './many-sweeps.mjs';
import { median, pct, round, typingTimes, rendererKb } from './bench-lib.mjs';
import { FIRST_LOAD_BUDGET, firstLoadFiles, sizes } from './first-load-lib.mjs';

const RUNS = 7;
const CHANGES = 500;
const EVIDENCE_CHANGES = 100;

async function timeTo(browser, url, selector) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript((sel) => {
    const seen = () => {
      if (!window.__seenAt && document.querySelector(sel)) window.__seenAt = performance.now();
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true, attributes: true });
  }, selector);
  await page.goto(url);
  await page.waitForFunction(() => window.__seenAt !== undefined);
  const t = await page.evaluate(() => window.__seenAt);
  await context.close();
  return t;
}

/** JS heap and WASM memory after load, read over the Chrome DevTools Protocol only: Playwright's
 * selector engine, once injected into a page, adds about 1.5 MB of its own to the same heap,
 * so this page is never queried through it. After load means: the load event has fired, the
 * evidence beneath the answer is drawn and the page has been idle for a second (no forced
 * collection). The heap left after a forced collection is read last, for reference. */
async function memoryAfterLoad(browser, base) {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await page.goto(`${base}?tps=25`, { waitUntil: 'load' });
  const evaluate = async (expression) => (await cdp.send('Runtime.evaluate', { expression, returnByValue: true })).result.value;
  while (!(await evaluate("document.querySelector('main.results')?.dataset.evidence === 'ready'"))) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 1000));
  await cdp.send('Performance.enable');
  const usedHeap = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  const heap = await usedHeap();
  const wasmMemory = await evaluate('window.wasmBindings.wasm_memory_bytes()');
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const liveHeap = await usedHeap();
  await page.close();
  return { heap, wasmMemory, liveHeap };
}

async function inputLatency(browser, base) {
  const page = await browser.newPage();
  await page.goto(`${base}?tps=25`, { waitUntil: 'load' });
  await page.waitForSelector('main.results[data-evidence="ready"]');
  const times = await typingTimes(page, CHANGES, 'answer');
  const evidenceTimes = await typingTimes(page, EVIDENCE_CHANGES, 'evidence');
  const wasmMs = await page.evaluate(() => {
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(window.wasmBindings.bench_planning_ms(100000));
    return runs;
  });
  await page.close();
  return { times, evidenceTimes, wasmMs };
}

/** Issue 16's many sweeps: the synthetic import of `scripts/many-sweeps.mjs` (one model, 900
 * sweeps, 1,500 rows) through the file input, timed from the pick to the answer and evidence
 * of the imported model; then, with it loaded, input change to answer and to evidence, and
 * deployment switches (each to another configuration, until the answer names it). */
async function manySweepsBench(browser, base) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'many-'));
  const file = path.join(dir, 'many-sweeps.csv');
  fs.writeFileSync(file, manySweeps(900, 1500));
  const page = await browser.newPage();
  await page.goto(`${base}?tps=25`, { waitUntil: 'load' });
  await page.waitForSelector('main.results[data-evidence="ready"]');
  await page.click('details.import summary');
  const t0 = Date.now();
  await page.setInputFiles('[data-testid="import-file"]', [file]);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('src')?.startsWith('imp-')
    && document.querySelector('main.results')?.dataset.evidence === 'ready');
  const importMs = Date.now() - t0;
  const sweeps = await page.locator('[data-testid="deployment-select"] option').count();
  const answer = await typingTimes(page, 200, 'answer');
  const evidence = await typingTimes(page, 50, 'evidence');
  const switches = await page.evaluate(async () => {
    const select = document.querySelector('[data-testid="deployment-select"]');
    const answer = document.querySelector('[data-testid="rec-status"]').closest('section');
    const values = [...select.options].map((o) => o.value);
    const out = [];
    for (let k = 1; k <= 30; k++) {
      const value = values[(k * 37) % values.length];
      if (value === select.value) continue;
      const done = new Promise((resolve) => {
        const obs = new MutationObserver(() => { obs.disconnect(); resolve(performance.now()); });
        obs.observe(answer, { childList: true, subtree: true, attributes: true, characterData: true });
      });
      const t0 = performance.now();
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
      out.push((await done) - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return out;
  });
  await page.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    import_ms: importMs,
    configurations_in_menu: sweeps,
    input_to_answer_ms: { median: round(median(answer), 3), p95: round(pct(answer, 0.95), 3) },
    input_to_evidence_ms: { median: round(median(evidence), 3), p95: round(pct(evidence, 0.95), 3) },
    deployment_switch_ms: { median: round(median(switches), 3), p95: round(pct(switches, 0.95), 3), max: round(Math.max(...switches), 3) },
  };
}

/** The generated hostile inputs of issue 13, written to a temporary folder: a 30k-record vLLM
 * array, 100k bad CSV rows, a 1M-row CSV, and a share link at the size cap that would expand
 * most (a payload of near-identical rows that deflates hard). */
function hostileInputs() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-'));
  const records = [];
  for (let i = 1; i <= 30000; i++) {
    records.push(`{"backend":"vllm","model_id":"org/m","max_concurrency":${i},"completed":100,"duration":60,"output_throughput":${i * 10},"median_itl_ms":10,"mean_tpot_ms":11}`);
  }
  fs.writeFileSync(path.join(dir, 'vllm-30k.json'), `[${records.join(',')}]`);
  let bad = 'model,concurrency,output_tok_s,p50_itl_ms\nm,1,100,10\n';
  bad += 'm,,100,10\n'.repeat(100000);
  fs.writeFileSync(path.join(dir, 'bad-100k.csv'), bad);
  const rows = [];
  for (let i = 1; i <= 1000000; i++) rows.push(`m,${i},${i}`);
  fs.writeFileSync(path.join(dir, 'rows-1m.csv'), `model,concurrency,output_tok_s\n${rows.join('\n')}\n`);
  // The link: as many rows as fit in 8 KB once deflated, each naming a long model.
  const model = 'm'.repeat(200);
  let n = 2000;
  let packed;
  for (;;) {
    const sweeps = [{ model: 0, dep: { gpu: 'g'.repeat(200), prec: 'p'.repeat(200), kind: 'c' }, rows: Array.from({ length: n }, (_, i) => ({ l: i + 1, t: 100, ms: [['p50', 10]] })) }];
    const json = JSON.stringify({ v: 2, name: 'n'.repeat(200), models: [{ id: model, nick: model, arch: model, total: null, active: null }], sweeps });
    packed = zlib.deflateRawSync(Buffer.from(json), { level: 9 }).toString('base64url');
    if (packed.length + 7 <= 8192 || n <= 10) break;
    n = Math.floor(n * 0.9);
  }
  return { dir, link: `#sweep=${packed}`, linkRows: n };
}

/** One hostile input: the longest task on the page's main thread (PerformanceObserver
 * 'longtask', which reports tasks of 50 ms and more), the time from the action to its answer
 * (the import summary, or the shared sweep's answer), and the renderer's peak memory. */
async function hostileRun(browser, base, act, done) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${base}?tps=25`);
  await page.waitForSelector('main.results[data-evidence="ready"]');
  await page.evaluate(() => { window.__longest = 0; });
  let peak = rendererKb();
  const sampler = setInterval(() => { peak = Math.max(peak, rendererKb()); }, 50);
  const t0 = Date.now();
  await act(page);
  if (typeof done === 'function') await page.waitForFunction(done, null, { timeout: 300000 });
  else await page.waitForSelector(done, { timeout: 300000 });
  const ms = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 300));
  clearInterval(sampler);
  const longest = await page.evaluate(() => window.__longest);
  await context.close();
  return { longest_task_ms: round(longest, 1), to_answer_ms: ms, peak_renderer_mb: round(peak / 1024, 1) };
}

async function hostile(browser, base) {
  const inputs = hostileInputs();
  const importFile = (name) => async (page) => {
    await page.click('details.import summary');
    await page.setInputFiles('[data-testid="import-file"]', [path.join(inputs.dir, name)]);
  };
  const out = {};
  for (const [name, file] of [['vllm_30k_records', 'vllm-30k.json'], ['csv_100k_bad_rows', 'bad-100k.csv'], ['csv_1m_rows', 'rows-1m.csv']]) {
    out[name] = await hostileRun(browser, base, importFile(file), '[data-testid="import-summary"]');
  }
  // A link is opened as a new page (another query, so not a same-page fragment change); the
  // same page opened without the fragment is measured alongside, for the start-up's own tasks.
  const open = (query) => (page) => page.goto(`${base}${query}`);
  const shown = '[data-testid="rec-status"][data-value]';
  out.plain_page_reference = await hostileRun(browser, base, open('?tps=20'), shown);
  out.share_link_at_cap = {
    ...(await hostileRun(browser, base, open(`?tps=20${inputs.link}`), () =>
      document.querySelector('[data-testid="source-select"] option[value="shared"]')?.textContent.startsWith('shared by link:')
      && document.querySelector('main.results')?.dataset.evidence === 'ready')),
    link_bytes: inputs.link.length,
    rows: inputs.linkRows,
  };
  fs.rmSync(inputs.dir, { recursive: true, force: true });
  return out;
}

function nativePlanning(criterionFile) {
  if (!criterionFile || !fs.existsSync(criterionFile)) return null;
  const text = fs.readFileSync(criterionFile, 'utf8');
  const m = text.match(/plan 100k levels\s+time:\s+\[[^\]]*?([\d.]+) (ns|µs|us|ms|s)\s+([\d.]+) (ns|µs|us|ms|s)/);
  if (!m) return null;
  const factor = { ns: 1e-6, 'µs': 1e-3, us: 1e-3, ms: 1, s: 1000 }[m[4]];
  return Number(m[3]) * factor;
}

const server = await startServer();
const blankDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blank-'));
fs.writeFileSync(path.join(blankDir, 'index.html'), '<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>blank</title></head><body><p id="blank">blank</p></body></html>');
const blank = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(fs.readFileSync(path.join(blankDir, 'index.html'))));
await new Promise((r) => blank.listen(0, '127.0.0.1', r));
const blankUrl = `http://127.0.0.1:${blank.address().port}/`;

const browser = await launchBrowser();
const rec = [];
const blanks = [];
for (let i = 0; i < RUNS; i++) {
  rec.push(await timeTo(browser, `${server.base}?tps=25`, '[data-testid="rec-status"][data-value]'));
  blanks.push(await timeTo(browser, blankUrl, '#blank'));
}
const memory = await memoryAfterLoad(browser, server.base);
const input = await inputLatency(browser, server.base);
const fetched = await firstLoadFiles(browser, server.base);
const hostileInputsMeasured = await hostile(browser, server.base);
const many = await manySweepsBench(browser, server.base);
await browser.close();
await server.close();
blank.close();

const size = sizes(fetched);
const result = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'unknown CPU'}`,
  bytes: size,
  recommendation_visible_ms: { median: round(median(rec)), min: round(Math.min(...rec)), max: round(Math.max(...rec)), runs: RUNS },
  blank_page_ms: { median: round(median(blanks)), min: round(Math.min(...blanks)), max: round(Math.max(...blanks)) },
  visible_vs_blank_ratio: round(median(rec) / median(blanks)),
  input_to_result_ms: { median: round(median(input.times), 3), p95: round(pct(input.times, 0.95), 3), changes: CHANGES },
  input_to_evidence_ms: { median: round(median(input.evidenceTimes), 3), p95: round(pct(input.evidenceTimes, 0.95), 3), changes: EVIDENCE_CHANGES },
  planning_100k_levels_ms: { browser_wasm_median: round(median(input.wasmMs), 3), native_criterion: nativePlanning(process.argv[2]) },
  memory_after_load_bytes: { js_heap: memory.heap, wasm_linear_memory: memory.wasmMemory, total: memory.heap + memory.wasmMemory, js_heap_live_after_gc: memory.liveHeap },
  hostile_inputs: hostileInputsMeasured,
  many_sweeps: many,
};
const budgets = [
  [`first load <= ${round(FIRST_LOAD_BUDGET / 1024, 1)} KB brotli`, result.bytes.first_load_total.brotli <= FIRST_LOAD_BUDGET, `${round(result.bytes.first_load_total.brotli / 1024, 1)} KB`],
  ['recommendation visible <= 2.5x blank page', result.visible_vs_blank_ratio <= 2.5, `${result.visible_vs_blank_ratio}x`],
  ['900 sweeps: import <= 1 s', many.import_ms <= 1000, `${many.import_ms} ms`],
  ['900 sweeps: input change to answer p95 <= 4 ms', many.input_to_answer_ms.p95 <= 4, `${many.input_to_answer_ms.p95} ms`],
  ['900 sweeps: evidence caught up p95 <= 50 ms', many.input_to_evidence_ms.p95 <= 50, `${many.input_to_evidence_ms.p95} ms`],
  ['900 sweeps: deployment switch to answer <= 50 ms (max)', many.deployment_switch_ms.max <= 50, `${many.deployment_switch_ms.max} ms`],
  ['input change to result p95 <= 4 ms', result.input_to_result_ms.p95 <= 4, `${result.input_to_result_ms.p95} ms`],
  ['100,000 levels planned in the browser <= 16 ms', result.planning_100k_levels_ms.browser_wasm_median <= 16, `${result.planning_100k_levels_ms.browser_wasm_median} ms`],
  ['JS heap + WASM memory <= 4 MB', result.memory_after_load_bytes.total <= 4 * 2 ** 20, `${round(result.memory_after_load_bytes.total / 2 ** 20, 2)} MB`],
  ...Object.entries(hostileInputsMeasured)
    .filter(([name]) => name !== 'plain_page_reference')
    .map(([name, m]) => [`${name}: no main-thread task over 200 ms`, m.longest_task_ms <= 200, `${m.longest_task_ms} ms`]),
];
result.budgets = Object.fromEntries(budgets.map(([name, ok, seen]) => [name, { met: ok, measured: seen }]));

console.log('\n| measure | value |\n|---|---|');
console.log(`| first load, brotli / gzip / raw | ${round(size.first_load_total.brotli / 1024, 1)} / ${round(size.first_load_total.gzip / 1024, 1)} / ${round(size.first_load_total.raw / 1024, 1)} KB |`);
for (const k of ['wasm', 'js', 'css', 'html']) console.log(`| ${k}, brotli | ${round((size.first_load[k]?.brotli ?? 0) / 1024, 1)} KB |`);
console.log(`| bundled data's JSON source (compiled into the WASM), brotli | ${round(size.first_load.data_in_wasm.brotli / 1024, 1)} KB |`);
console.log(`| first-load files | ${size.first_load_files.join(', ')} |`);
for (const [f, m] of Object.entries(size.lazy)) console.log(`| lazy ${f}, brotli | ${round(m.brotli / 1024, 1)} KB |`);
console.log(`| recommendation visible, median (min-max) of ${RUNS} | ${result.recommendation_visible_ms.median} (${result.recommendation_visible_ms.min}-${result.recommendation_visible_ms.max}) ms |`);
console.log(`| static blank page, median | ${result.blank_page_ms.median} ms |`);
console.log(`| ratio | ${result.visible_vs_blank_ratio}x |`);
console.log(`| input change to new result, median / p95 of ${CHANGES} | ${result.input_to_result_ms.median} / ${result.input_to_result_ms.p95} ms |`);
console.log(`| input change to the evidence caught up (reference: a frame later), median / p95 of ${EVIDENCE_CHANGES} | ${result.input_to_evidence_ms.median} / ${result.input_to_evidence_ms.p95} ms |`);
console.log(`| plan 100,000 levels, browser WASM / native | ${result.planning_100k_levels_ms.browser_wasm_median} / ${result.planning_100k_levels_ms.native_criterion ?? 'n/a'} ms |`);
console.log(`| JS heap + WASM memory after load | ${round(result.memory_after_load_bytes.js_heap / 2 ** 20, 2)} + ${round(result.memory_after_load_bytes.wasm_linear_memory / 2 ** 20, 2)} MB |`);
console.log(`| JS heap left after a forced collection (reference, not the budget) | ${round(memory.liveHeap / 2 ** 20, 2)} MB |`);
console.log('\n| hostile input | longest main-thread task | action to answer | renderer peak memory |\n|---|---|---|---|');
for (const [name, m] of Object.entries(hostileInputsMeasured)) console.log(`| ${name} | ${m.longest_task_ms} ms | ${m.to_answer_ms} ms | ${m.peak_renderer_mb} MB |`);
console.log(`\n| many sweeps (900 sweeps, 1,500 rows, one model; ${many.configurations_in_menu} configurations in the menu) | value |\n|---|---|`);
console.log(`| import, pick to answer and evidence | ${many.import_ms} ms |`);
console.log(`| input change to answer, median / p95 of 200 | ${many.input_to_answer_ms.median} / ${many.input_to_answer_ms.p95} ms |`);
console.log(`| input change to evidence caught up, median / p95 of 50 | ${many.input_to_evidence_ms.median} / ${many.input_to_evidence_ms.p95} ms |`);
console.log(`| deployment switch to answer, median / p95 / max | ${many.deployment_switch_ms.median} / ${many.deployment_switch_ms.p95} / ${many.deployment_switch_ms.max} ms |`);
console.log('\n| budget | met | measured |\n|---|---|---|');
for (const [name, ok, seen] of budgets) console.log(`| ${name} | ${ok ? 'yes' : 'NO'} | ${seen} |`);
const line = JSON.stringify(result);
fs.mkdirSync('target', { recursive: true });
fs.writeFileSync('target/bench.json', `${line}\n`);
console.log(`\n${line}`);
const missed = budgets.filter(([, ok]) => !ok);
if (missed.length > 0) {
  console.log(`${missed.length} budget(s) missed: ${missed.map(([name]) => name).join('; ')}`);
  process.exit(1);
}
