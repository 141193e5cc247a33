import { launchBrowser } from '/work/main/tests/e2e/harness.mjs';
import http from 'node:http'; import fs from 'node:fs'; import path from 'node:path';
const DIST = process.argv[2];
const T = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };
const server = http.createServer((req, res) => { const u = new URL(req.url, 'http://x'); const f = path.join(DIST, u.pathname === '/' ? 'index.html' : u.pathname.slice(1)); try { const b = fs.readFileSync(f); res.writeHead(200, { 'content-type': T[path.extname(f)] ?? 'application/octet-stream' }); res.end(b); } catch { res.writeHead(404).end(); } });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchBrowser();
const page = await browser.newPage();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
await page.goto(base + '?tps=25');
await page.waitForSelector('[data-testid="rec-status"][data-value]');
await page.waitForTimeout(300); await cdp.send('Profiler.stop'); await cdp.send('Profiler.start'); await page.evaluate(async () => { const input = document.querySelector('[data-testid="target-input"]'); for (let i = 0; i < 200; i++) { input.value = i % 2 ? '25' : '30'; input.dispatchEvent(new Event('input', { bubbles: true })); await new Promise((r) => setTimeout(r, 0)); } });
const { profile } = await cdp.send('Profiler.stop');
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas; const counts = new Map();
profile.samples.forEach((s, i) => counts.set(s, (counts.get(s) ?? 0) + (dt[i] ?? 0)));
// inclusive time per function: walk parents
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (const [id, t] of counts) { const seen = new Set(); let cur = id; while (cur !== undefined) { const n = byId.get(cur); const name = n.callFrame.functionName || n.callFrame.url.split('/').pop() || '(anon)'; if (!seen.has(name)) { incl.set(name, (incl.get(name) ?? 0) + t); seen.add(name); } cur = parent.get(cur); }
  const n = byId.get(id); const name = n.callFrame.functionName || '(anon)'; self.set(name, (self.get(name) ?? 0) + t); }
const under = (id, pat) => { let cur = id; while (cur !== undefined) { const n = byId.get(cur); if ((n.callFrame.functionName || '').includes(pat)) return true; cur = parent.get(cur); } return false; };
const selfUnder = new Map(); const PAT = process.argv[3] ?? 'llm_slo_planner::main';
for (const [id, t] of counts) { if (!under(id, PAT)) continue; const n = byId.get(id); const name = n.callFrame.functionName || '(anon)'; selfUnder.set(name, (selfUnder.get(name) ?? 0) + t); }
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, t]) => `${(t / 1000).toFixed(1)}ms ${n.slice(0, 150)}`).join('\n');
console.log('--- self under ' + PAT + '\n' + top(selfUnder, 40)); 
await browser.close(); server.close();
