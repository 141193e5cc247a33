// The planner end to end, on the release build in headless Chromium (issue 2's "Done means").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPlanner, settled, value, waitForParam } from './harness.mjs';

const env = useServerAndBrowser();

const LLAMA_8B = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1';

test('Llama-3.1-8B on 1 x H100 at 25 tok/s p50 runs max_num_seqs 384', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=25&stat=p50`);
  assert.equal(await value(page, 'rec-status'), 'ok');
  assert.equal(await value(page, 'rec-concurrency'), '384');
  assert.equal(await value(page, 'rec-throughput'), '9248.01198181863');
  assert.equal(await value(page, 'rec-throughput-per-gpu'), '9248.01198181863');
  assert.equal(await value(page, 'rec-energy'), '0.07423418180476347');
  assert.equal(await value(page, 'rec-power'), '686.5186027909551');
  assert.equal(await value(page, 'rec-tpot-ms'), '37.70148498006165');
  assert.equal(await value(page, 'rec-user-tps'), String(1000 / 37.70148498006165));
  assert.equal(await value(page, 'rec-headroom'), String((1000 / 37.70148498006165 - 25) / 25));
  assert.match(await page.textContent('[data-testid="rec-throughput"]'), /9,248 tok\/s/);
  assert.match(await page.textContent('[data-testid="rec-energy"]'), /0\.07423 J\/token/);
  const rows = page.locator('[data-testid="sweep-row"]');
  assert.equal(await rows.count(), 11);
  assert.equal(await page.getAttribute('[data-testid="sweep-row"][data-concurrency="384"]', 'data-meets'), 'true');
  assert.equal(await page.getAttribute('[data-testid="sweep-row"][data-concurrency="512"]', 'data-meets'), 'false');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Qwen3-30B-A3B on 2 x H100 at 40 ms p50 shows the worst of its two rows at 256', async () => {
  const { page, context } = await openPlanner(
    env.browser,
    env.server.base,
    '?model=Qwen%2FQwen3-30B-A3B-Instruct-2507&gpu=H100&gpus=2&tpot=40&stat=p50',
  );
  assert.equal(await value(page, 'rec-concurrency'), '256');
  assert.equal(await value(page, 'rec-throughput'), '7154.113418980205');
  assert.equal(await value(page, 'rec-energy'), '0.14702179429298418');
  assert.equal(await value(page, 'rec-tpot-ms'), '34.58299767225981');
  assert.equal(await value(page, 'rec-headroom'), String((40 - 34.58299767225981) / 40));
  assert.match(await page.textContent('[data-testid="rec-tpot-ms"]'), /34\.6 ms/);
  assert.equal(await page.locator('[data-testid="sweep-row"][data-concurrency="256"]').count(), 2);
  assert.equal(await page.locator('[data-testid="sweep-row"]').count(), 14);
  assert.match(await page.textContent('[data-testid="rec-duplicate"]'), /2 runs were measured at 256/);
  await context.close();
});

test('Qwen3-235B on 4 x B200 at 70 ms p50 runs 512 and points out 4096', async () => {
  const { page, context } = await openPlanner(
    env.browser,
    env.server.base,
    '?model=Qwen%2FQwen3-235B-A22B-Instruct-2507&gpu=B200&gpus=4&tpot=70&stat=p50',
  );
  assert.equal(await value(page, 'rec-concurrency'), '512');
  const also = page.locator('[data-testid="also-meets"]');
  assert.equal(await also.count(), 1);
  assert.equal(await also.getAttribute('data-concurrency'), '4096');
  assert.match(await also.textContent(), /Also meets at 4,096, but 3,072 below it did not .*3\.53 tok\/s/);
  await context.close();
});

test('changing the target updates result and URL, and the new URL reloads to the same result', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=25&stat=p50`);
  await page.fill('[data-testid="target-input"]', '30');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="256"]');
  // The sweep table follows the answer a frame later: 384 no longer meets.
  await settled(page);
  assert.equal(await page.getAttribute('[data-testid="sweep-row"][data-concurrency="384"]', 'data-meets'), 'false');
  await waitForParam(page, 'tps', '30');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('model'), 'meta-llama/Llama-3.1-8B-Instruct');
  // Switch to ms per token: 30 tok/s becomes 33.33 ms.
  await page.check('[data-testid="unit-tpot"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('tpot') === '33.33');
  assert.equal(await page.inputValue('[data-testid="target-input"]'), '33.33');
  assert.equal(await value(page, 'rec-concurrency'), '256');
  await page.selectOption('[data-testid="stat-select"]', 'p90');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('stat') === 'p90');
  const shared = page.url();
  const expected = await value(page, 'rec-concurrency');
  await page.reload();
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  assert.equal(page.url(), shared);
  assert.equal(await value(page, 'rec-concurrency'), expected);
  assert.equal(await page.inputValue('[data-testid="target-input"]'), '33.33');
  const fresh = await openPlanner(env.browser, env.server.base, new URL(shared).search);
  assert.equal(await value(fresh.page, 'rec-concurrency'), expected);
  await fresh.context.close();
  await context.close();
});

