// Issue 4 end to end: fleet, cost and energy from the URL; CSV, JSON and SVG downloads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { useServerAndBrowser, openPlanner, settled, value, waitForParam } from './harness.mjs';

const env = useServerAndBrowser();

const FLEET = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&stat=p50'
  + '&users=1000&price=2.5&kwh_price=0.12&co2=400&pue=1.2';
// At 384 on 1 x H100: avg batch 383.0078..., 9248.01198181863 tok/s, 686.5186027909551 W,
// 0.07423418180476347 J/token.
const THROUGHPUT = 9248.01198181863;
const POWER = 686.5186027909551;
const JPT = 0.07423418180476347;

test('a URL with users, price, kwh_price, co2 and pue shows the fleet figures', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, FLEET);
  // 1000 / 383.0 streams = 2.6 -> 3 replicas of 1 GPU.
  assert.equal(await value(page, 'cap-replicas'), '3');
  assert.equal(await value(page, 'cap-gpus'), '3');
  // The fleet inputs are drawn by code loaded on demand: wait for them to be drawn.
  await page.locator('[data-testid="input-users"]').waitFor();
  assert.equal(await page.isVisible('[data-testid="input-users"]'), true);
  assert.equal(await value(page, 'fleet-throughput'), String(3 * THROUGHPUT));
  assert.equal(await value(page, 'fleet-power-kw'), String(3 * POWER * 1.2 / 1000));
  assert.equal(await value(page, 'cost-per-mtok'), String(2.5 * 1 / (THROUGHPUT * 3600) * 1e6));
  const kwh = JPT * 1.2 * 1e6 / 3.6e6;
  assert.equal(await value(page, 'kwh-per-mtok'), String(kwh));
  assert.equal(await value(page, 'elec-cost-per-mtok'), String(kwh * 0.12));
  assert.equal(await value(page, 'co2-per-mtok'), String(kwh * 400 / 1000));
  assert.ok(Number(await value(page, 'energy-per-request')) > 0);
  assert.match(await page.textContent('.capacity'), /every replica runs full at the recommended level/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('without inputs only the input-free figures show; typing users adds the fleet', async () => {
  let { page, context } = await openPlanner(env.browser, env.server.base, '?tps=25');
  assert.equal(await page.locator('[data-testid="cap-replicas"]').count(), 0);
  assert.equal(await page.locator('[data-testid="cost-per-mtok"]').count(), 0);
  assert.equal(await value(page, 'kwh-per-mtok'), String(JPT * 1e6 / 3.6e6));
  // The fleet inputs are folded when the link sets none.
  assert.equal(await page.isVisible('[data-testid="input-users"]'), false);
  await page.click('.fleet summary');
  await page.fill('[data-testid="input-users"]', '384');
  await page.waitForSelector('[data-testid="cap-replicas"]');
  // 384 users / 383.0 streams: 2 replicas.
  assert.equal(await value(page, 'cap-replicas'), '2');
  await waitForParam(page, 'users', '384');
  await page.fill('[data-testid="input-pue"]', '0.5');
  assert.match(await page.textContent('.fleet'), /PUE must be a number from 1/);
  await page.fill('[data-testid="input-users"]', '');
  await page.waitForSelector('[data-testid="cap-replicas"]', { state: 'detached' });
  await waitForParam(page, 'users', null);
  await context.close();
  // A link that tries to set one (and fails) opens them too, next to its message.
  ({ page, context } = await openPlanner(env.browser, env.server.base, '?tps=25&users=abc'));
  assert.equal(await page.getAttribute('[data-testid="scenario-error"]', 'data-param'), 'users');
  // The fleet inputs are drawn by code loaded on demand: wait for them to be drawn.
  await page.locator('[data-testid="input-users"]').waitFor();
  assert.equal(await page.isVisible('[data-testid="input-users"]'), true);
  await context.close();
});

/** The cells of one CSV line (quoted cells may hold commas; "" is a quote). */
function csvCells(line) {
  const cells = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { cells.push(cell); cell = ''; } else cell += c;
  }
  cells.push(cell);
  return cells;
}

