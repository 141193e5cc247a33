// The first load's bytes (brotli -q 11 of what a first visit to the release build in dist/
// fetches, as scripts/bench.mjs counts them), printed with the budget; exits 1 when over it.
// Bytes are the same for the same toolchain and sources, so this is a gate, not a timed test.
import { launchBrowser, startServer } from '../tests/e2e/harness.mjs';
import { FIRST_LOAD_BUDGET as BUDGET, firstLoadFiles, sizes } from './first-load-lib.mjs';

const server = await startServer();
const browser = await launchBrowser();
const fetched = await firstLoadFiles(browser, server.base);
await browser.close();
await server.close();

const size = sizes(fetched);
const kb = (b) => (b / 1024).toFixed(1);
const brotli = size.first_load_total.brotli;
const kinds = ['wasm', 'js', 'css', 'html']
  .filter((k) => size.first_load[k])
  .map((k) => `${k} ${kb(size.first_load[k].brotli)}`)
  .join(', ');
console.log(`first load: ${kb(brotli)} KB brotli (${brotli} bytes: ${kinds}), budget ${kb(BUDGET)} KB; files: ${size.first_load_files.join(', ')}`);
if (brotli > BUDGET) {
  console.log(`first load over its budget by ${kb(brotli - BUDGET)} KB`);
  process.exit(1);
}
