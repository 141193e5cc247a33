// Where the bytes of a WASM module are: each function's body size by its name, summed by crate
// and by module (the first one and three parts of its path), with the data, the function table
// and the names themselves apart. For a build with its names kept (`PAGE_WASM_NAMES=1 bash
// scripts/wasm.sh trunk build --release`: scripts/page-wasm.mjs then keeps them through
// wasm-bindgen and wasm-opt); a build without them is reported by function index.
//
// Usage: node scripts/wasm-weight.mjs FILE.wasm [ROWS] [FILTER]
// ROWS: rows per table (30); FILTER: only the functions whose name contains it. Sizes are bytes
// raw and, for each group, brotli -q 11 of its functions' bodies put together (an upper bound
// of what the group costs: alike code elsewhere in the module compresses it further).
import fs from 'node:fs';
import zlib from 'node:zlib';

const [file, rowsArg, filter] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/wasm-weight.mjs FILE.wasm [ROWS] [FILTER]');
  process.exit(2);
}
const ROWS = Number(rowsArg ?? 30);
const wasm = fs.readFileSync(file);

/** An unsigned LEB128 at `at`: its value and the offset after it. */
function leb(at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = wasm[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** A name (length, UTF-8 bytes) at `at`: the text and the offset after it. */
function name(at) {
  const [len, start] = leb(at);
  return [wasm.subarray(start, start + len).toString('utf8'), start + len];
}

const sections = [];
for (let at = 8; at < wasm.length;) {
  const id = wasm[at];
  const [size, start] = leb(at + 1);
  sections.push({ id, start, end: start + size, size: start + size - at });
  at = start + size;
}

let imported = 0;
for (const s of sections.filter((s) => s.id === 2)) {
  let [count, at] = leb(s.start);
  for (; count > 0; count--) {
    [, at] = name(at);
    [, at] = name(at);
    const kind = wasm[at++];
    if (kind === 0) {
      imported++;
      [, at] = leb(at);
    } else if (kind === 1) {
      at++;
      const flags = wasm[at++];
      [, at] = leb(at);
      if (flags & 1) [, at] = leb(at);
    } else if (kind === 2) {
      const flags = wasm[at++];
      [, at] = leb(at);
      if (flags & 1) [, at] = leb(at);
    } else if (kind === 3) {
      at += 2;
    } else {
      at += 2;
    }
  }
}

const names = new Map();
for (const s of sections.filter((s) => s.id === 0)) {
  const [section, at0] = name(s.start);
  if (section !== 'name') continue;
  for (let at = at0; at < s.end;) {
    const sub = wasm[at];
    const [size, start] = leb(at + 1);
    if (sub === 1) {
      let [count, p] = leb(start);
      for (; count > 0; count--) {
        let index;
        let n;
        [index, p] = leb(p);
        [n, p] = name(p);
        names.set(index, n);
      }
    }
    at = start + size;
  }
}

const functions = [];
for (const s of sections.filter((s) => s.id === 10)) {
  let [count, at] = leb(s.start);
  for (let i = 0; i < count; i++) {
    const [size, start] = leb(at);
    const index = imported + i;
    // Rust's v0 names carry each crate's hash (`core[27cd0353e63fa9bc]::…`): left out.
    const named = (names.get(index) ?? `function ${index}`).replace(/\[[0-9a-f]{8,}\]/g, '');
    functions.push({ index, name: named, body: wasm.subarray(start, start + size), size: start + size - at });
    at = start + size;
  }
}

/** The crate a function's name starts with (generic impls by the type's crate: `<a::B as c::D>` is a). */
function crateOf(n) {
  const m = n.replace(/^[<&*\s]+|^(dyn|mut|const)\s+/g, '').match(/^([A-Za-z_][A-Za-z0-9_]*)::/);
  return m ? m[1] : n.startsWith('function ') ? '(unnamed)' : '(other)';
}
/** Its module: the first three parts of its path. */
function moduleOf(n) {
  const path = n.replace(/^[<&*\s]+/, '').split(/[<\s]/)[0].split('::');
  return path.slice(0, Math.min(3, path.length - 1) || 1).join('::');
}

const brotli = (buffers) => zlib.brotliCompressSync(Buffer.concat(buffers), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (b) => (b / 1024).toFixed(1);
const shown = filter ? functions.filter((f) => f.name.includes(filter)) : functions;

function table(title, key) {
  const groups = new Map();
  for (const f of shown) {
    const k = key(f.name);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(f);
  }
  const rows = [...groups].map(([k, fs]) => ({ k, n: fs.length, raw: fs.reduce((s, f) => s + f.size, 0), fs }))
    .sort((a, b) => b.raw - a.raw);
  console.log(`\n| ${title} | functions | KB raw | KB brotli alone |\n|---|---|---|---|`);
  for (const r of rows.slice(0, ROWS)) console.log(`| ${r.k} | ${r.n} | ${kb(r.raw)} | ${kb(brotli(r.fs.map((f) => f.body)))} |`);
}

const kinds = { 0: 'custom (names)', 1: 'types', 2: 'imports', 3: 'functions', 4: 'table', 5: 'memory', 6: 'globals', 7: 'exports', 9: 'elements', 10: 'code', 11: 'data', 12: 'data count' };
console.log(`${file}: ${kb(wasm.length)} KB raw, ${kb(brotli([wasm]))} KB brotli; ${functions.length} functions (${imported} imported), ${names.size} names`);
console.log('\n| section | KB raw | KB brotli alone |\n|---|---|---|');
for (const s of sections) console.log(`| ${kinds[s.id] ?? s.id} | ${kb(s.size)} | ${kb(brotli([wasm.subarray(s.start, s.end)]))} |`);
table('crate', crateOf);
table('module', moduleOf);
console.log(`\n| function | KB raw |\n|---|---|`);
for (const f of [...shown].sort((a, b) => b.size - a.size).slice(0, ROWS)) console.log(`| ${f.name.slice(0, 160)} | ${kb(f.size)} |`);
