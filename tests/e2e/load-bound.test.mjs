// Issue 46, hostile inputs in the load field: a paste longer than the most the field reads (64
// characters per value of the largest load, 10,080, and a header: 645,184) is refused before
// the browser inserts it (a million lines hold a text area for minutes), typing stops one
// character past it, a longer text set otherwise is not read; each is said to be too long,
// without holding the page. The largest load the field accepts still reads. A load of 10,080
// steps of a week draws at most eight hour ticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPlanner, settled } from './harness.mjs';

const env = useServerAndBrowser();

const LLAMA = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&stat=p50&price=2';
const MOST = 645_184;

/** The longest main-thread task since the page opened, ms (the browser's Long Tasks). */
async function watchTasks(context) {
  await context.addInitScript(() => {
    window.longest = 0;
    new PerformanceObserver((l) => l.getEntries().forEach((e) => { window.longest = Math.max(window.longest, e.duration); }))
      .observe({ type: 'longtask', buffered: true });
  });
}

/** Sets the load field's text as a script would, with one input event. */
function setField(page, text) {
  return page.evaluate((t) => {
    const f = document.querySelector('[data-testid="load-input"]');
    f.value = t;
    f.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

/** A CSV of `rows` rows a minute apart, with its header. */
function csv(rows) {
  const out = ['timestamp,rps'];
  for (let i = 0; i < rows; i++) out.push(`${1_700_000_000 + 60 * i},${(i % 100) + 1}`);
  return out.join('\n');
}

test('a CSV of 1,000,000 rows pasted in the load field is refused and said too long, the page not held', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA}&load=rps:60:10,40,80,20`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.base.slice(0, -1) });
  const field = page.locator('[data-testid="load-input"]');
  await field.waitFor();
  assert.equal(await field.getAttribute('maxlength'), String(MOST + 1));
  await page.evaluate(() => {
    window.longest = 0;
    new PerformanceObserver((l) => l.getEntries().forEach((e) => { window.longest = Math.max(window.longest, e.duration); }))
      .observe({ type: 'longtask' });
  });
  // A paste of the whole text (13.9 MB) from the clipboard.
  await page.evaluate((text) => navigator.clipboard.writeText(text), csv(1_000_000));
  await field.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.waitForSelector('[data-testid="load-error"]');
  assert.equal(
    await page.textContent('[data-testid="load-error"]'),
    'Load: the field holds more than the 645,184 characters read (10,080 values, a week by the minute, at up to 64 characters each), so it was not read; the last valid load is still used.',
  );
  // Nothing was inserted: the field still holds the load.
  assert.equal(await field.inputValue(), 'rps:60:10,40,80,20');
  // The last load is kept, in the link too.
  await settled(page);
  assert.equal(new URL(page.url()).searchParams.get('load'), 'rps:60:10,40,80,20');
  // Before: 2.4 s of one task and 6.4 GB; now well under a second.
  assert.ok(await page.evaluate(() => window.longest) < 1000);
  // Under the limit a paste is read (300,000 values: too many); a second one at its end stops one
  // character past the limit, and that text is not read.
  await page.evaluate(() => navigator.clipboard.writeText('1,'.repeat(300_000)));
  await page.keyboard.press('Control+V');
  await page.waitForFunction(() => document.querySelector('[data-testid="load-error"]')?.textContent.includes('300,000 values'));
  await page.keyboard.press('End');
  await page.keyboard.press('Control+V');
  await page.waitForFunction((most) => document.querySelector('[data-testid="load-input"]').value.length === most + 1, MOST);
  await page.waitForFunction(() => document.querySelector('[data-testid="load-error"]').textContent.includes('645,184 characters'));
  // A text set by a script past the field's limit is not copied either.
  await setField(page, '1,'.repeat(400_000));
  await page.waitForFunction(() => document.querySelector('[data-testid="load-input"]').value.length === 800_000);
  assert.match(await page.textContent('[data-testid="load-error"]'), /^Load: the field holds more than the 645,184 characters/);
  // The largest load the field accepts, 10,080 rows by the minute, still reads.
  await setField(page, csv(10_080));
  await page.waitForFunction(() => new URL(location.href).searchParams.get('load')?.startsWith('rps:1:1,2,3'));
  assert.equal(new URL(page.url()).searchParams.get('load').split(':')[2].split(',').length, 10_080);
  assert.equal(await page.locator('[data-testid="load-error"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('10,080 values of 10^9 a week each, a week\'s lag and 10^6 replicas at least: six hour ticks, the page not held', async () => {
  const context = await env.browser.newContext();
  await watchTasks(context);
  const page = await context.newPage();
  const values = Array(10_080).fill('1000000000').join(',');
  await page.goto(`${env.server.base}${LLAMA}&lag=10080&min_replicas=1000000`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await page.locator('[data-testid="load-input"]').fill(`rps:10080:${values}`);
  await page.waitForSelector('[data-testid="period-chart"]');
  await settled(page);
  const hours = await page.$$eval('[data-testid="period-chart"] .tick', (ts) => ts.map((t) => t.textContent).filter((t) => t.endsWith(' h')));
  assert.deepEqual(hours, ['0 h', '336,000 h', '672,000 h', '1,008,000 h', '1,344,000 h', '1,680,000 h']);
  assert.ok(await page.evaluate(() => window.longest) < 1000);
  await context.close();
});
