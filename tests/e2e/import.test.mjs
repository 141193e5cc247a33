// Issue 5 end to end: import a vLLM multi-file sweep, share it by link, broken files, workloads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled, value, waitForParam, showLower, importedSource } from './harness.mjs';

const REALDATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/realdata');
const GLM = path.join(REALDATA, 'inferencex-app__glm-4.7_gaudi3_vllm_sweep');
const GLM_FILES = fs.readdirSync(GLM).filter((f) => f.startsWith('glm47_conc')).map((f) => path.join(GLM, f));
const FAILED = path.join(
  REALDATA,
  'er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1/bench_serve_all_requests_failed_v0.25.1.json',
);

const env = useServerAndBrowser();

async function importGlm(page) {
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', GLM_FILES);
  await page.waitForSelector('[data-testid="import-summary"]');
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
}

test('importing the vLLM multi-file sweep gives a recommendation, kept across reloads', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  await importGlm(page);
  assert.match(await page.textContent('[data-testid="import-summary"]'), /Read 8 files \(8 as vLLM bench serve JSON\): imported 1 sweep with 8 rows\./);
  // Median ITL: 94.5 ms at 32, 113.2 ms at 64: a 100 ms target runs 32.
  await page.check('[data-testid="unit-tpot"]');
  await page.fill('[data-testid="target-input"]', '100');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="32"]');
  await settled(page);
  assert.equal(await page.locator('[data-testid="sweep-row"]').count(), 8);
  assert.match(await page.textContent('.headline'), /concurrency/);
  await waitForParam(page, 'tpot', '100');
  // Its link opens only in this browser: said beside "Copy link".
  assert.match(await page.textContent('[data-testid="copy-link-local"]'), /only in this browser, unless it carries the data: “Share by link”/);
  const url = page.url();
  await page.reload();
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  assert.equal(page.url(), url);
  assert.equal(await value(page, 'rec-concurrency'), '32');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a shared link reproduces the imported scenario in a fresh browser', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base);
  await importGlm(page);
  await page.check('[data-testid="unit-tpot"]');
  await page.fill('[data-testid="target-input"]', '100');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="32"]');
  await page.click('[data-testid="source-share"]');
  await page.waitForFunction(() => location.hash.startsWith('#sweep='));
  const link = page.url();
  assert.ok(link.length < 8192, `link is ${link.length} bytes`);
  // Leaving the shared data drops its #sweep=, so a reload or a copied link opens what is shown.
  await page.selectOption('[data-testid="source-select"]', 'lm-arena-chat');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('src') === null);
  assert.equal(new URL(page.url()).hash, '');
  await page.reload();
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  assert.equal(await page.inputValue('[data-testid="source-select"]'), 'lm-arena-chat');
  await context.close();

  const fresh = await openPlanner(env.browser, '', link);
  assert.equal(await value(fresh.page, 'rec-concurrency'), '32');
  assert.equal(await fresh.page.locator('[data-testid="sweep-row"]').count(), 8);
  // Named once by where it came from, not "shared by link: imported: …".
  const label = await fresh.page.$eval('[data-testid="source-select"]', (el) => el.selectedOptions[0].textContent);
  assert.match(label, /^shared by link: (?!imported: )\S/);
  // It says where the data came from: files imported in another browser, not this one.
  assert.match(await fresh.page.textContent('[data-testid="method-data"]'), /^Data shown: glm47_conc1\.json, glm47_conc2\.json, glm47_conc4\.json and 5 more files \(files shared by link\), 8 runs/);
  const provenance = await fresh.page.textContent('[data-testid="provenance"]');
  assert.match(provenance, /Imported in another browser and shared by link/);
  assert.doesNotMatch(provenance, /Imported in this browser|your files: *(\n|$)/);
  await fresh.context.close();
});

