// The first load: the files of dist/ a first visit fetches, and their bytes (raw, gzip -9,
// brotli -q 11) by kind, every other file listed as lazy. Shared by scripts/bench.mjs and the
// first load's gate (scripts/first-load.mjs).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const DIST = 'dist';

/** The first load's budget, brotli bytes (README "Performance"): the gate of the test command
 * (scripts/first-load.mjs) and the bench's (scripts/bench.mjs). */
export const FIRST_LOAD_BUDGET = 175 * 1024;

/** Every file under dist/, relative paths. */
function distFiles(dir = DIST, prefix = '') {
  return fs.readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return fs.statSync(p).isDirectory() ? distFiles(p, `${prefix}${f}/`) : [`${prefix}${f}`];
  });
}

/** Sizes of the files the first load fetched (`fetched`, paths relative to dist/), by kind;
 * every other file of dist/ (the tools module, the other workloads) is listed as lazy. */
export function sizes(fetched) {
  const kind = (f) => (f.endsWith('.wasm') ? 'wasm' : f.endsWith('.js') ? 'js' : f.endsWith('.css') ? 'css' : f.endsWith('.html') ? 'html' : 'data');
  const measure = (file) => {
    const buf = fs.readFileSync(file);
    return {
      raw: buf.length,
      gzip: zlib.gzipSync(buf, { level: 9 }).length,
      brotli: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  };
  const first = {};
  const total = { raw: 0, gzip: 0, brotli: 0 };
  const lazy = {};
  for (const f of distFiles()) {
    const m = measure(path.join(DIST, f));
    if (!fetched.has(f)) {
      lazy[f] = m;
      continue;
    }
    const k = kind(f);
    first[k] ??= { raw: 0, gzip: 0, brotli: 0 };
    for (const key of Object.keys(m)) {
      first[k][key] += m[key];
      total[key] += m[key];
    }
  }
  // The bundled lm-arena-chat data is compiled into the WASM (as Rust data, by build.rs);
  // its JSON source is reported for scale.
  first.data_in_wasm = measure('data/lm-arena-chat.json');
  return { first_load: first, first_load_total: total, first_load_files: [...fetched].sort(), lazy };
}

/** The files of dist/ a first visit fetches, in Playwright's default 1280 x 720 window: until the
 * answer and the evidence are drawn and the network has been idle for half a second. */
export async function firstLoadFiles(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const fetched = new Set();
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.origin === new URL(base).origin) fetched.add(url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1)));
  });
  await page.goto(`${base}?tps=25`, { waitUntil: 'load' });
  await page.waitForSelector('main.results[data-evidence="ready"]');
  await page.waitForLoadState('networkidle');
  await context.close();
  return fetched;
}

