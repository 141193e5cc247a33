// Issue 30 end to end: attainment (`attain=P`) judged on each request's own figures, in the
// answer, the sweep table's column, the link and the input; and no-data without records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled, value, waitForParam, importedSource } from './harness.mjs';

const SCICOM = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/realdata/scicom-vllm-detailed');
const FILES = ['tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json', 'tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json']
  .map((f) => path.join(SCICOM, f));

const env = useServerAndBrowser();

/** Imports the two scicom files in the import panel and waits for the imported sweep's answer. */
async function importScicom(page) {
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', FILES);
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value="ok"]');
  await settled(page);
}

test('a vLLM --save-detailed sweep is judged per request: the answer, the column, the link and the input', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=145&limit=ttft_p99:5000&attain=70');
  await importScicom(page);
  // 50 of 50 good at 1 stream; 136 of 200 at 10 (TPOT <= 145 ms and TTFT <= 5 s each).
  assert.equal(await value(page, 'rec-concurrency'), '1');
  assert.match(await page.textContent('[data-testid="rec-attainment"]'), /100% of 50 requests good; 0\.0966 good req\/s, 12 good output tok\/s/);
  assert.match(await page.textContent('[data-testid="rec-status"]'), /10 fails: 136 of 200 requests good \(68%; 70% asked; missed: 58 on TPOT, 7 on TTFT\)/);
  const cells = await page.locator('[data-testid="attainment"]').allTextContents();
  assert.deepEqual(cells, ['50 of 50 requests good (100%)', '136 of 200 requests good (68%; missed: 58 on TPOT, 7 on TTFT)']);
  assert.equal(new URL(page.url()).searchParams.get('attain'), '70');

  // The field: 60% takes 10 streams; a share out of range is named and the last valid one kept.
  const field = page.locator('[data-testid="attain-input"]');
  assert.equal(await field.inputValue(), '70');
  await field.fill('60');
  await waitForParam(page, 'attain', '60');
  await page.waitForSelector('[data-testid="rec-status"][data-value="all-meet"]');
  assert.equal(await value(page, 'rec-concurrency'), '10');
  await field.fill('120');
  assert.match(await page.textContent('[data-testid="attain-error"]'), /must be a percentage from 50 to 100/);
  assert.equal(new URL(page.url()).searchParams.get('attain'), '60');
  // Emptied: judged on the statistic again.
  await field.fill('');
  await waitForParam(page, 'attain', null);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the requests behind the attainment: each level against P, and one level\'s requests, TPOT against TTFT', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=145&limit=ttft_p99:5000&attain=70');
  await importScicom(page);
  await page.waitForSelector('[data-testid="requests-scatter"]');
  // One dot per level: 100% at 1 stream meets, 68% at 10 misses; P is a line at 70%.
  const dots = await page.locator('[data-testid="attain-dot"]').evaluateAll((ds) => ds.map((d) => [d.dataset.level, d.dataset.meets, d.textContent]));
  assert.deepEqual(dots, [
    ['1', 'true', '1 concurrency: 50 of 50 requests good (100%; 70% asked)'],
    ['10', 'false', '10 concurrency: 136 of 200 requests good (68%; 70% asked; missed: 58 on TPOT, 7 on TTFT)'],
  ]);
  assert.equal(await page.locator('[data-testid="attain-p-line"]').count(), 1);
  // The recommended level's requests first.
  const level = page.locator('[data-testid="requests-level"]');
  assert.equal(await level.locator('option:checked').textContent(), '1 concurrency');
  assert.match(await page.textContent('[data-testid="requests-caption"]'), /^50 of 50 requests good\./);
  // Each dot is a tab stop that says its counts; Enter on it shows its requests: at 10, 136 dots
  // and 64 crosses.
  await page.focus('[data-testid="attain-dot"][data-level="10"]');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), `${dots[1][2]}; shows its requests below`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="requests-caption"]').textContent.startsWith('136'));
  assert.equal(await level.locator('option:checked').textContent(), '10 concurrency');
  assert.equal(
    await page.textContent('[data-testid="requests-caption"]'),
    '136 of 200 requests good. Each completed request is a mark: its TPOT across, its TTFT up; a dot is good, a cross missed; '
      + '58 over the target of 145 ms per token (slow decodes); 7 over the TTFT limit of 5,000 ms (long waits).',
  );
  const marks = await page.evaluate(() => ['good-requests', 'missed-requests']
    .map((c) => document.querySelector(`[data-testid="requests-scatter"] .${c}`).getAttribute('d').split('M').length - 1));
  assert.deepEqual(marks, [136, 64]);
  // The menu goes back.
  await level.selectOption({ label: '1 concurrency' });
  await page.waitForFunction(() => document.querySelector('[data-testid="requests-caption"]').textContent.startsWith('50 of 50'));
  // Without attain, the panel goes.
  await page.locator('[data-testid="attain-input"]').fill('');
  await waitForParam(page, 'attain', null);
  await page.waitForSelector('[data-testid="requests-panel"]', { state: 'detached' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('an end-to-end limit is judged on each request under attain, and offered in the limit menu', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=145&limit=e2e_p99:21000&attain=70');
  await importScicom(page);
  // End-to-end = TTFT + the sum of a request's ITLs: 9 of 200 within 21 s at 10 streams.
  assert.match(await page.textContent('[data-testid="rec-status"]'), /10 fails: 9 of 200 requests good \(4\.5%; 70% asked; missed: 58 on TPOT, 190 on end-to-end latency\)/);
  assert.equal(await page.locator('[data-testid="limit-stat"]').inputValue(), 'e2e_p99');
  const options = await page.locator('[data-testid="limit-stat"] option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(['e2e_mean', 'e2e_p50', 'e2e_p99'].every((k) => options.includes(k)), options.join(','));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the bundled data has no per-request records: attain is not judged and says why', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tps=20&attain=95');
  assert.equal(await value(page, 'rec-status'), 'no-data');
  assert.match(await page.textContent('[data-testid="rec-status"]'), /No data: attain=95 counts each request, and this sweep has no per-request records \(vLLM bench serve --save-detailed, SGLang bench_serving and LLMPerf's individual responses write them; a shared #sweep= link carries none\)\. Judge it on an aggregate instead: /);
  assert.deepEqual(errors, []);
  await context.close();
});

/** A vLLM `--save-detailed` result of `requests` requests of 2,001 output tokens at
 * `concurrency`, each streamed in gaps of 10 ms but every `slow`-th request's of 30 ms: about
 * 8 MB, so the page reads it as a stream. */
function detailed(concurrency, requests, slow) {
  const gap = (i) => (i % slow === 0 ? 0.030000000000000002 : 0.010000000000000002);
  return JSON.stringify({
    date: '20261203-120000', backend: 'vllm', model_id: 'org/streamed', num_prompts: requests, request_rate: 'inf',
    max_concurrency: concurrency, duration: 100, completed: requests, failed: 0, output_throughput: 4000 * concurrency,
    median_tpot_ms: 10, input_lens: Array(requests).fill(100), output_lens: Array(requests).fill(2001),
    ttfts: Array(requests).fill(0.1), itls: Array.from({ length: requests }, (_, i) => Array(2000).fill(gap(i))),
    generated_texts: Array(requests).fill('text'), errors: Array(requests).fill(''),
  });
}

test('a per-request file of several MB is read as a stream in the worker, with progress, and judged per request', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planner-streamed-'));
  const files = [[1, 50], [2, 10]].map(([c, slow]) => {
    const file = path.join(dir, `vllm-c${c}.json`);
    fs.writeFileSync(file, detailed(c, 200, slow));
    return file;
  });
  assert.ok(fs.statSync(files[0]).size > 4 * 1024 * 1024);
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=20&attain=95');
  await page.click('.import summary');
  await page.evaluate(() => {
    window.__progress = [];
    new MutationObserver(() => {
      const line = document.querySelector('[data-testid="import-progress"]')?.textContent;
      if (line && window.__progress.at(-1) !== line) window.__progress.push(line);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await page.setInputFiles('[data-testid="import-file"]', files);
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value="ok"]');
  await settled(page);
  // 196 of 200 good at 1 stream (every 50th request slow), 180 of 200 at 2 (every 10th).
  assert.equal(await value(page, 'rec-concurrency'), '1');
  assert.match(await page.textContent('[data-testid="rec-status"]'), /2 fails: 180 of 200 requests good \(90%; 95% asked; missed: 20 on TPOT\)/);
  const cells = await page.locator('[data-testid="attainment"]').allTextContents();
  assert.deepEqual(cells, ['196 of 200 requests good (98%; missed: 4 on TPOT)', '180 of 200 requests good (90%; missed: 20 on TPOT)']);
  const progress = await page.evaluate(() => window.__progress);
  assert.ok(progress.some((line) => /^Reading 2 files… [\d.]+ MB of [\d.]+ MB read$/.test(line)), progress.join(' | '));
  // Too large to keep for the next visit, and said so.
  assert.match(await page.textContent('[data-testid="import-summary"]'), /Not kept for your next visit: its files come to/);
  assert.deepEqual(errors, []);
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
