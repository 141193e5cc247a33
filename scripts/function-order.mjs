// The order of a WASM module's functions that brotli compresses best, found from their code (the
// idea of LLD's `--bp-compression-sort=function`, which wasm-ld does not have): a function is put
// next to the one most like it, so the compressor finds its repeats close by. Order is all that
// changes: every function, its body and every reference to it stay the same (references are by
// name in binaryen's text form, and the binary is written again from that text).
//
// Likeness: the share of line trigrams two functions have in common (Jaccard), each line of
// binaryen's text with function, global and type names blanked (they are numbers once ordered
// anew); the order is a greedy chain from the first function to its most alike unplaced one.
// On the page's WASM (3,448 functions) this takes about 4 s and makes it about 6 KB (3%) smaller
// brotli; bigrams of lines, single lines and hashes of a few lines each (minhash) did worse.

/** FNV-1a of `text`, 32 bits. */
function fnv(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** The function's line trigrams, hashed, sorted and without repeats. `lines`: its text, the
 * `(func …` line first. */
function trigrams(lines) {
  const hashes = lines.slice(1).map((l) => fnv(l.trim().replace(/\$[^\s)0-9][^\s)]*/g, '$')));
  const set = new Set();
  for (let i = 0; i + 2 < hashes.length; i++) {
    set.add((Math.imul(hashes[i], 31) ^ Math.imul(hashes[i + 1], 7) ^ hashes[i + 2]) >>> 0);
  }
  if (set.size === 0) set.add(hashes[0] ?? 0);
  return Uint32Array.from(set).sort();
}

/** Jaccard similarity of two sorted sets. */
function jaccard(a, b) {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}

/** Indices 0..n-1 in the greedy chain: from 0, each next the most alike of those not yet placed
 * (the first of them on a tie, so the order is the same on every build of the same module). */
function chain(features) {
  const placed = new Uint8Array(features.length);
  const order = [];
  let current = 0;
  for (let step = 0; step < features.length; step++) {
    placed[current] = 1;
    order.push(current);
    let best = -1;
    let bestLikeness = -1;
    for (let j = 0; j < features.length; j++) {
      if (placed[j]) continue;
      const likeness = jaccard(features[current], features[j]);
      if (likeness > bestLikeness) {
        bestLikeness = likeness;
        best = j;
      }
    }
    current = best;
  }
  return order;
}

/** The module in binaryen's text form (`wasm-dis` output) with its functions in the order above
 * and everything else as it was, before them. Throws on a text of another shape. */
export function orderFunctions(text) {
  const lines = text.split('\n');
  if (lines[0] !== '(module') throw new Error('function-order: not a module in binaryen text form');
  const fields = [];
  let end = 1;
  for (; end < lines.length && lines[end] !== ')'; end++) {
    const line = lines[end];
    // A field of the module starts at one space of indent; comments (custom sections) go.
    if (line.startsWith(' ;;')) continue;
    if (line.startsWith(' (') || fields.length === 0) fields.push([]);
    fields[fields.length - 1].push(line);
  }
  if (end === lines.length) throw new Error('function-order: the module is not closed');
  const functions = fields.filter((f) => f[0].startsWith(' (func '));
  const rest = fields.filter((f) => !f[0].startsWith(' (func '));
  if (functions.length === 0) return text;
  const order = chain(functions.map(trigrams));
  return ['(module', ...rest.flat(), ...order.flatMap((i) => functions[i]), ...lines.slice(end)].join('\n');
}
