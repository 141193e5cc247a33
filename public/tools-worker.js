// The page's tools module (importers, task-file parser, share links, stored imports) in a Web
// Worker: long work here never blocks the page. Picked files arrive as File objects, and the tools
// module asks their sizes and reads them here (FileReaderSync). The page posts {id, name, args}; the worker
// answers {id, answer, closing} (text, or bytes transferred) or {id, error, fatal}, and may
// report {id, progress} (text) before it answers. `fatal` means the
// module could not be loaded, `closing` that the worker ends to give its memory back: the page
// then starts a new worker for its next call.
// tools.js and tools_bg.wasm are asked for with this script's own ?v= (the build's
// <meta name="tools-version">), so a cached copy from another build is never used.
const version = new URL(self.location.href).searchParams.get('v');
const at = (file) => {
  const url = new URL(file, self.location.href);
  if (version) url.searchParams.set('v', version);
  return url.href;
};
const ready = import(at('tools.js')).then(async (m) => {
  const wasm = await m.default({ module_or_path: at('tools_bg.wasm') });
  return { m, memory: wasm.memory };
});
// The tools module's memory in bytes (it only grows, so this is its peak so far), for the
// benchmark of large imports (scripts/bench-records.mjs).
self.toolsMemoryBytes = async () => (await ready).memory.buffer.byteLength;
// A WASM module's memory only grows: once a large import has taken it past this, the worker
// answers, says it is closing, and ends, so the tab gives the memory back (the page starts a
// new worker for its next call).
const RELEASE_ABOVE_BYTES = 128 * 1024 * 1024;

// The files of a call arrive one by one before it ({id, arg, item}): kept here until the call
// itself ({id, name, args}), whose argument `arg` they are.
const parts = new Map();

self.onmessage = async (event) => {
  const { id, name, arg, item } = event.data;
  if (arg !== undefined) {
    if (!parts.has(id)) parts.set(id, new Map());
    const given = parts.get(id);
    if (!given.has(arg)) given.set(arg, []);
    given.get(arg).push(item);
    return;
  }
  const given = parts.get(id);
  parts.delete(id);
  const args = event.data.args.map((a, k) => given?.get(k) ?? a);
  let tools;
  let memory;
  try {
    ({ m: tools, memory } = await ready);
  } catch (e) {
    self.postMessage({ id, error: "the page's file tools (imports, downloads, share links) could not be loaded (are you offline?)", fatal: true });
    return;
  }
  try {
    if (typeof tools[name] !== 'function') throw new Error(`the tools module has no ${name}`);
    // A long call (an import read as a stream) reports how far it has come; the page shows it.
    self.progress = (text) => self.postMessage({ id, progress: text });
    let answer;
    try {
      answer = tools[name](...args);
    } finally {
      self.progress = undefined;
    }
    const closing = memory.buffer.byteLength > RELEASE_ABOVE_BYTES;
    self.postMessage({ id, answer, closing }, answer instanceof Uint8Array ? [answer.buffer] : []);
    if (closing) self.close();
  } catch (e) {
    self.postMessage({ id, error: `the tools module failed in ${name}: ${e && e.message ? e.message : e}` });
  }
};
