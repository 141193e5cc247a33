// Shared set-up for the end-to-end specs: a static server for dist/ and headless Chromium.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves the release build in dist/ on 127.0.0.1 at a free port. */
export async function startServer() {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = path.resolve(DIST, rel);
    if (!file.startsWith(DIST)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await fs.readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { base: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

/** The window the tests read the page in unless they set their own: tall enough that the
 * evidence below the chart, loaded as it comes near the viewport (`ui::lower_evidence`), is in
 * view at once, as on a tall screen. tests/e2e/lower.test.mjs reads a 720 px one, as a first visit
 * on Playwright's default window (and the first load's count) does. */
export const TALL = { width: 1280, height: 2400 };

/** Debian's Chromium, headless, with the flags this offline machine needs (BUILD-NOTES); its
 * contexts open in the [`TALL`] window unless given a viewport. */
export async function launchBrowser() {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ viewport: TALL, ...options });
  return browser;
}

function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Opens `query` in a fresh page (its context made with `options`) and waits for the answer;
 * collects console errors. */
export async function openPlanner(browser, base, query = '', options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(base + query);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  await settled(page);
  return { page, context, errors };
}

/** Scrolls the evidence below the chart into view and waits until it is drawn (its code is
 * loaded as it comes near the viewport): for a window too short to hold it at once. The holder
 * is looked up again at each try: an import or a change draws it anew, and a holder found once
 * can be gone from the page by the time it is scrolled to. */
export async function showLower(page) {
  await page.waitForFunction(() => {
    const holder = document.querySelector('[data-testid="lower-evidence"]');
    holder?.scrollIntoView({ block: 'nearest' });
    return holder?.querySelector('[data-testid="method"]') != null;
  }, null, { polling: 100 });
}

/** Waits until the evidence beneath the answer (fleet figures, chart, tables) shows the current
 * scenario: it is drawn a frame after the answer, at start-up and after every change. */
export function settled(page) {
  return page.waitForFunction(() => document.querySelector('main.results')?.dataset.evidence !== 'pending');
}

/** Waits until the URL's query parameter `name` is `expected` (`null`: absent). The page writes
 * its URL a moment after the result (writes are coalesced while typing). */
export function waitForParam(page, name, expected) {
  return page.waitForFunction(
    ([k, v]) => new URL(location.href).searchParams.get(k) === v,
    [name, expected],
  );
}

/** Waits until the URL names an imported source (`src=imp-…`) and returns its id. The URL is
 * written a moment after the import shows, so reading it at once can still see the earlier one. */
export async function importedSource(page) {
  await page.waitForFunction(() => new URL(location.href).searchParams.get('src')?.startsWith('imp-'));
  return new URL(page.url()).searchParams.get('src');
}

/** The `data-value` of the element with this test id. */
export async function value(page, testid) {
  await settled(page);
  return page.getAttribute(`[data-testid="${testid}"]`, 'data-value');
}

/** Registers before/after hooks that start the server and the browser for a spec file; the
 * returned object holds `server` and `browser` once the hooks have run. */
export function useServerAndBrowser() {
  const env = {};
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
