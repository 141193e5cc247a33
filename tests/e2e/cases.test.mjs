// The cases of tests/fixtures/cases (inputs the planner once got wrong), imported through the
// file input in headless Chromium, each giving the answer its README states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled, value, importedSource } from './harness.mjs';

const CASES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/cases');
const env = useServerAndBrowser();

/** Imports the case files into a fresh page; returns the page, its context and the import's src. */
async function importCase(...files) {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', files.map((f) => path.join(CASES, f)));
  await page.waitForSelector('[data-testid="import-summary"]');
  const src = await importedSource(page);
  return { page, context, errors, src };
}

/** Opens the imported source with `query` (the import is kept in this context's storage). */
async function open(page, src, query) {
  await page.goto(`${env.server.base}?src=${src}&${query}`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
}

const optionCfgs = (page) =>
  page.$$eval('[data-testid="deployment-select"] option', (os) => os.map((o) => o.dataset.cfg));

const enabledStats = (page) =>
  page.$$eval('[data-testid="stat-select"] option:not([disabled])', (os) => os.map((o) => o.value));

test('batching-sentence: comparatives read the way their ratios run', async () => {
  const { page, context, errors, src } = await importCase('batching-sentence/conc10.json', 'batching-sentence/conc30.json');
  await open(page, src, 'tps=15&stat=p50');
  assert.equal(await value(page, 'rec-status'), 'all-meet');
  assert.equal(await value(page, 'rec-concurrency'), '30');
  assert.equal(await page.textContent('[data-testid="batch-user-slowdown"]'), '1.4x faster');
  assert.equal(await page.textContent('[data-testid="batch-throughput-gain"]'), '6.5x lower');
  assert.doesNotMatch(await page.textContent('.answer'), /0\.\d+x |1x (slower|higher)/);
  assert.equal(await page.locator('[data-testid="rec-flag"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('sweep-identity: random and sharegpt are two sweeps the picker tells apart', async () => {
  const { page, context, src } = await importCase('sweep-identity/random-vs-sharegpt.jsonl');
  assert.match(await page.textContent('[data-testid="import-summary"]'), /imported 2 sweeps with 2 rows/);
  await open(page, src, 'tpot=50&stat=p50&cfg=sharegpt');
  assert.deepEqual(await optionCfgs(page), ['random 1024/1024', 'sharegpt']);
  assert.equal(await value(page, 'rec-status'), 'all-meet');
  assert.equal(await value(page, 'rec-concurrency'), '4');
  assert.equal(await value(page, 'rec-throughput'), '705.0134392448288');
  const random = await page.$eval('[data-testid="deployment-select"] option[data-cfg="random 1024/1024"]', (o) => o.value);
  await page.selectOption('[data-testid="deployment-select"]', random);
  await page.waitForSelector('[data-testid="rec-status"][data-value="unattainable"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('cfg') === 'random 1024/1024');
  await context.close();
});

test('sweep-identity: a config column and isl/osl columns make sweeps', async () => {
  let { page, context, src } = await importCase('sweep-identity/config-column.csv');
  await open(page, src, 'tpot=70&stat=tpot_mean&cfg=EP8');
  assert.deepEqual(await optionCfgs(page), ['EP8', 'TP4PP2']);
  assert.equal(await value(page, 'rec-status'), 'ok');
  assert.equal(await value(page, 'rec-concurrency'), '10');
  assert.equal(await value(page, 'rec-throughput'), '259.5567');
  await open(page, src, 'tpot=70&stat=tpot_mean&cfg=TP4PP2');
  assert.equal(await value(page, 'rec-concurrency'), '50');
  assert.equal(await value(page, 'rec-throughput'), '747.1583');
  await context.close();

  ({ page, context, src } = await importCase('sweep-identity/isl-osl-columns.csv'));
  await open(page, src, 'tps=29&stat=tpot_mean&cfg=128%2F1024');
  assert.deepEqual(await optionCfgs(page), ['128/128', '128/1024', '1024/128']);
  assert.equal(await value(page, 'rec-status'), 'ok');
  assert.equal(await value(page, 'rec-concurrency'), '1');
  await context.close();
});

test('sweep-identity: InferenceX campaign dates, newest first, p90 offered only where reported', async () => {
  const { page, context, src } = await importCase('sweep-identity/inferencex-two-dates.json');
  await open(page, src, 'tpot=15&stat=tpot_p90');
  assert.deepEqual(await optionCfgs(page), ['2026-03-25', '2025-12-13']);
  assert.equal(await page.$eval('[data-testid="deployment-select"]', (s) => s.selectedOptions[0].dataset.cfg), '2026-03-25');
  assert.equal(await value(page, 'rec-status'), 'all-meet');
  assert.equal(await value(page, 'rec-concurrency'), '4');
  assert.equal(Number(await value(page, 'rec-throughput-per-gpu')).toFixed(2), '45.93');
  assert.ok((await enabledStats(page)).includes('tpot_p90'));
  const old = await page.$eval('[data-testid="deployment-select"] option[data-cfg="2025-12-13"]', (o) => o.value);
  await page.selectOption('[data-testid="deployment-select"]', old);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('cfg') === '2025-12-13');
  await settled(page);
  assert.ok(!(await enabledStats(page)).includes('tpot_p90'));
  assert.notEqual(await value(page, 'rec-status'), 'no-data');
  await context.close();
});

test('partial-reports: a figure one run reports is kept, marked 1 of 2 runs', async () => {
  const { page, context, src } = await importCase('partial-reports/one-run-reports-more.csv');
  await open(page, src, 'tpot=20&stat=p90');
  assert.equal(await value(page, 'rec-status'), 'ok');
  assert.equal(await value(page, 'rec-concurrency'), '16');
  assert.equal(await value(page, 'rec-throughput'), '795.8');
  assert.equal(await value(page, 'rec-power'), '5756');
  assert.equal(Number(await value(page, 'rec-energy')).toFixed(3), '5.683');
  assert.match(await page.textContent('[data-testid="rec-energy"]'), /derived: power ÷ output throughput/);
  for (const stat of ['p90', 'power', 'energy']) {
    const c = page.locator(`[data-testid="figure-coverage"][data-stat="${stat}"]`);
    assert.deepEqual([await c.getAttribute('data-runs'), await c.getAttribute('data-of')], ['1', '2'], stat);
  }
  assert.match(await page.textContent('[data-testid="rec-tpot-ms"]'), /1 of 2 runs/);
  await context.close();
});

test('units: seconds in ms columns are flagged in the import, the answer and every row', async () => {
  const { page, context, src } = await importCase('units/seconds-in-ms-columns.csv');
  assert.equal(await page.getAttribute('[data-testid="import-warning"]', 'data-kind'), 'implausible-speed');
  assert.match(await page.textContent('[data-testid="import-warning"]'), /4 rows flagged implausible-speed/);
  await open(page, src, 'tpot=70&stat=tpot_mean');
  assert.equal(await page.getAttribute('[data-testid="rec-flag"]', 'data-kind'), 'implausible-speed');
  assert.match(await page.textContent('[data-testid="rec-flag"]'), /on 4 of 4 runs.*At 1: 1000 \/ 0\.0248 ms \(mean TPOT\) = 40,323 tok\/s per user at concurrency 1 cannot come from 40\.0 tok\/s in aggregate/);
  assert.equal(await page.locator('[data-testid="sweep-row"] [data-testid="anomaly"][data-kind="implausible-speed"]').count(), 4);
  await context.close();
});

test('saturation: request rates the server did not sustain fail as saturated', async () => {
  const { page, context, src } = await importCase('saturation/request-rate-sweep.jsonl');
  const warnings = await page.$$eval('[data-testid="import-warning"]', (ws) => ws.map((w) => w.dataset.kind));
  assert.deepEqual(warnings, ['saturated', 'rate-above-offered']);
  await open(page, src, 'tpot=30&stat=tpot_mean');
  assert.equal(await value(page, 'rec-status'), 'ok');
  assert.equal(await value(page, 'rec-concurrency'), '4');
  assert.match(await page.textContent('[data-testid="rec-status"]'), /8 fails: saturated \(served 3\.8 of 8 req\/s\)/);
  const saturated = await page.$$eval('[data-testid="sweep-row"][data-saturated="true"]', (rs) => rs.map((r) => r.dataset.concurrency));
  assert.deepEqual(saturated, ['8', '16', '32', '64']);
  assert.equal(await page.locator('[data-testid="sweep-row"][data-concurrency="2"] [data-testid="anomaly"][data-kind="rate-above-offered"]').count(), 1);
  assert.equal(await page.locator('[data-testid="anomaly"][data-kind="saturated"]').count(), 4);
  await context.close();
});

test('a file that matches no format names the closest one', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  await page.fill('[data-testid="import-paste"]', '{"backend":"vllm","model_id":"org/big","max_concurrency":4,"output_throughput":1e400,"median_itl_ms":12}');
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForSelector('[data-testid="import-error"]');
  assert.match(await page.textContent('[data-testid="import-error"]'), /`output_throughput` holds a number out of range \(1e400\)/);
  await page.fill('[data-testid="import-paste"]', 'model,gpu,num_gpus,output_tok_s\nm,H100,1,100\n');
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForFunction(() => /looks like the CSV template/.test(document.querySelector('[data-testid="import-error"]')?.textContent ?? ''));
  await context.close();
});

test('a sweep of hundreds of levels is shown a page of rows at a time, its chart a bounded set of points', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  let csv = 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n';
  for (let i = 1; i <= 300; i++) csv += `org/long,H100,1,${i},${i * 10},${10 + i / 10}\n`;
  await page.fill('[data-testid="import-paste"]', csv);
  await page.click('[data-testid="import-paste-button"]');
  const src = await importedSource(page);
  await page.goto(`${env.server.base}?src=${src}&tpot=30&stat=p50`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  // 30 ms is reached at 200: the recommended level's page (rows 101-200) opens.
  assert.equal(await value(page, 'rec-concurrency'), '200');
  assert.equal(await page.locator('[data-testid="sweep-row"]').count(), 100);
  assert.match(await page.textContent('[data-testid="sweep-pager"]'), /Rows 101–200 of 300/);
  assert.equal(await page.locator('[data-testid="sweep-row"][data-concurrency="200"] .badge.rec').count(), 1);
  await page.click('[data-testid="sweep-page-next"]');
  await page.waitForFunction(() => /Rows 201–300 of 300/.test(document.querySelector('[data-testid="sweep-pager"]').textContent));
  await page.waitForFunction(() => document.querySelector('[data-testid="sweep-page-next"]').disabled);
  assert.ok((await page.locator('[data-testid="chart-point"]').count()) <= 70);
  // The recommended level is ringed even when it is not one of the drawn points.
  assert.equal(await page.locator('[data-testid="tradeoff-chart"] circle.recommended').count(), 1);
  await context.close();
});

test('a model with a hundred deployments: the chart draws twelve, the side-by-side table fifty at a time', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  let csv = 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n';
  for (let g = 1; g <= 120; g++) {
    csv += `org/wide,GPU-${g},1,8,${800 + g},10\norg/wide,GPU-${g},1,16,${1400 + g},20\n`;
  }
  await page.fill('[data-testid="import-paste"]', csv);
  await page.click('[data-testid="import-paste-button"]');
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  assert.equal(await page.locator('[data-testid="tradeoff-chart"] [data-testid="chart-series"]').count(), 12);
  assert.match(await page.textContent('[data-testid="chart-more"]'), /108 more deployments/);
  assert.equal(await page.locator('[data-testid="compare-row"]').count(), 50);
  assert.match(await page.textContent('[data-testid="compare-more"]'), /Showing 50 of 120 deployments/);
  await page.click('[data-testid="compare-show-more"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-row"]').length === 100);
  assert.match(await page.textContent('[data-testid="compare-show-more"]'), /Show 20 more/);
  await page.click('[data-testid="compare-show-more"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-row"]').length === 120);
  assert.equal(await page.locator('[data-testid="compare-more"]').count(), 0);
  await context.close();
});

test('a byte order mark at the start of a file is skipped: the SGLang file reads both runs, a CSV its header', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  const bom = (f) => ({
    name: path.basename(f),
    mimeType: 'application/octet-stream',
    buffer: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fs.readFileSync(path.join(CASES, f))]),
  });
  await page.setInputFiles('[data-testid="import-file"]', [
    bom('sweep-identity/random-vs-sharegpt.jsonl'),
    bom('sweep-identity/config-column.csv'),
  ]);
  await page.waitForSelector('[data-testid="import-summary"]');
  // 2 SGLang runs (random, sharegpt) and the CSV's EP8 and TP4PP2 sweeps; nothing left out.
  assert.match(await page.textContent('[data-testid="import-summary"]'), /imported 4 sweeps with 10 rows/);
  assert.doesNotMatch(await page.textContent('.import'), /not valid JSON|column 1/);
  assert.deepEqual(errors, []);
  await context.close();
});
