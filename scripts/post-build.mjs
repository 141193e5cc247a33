// Trunk's one post-build hook: edits the built index.html in four steps, in this order, and
// checks the result. (Trunk starts all hooks of a stage at once, so these steps must not be
// separate hooks: each reads and rewrites the same file.) A failed check fails the build.
//
// 0. Loader and early WASM: the page's WASM is built by scripts/page-wasm.mjs (the pre-build
//    hook), which names its files in page-wasm.json and bundles the loader Trunk would have
//    written for it (the module that imports the page's JS and starts its WASM) with all the JS
//    it imports. This puts that bundle inline at the end of <head>, so no script is fetched after
//    the HTML (the JS modules used to arrive after the WASM and hold its start back), and, first
//    in <head>, a script that starts fetching and compiling the WASM while the HTML is still
//    being parsed. `WebAssembly.compileStreaming` compiles as the bytes arrive; the loader then
//    instantiates that module. If it fails (a host that serves .wasm with another content type),
//    the promise yields a second fetch's response, which the loader instantiates the usual way
//    (with its own fallback for that case), as it does a plain fetch's in a browser without
//    compileStreaming. A fetch that fails (offline, blocked) is not tried again: the loader says
//    so in the page, once.
// 1. Stylesheet: Trunk inlines style/main.css as it is; esbuild minifies it (0.7 KB less brotli).
//    The HTML's comments (notes for this repository's readers) are left out (0.2 KB).
// 2. Tools version: a hash of tools.js, tools_bg.wasm and tools-worker.js as
//    <meta name="tools-version">. Trunk gives that module fixed file names, so a browser could
//    otherwise keep a cached copy from an older build next to a newer page; the page starts
//    tools-worker.js?v=…, which asks for tools.js?v=… and tools_bg.wasm?v=… (browser::call_tools).
// 3. Content-Security-Policy: scripts only from the page's own origin and the inline scripts
//    above (the loader, the early WASM fetch), each allowed by its SHA-256 hash; WebAssembly
//    needs 'wasm-unsafe-eval'. No inline event handlers; inline styles are allowed.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';

const dir = process.env.TRUNK_STAGING_DIR ?? 'dist';
const file = path.join(dir, 'index.html');
const publicUrl = process.env.TRUNK_PUBLIC_URL ?? '/';
const CHARSET = '<meta charset="utf-8" />';
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** Adds `tag` right after the charset meta (the first thing in <head>). */
function afterCharset(html, tag) {
  if (!html.includes(CHARSET)) throw new Error(`post-build: ${CHARSET} not found in ${file}`);
  return html.replace(CHARSET, () => `${CHARSET}\n    ${tag}`);
}

// What scripts/page-wasm.mjs built: the page's WASM and its loader, bundled with the JS it imports.
const manifestFile = path.join(dir, 'page-wasm.json');
const page = JSON.parse(readFileSync(manifestFile, 'utf8'));
rmSync(manifestFile);
const loader = readFileSync(path.join(dir, page.loader), 'utf8');
rmSync(path.join(dir, page.loader));

/** The early fetch and compile of the page's WASM, first in <head>, and the loader that starts it,
 * inline before </head>. */
function pageLoader(html) {
  // The HTML parser ends a script at the first `</script`, wherever it stands in the code.
  if (/<\/script/i.test(loader)) throw new Error(`post-build: the page's loader holds "</script"`);
  const wasm = JSON.stringify(`${publicUrl}${page.wasm}`);
  // It also marks the page `starting` for its first second, which hides the loading message (style/main.css).
  const early = `<script>document.documentElement.classList.add("starting");setTimeout(function(){document.documentElement.classList.remove("starting")},1000);try{var f=fetch(${wasm});window.__wasmModule=WebAssembly.compileStreaming(f).catch(function(){return f.then(function(){return fetch(${wasm})})})}catch(e){window.__wasmModule=fetch(${wasm})}</script>`;
  if (!html.includes('</head>')) throw new Error(`post-build: no </head> in ${file}`);
  // A function, not a string: `$&` and the like in the code would be replacement patterns.
  return afterCharset(html.replace('</head>', () => `<script type="module">${loader}</script>\n</head>`), early);
}

/** The inline stylesheet, minified. */
async function minifiedStyle(html) {
  const sheets = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
  if (sheets.length !== 1) throw new Error(`post-build: ${sheets.length} inline stylesheets in ${file}, not 1`);
  const { code } = await transform(sheets[0][1], { loader: 'css', minify: true });
  return html.replace(sheets[0][0], () => `<style>${code.trim()}</style>`);
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

/** The built page must start: every inline script hashed in a policy that comes before it, the
 * tools version present, no script or preload fetched, the loader inline as it was built. */
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
  for (const [tag] of html.matchAll(/<script\b[^>]*\bsrc=[^>]*>|<link\b[^>]*\brel="(?:modulepreload|preload)"[^>]*>/g)) {
    problems.push(`a script is fetched: ${tag}`);
  }
  if (!html.includes(`<script type="module">${loader}</script>`)) problems.push('the loader is not inline as built');
  if (problems.length) throw new Error(`post-build: ${file}: ${problems.join('; ')}`);
}

/** The HTML without its comments. */
function withoutComments(html) {
  return html.replace(/\s*<!--[\s\S]*?-->/g, '');
}

const html = csp(toolsVersion(await minifiedStyle(withoutComments(pageLoader(readFileSync(file, 'utf8'))))));
check(html);
writeFileSync(file, html);
console.log(`post-build: page loader (inline) and early WASM fetch, minified stylesheet, tools version and CSP (${[...html.matchAll(INLINE_SCRIPT)].length} inline scripts hashed) written to ${file}`);
