// Trunk's pre-build hook: builds the page's WASM split in two, so the first load carries only
// the code the first view runs. Trunk's own pipeline for the page is skipped (index.html:
// `data-trunk-skip`) because it hands cargo's output straight to wasm-bindgen, and the split has
// to happen in between:
//
// 1. `cargo rustc … --bin planner-page -- -C link-arg=--emit-relocs`: the linker keeps its
//    relocations, which the split needs (on the binary's own link only, so the crates are the
//    ones the tools module's build uses too);
// 2. `wasm-split-cli` (the `wasm_split_cli_support` crate, the splitter of cargo-leptos
//    `--split`): the functions reached only through `#[wasm_split(on_demand)]` move to their
//    own module, loaded the first time one of them is called (`__wasm_split.js`);
// 3. `wasm-bindgen --target web` on what is left, then, in a release build, `wasm-opt -O2` on each
//    module (the page's with short names for what it shares with the glue, and without server_fn's
//    unused exports: `leanPageWasm`) and its functions put in the order that compresses best
//    (`compressionOrder`). Not -Oz or -Os: their size passes (merging alike functions, among
//    others) make the code smaller raw but less alike, and with that order the page WASM comes out
//    smaller brotli with -O2 (194.3 KB, against 196.6 with -Os and 197.5 with -Oz; 710 KB raw,
//    against 697 and 664). A function with one caller is inlined into it only when small
//    (`--one-caller-inline-max-function-size`): the views drawn after the first paint stay
//    functions of their own, which the browser compiles when they first run, not before the
//    answer (34 KB less code compiled before it; the same size brotli);
// 4. every file is named with one hash of the build, so a browser never pairs a cached file with
//    another build's; the split module falls back from `instantiateStreaming` to bytes when a
//    host serves .wasm with another content type, as the page's own WASM does;
// 5. the page's loader, the glue, the split module's loader and the snippets are bundled into one
//    module (esbuild; terser in a release build), which `scripts/post-build.mjs` puts inline in
//    index.html; the WASM files go into Trunk's staging folder, with `page-wasm.json` naming the
//    page's WASM and the bundle.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { minify } from 'terser';
import { orderFunctions } from './function-order.mjs';

const source = process.env.TRUNK_SOURCE_DIR ?? '.';
const staging = process.env.TRUNK_STAGING_DIR ?? path.join(source, 'dist');
const release = (process.env.TRUNK_PROFILE ?? 'release') === 'release';
const profile = release ? 'release' : 'debug';
const target = path.resolve(source, process.env.CARGO_TARGET_DIR ?? 'target');
const work = path.join(target, 'page-wasm', profile);
const NAME = 'planner-page';
const LINK = '__wasm_split.js';

