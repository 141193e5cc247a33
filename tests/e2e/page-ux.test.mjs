// Issue 46, what a user is told in the page: an import's outcome at a glance (complete, partial,
// failed, with counts), `code` spans as code, a message that goes with its data, an import made
// again, a label that keeps its sweep count; files named for their tool; one recommendation per
// level; a statistic the data cannot give, and the one asked for coming back; the requests
// panel's level in the link (one not measured named, issue 54); downloads named for their scenario; a folder's hidden files; an
// import beside garbage in the old store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled, value, waitForParam, importedSource } from './harness.mjs';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const env = useServerAndBrowser();
const HEAD = 'model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms';

/** A temporary folder holding `files` ({ relative name: text }); its path. */
function folder(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-ux-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function paste(page, text) {
  await page.fill('[data-testid="import-paste"]', text);
  await page.click('[data-testid="import-paste-button"]');
}

/** The outcome shown after the import that `act` starts: its kind and its line. */
async function outcome(page, act) {
  const line = '[data-testid="import-outcome-line"]';
  const before = await page.$eval(line, (e) => e.textContent).catch(() => null);
  await act();
  await page.waitForFunction(([sel, was]) => {
    const e = document.querySelector(sel);
    return e && e.textContent !== was;
  }, [line, before]);
  return [await page.getAttribute('[data-testid="import-outcome"]', 'data-value'), await page.textContent(line)];
}

const option = (page, id) =>
  page.$eval(`[data-testid="source-select"] option[value="${id}"]`, (o) => o.textContent);

test('complete, partial and failed imports each look their own, with their counts', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  assert.deepEqual(
    await outcome(page, () => paste(page, `${HEAD}\nm,H100,1,8,1000,20\nm,H100,1,16,1800,30\n`)),
    ['complete', 'Complete: 1 file read, 1 sweep with 2 rows imported.'],
  );
  assert.match(await page.getAttribute('[data-testid="import-outcome"]', 'class'), /\boutcome-complete\b/);
  // A bad row left out, and a column this planner does not read, named in `code`.
  assert.deepEqual(
    await outcome(page, () => paste(page, `${HEAD},p50_itl_s\nm,H100,1,8,1000,20,1\nm,H100,1,16,oops,30,1\nm,H100,1,32,2000,40,1\n`)),
    ['partial', 'Partial: 1 row left out; 1 sweep with 2 rows imported.'],
  );
  const warning = page.locator('[data-testid="import-warning"]');
  assert.equal(await warning.locator('code').first().textContent(), '`p50_itl_s`');
  assert.equal(await warning.locator('code').first().innerText(), 'p50_itl_s');
  assert.doesNotMatch(await warning.innerText(), /`/);
  assert.deepEqual(
    await outcome(page, () => paste(page, 'not a benchmark at all')),
    ['failed', 'Failed: nothing imported from 1 file.'],
  );
  const looks = await page.$eval('[data-testid="import-outcome"]', (e) => getComputedStyle(e).backgroundColor);
  assert.notEqual(looks, await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.className = 'notice';
    document.body.append(probe);
    const c = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return c;
  }));
  assert.deepEqual(errors, []);
  await context.close();
});

test("an import's message goes with its data; the same files again say so; the label keeps its count", async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  const long = `${'a-very-long-folder-name-'.repeat(6)}/runs.csv`;
  const dir = folder({ [long]: `${HEAD}\nm,H100,1,8,1000,20\nm,H100,1,16,1800,30\n` });
  const file = path.join(dir, long);
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', file);
  await page.waitForSelector('[data-testid="import-outcome"][data-value="complete"]');
  const src = await importedSource(page);
  assert.match(await option(page, src), /^imported \(1 sweep\): /);
  assert.equal(await page.locator('[data-testid="import-again"]').count(), 0);
  // The same file again: said.
  await page.setInputFiles('[data-testid="import-file"]', file);
  await page.waitForSelector('[data-testid="import-again"]');
  assert.equal(await page.textContent('[data-testid="import-again"]'), 'These files were imported before: the earlier import of them is replaced by this one.');
  // Another source: the message goes, and does not come back with the import.
  await page.selectOption('[data-testid="source-select"]', 'lm-arena-chat');
  await page.waitForSelector('[data-testid="import-outcome"]', { state: 'detached' });
  await page.selectOption('[data-testid="source-select"]', src);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  assert.equal(await page.locator('[data-testid="import-outcome"]').count(), 0);
  // Removed: its message goes with it.
  await page.setInputFiles('[data-testid="import-file"]', file);
  await page.waitForSelector('[data-testid="import-outcome"]');
  await page.click('[data-testid="source-remove"]');
  await page.waitForSelector('[data-testid="import-outcome"]', { state: 'detached' });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a tool's YAML twin is named for its tool; a joined records file is read; a folder's hidden files are skipped", async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-file"]', [
    path.join(FIXTURES, 'realdata/vllm-project-guidellm__tests_unit_entrypoints_assets__benchmarks_stripped__at_a1fe883a.yaml'),
    path.join(FIXTURES, 'realdata/llm-d-llm-d-benchmark__tests_fixtures__inference_perf_lifecycle.yaml'),
  ]);
  await page.waitForSelector('[data-testid="import-outcome"][data-value="failed"]');
  const named = await page.locator('[data-testid="import-error"]').allTextContents();
  assert.ok(named.some((t) => t.includes("GuideLLM's YAML twin of its report")), named.join(' | '));
  assert.ok(named.some((t) => t.includes("inference-perf's YAML twin of its report")), named.join(' | '));
  assert.ok(named.every((t) => !t.includes("a run's settings")), named.join(' | '));
  // A picked folder: its hidden file (another model's rows) and hidden folder are not read.
  const record = (c) => `{"source_path":"r${c}.json","backend":"vllm","model_id":"org/m","request_rate":"inf","max_concurrency":${c},"completed":50,"duration":30,"output_throughput":${100 * c},"median_itl_ms":${10 + c}}`;
  const dir = folder({
    'run/joined.json': `{"_source":"by hand","records":[${[1, 2, 4].map(record).join(',')}]}`,
    'run/.hidden.csv': `${HEAD}\nhidden/m,H100,1,8,1000,20\n`,
    'run/.git/x.csv': `${HEAD}\nhidden/n,H100,1,8,1000,20\n`,
  });
  await page.setInputFiles('[data-testid="import-folder"]', path.join(dir, 'run'));
  await page.waitForSelector('[data-testid="import-outcome"][data-value="complete"]');
  assert.equal(await page.textContent('[data-testid="import-outcome-line"]'), 'Complete: 1 file read, 1 sweep with 3 rows imported.');
  assert.deepEqual(errors, []);
  await context.close();
});

test('repeats of the recommended level mark it recommended once', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=25&stat=p50');
  await page.click('.import summary');
  await paste(page, `${HEAD}\nm,H100,1,8,1000,20\nm,H100,1,8,1010,21\nm,H100,1,16,1800,30\n`);
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="8"]');
  await settled(page);
  assert.equal(await page.locator('[data-testid="sweep-row"][data-concurrency="8"]').count(), 2);
  assert.equal(await page.locator('[data-testid="sweep-table"] .badge.rec').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a statistic the data cannot give is said at the top, and comes back with data that has it', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?src=reference&stat=p90');
  assert.equal(
    await page.textContent('[data-testid="scenario-error"][data-param="stat"]'),
    '`stat` "p90": the data shown does not report p90 ITL for this deployment, so its levels are not judged; pick a statistic it reports under “Judged on”',
  );
  // On the bundled data, p90; to the reference systems (no p90) and back: p90 again.
  await page.goto(`${env.server.base}?stat=p90&tps=25`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await page.selectOption('[data-testid="source-select"]', 'reference');
  await page.waitForFunction(() => document.querySelector('[data-testid="stat-select"]')?.value && document.querySelector('[data-testid="stat-select"]').value !== 'p90'
    && new URL(location.href).searchParams.get('src') === 'reference');
  await page.selectOption('[data-testid="source-select"]', 'lm-arena-chat');
  await waitForParam(page, 'stat', 'p90');
  assert.equal(await page.inputValue('[data-testid="stat-select"]'), 'p90');
  // Under attain, the menu says where it matters.
  await page.goto(`${env.server.base}?tpot=40&attain=90`);
  await page.waitForSelector('[data-testid="stat-under-attain"]');
  assert.equal(
    await page.innerText('[data-testid="stat-under-attain"]'),
    'With attain, a level with per-request records is judged request by request: this statistic only matters where a level has no per-request records.',
  );
  assert.equal(await page.getAttribute('[data-testid="stat-select"]', 'aria-describedby'), 'stat-under-attain');
  assert.deepEqual(errors, []);
  await context.close();
});

test("the requests panel's level is in the link, and a download is named for its scenario", async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tpot=145&limit=ttft_p99:5000&attain=70');
  await page.click('.import summary');
  const scicom = path.join(FIXTURES, 'realdata/scicom-vllm-detailed');
  await page.setInputFiles('[data-testid="import-file"]', ['tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json', 'tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json'].map((f) => path.join(scicom, f)));
  await importedSource(page);
  await page.waitForSelector('[data-testid="requests-scatter"]');
  const level = page.locator('[data-testid="requests-level"]');
  await level.selectOption({ label: '10 concurrency' });
  await waitForParam(page, 'requests_at', '10');
  await page.reload();
  await page.waitForSelector('[data-testid="requests-scatter"]');
  assert.equal(await level.locator('option:checked').textContent(), '10 concurrency');
  assert.match(await page.textContent('[data-testid="requests-caption"]'), /^136 of 200 requests good\./);
  // A level the sweep did not measure is named, the recommended one shown, and not kept.
  const unmeasured = new URL(page.url());
  unmeasured.searchParams.set('requests_at', '3');
  await page.goto(unmeasured.href);
  await page.waitForSelector('[data-testid="requests-scatter"]');
  assert.equal(await page.getAttribute('[data-testid="scenario-error"]', 'data-param'), 'requests_at');
  assert.equal(
    await page.textContent('[data-testid="scenario-error"]'),
    '`requests_at` names 3, not a level of this deployment with per-request records; showing the recommended level, else the first that fails',
  );
  assert.equal(await level.locator('option:checked').textContent(), '1 concurrency');
  await waitForParam(page, 'requests_at', null);
  await page.goto(`${env.server.base}?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=B200&gpus=1&tpot=40`);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-json"]')]);
  assert.equal(download.suggestedFilename(), 'llm-slo-planner_Llama-3.1-8B-Instruct_1xB200_tpot40-p50_scenario.json');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a readable import beside garbage in the old single-key store is offered', async () => {
  const context = await env.browser.newContext();
  const [good] = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'cases/reliability/stored-imports-one-unreadable.json'), 'utf8'));
  const legacy = `[${JSON.stringify(good)}, {"id": "imp-cut", "files": [ garbage`;
  await context.addInitScript((value) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('llm-slo-planner.imports', value);
      sessionStorage.setItem('seeded', '1');
    }
  }, legacy);
  const page = await context.newPage();
  await page.goto(env.server.base);
  const offered = () => page.waitForFunction((id) => [...document.querySelectorAll('[data-testid="source-select"] option')].some((o) => o.value === id), good.id);
  await offered();
  assert.match(await page.textContent('.notice.warn'), /1 stored import could not be read; it is left as it is/);
  assert.equal(await page.evaluate(() => localStorage.getItem('llm-slo-planner.imports')), '[{"id": "imp-cut", "files": [ garbage');
  await page.reload();
  await offered();
  await context.close();
});
