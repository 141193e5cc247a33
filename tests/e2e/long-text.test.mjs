// Issues 46 and 47: a text is cut once, where it is read. An ML.ENERGY per-model file whose
// model id is 2 MB long, over 2,001 rows (2.5 MB; scripts/gen-long-text.py writes the same
// shape), once trapped the tools module ("unreachable") after copying the id into every row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPlanner, importedSource } from './harness.mjs';

const env = useServerAndBrowser();

function perModelFile(textBytes, rows) {
  const configurations = Array.from({ length: rows }, (_, i) => ({
    gpu_model: 'H100',
    num_gpus: 1,
    max_num_seqs: 8 * (i + 1),
    median_itl_ms: 10 + i * 0.01,
    output_throughput_tokens_per_sec: 1000 + i,
    parallelization: { tensor_parallel: 1, data_parallel: 1, expert_parallel: 1 },
  }));
  return JSON.stringify({
    model_id: 'm'.repeat(textBytes),
    nickname: 'long id',
    architecture: 'Dense Transformer',
    task: 'lm-arena-chat',
    configurations,
  });
}

test('a 2 MB model id over 2,001 rows is imported, cut to 200 characters, in the page', async () => {
  const { page, context, errors } = await openPlanner(env.browser, env.server.base, '?tps=20');
  await page.click('.import summary');
  const buffer = Buffer.from(perModelFile(2 * 1024 * 1024, 2001));
  await page.setInputFiles('[data-testid="import-file"]', [{ name: 'long.json', mimeType: 'application/json', buffer }]);
  await page.waitForSelector('[data-testid="import-summary"]');
  await importedSource(page);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  const summary = await page.textContent('body');
  assert.match(summary, /2,000 rows with a text longer than 200 characters \(a model, GPU or label\): cut to 200/);
  const model = new URL(page.url()).searchParams.get('model');
  assert.equal(model, `${'m'.repeat(200)}…`);
  assert.deepEqual(errors, []);
  await context.close();
});
