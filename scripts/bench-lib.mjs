// What the benchmark scripts share (scripts/bench.mjs, scripts/bench-records.mjs): summary
// statistics, typing into the target field until the answer changes, and the browser's memory.
import fs from 'node:fs';

/** The median of `xs`. */
export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
/** The `p` quantile (0 to 1) of `xs`, nearest rank. */
export const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };
/** `x` rounded to `d` decimals. */
export const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** Types `values` in turn ('30' and '25' unless given) into the field `testid` (the target
 * unless given), `n` times; each time waits until the answer has changed (`until` 'answer') or
 * until the evidence beneath it (fleet figures, chart, tables), which follows a frame later,
 * shows the new scenario too (`until` 'evidence'). */
export function typingTimes(page, n, until, testid = 'target-input', values = ['30', '25']) {
  return page.evaluate(async ([n, until, testid, values]) => {
    const input = document.querySelector(`[data-testid="${testid}"]`);
    const main = document.querySelector('main.results');
    const answer = document.querySelector('[data-testid="rec-status"]').closest('section');
    const out = [];
    for (let i = 0; i < n; i++) {
      const done = new Promise((resolve) => {
        const obs = new MutationObserver(() => {
          if (until === 'answer' || main.dataset.evidence === 'ready') { obs.disconnect(); resolve(performance.now()); }
        });
        if (until === 'answer') obs.observe(answer, { childList: true, subtree: true, attributes: true, characterData: true });
        else obs.observe(main, { attributes: true, attributeFilter: ['data-evidence'] });
      });
      const t0 = performance.now();
      input.value = values[i % values.length];
      input.dispatchEvent(new Event('input', { bubbles: true }));
      out.push((await done) - t0);
    }
    return out;
  }, [n, until, testid, values]);
}

/** Resident memory of the browser's renderer processes (the tab, and the worker it runs), KB. */
export function rendererKb() {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const rss = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
      if (rss) total += Number(rss[1]);
    } catch { /* the process ended */ }
  }
  return total;
}