function run(command, args) {
  execFileSync(command, args, { cwd: source, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Replaces `from` by `to` in `text`, which must hold it (the tools' output changed otherwise). */
function rewrite(text, from, to, what) {
  if (!text.includes(from)) throw new Error(`page-wasm: ${what}: ${JSON.stringify(from)} not found`);
  return text.split(from).join(to);
}

// `BENCH_AB=1`: with the comparison's benchmark hook (`bench_ab_ms`, scripts/bench-ab.mjs).
const benchAb = process.env.BENCH_AB === '1';
// `PAGE_WASM_NAMES=1`: the functions' names kept through wasm-bindgen, wasm-opt and wasm-as, for
// `scripts/wasm-weight.mjs` to say where the bytes are (the page WASM is then larger by its names).
const keepNames = process.env.PAGE_WASM_NAMES === '1' ? ['-g'] : [];
run('cargo', [
  'rustc',
  '--target=wasm32-unknown-unknown',
  '--offline',
  ...(release ? ['--release'] : []),
  ...(benchAb ? ['--features', 'bench-ab'] : []),
  '--bin', NAME,
  '--', '-C', 'link-arg=--emit-relocs',
]);
rmSync(work, { recursive: true, force: true });
const split = path.join(work, 'split');
const bound = path.join(work, 'bindgen');
mkdirSync(split, { recursive: true });
run('wasm-split-cli', [path.join(target, 'wasm32-unknown-unknown', profile, `${NAME}.wasm`), split, '--target', 'web', '--out-name', NAME]);
run('wasm-bindgen', ['--target', 'web', '--keep-lld-exports', '--no-typescript', ...(keepNames.length ? ['--keep-debug'] : []), '--out-dir', bound, '--out-name', NAME, path.join(split, `${NAME}.wasm`)]);

const modules = readdirSync(split).filter((f) => f.endsWith('.wasm') && f !== `${NAME}.wasm`).sort();
const wasmFiles = [[path.join(bound, `${NAME}_bg.wasm`), `${NAME}_bg.wasm`], ...modules.map((m) => [path.join(split, m), m])];
/** Two things a release build takes out of the page WASM through binaryen's text form (`wasm-dis`, then
 * `wasm-opt -O2` reads the text back with the features the binary had):
 *
 * - the long names of the glue's imports: wasm-bindgen names them `__wbg_<name>_<16 hex digits>` (and
 *   `__wbindgen_<what>`), once in the WASM and once in the glue, over 150 of them, about 5 KB of names that
 *   compress badly. Each gets a short name here, and the same one in the glue (`shipped`: terser's
 *   property mangling, held to exactly these names and given this mapping); so do the exports
 *   wasm-bindgen names after the closure types it calls (`wasm_bindgen_…___convert__closures…`, up to
 *   300 characters each);
 * - the exports wasm-streams adds for server_fn's streamed bodies (`intounderlying…`): Leptos 0.8 links
 *   server_fn with its `browser` feature whatever the app uses, this page has no server function, so
 *   nothing calls them, and their code goes with them (the glue keeps its classes for them, unused).
 *
 * Returns the mapping of names, old to new. */
function leanPageWasm(file, features) {
  const wat = `${file}.wat`;
  run('wasm-dis', [file, '-o', wat]);
  const names = new Map();
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const short = (i) => (i < letters.length ? letters[i] : short(Math.floor(i / letters.length) - 1) + letters[i % letters.length]);
  const renamed = (name) => {
    if (!names.has(name)) names.set(name, short(names.size));
    return names.get(name);
  };
  const text = readFileSync(wat, 'utf8')
    .replace(new RegExp(`\\(import "\\./${NAME}_bg\\.js" "(__wb(?:g|indgen)_\\w+)"`, 'g'), (_, name) => `(import "./${NAME}_bg.js" "${renamed(name)}"`)
    .replace(/\(export "(wasm_bindgen_\w+)"/g, (_, name) => `(export "${renamed(name)}"`);
  if (names.size === 0) throw new Error('page-wasm: no import of the glue found in the WASM text');
  const streams = /^\s*\(export "(__wbg_)?intounderlying\w+" \(func [^)]*\)\)\n/gm;
  if (!streams.test(text)) throw new Error('page-wasm: the exports of wasm-streams were not found');
  writeFileSync(wat, text.replace(streams, ''));
  run('wasm-opt', ['--mvp-features', ...features, '-O2', '--one-caller-inline-max-function-size=500', ...keepNames, wat, '-o', file]);
  rmSync(wat);
  return names;
}

/** The WebAssembly features `file` uses, as wasm-opt's flags (read from the section wasm-opt's
 * output no longer has). */
function featuresOf(file) {
  return execFileSync('wasm-opt', [file, '--print-features'], { cwd: source, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    .split(/\s+/)
    .filter((f) => f.startsWith('--enable-'));
}

/** Puts the functions of the optimised `file` (using `features`) in the order brotli compresses
 * best (`scripts/function-order.mjs`), through binaryen's text form: about 6 KB (3%) less page WASM. */
function compressionOrder(file, features) {
  const wat = `${file}.wat`;
  run('wasm-dis', [file, '-o', wat]);
  writeFileSync(wat, orderFunctions(readFileSync(wat, 'utf8')));
  run('wasm-as', ['--mvp-features', ...features, ...keepNames, wat, '-o', file]);
  rmSync(wat);
}

let shortNames = new Map();
if (release) {
  for (const [file] of wasmFiles) {
    const features = featuresOf(file);
    if (path.basename(file) === `${NAME}_bg.wasm`) shortNames = leanPageWasm(file, features);
    else run('wasm-opt', ['-O2', ...keepNames, file, '-o', file]);
    compressionOrder(file, features);
  }
}

let js = readFileSync(path.join(bound, `${NAME}.js`), 'utf8');
let link = readFileSync(path.join(split, LINK), 'utf8');
const hash = createHash('sha256');
for (const [file] of wasmFiles) hash.update(readFileSync(file));
hash.update(js).update(link);
const h = hash.digest('hex').slice(0, 16);
const named = (file) => file.replace(/(_bg)?\.(wasm|js)$/, (all) => `-${h}${all}`);

const publicUrl = process.env.TRUNK_PUBLIC_URL ?? '/';
/** `file` of the build, as the page asks for it (the loader is inline, so `import.meta.url` is the page's). */
const address = (file) => `new URL(${JSON.stringify(`${publicUrl}${named(file)}`)}, document.baseURI)`;
js = rewrite(js, "new URL('planner-page_bg.wasm', import.meta.url)", address(`${NAME}_bg.wasm`), `${NAME}.js`);
for (const m of modules) link = rewrite(link, `new URL("./${m}", import.meta.url)`, address(m), LINK);
// A host that serves .wasm with another content type: instantiate from the bytes instead.
link = rewrite(
  link,
  'WebAssembly.instantiateStreaming(src, imports)',
  'WebAssembly.instantiateStreaming(src.then((r) => r.clone()), imports).catch(() => src.then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, imports)))',
  LINK,
);

/** The page's loader (what Trunk would write: it starts the WASM, whose compilation the early fetch in
 * index.html began) with the glue, the split module's loader and the snippets it imports, bundled into
 * one module by esbuild, for `scripts/post-build.mjs` to put inline in index.html: none of them is
 * then fetched after the HTML, where they used to arrive after the WASM and hold it back. */
async function bundled() {
  const dir = path.join(work, 'bundle');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${NAME}.js`), js);
  writeFileSync(path.join(dir, LINK), link);
  const snippets = path.join(bound, 'snippets');
  if (existsSync(snippets)) cpSync(snippets, path.join(dir, 'snippets'), { recursive: true });
  // Of the glue's exports, the page's own JS uses none: `scripts/bench.mjs` calls its two hooks
  // (and `scripts/bench-ab.mjs` a third, in a `BENCH_AB=1` build), so only those are kept (the
  // rest, such as server_fn's stream classes, are left out of the bundle).
  const hooks = ['bench_planning_ms', 'wasm_memory_bytes', ...(benchAb ? ['bench_ab_ms'] : [])].join(', ');
  writeFileSync(path.join(dir, 'loader.js'), `import init, { ${hooks} } from './${NAME}.js';
try {
  const wasm = await init({ module_or_path: window.__wasmModule });
  window.wasmBindings = { ${hooks} };
  dispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));
} catch (e) {
  // One message, in the page: the planner's code could not be fetched or started.
  document.documentElement.classList.remove("starting");
  const said = document.querySelector("#boot p");
  if (said) said.textContent = "The planner could not be loaded (" + ((e && e.message) || e) + "). Check the connection, or what blocks this site's files, and reload the page.";
}
`);
  const out = await build({ entryPoints: [path.join(dir, 'loader.js')], bundle: true, format: 'esm', write: false, logLevel: 'warning' });
  return out.outputFiles[0].text;
}

/** The module's text, minified in a release build (its exports keep their names); the properties
 * named in `renamed` (old name to new, from `leanPageWasm`) are renamed, and only those. */
async function shipped(text, renamed = new Map()) {
  if (!release) return text;
  const props = renamed.size === 0 ? false : {
    regex: new RegExp(`^(${[...renamed.keys()].join('|')})$`),
  };
  const nameCache = { props: { props: Object.fromEntries([...renamed].map(([from, to]) => [`$${from}`, to])) } };
  const out = await minify(text, { module: true, compress: true, mangle: { properties: props }, nameCache });
  for (const [from] of renamed) {
    if (out.code.includes(from)) throw new Error(`page-wasm: the glue still names ${from}`);
  }
  return out.code;
}

writeFileSync(path.join(staging, named(`${NAME}.js`)), await shipped(await bundled(), shortNames));
for (const [file, name] of wasmFiles) copyFileSync(file, path.join(staging, named(name)));
const manifest = {
  loader: named(`${NAME}.js`),
  wasm: named(`${NAME}_bg.wasm`),
};
writeFileSync(path.join(staging, 'page-wasm.json'), JSON.stringify(manifest, null, 2));
console.log(`page-wasm: ${manifest.wasm} and ${modules.length} module(s) loaded on demand, in ${staging}`);
