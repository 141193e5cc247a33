// Issue 44 end to end: the deployment shown (A) compared with a candidate B at the target, from a
// link's `vs`, from the "Compare with" menu and on an import of two sweeps with two repeats each;
// issue 54: a shared comparison whose B/A is 10^4 to 10^15 answers at once, on a few ticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled, waitForParam, importedSource } from './harness.mjs';

const env = useServerAndBrowser();
const REALDATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/realdata');
const AGENTIC = ['0603_sa', '0604'].map((d) =>
  path.join(
    REALDATA,
    `ajith-sirra-amd-InferenceMAX_Rocm_Team__results_${d}_minimaxm2.5-fp4-mi355x-vllm-agentic-lmcache_results_bmk_agg_bmk__at_5988286.json`,
  ),
);
const LLAMA_H100 = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1';
const VS_B200 = 'vs=gpu%3DB200%26gpus%3D1';

/** The verdict once the comparison's code has loaded and compared. */
async function verdict(page) {
  await page.waitForSelector('[data-testid="ab-verdict"][data-verdict]');
  return page.getAttribute('[data-testid="ab-verdict"]', 'data-verdict');
}

/** The `data-value` of a hook, as a number. */
async function number(page, testid) {
  return Number(await page.getAttribute(`[data-testid="${testid}"]`, 'data-value'));
}

