// Issue 32 end to end: a load over the day from a link, the field or a shape; the period's
// figures with their formulas, its chart, every deployment's day side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPlanner, settled, value, waitForParam } from './harness.mjs';

const env = useServerAndBrowser();

const LLAMA = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&stat=p50';
// README "Plan for a day": 512 on 1 x H100 serves 24.72 req/s; covered 40, 80, 80, 20.
const DAY = `${LLAMA}&load=rps:60:10,40,80,20&lag=60&price=2`;

async function figures(page) {
  await page.waitForSelector('[data-testid="period-peak-gpus"]');
  const hooks = ['period-period-h', 'period-peak-replicas', 'period-peak-gpus', 'period-mean-gpus',
    'period-gpu-hours', 'period-gpu-usd', 'period-peak-hold-gpu-hours', 'period-saved-gpu-hours'];
  const out = {};
  for (const h of hooks) out[h] = await value(page, h);
  return out;
}

const WORKED = {
  'period-period-h': '4',
  'period-peak-replicas': '4',
  'period-peak-gpus': '4',
  'period-mean-gpus': '2.75',
  'period-gpu-hours': '11',
  'period-gpu-usd': '22',
  'period-peak-hold-gpu-hours': '16',
  'period-saved-gpu-hours': '5',
};

test('a link with a load shows the period, its chart and formulas; the link reopens the same day', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, DAY);
  assert.deepEqual(await figures(page), WORKED);
  // The chart: replicas 2, 4, 4, 1 as steps, the peak at its first step.
  assert.equal(await page.getAttribute('[data-testid="replicas-line"]', 'd'), 'M56.0,215.0H198.0V160.0H482.0V242.5H624.0');
  assert.equal(await page.textContent('[data-testid="period-peak"]'), 'peak: 4 replicas (4 GPUs) at 1 h');
  // Each figure's formula shows on hover, with its numbers.
  await page.hover('[data-testid="period-gpu-usd"]');
  const formula = page.locator('.figure:has([data-testid="period-gpu-usd"]) [data-testid="formula"]');
  await formula.waitFor({ state: 'visible' });
  assert.equal(await formula.textContent(), 'GPU $ = GPU-hours × price per GPU-hour = 11 × $2 = $22.00');
  // The fleet inputs open with the load in its field.
  assert.equal(await page.inputValue('[data-testid="load-input"]'), 'rps:60:10,40,80,20');
  assert.equal(await page.inputValue('[data-testid="input-lag"]'), '60');
  const link = page.url();
  await context.close();
  const again = await openPlanner(env.browser, env.server.base, new URL(link).search);
  assert.deepEqual(await figures(again.page), WORKED);
  assert.deepEqual(errors, []);
  assert.deepEqual(again.errors, []);
  await again.context.close();
});

