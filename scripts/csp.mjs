// Trunk post-build hook: adds a Content-Security-Policy to the built index.html. Scripts may
// come only from the page's own origin and from the inline loader Trunk writes, allowed by its
// SHA-256 hash (computed here, at build time); WebAssembly needs 'wasm-unsafe-eval'. No inline
// event handlers are allowed; inline styles are.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR ?? 'dist';
const file = path.join(dir, 'index.html');
let html = readFileSync(file, 'utf8');
const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
  .map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
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
html = html.replace(/(<meta charset="utf-8" \/>)/, `$1\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
writeFileSync(file, html);
console.log(`csp: ${hashes.length} inline script hash(es) added to ${file}`);