test('a broken file lists its problems and changes nothing', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tps=25');
  assert.equal(await value(page, 'rec-concurrency'), '384');
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [FAILED]);
  await page.waitForSelector('[data-testid="import-error"]');
  assert.match(await page.textContent('[data-testid="import-error"]'), /bench_serve_all_requests_failed_v0\.25\.1\.json, row 1: all requests failed/);
  assert.match(await page.textContent('[data-testid="import-summary"]'), /nothing imported/);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  assert.equal(new URL(page.url()).searchParams.get('src'), null);
  // Pasted garbage, too.
  await page.fill('[data-testid="import-paste"]', '<img src=x onerror=alert(1)>');
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForSelector('[data-testid="import-error"][data-file^="pasted at "]');
  assert.equal(await page.locator('img').count(), 0);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  // Two pastes are two entries of the Data menu, each named by its time and first line.
  const csv = (n) => `model,concurrency,output_tok_s,p50_itl_ms\nm${n},1,100,10\nm${n},2,180,12\n`;
  for (const n of [1, 2]) {
    await page.fill('[data-testid="import-paste"]', csv(n));
    await page.click('[data-testid="import-paste-button"]');
    await page.waitForFunction((m) => document.querySelector('[data-testid="rec-status"]') && new URL(location.href).searchParams.get('model') === m, `m${n}`);
  }
  const labels = await page.$$eval('[data-testid="source-select"] option', (all) => all.map((o) => o.textContent).filter((t) => t.includes('pasted at')));
  assert.equal(labels.length, 2, labels.join(' | '));
  assert.equal(new Set(labels).size, 2, labels.join(' | '));
  assert.match(labels[0], /pasted at \d\d:\d\d:\d\d \(model,concurrency,output…\)/);
  await page.selectOption('[data-testid="source-select"]', 'lm-arena-chat');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="384"]');
  // Plain text is named as such.
  await page.fill('[data-testid="import-paste"]', 'hello world this is not a benchmark');
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="import-error"]')?.textContent.includes('neither JSON nor a CSV'));
  // An array of numbers is named as what it is, with what a format needs.
  await page.fill('[data-testid="import-paste"]', '[1,2,3]');
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="import-error"]')?.textContent.includes('array of numbers'));
  assert.match(await page.textContent('[data-testid="import-error"]'), /the file holds an array of numbers, not runs or requests with named fields/);
  await context.close();
});

test('an empty file or an empty paste is said to be empty, and changes nothing', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tps=25');
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [{ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from(' \n') }]);
  await page.waitForSelector('[data-testid="import-error"][data-file="empty.csv"]');
  assert.equal(await page.textContent('[data-testid="import-error"]'), 'empty.csv: empty: there is nothing to read');
  assert.match(await page.textContent('[data-testid="import-summary"]'), /nothing imported/i);
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForSelector('[data-testid="import-error"][data-file^="pasted at "]');
  assert.match(await page.textContent('[data-testid="import-error"]'), /^pasted at \d\d:\d\d:\d\d: empty: there is nothing to read$/);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  assert.equal(new URL(page.url()).searchParams.get('src'), null);
  await context.close();
});

test('src=gpqa plans on the GPQA workload, fetched on first use', async () => {
  const { page, context } = await openPlanner(
    env.browser,
    env.server.base,
    '?src=gpqa&model=Qwen%2FQwen3-8B&gpu=H100&gpus=1&tps=40&stat=p50',
  );
  // GPQA, Qwen3-8B on 1 x H100: p50 ITL 16.9 ms at 32, 26.6 ms at 64; 40 tok/s = 25 ms.
  assert.equal(await value(page, 'rec-concurrency'), '32');
  assert.equal(await value(page, 'rec-throughput'), '1917.195245600073');
  assert.equal(await page.locator('[data-testid="sweep-row"]').count(), 5);
  assert.equal(await page.inputValue('[data-testid="source-select"]'), 'gpqa');
  await page.selectOption('[data-testid="source-select"]', 'lm-arena-chat');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('src') === null);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await context.close();
});

test('switching source keeps the target, limits and fleet inputs, and a statistic the new data reports', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base, '?tpot=40&stat=p90&limit=p99:120&users=1000');
  await page.selectOption('[data-testid="source-select"]', 'gpqa');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('src') === 'gpqa');
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  let params = new URL(page.url()).searchParams;
  assert.deepEqual([params.get('tpot'), params.get('stat'), params.getAll('limit'), params.get('users')], ['40', 'p90', ['p99:120'], '1000']);
  assert.equal(await page.inputValue('[data-testid="target-input"]'), '40');
  // The reference systems' default (MPT-7B) has no p90 ITL: its own statistic, the rest kept.
  await page.selectOption('[data-testid="source-select"]', 'reference');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('src') === 'reference');
  params = new URL(page.url()).searchParams;
  assert.notEqual(params.get('stat'), 'p90');
  assert.deepEqual([params.get('tpot'), params.getAll('limit'), params.get('users')], ['40', ['p99:120'], '1000']);
  // The change of statistic the page made is said beside the menu.
  await page.waitForSelector('[data-testid="stat-changed"]');
  assert.match(await page.textContent('[data-testid="stat-changed"]'), /^The data now shown does not report p90 ITL: judged on .+ instead\.$/);
  // And back: the bundled data reports that statistic again, and the edited target stays.
  await page.fill('[data-testid="target-input"]', '50');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('tpot') === '50');
  await page.selectOption('[data-testid="source-select"]', 'lm-arena-chat');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('src') === null);
  params = new URL(page.url()).searchParams;
  assert.equal(params.get('tpot'), '50');
  assert.equal(await page.locator('[data-testid="scenario-error"]').count(), 0);
  await context.close();
});

