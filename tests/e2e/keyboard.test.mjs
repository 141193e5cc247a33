// Issue 46, keyboard: each plot with marks to pick (the trade-off chart, the requests panel's
// share-of-good plot) is one Tab stop; the arrow keys move between its marks, Home and End to its
// ends, and the readout follows; Tab leaves it and the readout goes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled } from './harness.mjs';

const env = useServerAndBrowser();

const LLAMA_8B = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&stat=p50';
const SCICOM = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/realdata/scicom-vllm-detailed');
const FILES = ['tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json', 'tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json']
  .map((f) => path.join(SCICOM, f));

/** What has focus: its test id, its mark number and its concurrency or level. */
function focused(page) {
  return page.evaluate(() => {
    const e = document.activeElement;
    return { id: e.dataset.testid, n: e.dataset.n, level: e.dataset.concurrency ?? e.dataset.level };
  });
}

test('the trade-off chart is one Tab stop: arrows, Home and End move the readout, Tab leaves and it goes', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, LLAMA_8B);
  const count = await page.locator('[data-testid="chart-point"]').count();
  assert.equal(count, 20);
  const readout = () => page.textContent('[data-testid="chart-readout"]');
  const idle = await readout();
  assert.match(idle, /^Hover or focus a point/);
  // One tab stop among the 20 points.
  assert.equal(await page.locator('[data-testid="tradeoff-chart"] [tabindex="0"]').count(), 1);
  // Back from the button under the chart: one Shift+Tab reaches the chart's first point.
  await page.focus('[data-testid="export-svg"]');
  await page.keyboard.press('Shift+Tab');
  let at = await focused(page);
  assert.deepEqual([at.id, at.n], ['chart-point', '0']);
  assert.ok((await readout()).includes(`max_num_seqs ${at.level}:`));
  // → moves to the next point, its figures in the readout.
  await page.keyboard.press('ArrowRight');
  at = await focused(page);
  assert.equal(at.n, '1');
  assert.ok((await readout()).includes(`max_num_seqs ${at.level}:`));
  // End: the last point; → there stays; Home: the first; ← there stays.
  await page.keyboard.press('End');
  assert.equal((await focused(page)).n, String(count - 1));
  await page.keyboard.press('ArrowRight');
  at = await focused(page);
  assert.equal(at.n, String(count - 1));
  assert.ok((await readout()).includes(`max_num_seqs ${at.level}:`));
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await focused(page)).n, '0');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  assert.equal((await focused(page)).n, '1');
  // Still one tab stop: the point last focused.
  assert.deepEqual(
    await page.$$eval('[data-testid="tradeoff-chart"] [tabindex="0"]', (es) => es.map((e) => e.dataset.n)),
    ['1'],
  );
  // Tab leaves the chart for the button under it, and the readout goes.
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'export-svg');
  assert.equal(await readout(), idle);
  // Shift+Tab comes back to the point last focused; once more leaves the chart.
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(Object.values(await focused(page)).slice(0, 2), ['chart-point', '1']);
  await page.keyboard.press('Shift+Tab');
  assert.notEqual((await focused(page)).id, 'chart-point');
  // Not onto the chart itself: the plot is one stop, its point.
  assert.notEqual((await focused(page)).id, 'tradeoff-chart');
  assert.equal(await readout(), idle);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the requests panel\'s plot of levels is one Tab stop with a readout that goes when focus leaves', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=145&limit=ttft_p99:5000&attain=70');
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', FILES);
  await page.waitForSelector('[data-testid="requests-scatter"]');
  await settled(page);
  const readout = () => page.textContent('[data-testid="attain-readout"]');
  const idle = 'Focus a dot (Tab, then the arrow keys) to read its level.';
  assert.equal(await readout(), idle);
  assert.equal(await page.locator('[data-testid="attain-chart"] [tabindex="0"]').count(), 1);
  // The level menu follows the plot: one Shift+Tab from it reaches the plot's first dot.
  await page.focus('[data-testid="requests-level"]');
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(await focused(page), { id: 'attain-dot', n: '0', level: '1' });
  const first = '1 concurrency: 50 of 50 requests good (100%; 70% asked)';
  const second = '10 concurrency: 136 of 200 requests good (68%; 70% asked; missed: 58 on TPOT, 7 on TTFT)';
  assert.equal(await readout(), first);
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focused(page), { id: 'attain-dot', n: '1', level: '10' });
  assert.equal(await readout(), second);
  await page.keyboard.press('Home');
  assert.equal(await readout(), first);
  await page.keyboard.press('End');
  assert.equal(await readout(), second);
  // Tab leaves for the menu, the readout goes; Shift+Tab comes back to the dot last focused.
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'requests-level');
  assert.equal(await readout(), idle);
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(await focused(page), { id: 'attain-dot', n: '1', level: '10' });
  // Once more leaves the plot, not onto the plot itself.
  await page.keyboard.press('Shift+Tab');
  assert.ok(!['attain-dot', 'attain-chart'].includes((await focused(page)).id));
  await page.keyboard.press('Tab');
  assert.deepEqual(await focused(page), { id: 'attain-dot', n: '1', level: '10' });
  // Enter on it shows its requests.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="requests-caption"]').textContent.startsWith('136'));
  assert.deepEqual(errors, []);
  await context.close();
});
