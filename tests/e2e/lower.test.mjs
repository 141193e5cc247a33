// Issue 46: the evidence below the chart (the deployments side by side, the whole sweep, the
// requests, where the numbers come from, how they are computed) is loaded as it comes near the
// viewport, so a first visit that reads the answer and the chart does not fetch its code; it is
// drawn when scrolled to, when the keyboard reaches it, and at once for a link to a part of it.
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

test('a first visit does not fetch the evidence below the chart; scrolling to it draws it', async () => {
  const { page, context, fetched } = await open('?tps=25');
  assert.equal(split(fetched), false, `fetched: ${fetched.join(', ')}`);
  assert.equal(await page.locator('[data-testid="sweep-table"]').count(), 0);
  assert.equal(await page.locator('[data-testid="compare-table"]').count(), 0);
  await page.locator('[data-testid="lower-evidence"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-testid="sweep-row"]');
  await page.waitForSelector('[data-testid="compare-row"]');
  await page.waitForSelector('[data-testid="method"]');
  assert.equal(split(fetched), true);
  // It follows the scenario as the rest of the evidence does.
  await page.fill('[data-testid="target-input"]', '40');
  await settled(page);
  assert.ok((await page.locator('[data-testid="sweep-row"]').count()) > 0);
  await context.close();
});

test('the keyboard reaching its place draws it, and focus stays there', async () => {
  const { page, context } = await open('?tps=25');
  await page.focus('[data-testid="lower-evidence"] button');
  await page.waitForSelector('[data-testid="sweep-row"]');
  await page.waitForFunction(() => document.getElementById('lower-evidence')?.contains(document.activeElement));
  await page.keyboard.press('Tab');
  const inside = await page.evaluate(() => document.getElementById('lower-evidence').contains(document.activeElement));
  assert.equal(inside, true);
  await context.close();
});

test('a link to a part of it draws it at once and scrolls there', async () => {
  const { page, context } = await open('?tps=25#sweep-title');
  await page.waitForSelector('[data-testid="sweep-row"]');
  await page.waitForFunction(() => {
    const top = document.getElementById('sweep-title')?.getBoundingClientRect().top;
    return top !== undefined && top >= -1 && top < innerHeight;
  });
  await context.close();
});