test('the CSV download holds one row per deployment with the numbers of the page', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, FLEET);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-csv"]')]);
  assert.equal(download.suggestedFilename(), 'llm-slo-planner_Llama-3.1-8B-Instruct_1xH100_tps25-p50_deployments.csv');
  const text = await fs.readFile(await download.path(), 'utf8');
  const lines = text.trim().split('\n');
  assert.equal(lines[0], `# scenario: ${page.url()}`);
  const header = csvCells(lines[1]);
  assert.ok(header.includes('throughput_per_gpu_tok_s') && header.includes('gpu_cost_usd_per_mtok'));
  const rows = lines.slice(2).map((l) => Object.fromEntries(csvCells(l).map((v, i) => [header[i], v])));
  const onPage = await page.$$eval('[data-testid="compare-row"]', (els) => els.map((e) => ({ ...e.dataset })));
  assert.equal(rows.length, onPage.length);
  for (const [i, row] of rows.entries()) {
    const p = onPage[i];
    assert.equal(row.model_id, p.model);
    assert.equal(row.gpu, p.gpu);
    assert.equal(row.num_gpus, p.gpus);
    assert.equal(row.status, p.status);
    assert.equal(row.level, p.concurrency);
    assert.equal(row.level_kind, 'max_num_seqs');
    assert.equal(row.throughput_per_gpu_tok_s, p.throughputPerGpu);
    assert.equal(row.energy_j_per_token, p.energy);
    assert.equal(row.gpus_needed, p.gpusNeeded);
    assert.equal(row.gpu_cost_usd_per_mtok, p.costPerMtok);
  }
  const h100 = rows.find((r) => r.gpu === 'H100');
  assert.equal(h100.gpus_needed, '3');
  assert.equal(h100.deployment, '1 x H100, TP1, bf16');
  await context.close();
});

