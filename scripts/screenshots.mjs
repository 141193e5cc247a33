// Takes the README's screenshots of the release build in dist/ (run scripts/test.sh or
// `trunk build --release` first): light and dark, desktop and 360 px wide.
//   node scripts/screenshots.mjs
import { startServer, launchBrowser } from '../tests/e2e/harness.mjs';

const QUERY = '?model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&stat=p50';
const SHOTS = [
  { file: 'docs/screenshot.png', width: 1280, height: 900, scheme: 'light' },
  { file: 'docs/screenshot-dark.png', width: 1280, height: 900, scheme: 'dark' },
  { file: 'docs/screenshot-360.png', width: 360, height: 800, scheme: 'light' },
  { file: 'docs/screenshot-360-dark.png', width: 360, height: 800, scheme: 'dark' },
];

const server = await startServer();
const browser = await launchBrowser();
for (const shot of SHOTS) {
  const context = await browser.newContext({
    viewport: { width: shot.width, height: shot.height },
    colorScheme: shot.scheme,
  });
  const page = await context.newPage();
  await page.goto(server.base + QUERY);
  await page.waitForSelector('[data-testid="rec-status"][data-value]');
  // The evidence beneath the answer is drawn a frame later: wait until it shows this scenario.
  await page.waitForSelector('main.results[data-evidence="ready"]');
  await page.screenshot({ path: shot.file, fullPage: true });
  await context.close();
  console.log(`wrote ${shot.file}`);
}
await browser.close();
await server.close();
