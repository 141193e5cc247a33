// Measures reading per-request records (issues 30 and 56; see scripts/bench-records.sh) on two
// folders written by scripts/gen-detailed.py: the README's (10 levels of 2,000 requests, with
// their texts: 541.6 MB) and one that is almost all latencies, each a full-precision float (10
// levels of 1,000 requests, texts empty: 221.4 MB, 10 million numbers):
// - the command line (`plan FOLDER --tps 50 --attain 95`, built with the `cli` profile) on each:
//   wall time, MB/s, and peak resident memory, over RUNS runs;
// - the reference, scripts/records-reference.py (json.load plus numpy) on the README's folder,
//   and the ratio of the two times;
// - the page (release build in dist/): the README's folder picked in the import panel, read in
//   the tools module's worker as a stream: time from the pick to the answer, MB/s, the progress
//   lines seen, the page's longest main-thread task (0: none of 50 ms or more), the tools
//   module's memory, and the renderer processes' resident memory: idle (at the pick, before the
//   worker starts), peak (sampled every 50 ms), and after (the least of the GIVEN_BACK_S seconds
//   after the answer); then a change of target and of P re-judging every level (`typingTimes`,
//   p95).
// Each figure is printed beside its budget; exits 1 when one is missed.
// Usage: node scripts/bench-records.mjs CLI PYTHON FOLDER FLOATS_FOLDER
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { launchBrowser, startServer } from '../tests/e2e/harness.mjs';
import { median, pct, round, typingTimes, rendererKb } from './bench-lib.mjs';

const RUNS = 3;
const CHANGES = 100;
/** Seconds after the answer in which the renderer's memory is watched going back. */
const GIVEN_BACK_S = 10;
/** Budgets (issue 56). */
const CLI_MB_S = 500;
const CLI_PEAK_MB = 64;
const PAGE_MB_S = 100;
const RENDERER_GROWTH_MB = 100;
/** What may stay over idle after an import: the worker, its tools module compiled (about 12 MB
 * together, kept for the next call) and the imported sweeps drawn. */
const RENDERER_AFTER_MB = 50;
const [cli, python, folder, floatsFolder] = process.argv.slice(2);

/** The JSON files of `dir`, in name order, and their size in MB (10^6 bytes). */
function jsonFiles(dir) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f));
  return { files, mb: files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1e6 };
}

/** Runs `cmd` with `args`; its wall time (s) and peak resident memory (MB), read by Python's
 * `resource` from the finished child. */
function timed(cmd, args) {
  const code = 'import resource,subprocess,sys,time\nt=time.perf_counter()\nr=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL)\nprint(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)';
  const out = spawnSync(python, ['-c', code, cmd, ...args], { encoding: 'utf8' });
  const [s, kb, rc] = out.stdout.trim().split(' ').map(Number);
  if (rc !== 0 && rc !== 1) throw new Error(`${cmd} ${args.join(' ')} exited ${rc}: ${out.stderr}`);
  return { s, mb: kb / 1024 };
}

/** The command line on `dir`, RUNS times: its wall times, MB/s of the median, peak memory. */
function commandLine(dir) {
  const { files, mb } = jsonFiles(dir);
  const runs = Array.from({ length: RUNS }, () => timed(cli, ['plan', dir, '--tps', '50', '--attain', '95']));
  const s = median(runs.map((r) => r.s));
  return {
    files: files.length,
    mb: round(mb, 1),
    runs_s: runs.map((r) => round(r.s, 2)),
    median_s: round(s, 2),
    mb_per_s: round(mb / s, 1),
    peak_mb: round(Math.max(...runs.map((r) => r.mb)), 1),
  };
}

async function page(files, mb) {
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
  let afterKb = rendererKb();
  for (let waited = 0; waited < GIVEN_BACK_S * 1000; waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    afterKb = Math.min(afterKb, rendererKb());
  }
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
    renderer_idle_mb: round(startKb / 1024, 1),
    renderer_peak_mb: round(peak / 1024, 1),
    renderer_after_mb: round(afterKb / 1024, 1),
    answer: answer.trim().slice(0, 160),
    rejudge_target_ms: { median: round(median(target), 2), p95: round(pct(target, 0.95), 2) },
    rejudge_attain_ms: { median: round(median(attain), 2), p95: round(pct(attain, 0.95), 2) },
  };
}

