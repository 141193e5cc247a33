// Writes a synthetic import of one model with many sweeps (issue 16): by default 900 sweeps and
// 1,500 rows in the CSV template, most sweeps one or two levels, like a public InferenceX
// history file whose campaign dates are told apart (320 configurations over several dates).
// Deterministic (a fixed seed). Not committed data: `scripts/bench.mjs` writes it to a
// temporary folder and imports it through the page.
//
//   node scripts/many-sweeps.mjs OUT.csv [SWEEPS] [ROWS]
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

/** A small seeded generator (mulberry32), so every run writes the same file. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GPUS = ['H100', 'H200', 'B200', 'MI300X', 'MI355X'];
const COUNTS = [1, 2, 4, 8];
const PRECISIONS = ['fp8', 'fp4', 'bf16'];
const FRAMEWORKS = ['vllm', 'sglang', 'trt'];
const WORKLOADS = [[1024, 1024], [8192, 1024], [1024, 8192]];
const LEVELS = [4, 8, 16, 32, 64, 128, 256];
const COLUMNS = 'model,gpu,num_gpus,tp,precision,framework,config,isl,osl,date,concurrency,output_tok_s,p50_itl_ms,p99_itl_ms,mean_tpot_ms,power_w,output_tokens_per_request';

/** The CSV text: `sweeps` sweeps (configurations x campaign dates) holding `rows` rows. */
export function manySweeps(sweeps = 900, rows = 1500) {
  const rand = random(16);
  const configs = [];
  for (const gpu of GPUS) for (const n of COUNTS) for (const prec of PRECISIONS) for (const fw of FRAMEWORKS) for (const [isl, osl] of WORKLOADS) {
    configs.push({ gpu, n, prec, fw, isl, osl });
  }
  const dates = ['2026-03-02', '2026-05-11', '2026-08-17', '2026-11-09'];
  const chosen = [];
  for (let i = 0; chosen.length < sweeps; i++) {
    const c = configs[(i * 7) % 320 % configs.length];
    chosen.push({ ...c, date: dates[Math.floor(i / 320) % dates.length], cfg: `c${(i * 7) % 320}` });
  }
  // Every sweep gets one level; the rest of the rows go one more level at a time, so most sweeps
  // hold one or two levels and a few hold more.
  const levels = chosen.map(() => 1);
  for (let left = rows - sweeps; left > 0;) {
    const j = Math.floor(rand() * rand() * sweeps);
    if (levels[j] < LEVELS.length) {
      levels[j] += 1;
      left -= 1;
    }
  }
  const out = [COLUMNS];
  chosen.forEach((s, i) => {
    const speed = { H100: 1, H200: 1.3, B200: 2.1, MI300X: 1.1, MI355X: 1.9 }[s.gpu] * (s.prec === 'fp4' ? 1.6 : s.prec === 'fp8' ? 1.3 : 1);
    for (let k = 0; k < levels[i]; k++) {
      const c = LEVELS[(k + i) % LEVELS.length];
      const itl = (6 + c * 0.22) / speed * (0.9 + 0.2 * rand());
      const tput = (c * 1000 / itl) * 0.95 * s.n ** 0.8;
      out.push([
        'org/Model-120B', s.gpu, s.n, s.n, s.prec, s.fw, s.cfg, s.isl, s.osl, s.date, c,
        tput.toFixed(2), itl.toFixed(3), (itl * 1.8).toFixed(3), (itl * 1.05).toFixed(3), (600 * s.n * (0.8 + 0.2 * rand())).toFixed(1), (s.osl * 0.95).toFixed(1),
      ].join(','));
    }
  });
  return `${out.join('\n')}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [out, sweeps, rows] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node scripts/many-sweeps.mjs OUT.csv [SWEEPS] [ROWS]');
    process.exit(2);
  }
  const text = manySweeps(Number(sweeps ?? 900), Number(rows ?? 1500));
  fs.writeFileSync(out, text);
  console.log(`${out}: ${text.split('\n').length - 2} rows`);
}
