// Issue 56: the evidence beneath the answer (the fleet figures, the power budget, the period and
// the trade-off chart) is loaded as its place comes into view, so a first visit in a 1280 x 720
// window, which shows the inputs and the answer, does not fetch its code; it is drawn when
// scrolled to, when the keyboard reaches it, and at once for a link that sets the fleet inputs
// or names a part of the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, settled } from './harness.mjs';

const env = useServerAndBrowser();
const SHORT = { viewport: { width: 1280, height: 720 } };

/** A page in a 1280 x 720 window at `query`, with the files it fetched from this server. */
async function open(query) {
  const context = await env.browser.newContext(SHORT);
  const page = await context.newPage();
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto(env.server.base + query);
  await page.waitForSelector('main.results[data-evidence="ready"]');
  await page.waitForLoadState('networkidle');
  return { page, context, fetched };
}

const split = (fetched) => fetched.some((f) => /split_on_demand/.test(f));

test('a first visit does not fetch the fleet figures and the chart; scrolling to them draws them', async () => {
  const { page, context, fetched } = await open('?tps=25');
  assert.equal(split(fetched), false, `fetched: ${fetched.join(', ')}`);
  assert.equal(await page.locator('[data-testid="tradeoff-chart"]').count(), 0);
  assert.equal(await page.locator('section.capacity').count(), 0);
  await page.locator('[data-testid="upper-evidence"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-testid="tradeoff-chart"]');
  await page.waitForSelector('section.capacity');
  assert.equal(split(fetched), true);
  // It follows the scenario as the rest of the evidence does: 40 tok/s per user moves the
  // target line.
  const x = () => page.getAttribute('[data-testid="tradeoff-chart"] line.target', 'x1');
  const before = await x();
  await page.fill('[data-testid="target-input"]', '40');
  await settled(page);
  assert.notEqual(await x(), before);
  await context.close();
});

test('the keyboard reaching its place draws it, and focus stays there', async () => {
  const { page, context } = await open('?tps=25');
  await page.focus('[data-testid="upper-evidence"] button');
  await page.waitForSelector('[data-testid="tradeoff-chart"]');
  await page.waitForFunction(() => document.getElementById('upper-evidence')?.contains(document.activeElement));
  await context.close();
});

test('a link that sets the fleet inputs, or names a part of the page, draws it at once', async () => {
  for (const query of ['?tps=25&price=2.5', '?tps=25#chart-title']) {
    const { page, context } = await open(query);
    await page.waitForSelector('[data-testid="tradeoff-chart"]');
    assert.equal(await page.locator('section.capacity').count(), 1, query);
    await context.close();
  }
});
