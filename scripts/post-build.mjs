// Trunk's one post-build hook: edits the built index.html in four steps, in this order, and
// checks the result. (Trunk starts all hooks of a stage at once, so these steps must not be
// separate hooks: each reads and rewrites the same file.) A failed check fails the build.
//
// 0. Loader and early WASM: the page's WASM is built by scripts/page-wasm.mjs (the pre-build
//    hook), which names its files in page-wasm.json. This writes the loader Trunk would have
//    written for it (the module that imports the page's JS and starts its WASM), a
//    modulepreload for each JS module it imports at once (the JS, the split module's loader,
//    the snippets), and, first in <head>, a script that starts fetching and compiling the WASM
//    while the HTML is still being parsed, instead of after the loader and the JS it imports
//    have been fetched and run. `WebAssembly.compileStreaming` compiles as the bytes arrive;
//    the loader then instantiates that module. If it fails (a host that serves .wasm with
//    another content type), the promise yields a second fetch's response, which the loader
//    instantiates the usual way (with its own fallback for that case); a browser without
//    compileStreaming leaves the loader to fetch it.
// 1. Snippets and integrity: wasm-bindgen writes the JS snippets of the page (scripts/page-wasm.mjs)
//    and of the tools module (Trunk's pipeline, target/wasm-bindgen/<profile>), and each copies
//    them into the staging folder. A copy made while another run was rewriting the file once
//    gave the page an `integrity` of an empty file, and the browser refused to start it. Now
//    all are done, the snippets are copied again from wasm-bindgen's output, and every
//    `integrity` is computed from the file the page will load.
// 2. Tools version: a hash of tools.js, tools_bg.wasm and tools-worker.js as
//    <meta name="tools-version">. Trunk gives that module fixed file names, so a browser could
//    otherwise keep a cached copy from an older build next to a newer page; the page starts
//    tools-worker.js?v=…, which asks for tools.js?v=… and tools_bg.wasm?v=… (browser::call_tools).
// 3. Content-Security-Policy: scripts only from the page's own origin and the inline scripts
//    above (Trunk's loader, the early WASM fetch), each allowed by its SHA-256 hash;
//    WebAssembly needs 'wasm-unsafe-eval'. No inline event handlers; inline styles are allowed.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR ?? 'dist';
const file = path.join(dir, 'index.html');
const source = process.env.TRUNK_SOURCE_DIR ?? '.';
const targetDir = path.resolve(source, process.env.CARGO_TARGET_DIR ?? 'target');
const profile = process.env.TRUNK_PROFILE ?? 'release';
// Where wasm-bindgen wrote each module's snippets: the tools module's (Trunk), the page's.
const bindgens = [path.join(targetDir, 'wasm-bindgen', profile), path.join(targetDir, 'page-wasm', profile, 'bindgen')];
const publicUrl = process.env.TRUNK_PUBLIC_URL ?? '/';
const INTEGRITY = /(<link\b[^>]*\bhref=")([^"]+)("[^>]*\bintegrity=")(sha384-[^"]*)(")/g;
const CHARSET = '<meta charset="utf-8" />';
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** Adds `tag` right after the charset meta (the first thing in <head>). */
function afterCharset(html, tag) {
  if (!html.includes(CHARSET)) throw new Error(`post-build: ${CHARSET} not found in ${file}`);
  return html.replace(CHARSET, `${CHARSET}\n    ${tag}`);
}

/** Every file under `root`, as paths relative to it. */
function filesUnder(root, rel = '') {
  return readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(root, path.join(rel, e.name)) : [path.join(rel, e.name)]);
}

