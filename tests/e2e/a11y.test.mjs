// Issue 16: zero axe-core violations (all rules at their defaults) on the release build, the
// default page and a page with every panel open (a limit, fleet inputs with a load and prices,
// the import panel), in light and dark, at 1280 px and 360 px; and the requests panel of an
// imported per-request sweep (issue 30). axe-core's source is run in the
// page with `page.evaluate`, which the page's CSP does not block; the CSP stays on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, settled, showLower } from './harness.mjs';

const env = useServerAndBrowser();
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const PAGES = {
  default: '',
  'every panel open': '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&limit=p99:150&rps=40&price=2.5,B200:5.99&kwh_price=0.1&co2=400&pue=1.2&load=rps:60:10,40,80,20&lag=60',
  // Issue 44: the comparison with a candidate, its chart and table.
  // Issue 45: the power panel with a load against the budget.
  'the power panel': '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&pue=1.2&power=1MW&host_w=150&users=100000',
  'the comparison panel': '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=40&rps=40&price=2.5,B200:5.99&vs=gpu%3DB200%26gpus%3D1',
};

/** axe's violations on `query` at this size and colour scheme, one line each. */
async function violations(query, width, colorScheme, files) {
  const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
  await page.goto(env.server.base + query);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  await showLower(page);
  if (query) {
    // Open every folded panel, and wait for the fields drawn by code loaded on demand.
    await page.$$eval('details', (all) => all.forEach((d) => { d.open = true; }));
    await page.waitForSelector('[data-testid="import-file"]');
    await page.waitForSelector('[data-testid="input-pue"]');
    if (query.includes('load=')) await page.waitForSelector('[data-testid="period-chart"]');
    if (query.includes('power=')) await page.waitForSelector('[data-testid="power-replicas"]');
    if (query.includes('vs=')) await page.waitForSelector('[data-testid="ab-chart"]');
    await settled(page);
  }
  if (files) {
    await page.setInputFiles('[data-testid="import-file"]', files);
    await showLower(page);
    await page.waitForSelector('[data-testid="requests-scatter"]');
    await settled(page);
  }
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document);
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  await context.close();
  return found;
}

// The requests panel (issue 30): a per-request sweep imported under attain.
const SCICOM = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/realdata/scicom-vllm-detailed');
const RECORDS = ['tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json', 'tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json']
  .map((f) => path.join(SCICOM, f));
for (const [width, scheme] of [[1280, 'light'], [360, 'dark']]) {
  test(`axe-core finds no violation: the requests panel, ${width} px, ${scheme}`, async () => {
    assert.deepEqual(await violations('?tpot=145&limit=ttft_p99:5000&attain=70', width, scheme, RECORDS), []);
  });
}

for (const [name, query] of Object.entries(PAGES)) {
  for (const width of [1280, 360]) {
    for (const scheme of ['light', 'dark']) {
      test(`axe-core finds no violation: ${name}, ${width} px, ${scheme}`, async () => {
        assert.deepEqual(await violations(query, width, scheme), []);
      });
    }
  }
}

/** The accessible description Chromium computes for the element at `selector` (what a screen
 * reader says after the field's name), read over CDP. */
async function accessibleDescription(page, selector) {
  const client = await page.context().newCDPSession(page);
  const { root } = await client.send('DOM.getDocument');
  const { nodeId } = await client.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { nodes } = await client.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  await client.detach();
  return nodes[0]?.description?.value ?? '';
}

test('a field error is the field\'s accessible description, and axe finds nothing with errors shown', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.server.base}?tps=25&users=100`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await page.fill('[data-testid="target-input"]', 'abc');
  await page.waitForSelector('[data-testid="target-error"]');
  assert.equal(await page.getAttribute('[data-testid="target-input"]', 'aria-invalid'), 'true');
  const target = await accessibleDescription(page, '[data-testid="target-input"]');
  assert.match(target, /must be/);
  assert.ok(target.includes(await page.textContent('[data-testid="target-error"]')), target);
  // A fleet input, drawn by code loaded on demand: a fraction of a user is named.
  await page.fill('[data-testid="input-users"]', '2.5');
  await page.waitForSelector('#fleet-users-error');
  assert.match(await accessibleDescription(page, '[data-testid="input-users"]'), /a whole number of streams/);
  // Fixed, the description is the help alone again.
  await page.fill('[data-testid="target-input"]', '25');
  await page.waitForSelector('[data-testid="target-error"]', { state: 'detached' });
  assert.doesNotMatch(await accessibleDescription(page, '[data-testid="target-input"]'), /must be/);
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => (await window.axe.run(document)).violations.map((v) => v.id));
  assert.deepEqual(found, []);
  await context.close();
});
