import { launchBrowser, startServer } from './tests/e2e/harness.mjs';
const server = await startServer();
const b = await launchBrowser();
const page = await b.newPage({ viewport: { width: 1280, height: 1000 } });
await page.goto(server.base + '?tps=25');
await page.waitForSelector('main.results[data-evidence="ready"]');
await page.click('details.import summary');
await page.setInputFiles('[data-testid="import-file"]', ['/tmp/many.csv']);
await page.waitForSelector('[data-testid="import-summary"]');
await page.waitForSelector('main.results[data-evidence="ready"]');
await page.locator('section.chart').screenshot({ path: '/tmp/many-chart.png' });
const opts = await page.$$eval('[data-testid="deployment-select"] option', (o) => o.slice(0, 8).map((x) => x.textContent));
console.log(opts);
// deployment switch time
const t = await page.evaluate(async () => {
  const sel = document.querySelector('[data-testid="deployment-select"]');
  const out = [];
  for (let i = 1; i < 11; i++) {
    const ans = document.querySelector('[data-testid="rec-concurrency"]')?.closest('section') ?? document.querySelector('section.answer');
    const t0 = performance.now();
    sel.selectedIndex = i * 37;
    sel.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => r()));
    out.push(performance.now() - t0);
  }
  return out;
});
console.log('switch (to next frame) ms', t.map((x) => x.toFixed(1)).join(' '));
await b.close(); await server.close();