const sha384 = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** The staged file an `href` of the page names, if it is one. */
function staged(href) {
  if (!href.startsWith(publicUrl) || href.includes('..')) return null;
  const local = path.join(dir, decodeURIComponent(href.slice(publicUrl.length).split(/[?#]/)[0]));
  return existsSync(local) ? local : null;
}

function snippetsAndIntegrity(html) {
  const snippets = path.join(dir, 'snippets');
  if (existsSync(snippets)) {
    for (const rel of filesUnder(snippets)) {
      const from = bindgens.map((b) => path.join(b, 'snippets', rel)).find(existsSync);
      if (!from) throw new Error(`post-build: snippet ${rel} not in ${bindgens.join(' or ')}`);
      copyFileSync(from, path.join(snippets, rel));
    }
  }
  return html.replace(INTEGRITY, (all, before, href, middle, _old, after) => {
    const local = staged(href);
    return local ? `${before}${href}${middle}${sha384(readFileSync(local))}${after}` : all;
  });
}

/** The early fetch and compile of the page's WASM, first in <head>, and the loader that starts
 * it (as Trunk writes one) with a modulepreload for each JS module the loader imports at once,
 * their integrity to be computed next. */
function pageLoader(html) {
  const manifestFile = path.join(dir, 'page-wasm.json');
  const page = JSON.parse(readFileSync(manifestFile, 'utf8'));
  rmSync(manifestFile);
  const js = readFileSync(path.join(dir, page.js), 'utf8');
  const snippets = [...new Set([...js.matchAll(/from\s*['"]\.\/(snippets\/[^'"]+)['"]/g)].map((m) => m[1]))];
  const wasm = JSON.stringify(`${publicUrl}${page.wasm}`);
  const early = `<script>try{window.__wasmModule=WebAssembly.compileStreaming(fetch(${wasm})).catch(function(){return fetch(${wasm})})}catch(e){}</script>`;
  const loader = `<script type="module">
import init, * as bindings from '${publicUrl}${page.js}';
const wasm = await init({ module_or_path: window.__wasmModule });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));
</script>`;
  const preloads = [page.js, page.link, ...snippets]
    .map((f) => `<link rel="modulepreload" href="${publicUrl}${f}" crossorigin="anonymous" integrity="sha384-">`)
    .join('');
  if (!html.includes('</head>')) throw new Error(`post-build: no </head> in ${file}`);
  return afterCharset(html.replace('</head>', `${loader}\n${preloads}</head>`), early);
}

function toolsVersion(html) {
  const hash = createHash('sha256');
  for (const name of ['tools.js', 'tools_bg.wasm', 'tools-worker.js']) hash.update(readFileSync(path.join(dir, name)));
  return afterCharset(html, `<meta name="tools-version" content="${hash.digest('hex').slice(0, 16)}" />`);
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function csp(html) {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map((m) => sha256(m[1]));
  const policy = [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')} 'wasm-unsafe-eval'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  // Right after the charset: a policy given by <meta> applies only to what follows it.
  return afterCharset(html, `<meta http-equiv="Content-Security-Policy" content="${policy}" />`);
}

/** The built page must start: every inline script hashed in a policy that comes before it,
 * the tools version present, every integrity that of its file. */
function check(html) {
  const policyAt = html.indexOf('http-equiv="Content-Security-Policy"');
  const policy = html.match(/http-equiv="Content-Security-Policy" content="([^"]*)"/)?.[1] ?? '';
  const problems = [];
  if (policyAt < 0) problems.push('no Content-Security-Policy');
  for (const m of html.matchAll(INLINE_SCRIPT)) {
    if (!policy.includes(sha256(m[1]))) problems.push(`an inline script is not in the policy: ${m[1].slice(0, 60)}…`);
    if (m.index < policyAt) problems.push('an inline script comes before the policy');
  }
  if (!/<meta name="tools-version" content="[0-9a-f]{16}" \/>/.test(html)) problems.push('no tools-version');
  for (const [, , href, , integrity] of html.matchAll(INTEGRITY)) {
    const local = staged(href);
    const bytes = local && readFileSync(local);
    if (!bytes) problems.push(`${href} has an integrity but is not in the build`);
    else if (bytes.length === 0) problems.push(`${href} is empty`);
    else if (sha384(bytes) !== integrity) problems.push(`${href}: integrity does not match the file`);
  }
  if (problems.length) throw new Error(`post-build: ${file}: ${problems.join('; ')}`);
}

const html = csp(toolsVersion(snippetsAndIntegrity(pageLoader(readFileSync(file, 'utf8')))));
check(html);
writeFileSync(file, html);
console.log(`post-build: page loader and early WASM fetch, snippets and integrity, tools version and CSP (${[...html.matchAll(INLINE_SCRIPT)].length} inline scripts hashed) written to ${file}`);
