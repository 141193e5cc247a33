// Issue 45 end to end: a power budget from a link or the fleet inputs; what fits in it at the
// recommended level, with a load its peak against the budget, the basis, and a bad budget named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPlanner, value, waitForParam } from './harness.mjs';

const env = useServerAndBrowser();

const LLAMA = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&pue=1.2';
const BUDGET = `${LLAMA}&power=1MW&host_w=150`;

async function near(page, hook, expected, within = 0.01) {
  await page.waitForSelector(`[data-testid="${hook}"]`);
  const got = Number(await value(page, hook));
  assert.ok(Math.abs(got - expected) <= within, `${hook}: ${got}, expected ${expected}`);
}

test('a link with a budget shows what fits in it, each figure with its formula', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, BUDGET);
  // (686.52 W measured + 150 W host) × PUE 1.2 = 1,003.8 W a replica: 996 in 1 MW.
  assert.equal(await value(page, 'power-replicas'), '996');
  await near(page, 'power-users', 381482.23);
  await near(page, 'power-tok-s-per-mw', 9212797.69);
  await page.hover('[data-testid="power-replicas"]');
  const formula = page.locator('.figure:has([data-testid="power-replicas"]) [data-testid="formula"]');
  await formula.waitFor({ state: 'visible' });
  assert.match(await formula.textContent(), /996/);
  assert.match(await page.textContent('[data-testid="power-basis"]'), /measured at the recommended level/);
  assert.match(await page.textContent('[data-testid="power-basis"]'), /host 150 W per GPU/);
  // The fleet inputs open with the budget in its fields.
  assert.equal(await page.inputValue('[data-testid="input-power"]'), '1MW');
  assert.equal(await page.inputValue('[data-testid="input-host_w"]'), '150');
  assert.equal(await page.inputValue('[data-testid="input-power_basis"]'), 'measured');
  // Every deployment in the budget, by users per MW: H100 serves the most users.
  const gpus = () => page.$$eval('[data-testid="power-row"]', (rows) => rows.map((r) => r.dataset.gpu));
  assert.deepEqual((await gpus()).slice(0, 2), ['H100', 'B200']);
  assert.match(await page.textContent('[data-testid="power-most-users"]'), /^In the 1 MW budget, .*H100.* serves the most users: 381,482 \(996 replicas/);
  // By tok/s per MW, B200 draws more tokens from each megawatt.
  await page.click('[data-testid="power-sort-tok-s"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="power-row"]')?.dataset.gpu === 'B200');
  assert.deepEqual(errors, []);
  await context.close();
});

test('with users the peak is set against the budget; tdp reads the rated power', async () => {
  let { page, context } = await openPlanner(env.browser, env.server.base, `${BUDGET}&users=100000`);
  await page.waitForSelector('[data-testid="power-needed"]');
  // 100,000 users ÷ 383.0 streams: 262 replicas × 1,003.8 W.
  await near(page, 'power-needed', 263001, 1);
  assert.match(await page.textContent('[data-testid="power-fits"]'), /fits in the budget/);
  await context.close();
  ({ page, context } = await openPlanner(env.browser, env.server.base, `${BUDGET}&power_basis=tdp`));
  // (700 + 150) × 1.2 = 1,020 W a replica: 980 in 1 MW.
  await near(page, 'power-w-per-gpu', 850, 1e-9);
  assert.equal(await value(page, 'power-replicas'), '980');
  assert.match(await page.textContent('[data-testid="power-basis"]'), /rated 700 W per H100/);
  await context.close();
});

