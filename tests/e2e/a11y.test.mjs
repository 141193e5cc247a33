// Issue 16: zero axe-core violations (all rules at their defaults) on the release build, the
// default page and a page with every panel open (a limit, fleet inputs with a load and prices,
// the import panel), in light and dark, at 1280 px and 360 px. axe-core's source is run in the
// page with `page.evaluate`, which the page's CSP does not block; the CSP stays on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { useServerAndBrowser, settled } from './harness.mjs';

const env = useServerAndBrowser();
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const PAGES = {
  default: '',
  'every panel open': '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&limit=p99:150&rps=40&price=2.5,B200:5.99&kwh_price=0.1&co2=400&pue=1.2',
};

/** axe's violations on `query` at this size and colour scheme, one line each. */
async function violations(query, width, colorScheme) {
  const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
  await page.goto(env.server.base + query);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  if (query) {
    // Open every folded panel.
    await page.$$eval('details', (all) => all.forEach((d) => { d.open = true; }));
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

for (const [name, query] of Object.entries(PAGES)) {
  for (const width of [1280, 360]) {
    for (const scheme of ['light', 'dark']) {
      test(`axe-core finds no violation: ${name}, ${width} px, ${scheme}`, async () => {
        assert.deepEqual(await violations(query, width, scheme), []);
      });
    }
  }
}