test('a link with vs compares Llama 3.1 8B on 1 × H100 with 1 × B200: verdict, ratio and chart', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA_H100}&tps=40&${VS_B200}`);
  // ML.ENERGY's B200 sweep gives less per GPU than the H100's at 40 tok/s per user; one run per
  // arm and no per-request records: no noise measured, said so.
  assert.equal(await verdict(page), 'worse');
  const [ratio, low, high] = [await number(page, 'ab-ratio'), await number(page, 'ab-ratio-low'), await number(page, 'ab-ratio-high')];
  assert.ok(ratio > 0 && low <= ratio && ratio <= high, `${low} ${ratio} ${high}`);
  assert.match(await page.textContent('[data-testid="ab-verdict"]'), /^B gives [\d.]+× the output per GPU of A at 40 tok\/s per user/);
  assert.match(await page.textContent('[data-testid="ab-differs"]'), /^A and B differ in: GPU\b/);
  assert.equal(await page.getAttribute('[data-testid="ab-repeats"]', 'data-interval'), 'none');
  assert.match(await page.textContent('[data-testid="ab-noise"]'), /^One run per arm measures no noise/);
  assert.equal((await page.getAttribute('[data-testid="ab-crossover"]', 'data-value')).split(',').length, 2);
  // The chart: a line along the speeds both reach, the 1× line and the target.
  const chart = page.locator('[data-testid="ab-chart"]');
  assert.equal(await chart.getAttribute('role'), 'img');
  assert.ok((await chart.locator('polyline.ab-line').getAttribute('points')).split(' ').length >= 2);
  assert.equal(await chart.locator('line.ab-one').count(), 1);
  assert.equal(await chart.locator('line.target').count(), 1);
  assert.equal(await page.locator('[data-testid="ab-table"] tbody tr').count(), 5);
  // The menu, unfolded as the link names a candidate, shows B; the link keeps vs as given.
  await page.waitForSelector('[data-testid="compare-with"] option:checked', { state: 'attached' });
  assert.match(await page.locator('[data-testid="compare-with"] option:checked').textContent(), /B200/);
  await waitForParam(page, 'vs', 'gpu=B200&gpus=1');
  // A target change gives a new comparison at the new speed.
  await page.fill('[data-testid="target-input"]', '30');
  await page.waitForFunction(() => /at 30 tok\/s per user/.test(document.querySelector('[data-testid="ab-verdict"]')?.textContent ?? ''));
  assert.deepEqual(errors, []);
  await context.close();
});

test('"Compare with" writes vs, Copy link carries it, and "none" removes it', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA_H100}&tps=40`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.base.slice(0, -1) });
  assert.equal(await page.locator('[data-testid="ab-panel"]').count(), 0);
  // Folded below the deployment; its menu is drawn when unfolded.
  await page.click('details.compare-with summary');
  await page.waitForSelector('[data-testid="compare-with"]');
  const b200 = await page.locator('[data-testid="compare-with"] option', { hasText: 'B200' }).first().getAttribute('value');
  await page.selectOption('[data-testid="compare-with"]', b200);
  await waitForParam(page, 'vs', 'gpu=B200&gpus=1');
  assert.ok(await verdict(page));
  await page.click('[data-testid="copy-link"]');
  await page.waitForSelector('[data-testid="copy-status"]:has-text("Link copied.")');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(new URL(copied).searchParams.get('vs'), 'gpu=B200&gpus=1');
  assert.match(copied, /vs=gpu%3DB200%26gpus%3D1/);
  await page.selectOption('[data-testid="compare-with"]', '');
  await waitForParam(page, 'vs', null);
  await page.waitForFunction(() => !document.querySelector('[data-testid="ab-panel"]'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a tol outside 0-50 is named and the rest of the page stands', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_H100}&tps=40&${VS_B200}&tol=80`);
  assert.match(await page.textContent('body'), /`tol` must be a percentage from 0 to 50 \(the comparison's tolerance\), got "80"/);
  assert.ok(await verdict(page));
  assert.equal(await page.inputValue('[data-testid="target-input"]'), '40');
  await context.close();
});

test('a vs that names no sweep says so; the rest of the page stands', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_H100}&tps=40&vs=gpu%3DZ999`);
  await page.waitForSelector('[data-testid="ab-error"]');
  assert.equal(
    await page.textContent('[data-testid="ab-error"]'),
    '`vs` "gpu=Z999": the candidate names no sweep of the data loaded; the rest of the page stands.',
  );
  assert.equal(await page.locator('[data-testid="ab-verdict"]').count(), 0);
  await settled(page);
  assert.ok(await page.getAttribute('[data-testid="rec-status"]', 'data-value'));
  await context.close();
});

test('an import of two sweeps with two repeats each: offload none against LMCache', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', AGENTIC);
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await page.click('details.compare-with summary');
  await page.waitForSelector('[data-testid="compare-with"]');
  const options = await page.locator('[data-testid="compare-with"] option').allTextContents();
  assert.equal(options.length, 2, options.join(' | '));
  await page.selectOption('[data-testid="compare-with"]', { index: 1 });
  await page.waitForFunction(() => new URL(location.href).searchParams.get('vs'));
  // At the default 20 tok/s per user, LMCache gives 2% more, beyond the two dates' noise.
  assert.equal(await verdict(page), 'better');
  assert.equal(
    await page.textContent('[data-testid="ab-verdict"]'),
    'B gives 1.02× the output per GPU of A at 20 tok/s per user (1.02-1.03 over 2 × 2 repeats): better',
  );
  assert.equal(await page.textContent('[data-testid="ab-repeats"]'), '2 × 2 repeats');
  assert.equal((await page.getAttribute('[data-testid="ab-crossover"]', 'data-value')).split(',').length, 3);
  assert.equal(await page.getAttribute('[data-testid="ab-repeats"]', 'data-interval'), 'repeats');
  assert.match(await page.textContent('[data-testid="ab-differs"]'), /^A and B differ in: /);
  // Share by link: #sweep= carries both arms (one source), the query keeps vs; a fresh browser
  // opens the same comparison.
  const vs = new URL(page.url()).searchParams.get('vs');
  await page.click('[data-testid="source-share"]');
  await page.waitForFunction(() => location.hash.startsWith('#sweep='));
  const link = page.url();
  assert.equal(new URL(link).searchParams.get('vs'), vs);
  const shown = await page.textContent('[data-testid="ab-verdict"]');
  const fresh = await openPlanner(env.browser, '', link);
  assert.ok(await verdict(fresh.page));
  assert.equal(await fresh.page.textContent('[data-testid="ab-verdict"]'), shown);
  await fresh.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a shared comparison with B/A of 10^4, 10^7 and 10^15 draws its verdict on a few log ticks, the page small and whole', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planner-ratio-'));
  for (const ratio of [1e4, 1e7, 1e15]) {
    // Two GPUs at the same per-user speeds (100 and 50 tok/s), B giving `ratio` times A's
    // output, every figure within what an import takes (10^-6 to 10^9).
    const a = ratio > 1e9 ? 1e-6 : 1;
    const file = path.join(dir, `ratio-${ratio}.csv`);
    fs.writeFileSync(
      file,
      ['model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms']
        .concat([['A100', a], ['B200', a * ratio]].flatMap(([gpu, tok]) => [`m,${gpu},1,8,${tok},10`, `m,${gpu},1,16,${tok},20`]))
        .join('\n') + '\n',
    );
    const made = await openPlanner(env.browser, env.server.base, '?tps=75');
    await made.page.click('.import summary');
    await made.page.setInputFiles('[data-testid="import-file"]', file);
    await importedSource(made.page);
    await made.page.click('details.compare-with summary');
    await made.page.waitForSelector('[data-testid="compare-with"]');
    const b200 = await made.page.locator('[data-testid="compare-with"] option', { hasText: 'B200' }).first().getAttribute('value');
    await made.page.selectOption('[data-testid="compare-with"]', b200);
    await waitForParam(made.page, 'vs', 'gpu=B200&gpus=1');
    await made.page.click('[data-testid="source-share"]');
    await made.page.waitForFunction(() => location.hash.startsWith('#sweep='));
    const link = made.page.url();
    assert.ok(link.length < 1024, link);
    await made.context.close();

    // The link opened afresh: the verdict, B/A on at most six log ticks, a page of the size it
    // has at B/A 1.
    const { page, context, errors } = await openPlanner(env.browser, '', link);
    assert.equal(await verdict(page), 'better');
    assert.ok(Math.abs(await number(page, 'ab-ratio') / ratio - 1) < 1e-9);
    const ticks = await page.$$eval('[data-testid="ab-chart"] text.tick', (ts) => ts.map((t) => t.textContent));
    assert.ok(ticks.filter((t) => t.endsWith('×')).length <= 6, ticks.join(' '));
    assert.ok(ticks.includes(ratio === 1e4 ? '1e4×' : ratio === 1e7 ? '1e6×' : '1e14×'), ticks.join(' '));
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    assert.ok(nodes < 1500, `${nodes} elements at B/A ${ratio}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a tol without vs is named and left out of the link; tol=-0 is written back as 0', async () => {
  let { page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA_H100}&tps=40&tol=5`);
  assert.equal(await page.getAttribute('[data-testid="scenario-error"]', 'data-param'), 'tol');
  assert.equal(
    await page.textContent('[data-testid="scenario-error"]'),
    '`tol` qualifies `vs`, which is not given: it is read only with it',
  );
  assert.equal(await page.locator('[data-testid="ab-panel"]').count(), 0);
  await waitForParam(page, 'tps', '40');
  assert.equal(new URL(page.url()).searchParams.get('tol'), null);
  assert.deepEqual(errors, []);
  await context.close();
  ({ page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA_H100}&tps=40&${VS_B200}&tol=-0`));
  assert.ok(await verdict(page));
  await waitForParam(page, 'tol', '0');
  assert.equal(await page.locator('[data-testid="scenario-error"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