test('JSON and SVG downloads', async () => {
  let { page, context } = await openPlanner(env.browser, env.server.base, FLEET);
  let [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-json"]')]);
  const json = JSON.parse(await fs.readFile(await download.path(), 'utf8'));
  assert.equal(json.scenario_url, page.url());
  assert.equal(json.result.level, 384);
  assert.equal(json.result.capacity.replicas, 3);
  assert.equal(json.scenario.pue, 1.2);
  [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-svg"]')]);
  const svg = await fs.readFile(await download.path(), 'utf8');
  assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /<style>/);
  // The points are there, without what only the page needs.
  assert.ok((svg.match(/<circle class="point /g) ?? []).length >= 20);
  for (const pageOnly of ['data-testid', 'tabindex', 'role=', 'aria-', '1999/xhtml']) assert.ok(!svg.includes(pageOnly), pageOnly);
  // One title, the file's own, naming the axis drawn; a legend for the marks it draws.
  assert.equal((svg.match(/<title>/g) ?? []).length, 1);
  assert.match(svg, /<title>Llama 3\.1 8B Instruct: per-user tok\/s at p50 ITL vs output tok\/s per GPU \(target 25 tok\/s per user\)<\/title>/);
  assert.match(svg, /the per-user target</);
  await context.close();
  // A long title on the cost axis wraps to the chart's width; what is not drawn is said.
  ({ page, context } = await openPlanner(env.browser, env.server.base, '?model=meta-llama%2FLlama-4-Maverick-17B-128E-Instruct-FP8&tps=20&price=2&y=cost'));
  await page.waitForSelector('[data-testid="export-svg"]');
  [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-svg"]')]);
  const cost = await fs.readFile(await download.path(), 'utf8');
  const width = Number(cost.match(/^<svg[^>]*width="([\d.]+)"/)[1]);
  const lines = [...cost.matchAll(/<text class="title"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  assert.ok(lines.length >= 2, lines.join(' | '));
  for (const line of lines) assert.ok(line.length * 8 <= width - 8, `${line.length} characters in ${width} px`);
  assert.match(lines.join(' '), /total \$ per M output tokens/);
  await context.close();
});

test('a load in requests per second sizes the fleet from output tokens per request, with hourly costs', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base,
    '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&rps=40&price=H100:2.49,B200:5.99&kwh_price=0.1');
  assert.equal(await value(page, 'rec-concurrency'), '512');
  // 40 req/s x 396.67 output tokens per request = 15,866.9 tok/s: 2 replicas of 1 GPU.
  assert.ok(Math.abs(Number(await value(page, 'demand-tok-s')) - 15866.9) < 0.1);
  assert.equal(await value(page, 'cap-replicas'), '2');
  assert.equal(await value(page, 'cap-gpus'), '2');
  assert.ok(Number(await value(page, 'implied-streams')) > 0);
  assert.equal(await value(page, 'fleet-gpu-cost-per-hour'), String(2 * 2.49));
  assert.ok(Math.abs(Number(await value(page, 'fleet-elec-cost-per-hour')) - 0.1377) < 0.0005);
  assert.ok(Math.abs(Number(await value(page, 'fleet-cost-per-hour')) - 5.12) < 0.005);
  // The fleet inputs are drawn by code loaded on demand: wait for them to be drawn.
  await page.locator('[data-testid="input-rps"]').waitFor();
  assert.equal(await page.isVisible('[data-testid="input-rps"]'), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('each fleet figure shows its formula with the numbers on hover and keyboard focus; Escape hides it', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base,
    '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&rps=40&price=2.49&kwh_price=0.1');
  const formula = page.locator('#formula-fleet-cost-per-hour');
  assert.equal(await formula.isVisible(), false);
  await page.focus('[data-testid="fleet-gpu-cost-per-hour"]');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'fleet-elec-cost-per-hour');
  await page.keyboard.press('Tab');
  assert.equal(await formula.isVisible(), true);
  assert.equal(await formula.textContent(), 'fleet $/hour = GPU $/hour + electricity $/hour = $4.98 + $0.138 = $5.12');
  assert.equal(await page.getAttribute('[data-testid="fleet-cost-per-hour"]', 'aria-describedby'), 'formula-fleet-cost-per-hour');
  await page.keyboard.press('Escape');
  assert.equal(await formula.isVisible(), false);
  await page.hover('[data-testid="demand-tok-s"]');
  assert.match(await page.textContent('#formula-demand-tok-s'), /= 40 × 396\.67 = 15,866\.9 tok\/s$/);
  assert.equal(await page.isVisible('#formula-demand-tok-s'), true);
  // Shown by the pointer alone, Escape hides it too; and it stays within the page's width.
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#formula-demand-tok-s'), false);
  await page.hover('[data-testid="total-cost-per-mtok"]');
  const box = await page.locator('#formula-total-cost-per-mtok').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 1280, JSON.stringify(box));
  // The pointer can move onto the formula (across the gap between figures) and it stays.
  await page.mouse.move(box.x + 20, box.y + box.height / 2, { steps: 12 });
  await page.waitForTimeout(600);
  assert.equal(await page.isVisible('#formula-total-cost-per-mtok'), true);
  // Every figure shown carries one.
  const figures = await page.locator('.capacity .figure').count();
  assert.equal(await page.locator('.capacity [data-testid="formula"]').count(), figures);
  await context.close();
});

test('a deployment whose GPU type has no price is never costed, ranked or named cheapest on electricity alone', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base,
    '?model=meta-llama%2FLlama-3.1-8B-Instruct&tps=20&rps=40&price=H100:2.49&kwh_price=0.1&gpu=B200&gpus=1');
  assert.equal(await page.getAttribute('[data-testid="cheapest"]', 'data-gpu'), 'H100');
  const b200 = page.locator('[data-testid="compare-row"][data-gpu="B200"]');
  assert.equal(await b200.getAttribute('data-fleet-cost-per-hour'), '');
  await context.close();
});

test('users and rps both given: the message names rps and users sizes the fleet', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tps=25&users=1000&rps=40');
  assert.equal(await page.getAttribute('[data-testid="scenario-error"]', 'data-param'), 'rps');
  assert.equal(await value(page, 'cap-replicas'), '3');
  assert.equal(await page.locator('[data-testid="demand-tok-s"]').count(), 0);
  await context.close();
});

test('a price per GPU type: each deployment at its own price, a type without one says so, the form edits them', async () => {
  const base = '?model=meta-llama%2FLlama-3.1-8B-Instruct&tps=20&rps=40&kwh_price=0.1';
  let { page, context } = await openPlanner(env.browser, env.server.base, `${base}&gpu=B200&gpus=1&price=H100:2.49,B200:5.99`);
  assert.equal(await value(page, 'rec-concurrency'), '256');
  assert.equal(await value(page, 'cap-replicas'), '3');
  assert.ok(Math.abs(Number(await value(page, 'fleet-gpu-cost-per-hour')) - 17.97) < 1e-9);
  assert.ok(Math.abs(Number(await value(page, 'fleet-cost-per-hour')) - 18.13) < 0.005);
  assert.equal(await page.inputValue('[data-testid="price-input"][data-gpu="B200"]'), '5.99');
  assert.equal(await page.inputValue('[data-testid="price-input"][data-gpu="H100"]'), '2.49');
  // Another price for B200, typed: the link follows.
  await page.fill('[data-testid="price-input"][data-gpu="B200"]', '6');
  await waitForParam(page, 'price', 'H100:2.49,B200:6');
  await context.close();
  // Only H100 priced: the B200 deployment has no price, never H100's.
  ({ page, context } = await openPlanner(env.browser, env.server.base, `${base}&gpu=B200&gpus=1&price=H100:2.49`));
  assert.equal(await page.locator('[data-testid="fleet-gpu-cost-per-hour"]').count(), 0);
  assert.match(await page.textContent('[data-testid="no-price"]'), /no price given for B200/);
  await context.close();
});

test('with a load and prices per GPU type, the side-by-side table ranks by fleet $/hour and names the cheapest', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base,
    '?model=meta-llama%2FLlama-3.1-8B-Instruct&tps=20&rps=40&price=H100:2.49,B200:5.99&kwh_price=0.1');
  await page.waitForSelector('[data-testid="cheapest"]');
  assert.equal(await page.getAttribute('[data-testid="cheapest"]', 'data-gpu'), 'H100');
  assert.equal(await page.getAttribute('[data-testid="cheapest"]', 'data-gpus'), '1');
  assert.ok(Math.abs(Number(await page.getAttribute('[data-testid="cheapest"]', 'data-value')) - 5.12) < 0.005);
  assert.match(await page.textContent('[data-testid="cheapest"]'), /Cheapest that meets the SLO: .* \$5\.12 per hour\./);
  const costs = await page.$$eval('[data-testid="compare-row"]', (rs) => rs.map((r) => r.dataset.fleetCostPerHour));
  const known = costs.filter((c) => c !== '').map(Number);
  assert.deepEqual(known, [...known].sort((a, b) => a - b));
  assert.equal(await page.locator('[data-testid="compare-row"][data-cheapest="true"]').count(), 1);
  assert.equal(await page.getAttribute('[data-testid="compare-row"][data-cheapest="true"]', 'data-gpu'), 'H100');
  assert.deepEqual(errors, []);
  await context.close();
});

