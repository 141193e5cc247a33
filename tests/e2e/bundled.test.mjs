// The bundled data in two parts: the page holds the default model's family from the start and
// reads the whole (in the tools module) when first asked for another model or every model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPlanner, settled, value, waitForParam } from './harness.mjs';

const env = useServerAndBrowser();

/** Paths of the tools module's files the page has asked for. */
function toolsRequests(page) {
  const asked = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (name.startsWith('tools')) asked.push(name);
  });
  return asked;
}

test('the default page reads no tools; another model is read when chosen, with the focus kept on the menu', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const asked = toolsRequests(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${env.server.base}?tps=25`);
  await settled(page);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  assert.match(await page.textContent('[data-testid="method-data"]'), /328 runs of 38 deployments/);
  assert.equal((await page.$$('[data-testid="model-select"] option')).length, 18);
  assert.deepEqual(asked, []);
  await page.focus('[data-testid="model-select"]');
  await page.selectOption('[data-testid="model-select"]', 'Qwen/Qwen3-8B');
  await waitForParam(page, 'model', 'Qwen/Qwen3-8B');
  assert.equal(await value(page, 'rec-concurrency'), '256');
  assert.equal(await value(page, 'rec-throughput'), '7718.827666914761');
  assert.equal(new URL(page.url()).searchParams.get('tps'), '25');
  assert.match(await page.textContent('[data-testid="model-info"]'), /Qwen\/Qwen3-8B · Dense Transformer, 8B/);
  assert.match(await page.textContent('[data-testid="method-data"]'), /328 runs of 38 deployments/);
  await page.waitForFunction(() => document.activeElement?.id === 'model');
  assert.equal(await page.locator('[data-testid="whole-status"]').count(), 0);
  assert.ok(asked.includes('tools_bg.wasm'), asked.join());
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link to another model, or to every model, opens on the whole', async () => {
  let { page, context, errors } = await openPlanner(env.browser, env.server.base, '?model=Qwen%2FQwen3-8B&tps=25');
  assert.equal(await value(page, 'rec-concurrency'), '256');
  assert.equal(await page.locator('[data-testid="scenario-error"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
  ({ page, context } = await openPlanner(env.browser, env.server.base, '?tps=25&cmp=all'));
  assert.equal(await page.isChecked('[data-testid="compare-all-models"]'), true);
  assert.ok(await page.locator('[data-testid="compare-row"]').count() > 6);
  await context.close();
});

test('the all-models switch on the default page reads the whole and keeps the focus', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tps=25');
  assert.equal(await page.locator('[data-testid="compare-row"]').count(), 2);
  await page.check('[data-testid="compare-all-models"]');
  await waitForParam(page, 'cmp', 'all');
  await settled(page);
  assert.ok(await page.locator('[data-testid="compare-row"]').count() > 6);
  assert.equal(await page.isChecked('[data-testid="compare-all-models"]'), true);
  await page.waitForFunction(() => document.activeElement?.id === 'compare-all-models');
  await context.close();
});

test('when the whole cannot be read, the page says so and keeps what it shows', async () => {
  const context = await env.browser.newContext();
  await context.route('**/tools.js?v=*', (route) => route.abort());
  let page = await context.newPage();
  await page.goto(`${env.server.base}?tps=25`);
  await settled(page);
  await page.selectOption('[data-testid="model-select"]', 'Qwen/Qwen3-8B');
  await page.waitForSelector('[data-testid="whole-status"]:has-text("could not be read")');
  assert.equal(await value(page, 'rec-concurrency'), '384');
  assert.equal(new URL(page.url()).searchParams.get('model'), 'meta-llama/Llama-3.1-8B-Instruct');
  assert.equal(await page.inputValue('[data-testid="model-select"]'), 'meta-llama/Llama-3.1-8B-Instruct');
  await page.click('[data-testid="compare-all-models"]');
  await page.waitForSelector('.compare [data-testid="whole-status"]:has-text("could not be read")');
  assert.equal(await page.isChecked('[data-testid="compare-all-models"]'), false);
  assert.equal(await page.locator('[data-testid="compare-row"]').count(), 2);
  await page.close();
  // A link that needs the whole shows the default model, with a notice naming why.
  page = await context.newPage();
  await page.goto(`${env.server.base}?model=Qwen%2FQwen3-8B&tps=25`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  assert.match(await page.textContent('[data-testid="scenario-error"]'), /other models could not be read/);
  assert.equal(new URL(page.url()).searchParams.get('tps'), '25');
  await context.close();
});
