// Issue 52 end to end: a disaggregated deployment's roles and both per-GPU figures, what a
// request costs with a price, and against an API's price (`api`, `cached`) the ratio and the
// break-even, with the same numbers as the command line and the JSON; axe on the panel, which
// is drawn with the evidence below the chart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled, showLower, value, importedSource, waitForParam } from './harness.mjs';

const env = useServerAndBrowser();
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const INFERENCEX = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/realdata/inferencex-app__cypress_fixtures_api__benchmarks.json',
);
// Entry 200: mori-sglang on MI355X, 16 prefill + 8 decode GPUs, concurrency 2,048, 8k/1k.
const MORI = 'model=dsr1&gpu=mi355x&gpus=24&cfg=2026-05-28&tps=10&stat=tpot_p50';
const OUTPUT_PER_DECODE_GPU = 1186.2472529925478;
const USD_PER_REQUEST = 48 / (OUTPUT_PER_DECODE_GPU * 8 * 3600 / 1024);

/** Imports the InferenceX rows in a new page and returns the page opened on `query` of them. */
async function openImported(query, viewport) {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '', viewport ? { viewport } : {});
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [INFERENCEX]);
  await page.waitForSelector('[data-testid="import-summary"]');
  const src = await importedSource(page);
  await page.goto(`${env.server.base}?src=${src}&${query}`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  // The panel is drawn with the evidence below the chart.
  await showLower(page);
  return { page, context, errors };
}

function near(got, expected, within = 1e-9) {
  assert.ok(Math.abs(Number(got) - expected) <= within * Math.abs(expected), `${got}, expected ${expected}`);
}

test('a disaggregated deployment shows its roles and both per-GPU figures', async () => {
  const { page, context, errors } = await openImported(MORI);
  assert.equal(await value(page, 'rec-concurrency'), '2048');
  const roles = page.locator('[data-testid="roles"]');
  await roles.waitFor();
  assert.equal(await roles.getAttribute('data-prefill-gpus'), '16');
  assert.equal(await roles.getAttribute('data-decode-gpus'), '8');
  near(await roles.getAttribute('data-output-per-decode-gpu'), OUTPUT_PER_DECODE_GPU);
  near(await roles.getAttribute('data-input-per-prefill-gpu'), 4740.144290655592);
  assert.match(await roles.textContent(), /Disaggregated: 16 prefill \+ 8 decode GPUs; tok\/s per GPU divides by all 24\./);
  assert.match(await roles.textContent(), /The file's 0\.685 J per output token is the decode role's alone; the whole deployment's is 2\.30 J/);
  // The whole sweep: per GPU over all 24, and per role.
  await showLower(page);
  const headers = await page.$$eval('.sweep th', (all) => all.map((t) => t.textContent));
  for (const h of ['tok/s per GPU (all 24)', 'output tok/s per decode GPU', 'input tok/s per prefill GPU']) {
    assert.ok(headers.includes(h), `${h} in ${headers}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('api and cached give the cost per request, vs API and the break-even; the table sorts by vs API', async () => {
  const { page, context, errors } = await openImported(`${MORI}&price=2&api=1.25:10:0.125&cached=0.5`);
  await page.waitForSelector('[data-testid="cost-per-request"]');
  near(await value(page, 'cost-per-request'), USD_PER_REQUEST);
  near(await value(page, 'api-per-request'), 0.015872);
  near(await value(page, 'vs-api'), USD_PER_REQUEST / 0.015872);
  near(await value(page, 'break-even'), USD_PER_REQUEST / 0.015872);
  near(await value(page, 'cost-prefill-per-m-input'), 32 / (4740.144290655592 * 16 * 3600) * 1e6);
  near(await value(page, 'cost-decode-per-m-output'), 16 / (OUTPUT_PER_DECODE_GPU * 8 * 3600) * 1e6);
  assert.match(await page.textContent('[data-testid="break-even"]'), /^9\.1% of this level's throughput/);
  // Each figure's formula, with this deployment's numbers, on hover.
  await page.hover('[data-testid="vs-api"]');
  const formula = page.locator('.figure:has([data-testid="vs-api"]) [data-testid="formula"]');
  await formula.waitFor({ state: 'visible' });
  assert.match(await formula.textContent(), /vs API = \$ per request ÷ API \$ per request = \$0\.00144 ÷ \$0\.0159 = 0\.0906/);
  const notes = await page.$$eval('[data-testid="cost-note"]', (all) => all.map((n) => n.textContent));
  assert.ok(notes.some((n) => /8,192 in, 1,024 out; the workload's stated isl and osl, not measured/.test(n)), notes);
  assert.ok(notes.some((n) => /leaves out the API's rate limits and latency/.test(n)), notes);
  // The fields hold the link's values.
  assert.equal(await page.inputValue('[data-testid="input-api"]'), '1.25:10:0.125');
  assert.equal(await page.inputValue('[data-testid="input-cached"]'), '0.5');
  // The side-by-side table: a vs API column, sortable.
  await showLower(page);
  await page.click('[data-testid="compare-sort"][data-column="vs API"]');
  await waitForParam(page, 'sort', 'vs_api');
  const ratios = await page.$$eval('[data-testid="compare-row"]', (rows) => rows.map((r) => r.dataset.vsApi).filter((v) => v).map(Number));
  assert.ok(ratios.length > 1, `${ratios}`);
  assert.deepEqual(ratios, [...ratios].sort((a, b) => a - b));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bad api or cached is named beside the field and in the link messages; the rest stands', async () => {
  const { page, context } = await openImported(`${MORI}&price=2&api=1.25&cached=2`);
  const params = await page.$$eval('[data-testid="scenario-error"]', (all) => all.map((e) => e.dataset.param));
  assert.deepEqual(params.sort(), ['api', 'cached']);
  await page.waitForSelector('[data-testid="cost-per-request"]');
  assert.equal(await page.locator('[data-testid="vs-api"]').count(), 0);
  await page.locator('[data-testid="input-api"]').waitFor();
  await page.fill('[data-testid="input-api"]', '1:2:3:4');
  assert.match(await page.textContent('.fleet'), /API price must be two or three prices/);
  await page.fill('[data-testid="input-api"]', '1.25:10');
  await waitForParam(page, 'api', '1.25:10');
  await page.waitForSelector('[data-testid="vs-api"]');
  await context.close();
});

for (const [width, scheme] of [[1280, 'light'], [360, 'dark']]) {
  test(`axe-core finds no violation: the cost and roles panel, ${width} px, ${scheme}`, async () => {
    const { page, context } = await openImported(`${MORI}&price=2&api=1.25:10:0.125&cached=0.5`, { width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForSelector('[data-testid="vs-api"]');
    await page.$$eval('details', (all) => all.forEach((d) => { d.open = true; }));
    await page.waitForSelector('[data-testid="input-api"]');
    await showLower(page);
    await settled(page);
    await page.evaluate(AXE);
    const found = await page.evaluate(async () => {
      const result = await window.axe.run(document);
      return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(found, []);
    await context.close();
  });
}