test('a budget it cannot read is named and the rest stands; the field sets and clears it', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, `${LLAMA}&power=1XW&host_w=150`);
  assert.equal(await page.getAttribute('[data-testid="scenario-error"]', 'data-param'), 'power');
  assert.equal(await page.locator('[data-testid="power"]').count(), 0);
  assert.equal(new URL(page.url()).searchParams.get('tps'), '25');
  await page.locator('[data-testid="input-power"]').waitFor();
  await page.fill('[data-testid="input-power"]', '2 XW');
  assert.match(await page.textContent('.fleet'), /Power budget must be a power from 1 W to 10 GW with its unit/);
  await page.fill('[data-testid="input-power"]', '1MW');
  await waitForParam(page, 'power', '1MW');
  assert.equal(await value(page, 'power-replicas'), '996');
  await page.selectOption('[data-testid="input-power_basis"]', 'tdp');
  await waitForParam(page, 'power_basis', 'tdp');
  assert.equal(await value(page, 'power-replicas'), '980');
  await page.fill('[data-testid="input-power"]', '');
  await page.waitForSelector('[data-testid="power"]', { state: 'detached' });
  await waitForParam(page, 'power', null);
  await context.close();
});

test('an import without power names the missing power under measured; tdp answers', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tps=25&power=1MW');
  await page.click('.import summary');
  await page.waitForSelector('[data-testid="import-paste"]');
  const csv = 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nmy/model,H100,1,8,800,10\nmy/model,H100,1,16,1400,20\n';
  await page.fill('[data-testid="import-paste"]', csv);
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="import-summary"]')?.textContent.includes('CSV template'));
  await page.waitForSelector('[data-testid="power-error"]');
  assert.match(await page.textContent('[data-testid="power-error"]'), /the power at the recommended level is not reported/);
  // A budget alone leaves the fleet inputs folded.
  await page.click('.fleet summary');
  await page.selectOption('[data-testid="input-power_basis"]', 'tdp');
  // 16 at 20 ms meets 25 tok/s: 1,400 tok/s on one H100 at its rated 700 W: 1,428 replicas.
  await page.waitForSelector('[data-testid="power-replicas"]');
  assert.equal(await value(page, 'power-replicas'), '1428');
  await context.close();
});

test('the reference systems answer a budget, or say why not, as the command line does', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?src=reference&tps=25&pue=1.2&power=1MW&host_w=150');
  await page.waitForSelector('[data-testid="power-error"]');
  assert.equal(
    await page.textContent('[data-testid="power-error"]'),
    "No power budget: the power at the recommended level is not reported; power_basis=tdp reads the GPU type's rated power instead.",
  );
  await context.close();
  // Under tdp, their H100 SXM is the table's H100 (SXM5, 700 W); their A100 40GB, which may be
  // a PCIe card of 250 W or an SXM4 module of 400 W, is named, not guessed.
  const tdp = await openPlanner(env.browser, env.server.base, '?src=reference&model=meta-llama%2FLlama-3.1-70B-Instruct-FP8%20(illustrative)&gpu=H100%20SXM&tps=25&pue=1.2&power=1MW&host_w=150&power_basis=tdp');
  await tdp.page.waitForSelector('[data-testid="power-replicas"]');
  assert.match(await tdp.page.textContent('[data-testid="power-basis"]'), /rated 700 W per H100/);
  assert.deepEqual([...errors, ...tdp.errors], []);
  await tdp.context.close();
});

test('power_basis and host_w without a budget are named, not taken, and left out of the link', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, `${LLAMA}&power_basis=tdp&host_w=150`);
  const said = await page.$$eval('[data-testid="scenario-error"]', (es) => es.map((e) => [e.dataset.param, e.textContent]));
  assert.deepEqual(said, ['power_basis', 'host_w'].map((key) => [
    key,
    `\`${key}\` qualifies \`power\`, which is not given: it is read only with it`,
  ]));
  assert.equal(await page.locator('[data-testid="power"]').count(), 0);
  await waitForParam(page, 'tps', '25');
  const written = new URL(page.url()).searchParams;
  assert.deepEqual([written.get('power_basis'), written.get('host_w'), written.get('pue')], [null, null, '1.2']);
  assert.deepEqual(errors, []);
  await context.close();
});
