// Issue 3 end to end: chart, side-by-side deployments, tail limits, batching effect, estimate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPlanner, settled, value, waitForParam } from './harness.mjs';

const env = useServerAndBrowser();

const LLAMA_8B = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&stat=p50';
const QWEN_235B = '?model=Qwen%2FQwen3-235B-A22B-Instruct-2507&gpu=B200&gpus=4&tpot=70&stat=p50';

test('the chart draws one series per deployment, each point with its max_num_seqs', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, LLAMA_8B);
  const svg = page.locator('[data-testid="tradeoff-chart"]');
  // A group, not an image: its points are controls, which an image may not hold (axe nested-interactive).
  assert.equal(await svg.getAttribute('role'), 'group');
  assert.equal(await page.locator('[data-testid="chart-series"]').count(), 2);
  // 9 levels on 1 x B200, 11 on 1 x H100.
  assert.equal(await page.locator('[data-testid="chart-point"]').count(), 20);
  assert.equal(await page.locator('[data-testid="chart-point"][data-gpu="H100"][data-concurrency="384"].recommended').count(), 1);
  assert.match(await page.textContent('[data-testid="chart-summary"]'), /1 x H100, TP1, bf16: from 137 tok\/s per user/);
  assert.match(await svg.textContent(), /per-user tok\/s at p50 ITL/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('clicking a point of another deployment switches to it, in the URL too', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, LLAMA_8B);
  await page.click('[data-testid="chart-point"][data-gpu="B200"][data-concurrency="64"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('gpu') === 'B200');
  // B200 at 25 tok/s p50 recommends 256 (the compare row says the same).
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="256"]');
  await settled(page);
  // Keyboard: focus an H100 point and press Enter.
  await page.focus('[data-testid="chart-point"][data-gpu="H100"][data-concurrency="8"]');
  assert.match(await page.textContent('[data-testid="chart-readout"]'), /1 x H100, TP1, bf16 at max_num_seqs 8: 137 tok\/s per user/);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('gpu') === 'H100');
  assert.equal(await value(page, 'rec-concurrency'), '384');
  await context.close();
});

test('compare rows match the planner for each deployment, precision variants included', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, QWEN_235B);
  const rows = await page.$$eval('[data-testid="compare-row"]', (els) => els.map((e) => ({ ...e.dataset })));
  assert.equal(rows.length, 6);
  assert.deepEqual(
    [...new Set(rows.map((r) => r.model))].sort(),
    ['Qwen/Qwen3-235B-A22B-Instruct-2507', 'Qwen/Qwen3-235B-A22B-Instruct-2507-FP8'],
  );
  for (const row of rows) {
    const query = `?model=${encodeURIComponent(row.model)}&gpu=${row.gpu}&gpus=${row.gpus}&tpot=70&stat=p50`;
    const single = await openPlanner(env.browser, env.server.base, query);
    assert.equal(await value(single.page, 'rec-status'), row.status, query);
    assert.equal((await value(single.page, 'rec-concurrency')) ?? '', row.concurrency, query);
    if (row.concurrency) {
      assert.equal(await value(single.page, 'rec-throughput-per-gpu'), row.throughputPerGpu, query);
      assert.equal(await value(single.page, 'rec-energy'), row.energy, query);
    }
    await single.context.close();
  }
  const own = rows.find((r) => r.gpu === 'B200' && r.gpus === '4' && !r.model.endsWith('FP8'));
  assert.equal(own.concurrency, '512');
  await context.close();
});

test('compare table sorts, and the all-models switch lists only meeting deployments', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, QWEN_235B);
  await page.click('[data-testid="compare-sort"][data-column="J/token"]');
  const energies = await page.$$eval('[data-testid="compare-row"]', (els) =>
    els.map((e) => e.dataset.energy).filter((v) => v !== '').map(Number));
  assert.deepEqual(energies, [...energies].sort((a, b) => a - b));
  await page.check('[data-testid="compare-all-models"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-row"]').length > 6);
  const rows = await page.$$eval('[data-testid="compare-row"]', (els) => els.map((e) => ({ ...e.dataset })));
  assert.ok(rows.every((r) => r.status === 'ok' || r.status === 'all-meet'));
  const tput = rows.map((r) => Number(r.throughputPerGpu));
  assert.deepEqual(tput, [...tput].sort((a, b) => b - a));
  await context.close();
});

