// Issue 53 end to end: the server's signals of an imported folder (InferenceX's agentic results
// with AIPerf's server metrics beside them), "Why it stops here" at the answer, the signal and
// bottleneck columns of the whole sweep, the verdict on the chart's hover, the autoscaler's
// targets and its KEDA download; each drawn by code loaded on demand; axe finds nothing with
// them open, at 1280 and 360 px, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, openPlanner, settled, showLower, importedSource } from './harness.mjs';

const env = useServerAndBrowser();
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const KIMI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/realdata/inferencex-agentic-kimi');

/** Imports the Kimi folder at 50 tok/s per user (mean TPOT): concurrency 1 (75.7 tok/s per user)
 * meets, 4 (43.7) does not. */
async function importKimi(page) {
  await page.click('.import summary');
  await page.setInputFiles('[data-testid="import-folder"]', KIMI);
  await page.waitForSelector('[data-testid="import-summary"]');
  await importedSource(page);
  await page.selectOption('[data-testid="stat-select"]', 'tpot_mean');
  await page.fill('[data-testid="target-input"]', '50');
  await page.waitForSelector('[data-testid="rec-concurrency"][data-value="1"]');
  await settled(page);
}

test('why it stops here: the next level, its verdict with its numbers, and the lever', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  await importKimi(page);
  await page.click('[data-testid="why-toggle"]');
  await page.waitForSelector('[data-testid="why-next"]');
  assert.equal(
    await page.textContent('[data-testid="why-next"]'),
    'concurrency 4 misses mean TPOT (43.7 tok/s per user < 50): compute-bound: requests wait (1.63 on average) while the KV cache is 41% used; more KV memory will not help.',
  );
  assert.equal(await page.getAttribute('[data-testid="why-next"]', 'data-verdict'), 'queueing');
  assert.equal(await page.getAttribute('[data-testid="why-verdict"]', 'data-verdict'), 'headroom');
  assert.equal(
    await page.textContent('[data-testid="why-lever"]'),
    'Lever: another replica or a larger max_num_batched_tokens.',
  );
  // The whole sweep: each level's signals and bottleneck.
  await showLower(page);
  const verdicts = await page.$$eval('[data-testid="level-verdict"]', (cells) => cells.map((c) => c.dataset.verdict));
  assert.deepEqual(verdicts, ['headroom', 'queueing']);
  const header = await page.textContent('[data-testid="sweep-table"] thead');
  for (const column of ['requests running', 'requests waiting', 'KV cache use', 'preemptions', 'bottleneck']) {
    assert.ok(header.includes(column), `${column} in ${header}`);
  }
  assert.match(await page.textContent('[data-testid="sweep-table"] tbody'), /3\.91 \(max 4\)/);
  // The chart names a level's bottleneck on hover (its reader loaded on the first hover).
  await page.hover('[data-testid="chart-point"][data-concurrency="4"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="chart-verdict"]')?.textContent.startsWith('Bottleneck: queueing (compute-bound'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the autoscaler: per-replica targets in the fleet panel and the KEDA download', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base);
  await importKimi(page);
  await page.click('[data-testid="autoscaler-toggle"]');
  await page.waitForSelector('[data-testid="as-threshold"]');
  // Concurrency 1: 0.89 requests running, 0.437 waiting, KV max 14%.
  assert.equal(await page.textContent('[data-testid="as-running"]'), '0.89');
  assert.equal(await page.textContent('[data-testid="as-waiting"]'), '0.437');
  assert.equal(await page.textContent('[data-testid="as-kv"]'), '14% (max)');
  assert.match(await page.textContent('[data-testid="as-threshold"]'), /^1 of vllm:num_requests_running per replica/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-keda"]')]);
  assert.match(download.suggestedFilename(), /_autoscaler\.yaml$/);
  const text = fs.readFileSync(await download.path(), 'utf8');
  assert.match(text, /^# KEDA ScaledObject for amd\/Kimi-K2\.7-Code-MXFP4/);
  assert.match(text, /\napiVersion: keda\.sh\/v1alpha1\nkind: ScaledObject\n/);
  assert.match(text, /query: 'sum\(vllm:num_requests_running\{model_name="amd\/Kimi-K2\.7-Code-MXFP4"\}\)'/);
  assert.match(text, /threshold: '1'\n$/);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const width of [1280, 360]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core finds no violation with the verdict and the autoscaler open, ${width} px, ${colorScheme}`, async () => {
      const { page, context } = await openPlanner(env.browser, env.server.base, '', {
        viewport: { width, height: 900 },
        colorScheme,
      });
      await importKimi(page);
      await page.click('[data-testid="why-toggle"]');
      await page.click('[data-testid="autoscaler-toggle"]');
      await page.waitForSelector('[data-testid="why-lever"]');
      await page.waitForSelector('[data-testid="as-threshold"]');
      await showLower(page);
      await page.waitForSelector('[data-testid="level-verdict"]');
      await page.evaluate(AXE);
      const found = await page.evaluate(async () => {
        const result = await window.axe.run(document);
        return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      });
      assert.deepEqual(found, []);
      await context.close();
    });
  }
}