test('an invalid target shows a message and keeps the last good result', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=25&stat=p50`);
  await page.fill('[data-testid="target-input"]', 'fast');
  await page.waitForSelector('[data-testid="target-error"]');
  assert.match(await page.textContent('[data-testid="target-error"]'), /finite positive number/);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  await page.fill('[data-testid="target-input"]', '-3');
  assert.equal(await value(page, 'rec-concurrency'), '384');
  assert.equal(new URL(page.url()).searchParams.get('tps'), '25');
  await page.fill('[data-testid="target-input"]', '20');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="512"]');
  assert.equal(await page.locator('[data-testid="target-error"]').count(), 0);
  await context.close();
});

test('a malformed URL names each bad parameter and still renders a result', async () => {
  const { page, context } = await openPlanner(
    env.browser,
    env.server.base,
    '?model=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&gpus=two&tps=abc&stat=p42&zoom=9#notes',
  );
  const params = await page.$$eval('[data-testid="scenario-error"]', (els) => els.map((e) => e.dataset.param));
  assert.deepEqual(params.sort(), ['gpus', 'model', 'stat', 'tps', 'zoom']);
  assert.equal(await page.locator('img').count(), 0);
  assert.match(await page.textContent('body'), /<img src=x onerror=alert\(1\)>/);
  // Defaults fill the rest: Llama-3.1-8B on 1 x H100 at 20 tok/s p50 runs 512.
  assert.equal(await value(page, 'rec-status'), 'ok');
  assert.equal(await value(page, 'rec-concurrency'), '512');
  assert.equal(new URL(page.url()).hash, '#notes');
  await context.close();
});

test('a link to a part of the page lands there once it is drawn', async () => {
  // A window shorter than what lies below the part (the [`TALL`] one holds it all).
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tps=25#sweep-title', { viewport: { width: 1280, height: 720 } });
  await page.waitForFunction(() => {
    const top = document.getElementById('sweep-title').getBoundingClientRect().top;
    return window.scrollY > 0 && Math.abs(top) < 2;
  });
  await context.close();
});

test('statuses: unattainable shows the best level; all-meet says the limit may be higher', async () => {
  let { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=200&stat=p50`);
  assert.equal(await value(page, 'rec-status'), 'unattainable');
  assert.equal(await value(page, 'rec-concurrency'), '');
  assert.equal(await value(page, 'rec-best-level'), '8');
  assert.equal(await value(page, 'rec-best-user-tps'), String(1000 / 7.316111586987972));
  await context.close();
  ({ page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=10&stat=p50`));
  assert.equal(await value(page, 'rec-status'), 'all-meet');
  assert.equal(await value(page, 'rec-concurrency'), '768');
  assert.match(await page.textContent('[data-testid="rec-status"]'), /^Every measured level meets the target\. The highest level that meets may lie above 768, the largest measured\./);
  await context.close();
  // With a limit that holds everywhere, the sentence names it too.
  ({ page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=10&stat=p50&limit=p99:1000`));
  assert.equal(await value(page, 'rec-status'), 'all-meet');
  assert.match(await page.textContent('[data-testid="rec-status"]'), /^Every measured level meets the target and every limit\./);
  await context.close();
});

test('changing the model keeps the GPU type when the new model has it', async () => {
  const { page, context } = await openPlanner(
    env.browser,
    env.server.base,
    '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=B200&gpus=1&tps=25',
  );
  await page.selectOption('[data-testid="model-select"]', 'Qwen/Qwen3-8B');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('model') === 'Qwen/Qwen3-8B');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('gpu'), 'B200');
  assert.equal(url.searchParams.get('tps'), '25');
  assert.match(await page.textContent('[data-testid="model-info"]'), /Qwen\/Qwen3-8B · Dense Transformer, 8B/);
  await page.selectOption('[data-testid="deployment-select"]', { label: '1 x H100, TP1, bf16' });
  await page.waitForFunction(() => new URL(location.href).searchParams.get('gpu') === 'H100');
  await context.close();
});

test('switching units and straight back restores the exact target', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=7.777&stat=p50`);
  await page.check('[data-testid="unit-tpot"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('tpot') === '128.6');
  await page.check('[data-testid="unit-tps"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('tps') === '7.777');
  assert.equal(await page.inputValue('[data-testid="target-input"]'), '7.777');
  await context.close();
});

test('Copy link copies when allowed and offers the link when the browser has no clipboard', async () => {
  let { page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=25`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.base.slice(0, -1) });
  // On the bundled data the link opens anywhere: no note.
  assert.equal(await page.locator('[data-testid="copy-link-local"]').count(), 0);
  await page.click('[data-testid="copy-link"]');
  await page.waitForSelector('[data-testid="copy-status"]:has-text("Link copied.")');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
  await context.close();

  context = await env.browser.newContext();
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
  page = await context.newPage();
  errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`${env.server.base}${LLAMA_8B}&tps=25`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await page.click('[data-testid="copy-link"]');
  await page.waitForSelector('[data-testid="share-url"]');
  assert.equal(await page.inputValue('[data-testid="share-url"]'), page.url());
  assert.match(await page.textContent('[data-testid="copy-status"]'), /did not allow copying/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the link warning goes once the scenario is changed in the page', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tps=abc&gpu=TPU');
  assert.equal(await page.locator('[data-testid="scenario-error"]').count(), 2);
  assert.ok(await page.isVisible('[data-testid="scenario-error"]'));
  await page.fill('[data-testid="target-input"]', '25');
  await page.waitForSelector('[data-testid="scenario-error"]', { state: 'hidden' });
  await context.close();
});
