// Issue 29 end to end: the load generators people run today, imported and planned in the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled, value, importedSource } from './harness.mjs';

const REALDATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/realdata');
const STAGES = [0, 1, 2, 3, 4, 5, 6]
  .map((n) => `stage_${n}_lifecycle_metrics.json`)
  .concat(['summary_lifecycle_metrics.json'])
  .map((f) => path.join(REALDATA, 'inference-perf-kubecon/results', f));

const env = useServerAndBrowser();

test('an inference-perf run plans on normalized TPOT, its saturated stages failing', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=20&stat=ntpot_p50');
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', STAGES);
  await page.waitForSelector('[data-testid="import-summary"]');
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  assert.match(await page.textContent('[data-testid="import-summary"]'), /Read 8 files \(8 as inference-perf report\)/);
  // Stage 2 (74.94 req/s): p50 normalized TPOT 12.05 ms; stage 3 (111.92): 27.27 ms.
  assert.equal(await value(page, 'rec-concurrency'), '74.94');
  await settled(page);
  const saturated = page.locator('[data-testid="sweep-row"][data-saturated="true"]');
  assert.equal(await saturated.count(), 3);
  // The summary report is named as not a level; TPOT's left-out reason is listed.
  const messages = (await page.locator('[data-testid="import-error"]').allTextContents()).join('\n');
  assert.match(messages, /summary_lifecycle_metrics\.json: inference-perf's summary report: not read as a level/);
  assert.match(messages, /TPOT and ITL not read: the mean TPOT of 3\.48 ms cannot be true/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a GuideLLM report plans its synchronous benchmark at 1 stream', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=10&stat=tpot_p50');
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [
    path.join(REALDATA, 'vllm-project-guidellm__tests_unit_entrypoints_assets__benchmarks_stripped__at_a1fe883a.json'),
  ]);
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  assert.equal(await value(page, 'rec-status'), 'all-meet');
  assert.equal(await value(page, 'rec-concurrency'), '1');
  // The menu offers normalized TPOT only where the report has it (the older report has not).
  const options = await page.$$eval('[data-testid="stat-select"] option', (os) => os.map((o) => o.value));
  assert.ok(options.includes('tpot_p50'));
  assert.ok(!options.includes('ntpot_p50'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('an LLMPerf provider with more than 1% failed requests fails on them', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tps=5&stat=ntpot_p50');
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [
    path.join(REALDATA, 'llmperf-leaderboard__raw_data_summary__all_providers.json'),
  ]);
  await importedSource(page);
  await page.selectOption('[data-testid="model-select"]', 'llama-2-70b-chat');
  await page.waitForSelector('[data-testid="rec-status"][data-value="unattainable"]');
  await settled(page);
  assert.match(await page.textContent('[data-testid="rec-status"]'), /2 of 150 requests failed/);
  assert.equal(await page.locator('[data-testid="rec-flag"][data-kind="failed-requests"]').count(), 1);
  await context.close();
});

test('after a large import the tools worker ends to give its memory back, and the next import starts a new one', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tps=10&stat=tpot_mean');
  // Fifteen vLLM results of 4 MB each, read as texts (a larger JSON file is read as a stream,
  // which keeps a few numbers per request), each padded with a million numbers: their texts and
  // a parsed file together take the worker's WASM memory past 128 MB.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planner-texts-'));
  const files = Array.from({ length: 15 }, (_, i) => {
    const head = `{"backend":"vllm","model_id":"org/big","max_concurrency":${i + 1},"completed":100,"output_throughput":${100 * (i + 1)},"mean_tpot_ms":20,"pad":[`;
    const file = path.join(dir, `big-${i + 1}.json`);
    fs.writeFileSync(file, `${head}${'0,'.repeat((4 * 1024 * 1024 - head.length - 4) / 2)}0]}`);
    return file;
  });
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', files);
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value="all-meet"]');
  for (let i = 0; i < 50 && page.workers().length > 0; i++) await page.waitForTimeout(100);
  assert.equal(page.workers().length, 0, 'the worker ended after the large import');
  // The next call starts a new worker and is answered.
  await page.setInputFiles('[data-testid="import-file"]', [
    path.join(REALDATA, 'vllm-project-guidellm__tests_unit_entrypoints_assets__benchmarks_stripped__at_a1fe883a.json'),
  ]);
  await page.waitForFunction(() => /GuideLLM report/.test(document.querySelector('[data-testid="import-summary"]')?.textContent ?? ''));
  assert.equal(page.workers().length, 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a picked file over the size limit is never read (its size asked in the worker); the others import and are kept', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tps=10&stat=p50');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planner-large-'));
  const large = path.join(dir, 'large.json');
  fs.writeFileSync(large, Buffer.alloc(33 * 1024 * 1024, 0x20));
  const small = path.join(dir, 'small.csv');
  fs.writeFileSync(small, 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nm,H100,1,8,1000,20\nm,H100,1,16,1800,30\n');
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [large, small]);
  await importedSource(page);
  assert.match(await page.textContent('[data-testid="import-summary"]'), /^Read 2 files \(1 as CSV template; 1 not read: too large\): imported 1 sweep with 2 rows/);
  assert.match(await page.textContent('[data-testid="import-error"][data-file="large.json"]'), /large\.json: .*33\.0 MB/);
  // Kept for the next visit: the small file alone.
  const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('llm-slo-planner.import.')).map((k) => JSON.parse(localStorage.getItem(k))));
  assert.equal(stored.length, 1);
  assert.deepEqual(stored[0].files.map((f) => f.name), ['small.csv']);
  assert.deepEqual(errors, []);
  fs.rmSync(dir, { recursive: true, force: true });
  await context.close();
});