test('with prices the chart can plot total $ per million tokens, switched by keyboard and kept in the link', async () => {
  const base = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&price=H100:2.49,B200:5.99&kwh_price=0.1';
  let { page, context, errors } = await openPlanner(env.browser, env.server.base, base);
  assert.match(await page.textContent('[data-testid="tradeoff-chart"]'), /output tok\/s per GPU \(log\)/);
  await page.focus('[data-testid="chart-y"]');
  await page.keyboard.press('ArrowDown');
  await waitForParam(page, 'y', 'cost');
  await page.waitForFunction(() => document.querySelector('[data-testid="tradeoff-chart"]')?.textContent.includes('total $ per M output tokens'));
  // Each point names its cost: at 512 on 1 x H100, $2.49 / (9,805.6 x 3600) x 1e6 + electricity.
  const label = await page.getAttribute('[data-testid="chart-point"][data-gpu="H100"][data-concurrency="512"]', 'aria-label');
  assert.match(label, /\$0\.07\d* per M tokens/);
  assert.deepEqual(errors, []);
  await context.close();
  // Without a price there is no switch, and a link's y=cost draws tok/s per GPU.
  ({ page, context } = await openPlanner(env.browser, env.server.base, '?tps=20&y=cost'));
  assert.equal(await page.locator('[data-testid="chart-y"]').count(), 0);
  assert.match(await page.textContent('[data-testid="tradeoff-chart"]'), /output tok\/s per GPU \(log\)/);
  await context.close();
});

test('on the cost axis a deployment whose GPU type has no price is not drawn, and the chart says so', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base,
    '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&price=H100:2.49&kwh_price=0.1&y=cost');
  await page.waitForFunction(() => document.querySelector('[data-testid="tradeoff-chart"]')?.textContent.includes('total $ per M output tokens'));
  assert.ok(await page.locator('[data-testid="chart-point"][data-gpu="H100"]').count() > 0);
  assert.equal(await page.locator('[data-testid="chart-point"][data-gpu="B200"]').count(), 0);
  assert.match(await page.textContent('[data-testid="chart-unpriced"]'), /^1 deployment of this model is not drawn on the cost axis: no GPU price is given for B200/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('typing a GPU price brings the y axis switch, which then draws the cost chart', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tps=25');
  await settled(page);
  assert.equal(await page.locator('[data-testid="chart-y"]').count(), 0);
  await page.click('.fleet summary');
  await page.fill('[data-testid="input-price"]', '2');
  await page.waitForSelector('[data-testid="chart-y"]');
  await page.selectOption('[data-testid="chart-y"]', 'cost');
  await waitForParam(page, 'y', 'cost');
  await page.waitForFunction(() => document.querySelector('[data-testid="tradeoff-chart"]')?.textContent.includes('total $ per M output tokens'));
  // The price cleared: the switch goes, and the chart is back on tok/s per GPU.
  await page.fill('[data-testid="input-price"]', '');
  await page.waitForSelector('[data-testid="chart-y"]', { state: 'detached' });
  await waitForParam(page, 'y', null);
  assert.deepEqual(errors, []);
  await context.close();
});