test('an unknown src or a damaged shared link is named and the bundled data shows', async () => {
  let { page, context } = await openPlanner(env.browser, env.server.base, '?src=imp-deadbeef&tps=25');
  assert.match(await page.textContent('[data-testid="scenario-error"][data-param="src"]'), /imp-deadbeef/);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  await context.close();
  // A bare #sweep= without src=shared is named too, and the data the link names shows.
  ({ page, context } = await openPlanner(env.browser, env.server.base, '?tps=25#sweep='));
  assert.match(await page.textContent('[data-testid="scenario-error"][data-param="src"]'), /`#sweep=` part is empty/);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  await context.close();
  // A shared link whose sweep was cut off says so.
  for (const tail of ['', '#sweep=', '#other=1']) {
    ({ page, context } = await openPlanner(env.browser, env.server.base, `?src=shared&tps=25${tail}`));
    assert.equal(
      await page.textContent('[data-testid="scenario-error"][data-param="src"]'),
      '`src` "shared": this link holds no shared sweep (its `#sweep=` part is missing or empty, perhaps cut off when copied); showing the bundled data.',
    );
    assert.equal(await value(page, 'rec-concurrency'), '384');
    await context.close();
  }
  // Four characters that begin compressed data and stop: cut short, its length named.
  ({ page, context } = await openPlanner(env.browser, env.server.base, '?tps=25#sweep=AAAA'));
  assert.match(await page.textContent('[data-testid="scenario-error"][data-param="src"]'), /looks cut short: its 4 characters/);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  await context.close();
});

test('drag and drop and paste both import', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  // The panel's inputs are drawn by code loaded on demand when it is first unfolded.
  await page.waitForSelector('[data-testid="import-drop"]');
  const texts = GLM_FILES.slice(0, 3).map((f) => ({ name: path.basename(f), text: fs.readFileSync(f, 'utf8') }));
  await page.evaluate((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([f.text], f.name, { type: 'application/json' }));
    const zone = document.querySelector('[data-testid="import-drop"]');
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, texts);
  await page.waitForSelector('[data-testid="import-summary"]');
  assert.match(await page.textContent('[data-testid="import-summary"]'), /Read 3 files \(3 as vLLM bench serve JSON\): imported 1 sweep with 3 rows/);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  assert.equal(await page.locator('[data-testid="sweep-row"]').count(), 3);

  const csv = 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nmy/model,L40S,2,8,800,10\nmy/model,L40S,2,16,1400,20\nmy/model,L40S,2,32,2000,45\n';
  await page.fill('[data-testid="import-paste"]', csv);
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="import-summary"]')?.textContent.includes('CSV template'));
  // The new source keeps the page's target, 20 tok/s = 50 ms: every level meets. At 25 tok/s
  // = 40 ms, 16 at 20 ms meets and 32 at 45 ms fails.
  await page.waitForSelector('[data-testid="rec-status"][data-value="all-meet"]');
  await page.fill('[data-testid="target-input"]', '25');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="16"]');
  assert.equal(await value(page, 'rec-throughput-per-gpu'), '700');
  // A latency of 0 is not reported, and the import says so rather than dropping it silently.
  await page.fill('[data-testid="import-paste"]', '{"backend":"vllm","model_id":"m","max_concurrency":4,"output_throughput":100,"median_itl_ms":10,"p99_itl_ms":0}');
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="import-summary"]')?.textContent.includes('vLLM'));
  assert.match(await page.textContent('[data-testid="import-summary"]'), /imported 1 sweep with 1 row; see the message below\.$/);
  assert.equal(await page.textContent('[data-testid="import-error"]'), '1 latency value below 1e-6 ms (0 or less) or over 1e9 ms is shown as not reported');
  await context.close();
});

test('InferenceX and agentic aggregate imports open on a statistic they have, with an answer', async () => {
  for (const file of [
    'inferencex-app__cypress_fixtures_api__benchmarks.json',
    'inferencemax-rocm-fork__results_0603_sa__kimik2.5-fp4-b200-vllm-agentic-lmcache__agg_bmk.json',
  ]) {
    const { page, context } = await openPlanner(env.browser, env.server.base);
    await page.click('.import summary');
    await page.setInputFiles('[data-testid="import-file"]', [path.join(REALDATA, file)]);
    await importedSource(page);
    await page.waitForSelector('[data-testid="rec-status"][data-value]');
    const status = await value(page, 'rec-status');
    assert.ok(['ok', 'all-meet', 'unattainable'].includes(status), `${file}: ${status}`);
    // The import panel, open above, puts the whole sweep below the window.
    await showLower(page);
    assert.ok((await page.locator('[data-testid="sweep-row"]').count()) > 0, file);
    await context.close();
  }
});

