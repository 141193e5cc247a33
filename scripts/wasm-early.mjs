// Trunk post-build hook (runs before scripts/csp.mjs, which then allows the script added here by
// its hash): starts fetching and compiling the page's WASM while the HTML is still being parsed,
// instead of after Trunk's loader module and the JS it imports have been fetched and run.
// `WebAssembly.compileStreaming` compiles as the bytes arrive; Trunk's loader then instantiates
// that module. If it fails (a host that serves .wasm with another content type), the promise
// yields a second fetch's response, which the loader instantiates the usual way (with its own
// fallback for that case); a browser without compileStreaming leaves the loader to fetch it.
// Trunk's `preload` link for the WASM is dropped: this fetch starts earlier, and a preload it
// did not match would be a second download.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR ?? 'dist';
const file = path.join(dir, 'index.html');
let html = readFileSync(file, 'utf8');
const loader = /init\(\{ module_or_path: '([^']+_bg\.wasm)' \}\)/;
const wasm = html.match(loader)?.[1];
if (!wasm) {
  throw new Error(`wasm-early: Trunk's loader (init({ module_or_path: '…_bg.wasm' })) not found in ${file}`);
}
const early = `<script>try{window.__wasmModule=WebAssembly.compileStreaming(fetch(${JSON.stringify(wasm)})).catch(function(){return fetch(${JSON.stringify(wasm)})})}catch(e){}</script>`;
html = html
  .replace(loader, 'init({ module_or_path: window.__wasmModule })')
  .replace(/<link rel="preload" href="[^"]+_bg\.wasm"[^>]*>/, '')
  .replace(/(<meta charset="utf-8" \/>)/, `$1\n    ${early}`);
writeFileSync(file, html);
console.log(`wasm-early: ${wasm} fetched and compiled from the start of ${file}`);