test('the side-by-side order and the all-models switch are kept in the link, which reopens them', async () => {
  let { page, context } = await openPlanner(env.browser, env.server.base, QWEN_235B);
  await page.click('[data-testid="compare-sort"][data-column="J/token"]');
  await page.click('[data-testid="compare-sort"][data-column="J/token"]');
  await waitForParam(page, 'sort', 'energy_j_per_token:reversed');
  await settled(page);
  const worstFirst = await page.$$eval('[data-testid="compare-row"]', (els) => els.map((e) => e.dataset.energy).filter((v) => v !== '').map(Number));
  assert.deepEqual(worstFirst, [...worstFirst].sort((a, b) => b - a));
  const link = page.url();
  await context.close();
  ({ page, context } = await openPlanner(env.browser, env.server.base, link.slice(link.indexOf('?'))));
  await settled(page);
  const reopened = await page.$$eval('[data-testid="compare-row"]', (els) => els.map((e) => e.dataset.energy).filter((v) => v !== '').map(Number));
  assert.deepEqual(reopened, worstFirst);
  assert.equal(await page.getAttribute('th:has([data-column="J/token"])', 'aria-sort'), 'descending');
  // The switch resets the order; both are in the link.
  await page.check('[data-testid="compare-all-models"]');
  await waitForParam(page, 'cmp', 'all');
  await waitForParam(page, 'sort', null);
  await context.close();
  ({ page, context } = await openPlanner(env.browser, env.server.base, `${QWEN_235B}&cmp=all`));
  await settled(page);
  assert.equal(await page.isChecked('[data-testid="compare-all-models"]'), true);
  assert.ok(await page.locator('[data-testid="compare-row"]').count() > 6);
  await context.close();
});

test('a p99 limit in the URL binds: 384 -> 256, and the sweep table names the broken limit', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&limit=p99:80`);
  assert.equal(await value(page, 'rec-concurrency'), '256');
  const row384 = page.locator('[data-testid="sweep-row"][data-concurrency="384"]');
  assert.equal(await row384.getAttribute('data-meets'), 'false');
  assert.match(await row384.textContent(), /fails: p99 ITL ≤ 80 ms/);
  assert.equal(await page.locator('[data-testid="est-concurrency"]').count(), 0);
  // Remove the limit in the form: back to 384, and the URL loses it.
  await page.click('[data-testid="limit-remove"]');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="384"]');
  await waitForParam(page, 'limit', null);
  // Add one in the form and tighten it.
  await page.click('[data-testid="limit-add"]');
  await page.fill('[data-testid="limit-ms"]', '50');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('limit') === 'p99:50');
  // p99 at 192 is 59.0 ms, at 128 is 46.4 ms.
  assert.equal(await value(page, 'rec-concurrency'), '128');
  await context.close();
});

test('each added limit is on a statistic without one, so the link reloads to the same limits', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=25`);
  // 25 tok/s = 40 ms per token: a new limit is at 3 x 40 = 120 ms, first on p99, then p95.
  await page.click('[data-testid="limit-add"]');
  await page.click('[data-testid="limit-add"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.getAll('limit').length === 2);
  assert.deepEqual(new URL(page.url()).searchParams.getAll('limit'), ['p99:120', 'p95:120']);
  // Until every statistic of the sweep but the judged one (p50) has one; then it is disabled.
  while (await page.isEnabled('[data-testid="limit-add"]')) await page.click('[data-testid="limit-add"]');
  const statistics = await page.locator('[data-testid="limit-stat"]').first().locator('option').count();
  assert.equal(await page.locator('[data-testid="limit-row"]').count(), statistics - 1);
  assert.equal(await page.textContent('[data-testid="limit-add-why"]'), 'Each statistic reported together with p50 ITL has a limit.');
  assert.equal(await page.getAttribute('[data-testid="limit-add"]', 'aria-describedby'), 'limit-add-why');
  // A limit's menu does not offer a statistic another limit has (the link would reopen with one);
  // the judged one stays on offer, a tighter bound on it is a limit of its own.
  const offered = await page.locator('[data-testid="limit-stat"]').first().locator('option:not([disabled])').allTextContents();
  assert.deepEqual(offered, ['p50 ITL', 'p99 ITL']);
  await waitForParam(page, 'limit', 'p99:120');
  await page.waitForFunction((n) => new URL(location.href).searchParams.getAll('limit').length === n, statistics - 1);
  const limits = new URL(page.url()).searchParams.getAll('limit');
  assert.equal(new Set(limits).size, limits.length);
  await page.reload();
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  assert.deepEqual(new URL(page.url()).searchParams.getAll('limit'), limits);
  assert.equal(await page.locator('[data-testid="limit-row"]').count(), statistics - 1);
  assert.equal(await page.locator('[data-testid="scenario-error"]').count(), 0);
  await context.close();
});

