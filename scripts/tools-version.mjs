// Trunk post-build hook: writes the tools module's version (a hash of tools.js and tools_bg.wasm)
// into the built index.html as <meta name="tools-version">. Trunk gives that module fixed file
// names, so a browser could otherwise keep a cached copy from an older build next to a newer
// page; the page asks for tools.js?v=… and tools_bg.wasm?v=… (browser::call_tools) instead.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR ?? 'dist';
const file = path.join(dir, 'index.html');
const hash = createHash('sha256');
for (const name of ['tools.js', 'tools_bg.wasm']) hash.update(readFileSync(path.join(dir, name)));
const version = hash.digest('hex').slice(0, 16);
const html = readFileSync(file, 'utf8').replace(
  /(<meta charset="utf-8" \/>)/,
  `$1\n    <meta name="tools-version" content="${version}" />`,
);
writeFileSync(file, html);
console.log(`tools-version: ${version} in ${file}`);
