// Measures reading per-request records (issue 30; see scripts/bench-records.sh), on a folder
// written by scripts/gen-detailed.py:
// - the command line (`plan FOLDER --tps 50 --attain 95`, built with the `cli` profile): wall
//   time, MB/s, and peak resident memory against the same binary's on the bundled data (its
//   start), over RUNS runs;
// - the reference, scripts/records-reference.py (json.load plus numpy) on the same folder, and
//   the ratio of the two times;
// - the page (release build in dist/): the folder picked in the import panel, read in the tools
//   module's worker as a stream: time from the pick to the answer, MB/s, the progress lines seen,
//   the page's longest main-thread task (0: none of 50 ms or more), the tools module's memory and
//   the renderer processes' peak resident memory (and at the pick, before the worker starts); then
//   a change of target and of P re-judging every level (`typingTimes`, p95).
// Usage: node scripts/bench-records.mjs FOLDER CLI PYTHON
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { launchBrowser, startServer } from '../tests/e2e/harness.mjs';
import { median, pct, round, typingTimes, rendererKb } from './bench-lib.mjs';

const RUNS = 3;
const CHANGES = 100;
const [folder, cli, python] = process.argv.slice(2);
const files = fs.readdirSync(folder).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(folder, f));
const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
const mb = bytes / 1e6;

/** Runs `cmd` with `args`; its wall time (s) and peak resident memory (MB), read by Python's
 * `resource` from the finished child. */
function timed(cmd, args) {
  const code = 'import resource,subprocess,sys,time\nt=time.perf_counter()\nr=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL)\nprint(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)';
  const out = spawnSync(python, ['-c', code, cmd, ...args], { encoding: 'utf8' });
  const [s, kb, rc] = out.stdout.trim().split(' ').map(Number);
  if (rc !== 0 && rc !== 1) throw new Error(`${cmd} ${args.join(' ')} exited ${rc}: ${out.stderr}`);
  return { s, mb: kb / 1024 };
}

const start = timed(cli, ['plan', '--tps', '50']);
const cliRuns = Array.from({ length: RUNS }, () => timed(cli, ['plan', folder, '--tps', '50', '--attain', '95']));
const cliS = median(cliRuns.map((r) => r.s));
const pyRuns = Array.from({ length: RUNS }, () => {
  const out = spawnSync(python, ['scripts/records-reference.py', folder, '20'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`the reference failed: ${out.stderr}`);
  return Number(out.stdout.match(/seconds ([\d.]+)/)[1]);
});
const pyS = median(pyRuns);

async function page() {
  const server = await startServer();
  const browser = await launchBrowser();
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.addInitScript(() => {
    window.__longest = 0;
    window.__progress = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await tab.goto(`${server.base}?tps=50&attain=95`);
  await tab.waitForSelector('main.results[data-evidence="ready"]');
  await tab.click('details.import summary');
  await tab.evaluate(() => {
    window.__longest = 0;
    new MutationObserver(() => {
      const line = document.querySelector('[data-testid="import-progress"]')?.textContent;
      if (line && window.__progress.at(-1) !== line) window.__progress.push(line);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const startKb = rendererKb();
  let peak = startKb;
  const sampler = setInterval(() => { peak = Math.max(peak, rendererKb()); }, 50);
  const t0 = Date.now();
  await tab.setInputFiles('[data-testid="import-file"]', files);
  await tab.waitForFunction(() => new URL(location.href).searchParams.get('src')?.startsWith('imp-')
    && document.querySelector('main.results')?.dataset.evidence === 'ready', null, { timeout: 600000 });
  const importS = (Date.now() - t0) / 1000;
  clearInterval(sampler);
  const longest = await tab.evaluate(() => window.__longest);
  const progress = await tab.evaluate(() => window.__progress);
  const answer = await tab.textContent('[data-testid="rec-status"]');
  const workers = tab.workers();
  const toolsMb = workers.length ? (await workers[0].evaluate(() => self.toolsMemoryBytes())) / 2 ** 20 : null;
  const target = await typingTimes(tab, CHANGES, 'answer');
  const attain = await typingTimes(tab, CHANGES, 'answer', 'attain-input', ['90', '95']);
  await browser.close();
  await server.close();
  return {
    import_s: round(importS, 2),
    mb_per_s: round(mb / importS, 1),
    longest_task_ms: round(longest, 1),
    progress_lines: progress.length,
    progress_sample: progress.slice(0, 3),
    tools_memory_mb: toolsMb === null ? 'worker closed' : round(toolsMb, 1),
    renderer_start_mb: round(startKb / 1024, 1),
    renderer_peak_mb: round(peak / 1024, 1),
    answer: answer.trim().slice(0, 160),
    rejudge_target_ms: { median: round(median(target), 2), p95: round(pct(target, 0.95), 2) },
    rejudge_attain_ms: { median: round(median(attain), 2), p95: round(pct(attain, 0.95), 2) },
  };
}

const result = {
  folder: { files: files.length, mb: round(mb, 1) },
  cli: {
    runs_s: cliRuns.map((r) => round(r.s, 2)),
    median_s: round(cliS, 2),
    mb_per_s: round(mb / cliS, 1),
    peak_mb: round(Math.max(...cliRuns.map((r) => r.mb)), 1),
    start_peak_mb: round(start.mb, 1),
  },
  python_reference: { runs_s: pyRuns.map((s) => round(s, 2)), median_s: round(pyS, 2), ratio_to_cli: round(pyS / cliS, 1) },
  page: await page(),
};
const p = result.page;
console.log(`| measure | figure | budget |
|---|---|---|
| folder | ${files.length} files, ${round(mb, 1)} MB | |
| command line, median of ${RUNS} | ${result.cli.median_s} s (${result.cli.runs_s.join(', ')}), ${result.cli.mb_per_s} MB/s | >= 200 MB/s |
| command line, peak memory | ${result.cli.peak_mb} MB (${result.cli.start_peak_mb} MB planning the bundled data) | <= start + 100 MB |
| json.load + numpy, median of ${RUNS} | ${result.python_reference.median_s} s (${result.python_reference.runs_s.join(', ')}): ${result.python_reference.ratio_to_cli}x the command line's time | |
| page: pick to answer | ${p.import_s} s, ${p.mb_per_s} MB/s; ${p.progress_lines} progress lines | >= 50 MB/s |
| page: longest main-thread task | ${p.longest_task_ms} ms | <= 50 ms |
| page: tools module memory / renderer peak (at the pick) | ${p.tools_memory_mb} MB / ${p.renderer_peak_mb} MB (${p.renderer_start_mb} MB) | |
| page: re-judge on a target change, median / p95 of ${CHANGES} | ${p.rejudge_target_ms.median} / ${p.rejudge_target_ms.p95} ms | p95 <= 16 ms |
| page: re-judge on a change of P, median / p95 of ${CHANGES} | ${p.rejudge_attain_ms.median} / ${p.rejudge_attain_ms.p95} ms | p95 <= 16 ms |`);
console.log(JSON.stringify(result));
fs.mkdirSync('target', { recursive: true });
fs.writeFileSync('target/bench-records.json', JSON.stringify(result));