test('a limit menu offers a statistic again once the limit that had it changes or goes', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&limit=p99:120&limit=p95:120`);
  const disabled = (i) => page.locator('[data-testid="limit-stat"]').nth(i).locator('option[disabled]').allTextContents();
  assert.deepEqual(await disabled(0), ['p95 ITL']);
  assert.deepEqual(await disabled(1), ['p99 ITL']);
  await page.selectOption('[data-testid="limit-stat"] >> nth=1', 'p90');
  await page.waitForFunction(() => new URL(location.href).searchParams.getAll('limit').includes('p90:120'));
  assert.deepEqual(await disabled(0), ['p90 ITL']);
  await page.click('#limit-remove-1');
  await page.waitForFunction(() => new URL(location.href).searchParams.getAll('limit').length === 1);
  assert.deepEqual(await disabled(0), []);
  assert.equal(await page.locator('[data-testid="limit-add-why"]').count(), 0);
  await context.close();
});

test('a bound that does not parse keeps its text and error when other limits come and go', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&limit=p99:120&limit=p95:100`);
  await page.fill('#limit-ms-1', '1OO');
  await page.waitForSelector('[data-testid="limit-row"] >> nth=1 >> .field-error');
  const error = await page.textContent('[data-testid="limit-row"] >> nth=1 >> .field-error');
  assert.match(error, /^Limit .*; the last valid value is still used\.$/);
  // Adding a limit rebuilds the rows: the text and its error stay, and the link keeps 100.
  await page.click('[data-testid="limit-add"]');
  await page.waitForSelector('#limit-ms-2');
  assert.equal(await page.inputValue('#limit-ms-1'), '1OO');
  assert.equal(await page.textContent('[data-testid="limit-row"] >> nth=1 >> .field-error'), error);
  assert.equal(await page.getAttribute('#limit-ms-1', 'aria-invalid'), 'true');
  assert.ok(new URL(page.url()).searchParams.getAll('limit').includes('p95:100'));
  // Removing the limit above moves it up, text and error with it.
  await page.click('#limit-remove-0');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="limit-row"]').length === 2);
  assert.equal(await page.inputValue('#limit-ms-0'), '1OO');
  assert.equal(await page.textContent('[data-testid="limit-row"] >> nth=0 >> .field-error'), error);
  assert.equal(await page.inputValue('#limit-ms-1'), '120');
  // Removing it leaves no error behind for the limit that takes its place.
  await page.click('#limit-remove-0');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="limit-row"]').length === 1);
  assert.equal(await page.inputValue('#limit-ms-0'), '120');
  assert.equal(await page.locator('.limits .field-error').count(), 0);
  await context.close();
});

test('by keyboard, adding a limit lands on its bound and removing one keeps focus in the list', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&tps=25`);
  const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
  const waitFocus = (id) => page.waitForFunction((want) => document.activeElement?.id === want, id);
  await page.focus('[data-testid="limit-add"]');
  await page.keyboard.press('Enter');
  await waitFocus('limit-ms-0');
  await page.focus('[data-testid="limit-add"]');
  await page.keyboard.press('Enter');
  await waitFocus('limit-ms-1');
  // Until the button is disabled: focus is on the last bound, not lost to the page.
  while (await page.isEnabled('[data-testid="limit-add"]')) {
    await page.focus('[data-testid="limit-add"]');
    await page.keyboard.press('Enter');
  }
  const rows = await page.locator('[data-testid="limit-row"]').count();
  await waitFocus(`limit-ms-${rows - 1}`);
  // Remove the first: focus moves to the remove button now first; remove the last: the one above.
  await page.focus('#limit-remove-0');
  await page.keyboard.press('Enter');
  await waitFocus('limit-remove-0');
  await page.focus(`#limit-remove-${rows - 2}`);
  await page.keyboard.press('Enter');
  await waitFocus(`limit-remove-${rows - 3}`);
  // Remove the rest: focus ends on "Add a limit".
  while ((await page.locator('[data-testid="limit-row"]').count()) > 0) {
    await page.focus('#limit-remove-0');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'BUTTON');
  }
  await waitFocus('limit-add');
  assert.equal(await focused(), 'limit-add');
  await context.close();
});

test('a limit on the rate statistic and a malformed limit', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA_8B}&limit=p42:9&limit=rate:45`);
  assert.deepEqual(await page.$$eval('[data-testid="scenario-error"]', (els) => els.map((e) => e.dataset.param)), ['limit']);
  // rate at 256: 255.19 * 1000 / 9009.6 = 28.3 ms; at 384: 41.4 ms; both under 45 ms.
  assert.equal(await value(page, 'rec-concurrency'), '384');
  await context.close();
});

test('batching effect and the estimate between measured points', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, LLAMA_8B);
  assert.equal(await value(page, 'batch-user-slowdown'), String((1000 / 7.316111586987972) / (1000 / 37.70148498006165)));
  assert.equal(await value(page, 'batch-throughput-gain'), String(9248.01198181863 / 1069.5688508868182));
  assert.equal(await value(page, 'est-concurrency'), '411');
  assert.ok(Math.abs(Number(await value(page, 'est-throughput')) - 9379.7) < 0.1);
  assert.match(await page.textContent('[data-testid="estimate"]'), /About 411 \(between measured 384 and 512\)/);
  await context.close();
});