test('the field takes values, a CSV and shapes, names what it cannot read and keeps the last load', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA}&price=2`);
  // The price in the link opens the fleet inputs, the load's field among them.
  await page.fill('[data-testid="load-input"]', '10, 40\n80 20');
  await waitForParam(page, 'load', 'rps:60:10,40,80,20');
  await page.fill('[data-testid="input-lag"]', '60');
  await waitForParam(page, 'lag', '60');
  assert.equal(await value(page, 'period-gpu-hours'), '11');
  // A value that is not a number is named; the period stays on the last load.
  await page.fill('[data-testid="load-input"]', '10, x, 80');
  assert.match(await page.textContent('[data-testid="load-error"]'), /value 2/);
  assert.equal(await page.getAttribute('[data-testid="load-input"]', 'aria-invalid'), 'true');
  assert.equal(await value(page, 'period-gpu-hours'), '11');
  // A CSV as Prometheus exports it: the step from its timestamps; uneven ones named.
  await page.fill('[data-testid="load-input"]', 'timestamp,rps\n1700000000,10\n1700001800,40\n1700003600,80\n1700005400,20');
  await waitForParam(page, 'load', 'rps:30:10,40,80,20');
  await page.fill('[data-testid="load-input"]', 'timestamp,rps\n0,1\n60,2\n180,3');
  assert.match(await page.textContent('[data-testid="load-error"]'), /row 4/);
  // A shape writes the same parameter: a day by the hour, scaled to the load's peak (80).
  await page.click('[data-testid="load-shape-business-day"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('load')?.split(',').length === 24);
  const load = new URL(page.url()).searchParams.get('load');
  assert.ok(load.startsWith('rps:60:8,8,'), load);
  assert.equal(Math.max(...load.slice('rps:60:'.length).split(',').map(Number)), 80);
  assert.equal(await page.locator('[data-testid="load-error"]').count(), 0);
  assert.equal(await value(page, 'period-period-h'), '24');
  // The link's form in the field, with several values: what they count and their step follow it,
  // and changing either rewrites the load.
  await page.fill('[data-testid="load-input"]', 'users:30:100,2000,500');
  await waitForParam(page, 'load', 'users:30:100,2000,500');
  assert.equal(await page.inputValue('[data-testid="load-kind"]'), 'users');
  assert.equal(await page.inputValue('[data-testid="load-step"]'), '30');
  await page.selectOption('[data-testid="load-kind"]', 'rps');
  await waitForParam(page, 'load', 'rps:30:100,2000,500');
  await page.fill('[data-testid="load-step"]', '15');
  await waitForParam(page, 'load', 'rps:15:100,2000,500');
  assert.equal(await page.inputValue('[data-testid="load-input"]'), 'rps:15:100,2000,500');
  // Lag and the floor each name their own error.
  await page.fill('[data-testid="input-lag"]', '-5');
  await page.fill('[data-testid="input-min-replicas"]', '2.5');
  assert.match(await page.textContent('[data-testid="input-lag-error"]'), /Replicas come up in/);
  assert.match(await page.textContent('[data-testid="input-min-replicas-error"]'), /At least/);
  assert.equal(await page.getAttribute('[data-testid="input-lag"]', 'aria-invalid'), 'true');
  await page.fill('[data-testid="input-min-replicas"]', '2');
  await waitForParam(page, 'min_replicas', '2');
  assert.equal(await page.locator('[data-testid="input-lag-error"]').count(), 1);
  // Emptying the field removes the load and the period.
  await page.fill('[data-testid="load-input"]', '');
  await waitForParam(page, 'load', null);
  await page.waitForSelector('[data-testid="period"]', { state: 'detached' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('every deployment over the period: the cheapest per day named, not the cheapest at the peak', async () => {
  const query = `${LLAMA}&load=rps:60:10,40,80,20&lag=60&price=H100:3,B200:2.3`;
  const { page, context } = await openPlanner(env.browser, env.server.base, query);
  await page.waitForSelector('[data-testid="period-cheapest"]');
  await settled(page);
  assert.equal(await page.locator('[data-testid="period-row"]').count(), 2);
  assert.equal(await page.textContent('[data-testid="period-cheapest"]'),
    'Cheapest per day: 1 x H100, TP1, bf16, $198.00 per day. At the peak, 1 x B200, TP1, bf16 costs less per hour ($11.50 against $12.00), but it wastes more in the troughs.');
  await context.close();
});

test('a bad load in a link is named and the rest of the scenario stands', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA}&load=rps:60:1,x&price=2`);
  await page.waitForSelector('[data-testid="scenario-error"][data-param="load"]');
  assert.match(await page.textContent('[data-testid="scenario-error"][data-param="load"]'), /value 2/);
  assert.equal(await page.locator('[data-testid="period"]').count(), 0);
  // The fleet inputs are drawn by code loaded on demand: wait for them to be drawn.
  await page.locator('[data-testid="load-input"]').waitFor();
  assert.equal(await page.isVisible('[data-testid="load-input"]'), true);
  assert.equal(await value(page, 'rec-concurrency'), '512');
  await context.close();
});
