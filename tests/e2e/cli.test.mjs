// Issue 17 end to end: a link printed by the command line opens the same answer in the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner } from './harness.mjs';

const env = useServerAndBrowser();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'target/debug/llm-slo-planner');

/** Runs the command line (built by the native tests; built here when they were not run). */
function cli(args) {
  if (!existsSync(bin)) {
    const built = spawnSync('cargo', ['build', '--locked', '-p', 'llm-slo-planner-cli'], { cwd: root, stdio: 'inherit' });
    assert.equal(built.status, 0, 'cargo build of the command line');
  }
  return spawnSync(bin, args, { cwd: root, encoding: 'utf8' });
}

/** Opens a link and waits until the answer shows `level` for the link's deployment. */
async function levelShown(url, level) {
  const { page, context, errors } = await openPlanner(env.browser, url);
  await page.waitForFunction(
    (v) => document.querySelector('[data-testid="rec-concurrency"]')?.dataset.value === v,
    String(level),
  );
  return { page, context, errors };
}

test('the link of an imported file opens its sweeps and the same recommended level', async () => {
  const file = 'tests/fixtures/realdata/datacrunch-h200-benchmarks__sglang_outputs__llama_3_3_70b_online_output.jsonl';
  const run = cli(['plan', file, '--tps', '20', '--json', `--link=${env.server.base}`]);
  assert.equal(run.status, 0, run.stderr);
  const docs = JSON.parse(run.stdout);
  assert.equal(docs.length, 2);
  for (const doc of docs) {
    assert.match(doc.scenario_url, /\?src=shared&.*#sweep=/);
    const { page, context, errors } = await levelShown(doc.scenario_url, doc.result.level);
    assert.equal(await page.getAttribute('[data-testid="rec-status"]', 'data-value'), doc.result.status);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the link of a bundled deployment opens the same answer', async () => {
  const run = cli([
    'plan', '--model', 'meta-llama/Llama-3.1-8B-Instruct', '--gpu', 'H100', '--gpus', '1', '--tps', '25',
    `--link=${env.server.base}`,
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /Answer: run at 384 max_num_seqs \[ok\]/);
  const url = run.stdout.split('\n').find((l) => l.trim().startsWith('Link: ')).trim().slice('Link: '.length);
  const { page, context } = await levelShown(url, 384);
  assert.equal(await page.getAttribute('[data-testid="rec-throughput"]', 'data-value'), '9248.01198181863');
  await context.close();
});

test('an import too large for one link opens from its own deployment link', async () => {
  const file = 'tests/fixtures/realdata/mlenergy-leaderboard__public_data_tasks__gpqa.json';
  const run = cli([
    'plan', file, '--model', 'Qwen/Qwen3-14B', '--gpu', 'H100', '--gpus', '1', '--tps', '10', '--json',
    `--link=${env.server.base}`,
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /each link carries only its own deployment's sweep/);
  const doc = JSON.parse(run.stdout);
  const { page, context, errors } = await levelShown(doc.scenario_url, doc.result.level);
  assert.equal(await page.getAttribute('[data-testid="rec-throughput"]', 'data-value'), String(doc.result.throughput_tok_s));
  assert.deepEqual(errors, []);
  await context.close();
});