test('a plain visit does not fetch the tools module; the first import does', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url())));
  await page.goto(`${env.server.base}?tps=25`);
  await page.waitForSelector('main.results[data-evidence="ready"]');
  await page.waitForLoadState('networkidle');
  const tools = () => fetched.filter((u) => u.pathname.includes('tools'));
  assert.deepEqual(tools(), []);
  await page.click('details.import summary');
  const csv = 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nmy/model,L40S,2,8,800,10\nmy/model,L40S,2,16,1400,20\n';
  await page.fill('[data-testid="import-paste"]', csv);
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForSelector('[data-testid="rec-status"][data-value="all-meet"]');
  // The worker script, then the module and its WASM, all fetched by the worker.
  assert.deepEqual(tools().map((u) => u.pathname).sort(), ['/tools-worker.js', '/tools.js', '/tools_bg.wasm']);
  // All carry this build's version, so a cached copy from another build is never used.
  const version = await page.getAttribute('meta[name="tools-version"]', 'content');
  assert.match(version, /^[0-9a-f]{16}$/);
  assert.ok(tools().every((u) => u.searchParams.get('v') === version));
  await context.close();
});

test('a workload that failed to load (tools blocked) loads when shown again', async () => {
  const context = await env.browser.newContext();
  await context.route('**/tools.js?v=*', (route) => route.abort());
  const page = await context.newPage();
  await page.goto(`${env.server.base}?src=gpqa&tps=10`);
  await page.waitForSelector('[data-testid="rec-status"][data-value="no-data"]');
  assert.match(await page.textContent('[data-testid="rec-status"]'), /could not be loaded/);
  await context.unroute('**/tools.js?v=*');
  await page.selectOption('[data-testid="source-select"]', 'lm-arena-chat');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value]');
  await page.selectOption('[data-testid="source-select"]', 'gpqa');
  await page.waitForFunction(() => document.querySelector('[data-testid="rec-status"]')?.dataset.value !== 'no-data'
    && new URL(location.href).searchParams.get('src') === 'gpqa');
  await context.close();
});

test('the import loads its code on demand: from a host with the wrong content type too, and says so when it cannot', async () => {
  let { page, context } = await openPlanner(env.browser, env.server.base);
  await context.route('**/split_on_demand-*.wasm', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
  });
  await page.click('.import summary');
  await page.fill('[data-testid="import-paste"]', 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nmy/model,L40S,2,8,800,10\n');
  await page.click('[data-testid="import-paste-button"]');
  await page.waitForSelector('[data-testid="import-summary"]');
  assert.match(await page.textContent('[data-testid="import-summary"]'), /imported 1 sweep with 1 row/);
  await context.close();
  // In a 720 px window, where the evidence below the chart (code of that module too) is not
  // drawn before the import is opened.
  ({ page, context } = await openPlanner(env.browser, env.server.base, '?tps=25', { viewport: { width: 1280, height: 720 } }));
  await context.route('**/split_on_demand-*.wasm', (route) => route.abort());
  // The panel's inputs are that code's too: opened, it says why it has none.
  await page.click('.import summary');
  await page.waitForFunction(() => document.getElementById('import-inputs').textContent.startsWith('Nothing'));
  assert.equal(await page.textContent('#import-inputs'), 'Nothing can be imported: this part of the page could not be loaded (are you offline?).');
  assert.equal(await page.locator('[data-testid="panic-banner"]').count(), 0);
  assert.equal(await value(page, 'rec-concurrency'), '384');
  await context.close();
});

test('with that code blocked, a stored import is said not read yet, not unreadable, and stays stored', async () => {
  const { page, context } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  await page.fill('[data-testid="import-paste"]', 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nmy/model,L40S,2,8,800,10\n');
  await page.click('[data-testid="import-paste-button"]');
  const id = await importedSource(page);
  const url = page.url();
  await context.route('**/split_on_demand-*.wasm', (route) => route.abort());
  const again = await context.newPage();
  await again.goto(url);
  await again.waitForSelector('.notice.warn li:nth-child(2)');
  const said = await again.locator('.notice.warn li').allTextContents();
  // Then the link's other parameters, named against the bundled data.
  assert.deepEqual(said.slice(0, 2), [
    'The imports kept in this browser were not read: this part of the page could not be loaded (are you offline?).',
    `\`src\` "${id}" is not a source on this page yet: this part of the page could not be loaded (are you offline?); showing the bundled data.`,
  ]);
  assert.equal(await again.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('llm-slo-planner.import.')).length), 1);
  await context.close();
});
