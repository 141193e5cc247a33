// Issue 46, small screens: at 360 px every plot's text is drawn at 11 px or more (its font size
// times the scale it is drawn at, getScreenCTM), no two of its labels overlap, and the period's
// table does not scroll sideways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, settled, showLower, importedSource } from './harness.mjs';

const env = useServerAndBrowser();

// A load, prices and a candidate: the period, its chart and table, and the comparison's chart.
const ALL = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=40&rps=40&price=2.5,B200:5.99'
  + '&load=rps:60:10,40,80,20&lag=60&vs=gpu%3DB200%26gpus%3D1';
const SCICOM = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/realdata/scicom-vllm-detailed');
const FILES = ['tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json', 'tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json']
  .map((f) => path.join(SCICOM, f));

/** Opens `query` at 360 × 800 and waits for the answer. */
async function narrow(query) {
  const context = await env.browser.newContext({ viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(env.server.base + query);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  return { page, context, errors };
}

/** The plot's texts drawn under 11 px ([text, px]) and the pairs of texts whose boxes overlap. */
function measured(page, testid) {
  return page.evaluate((id) => {
    const svg = document.querySelector(`[data-testid="${id}"]`);
    const scale = svg.getScreenCTM().a;
    const texts = [...svg.querySelectorAll('text')];
    const small = texts
      .map((t) => [t.textContent, Math.round(parseFloat(getComputedStyle(t).fontSize) * scale * 10) / 10])
      .filter(([, px]) => px < 11);
    // Every text is drawn: a rule meant for other elements once hid the ticks (`.tick`).
    const hidden = texts.filter((t) => t.getBoundingClientRect().width === 0).map((t) => t.textContent);
    const boxes = texts.map((t) => [t.textContent, t.getBoundingClientRect()]);
    const overlaps = [];
    boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
      if (r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom) overlaps.push(`${a} | ${b}`);
    }));
    return { count: texts.length, small, overlaps, hidden };
  }, testid);
}

test('at 360 px the period chart, the comparison chart and the trade-off chart draw text at 11 px or more', async () => {
  const { page, context, errors } = await narrow(ALL);
  await page.waitForSelector('[data-testid="period-chart"]');
  await page.waitForSelector('[data-testid="ab-chart"]');
  await settled(page);
  for (const id of ['period-chart', 'ab-chart', 'tradeoff-chart']) {
    const m = await measured(page, id);
    assert.ok(m.count > 5, id);
    assert.deepEqual(m.small, [], id);
    assert.deepEqual(m.overlaps, [], id);
    assert.deepEqual(m.hidden, [], id);
  }
  // The period chart is drawn as wide as the trade-off chart (360 - 48 = 312), at 1:1 or more;
  // its four hours ticked every 2 h.
  assert.equal(await page.getAttribute('[data-testid="period-chart"]', 'viewBox'), '0 0 312 300');
  assert.deepEqual(
    await page.$$eval('[data-testid="period-chart"] .tick', (ts) => ts.map((t) => t.textContent).filter((t) => t.endsWith(' h'))),
    ['0 h', '2 h', '4 h'],
  );
  // The period's table does not scroll sideways: each row stacked, each cell named.
  const table = await page.$eval('[data-testid="period-compare"]', (t) => {
    const box = t.closest('.table-scroll');
    return { scroll: box.scrollWidth, client: box.clientWidth, page: document.documentElement.scrollWidth };
  });
  assert.ok(table.scroll <= table.client, JSON.stringify(table));
  assert.equal(table.page, 360);
  const h100 = page.locator('[data-testid="period-row"].current td').first();
  assert.equal(await h100.evaluate((td) => getComputedStyle(td, '::before').content), '"peak GPUs"');
  assert.equal(await h100.textContent(), '4');
  assert.deepEqual(errors, []);
  await context.close();
});

test('at 360 px the requests panel\'s two plots draw text at 11 px or more, the plot of levels without overlaps', async () => {
  const { page, context, errors } = await narrow('?tpot=145&limit=ttft_p99:5000&attain=70');
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', FILES);
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  // The requests panel is drawn with the evidence below the chart, as it comes into view.
  await showLower(page);
  await page.waitForSelector('[data-testid="requests-scatter"]');
  await settled(page);
  for (const id of ['attain-chart', 'requests-scatter']) {
    const m = await measured(page, id);
    assert.ok(m.count > 5, id);
    assert.deepEqual(m.small, [], id);
    assert.deepEqual(m.hidden, [], id);
  }
  assert.deepEqual((await measured(page, 'attain-chart')).overlaps, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('at 360 px the power budget\'s table of every deployment does not scroll sideways; its sort buttons show', async () => {
  const { page, context, errors } = await narrow('?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&pue=1.2&power=1MW&host_w=150');
  await page.waitForSelector('[data-testid="power-compare"]');
  const table = await page.$eval('[data-testid="power-compare"]', (t) => {
    const box = t.closest('.table-scroll');
    return { scroll: box.scrollWidth, client: box.clientWidth, page: document.documentElement.scrollWidth };
  });
  assert.ok(table.scroll <= table.client, JSON.stringify(table));
  assert.equal(table.page, 360);
  for (const id of ['power-sort-users', 'power-sort-tok-s']) assert.ok(await page.isVisible(`[data-testid="${id}"]`), id);
  assert.deepEqual(errors, []);
  await context.close();
});
