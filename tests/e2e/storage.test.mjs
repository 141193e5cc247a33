// Nothing lost: stored imports read entry by entry (an unreadable one reported and left as it
// is), two tabs importing at once both keeping theirs, and a CSV export that cannot attack the
// spreadsheet that opens it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, settled, importedSource } from './harness.mjs';

const CASES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/cases/reliability');
const LEGACY = 'llm-slo-planner.imports';
const PREFIX = 'llm-slo-planner.import.';
const env = useServerAndBrowser();

const sourceIds = (page) =>
  page.$$eval('[data-testid="source-select"] option', (os) => os.map((o) => o.value));

const storedKeys = (page) =>
  page.evaluate(() => Object.keys(localStorage).sort());

const csv = (model) =>
  `model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n${model},L40S,1,8,800,10\n${model},L40S,1,16,1400,20\n`;

async function paste(page, text) {
  await page.click('details.import summary');
  await page.fill('[data-testid="import-paste"]', text);
  await page.click('[data-testid="import-paste-button"]');
}

test("an earlier version's store that cannot be read at all is named in the notice and left as it is", async () => {
  const context = await env.browser.newContext();
  await context.addInitScript((key) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem(key, '{not a list');
      sessionStorage.setItem('seeded', '1');
    }
  }, LEGACY);
  const page = await context.newPage();
  await page.goto(env.server.base);
  await page.waitForSelector('.notice.warn');
  assert.match(
    await page.textContent('.notice.warn'),
    /The imports an earlier version kept \(local storage key llm-slo-planner\.imports\) could not be read; they are left as they are/,
  );
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), LEGACY), '{not a list');
  await context.close();
});

test('a stored import that cannot be read is reported and left as it is; the readable one is kept', async () => {
  const context = await env.browser.newContext();
  const stored = await fs.readFile(path.join(CASES, 'stored-imports-one-unreadable.json'), 'utf8');
  await context.addInitScript(([key, value]) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem(key, value);
      sessionStorage.setItem('seeded', '1');
    }
  }, [LEGACY, stored]);
  const page = await context.newPage();
  await page.goto(env.server.base);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="source-select"] option')].some((o) => o.value === 'imp-6bc0a9d8'));
  await page.waitForSelector('[data-testid="scenario-error"]');
  assert.match(await page.textContent('.notice.warn'), /1 stored import could not be read; it is left as it is/);
  // The readable import moved to its own key; the unreadable element stays under the old one.
  assert.deepEqual(await storedKeys(page), [LEGACY, `${PREFIX}imp-6bc0a9d8`].sort());
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), LEGACY), '[null]');
  // A later import writes its own key and erases nothing.
  await paste(page, csv('org/later'));
  const later = await importedSource(page);
  assert.deepEqual(await storedKeys(page), [LEGACY, `${PREFIX}imp-6bc0a9d8`, `${PREFIX}${later}`].sort());
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), LEGACY), '[null]');
  await page.reload();
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="source-select"] option')].some((o) => o.value === 'imp-6bc0a9d8'));
  assert.ok((await sourceIds(page)).includes(later));
  await context.close();
});

test('two tabs importing at the same moment both keep their import, and each learns of the other', async () => {
  const context = await env.browser.newContext();
  const [a, b] = [await context.newPage(), await context.newPage()];
  await Promise.all([a.goto(env.server.base), b.goto(env.server.base)]);
  await Promise.all([a, b].map((p) => p.waitForSelector('[data-testid="rec-status"][data-value]')));
  await Promise.all([paste(a, csv('org/tab-a')), paste(b, csv('org/tab-b'))]);
  const ids = await Promise.all([a, b].map(importedSource));
  assert.notEqual(ids[0], ids[1]);
  // Each tab's menu learns of the other's import (the storage event).
  await a.waitForFunction((id) => [...document.querySelectorAll('[data-testid="source-select"] option')].some((o) => o.value === id), ids[1]);
  await b.waitForFunction((id) => [...document.querySelectorAll('[data-testid="source-select"] option')].some((o) => o.value === id), ids[0]);
  // Both are kept for the next visit.
  const c = await context.newPage();
  await c.goto(env.server.base);
  await c.waitForFunction((wanted) => wanted.every((id) => [...document.querySelectorAll('[data-testid="source-select"] option')].some((o) => o.value === id)), ids);
  await context.close();
});

test('the CSV export neutralises cells a spreadsheet would evaluate', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(env.server.base);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await page.click('details.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [path.join(CASES, 'formula-cells.csv')]);
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-csv"]')]);
  const text = await fs.readFile(await download.path(), 'utf8');
  const cells = text.split('\n').slice(1).join('\n');
  assert.doesNotMatch(cells, /(^|,|")[=+@]/m, text);
  assert.match(cells, /'=HYPERLINK/);
  await context.close();
});

test('a header-only CSV says it has no data rows, naming the file', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(env.server.base);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await page.click('details.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [path.join(CASES, 'header-only.csv')]);
  await page.waitForSelector('[data-testid="import-error"]');
  assert.equal(await page.textContent('[data-testid="import-error"]'), 'header-only.csv: no data rows: the file has a header only');
  await context.close();
});