const readme = jsonFiles(folder);
const start = timed(cli, ['plan', '--tps', '50']);
const result = {
  cli: commandLine(folder),
  cli_floats: commandLine(floatsFolder),
  cli_start_peak_mb: round(start.mb, 1),
};
const pyRuns = Array.from({ length: RUNS }, () => {
  const out = spawnSync(python, ['scripts/records-reference.py', folder, '20'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`the reference failed: ${out.stderr}`);
  return Number(out.stdout.match(/seconds ([\d.]+)/)[1]);
});
const pyS = median(pyRuns);
result.python_reference = { runs_s: pyRuns.map((s) => round(s, 2)), median_s: round(pyS, 2), ratio_to_cli: round(pyS / result.cli.median_s, 1) };
result.page = await page(readme.files, readme.mb);

const { cli: c, cli_floats: f, page: p } = result;
const growth = round(p.renderer_peak_mb - p.renderer_idle_mb, 1);
const after = round(p.renderer_after_mb - p.renderer_idle_mb, 1);
const rows = [
  [`command line, the README's folder (${c.files} files, ${c.mb} MB), median of ${RUNS}`, `${c.median_s} s (${c.runs_s.join(', ')}), ${c.mb_per_s} MB/s`, `>= ${CLI_MB_S} MB/s`, c.mb_per_s >= CLI_MB_S],
  [`command line, full-precision floats (${f.files} files, ${f.mb} MB), median of ${RUNS}`, `${f.median_s} s (${f.runs_s.join(', ')}), ${f.mb_per_s} MB/s`, `>= ${CLI_MB_S} MB/s`, f.mb_per_s >= CLI_MB_S],
  ['command line, peak resident memory (README\'s folder / floats; planning the bundled data)', `${c.peak_mb} / ${f.peak_mb} MB (${result.cli_start_peak_mb} MB)`, `<= ${CLI_PEAK_MB} MB`, Math.max(c.peak_mb, f.peak_mb) <= CLI_PEAK_MB],
  [`json.load + numpy on the README's folder, median of ${RUNS}`, `${result.python_reference.median_s} s (${result.python_reference.runs_s.join(', ')}): ${result.python_reference.ratio_to_cli}x the command line's time`, '', null],
  ['page: pick to answer, the README\'s folder', `${p.import_s} s, ${p.mb_per_s} MB/s; ${p.progress_lines} progress lines`, `>= ${PAGE_MB_S} MB/s`, p.mb_per_s >= PAGE_MB_S],
  ['page: longest main-thread task', `${p.longest_task_ms} ms`, '<= 50 ms', p.longest_task_ms <= 50],
  ['page: renderer processes, peak over idle (idle at the pick / peak)', `+${growth} MB (${p.renderer_idle_mb} / ${p.renderer_peak_mb} MB)`, `<= +${RENDERER_GROWTH_MB} MB`, growth <= RENDERER_GROWTH_MB],
  [`page: renderer processes given back, the least of ${GIVEN_BACK_S} s after the answer, over idle`, `+${after} MB (${p.renderer_after_mb} MB)`, `<= +${RENDERER_AFTER_MB} MB`, after <= RENDERER_AFTER_MB],
  ['page: the tools module\'s memory after the import', `${p.tools_memory_mb} MB`, '', null],
  [`page: re-judge on a target change, median / p95 of ${CHANGES}`, `${p.rejudge_target_ms.median} / ${p.rejudge_target_ms.p95} ms`, 'p95 <= 16 ms', p.rejudge_target_ms.p95 <= 16],
  [`page: re-judge on a change of P, median / p95 of ${CHANGES}`, `${p.rejudge_attain_ms.median} / ${p.rejudge_attain_ms.p95} ms`, 'p95 <= 16 ms', p.rejudge_attain_ms.p95 <= 16],
];
console.log('| measure | figure | budget | met |\n|---|---|---|---|');
for (const [measure, figure, budget, met] of rows) console.log(`| ${measure} | ${figure} | ${budget} | ${met === null ? '' : met ? 'yes' : 'NO'} |`);
result.budgets = Object.fromEntries(rows.filter((r) => r[3] !== null).map(([measure, figure, budget, met]) => [measure, { figure, budget, met }]));
console.log(JSON.stringify(result));
fs.mkdirSync('target', { recursive: true });
fs.writeFileSync('target/bench-records.json', JSON.stringify(result));
const missed = rows.filter((r) => r[3] === false);
if (missed.length > 0) {
  console.log(`${missed.length} budget(s) missed: ${missed.map((r) => r[0]).join('; ')}`);
  process.exit(1);
}
