// The page's tools module (importers, task-file parser, share links, stored imports) in a Web
// Worker: long work here never blocks the page, and picked files are read here too. The page posts {id, name, args}; the worker
// answers {id, answer} (text, or bytes transferred) or {id, error, fatal}. `fatal` means the
// module could not be loaded: the page then starts a new worker for its next call.
// tools.js and tools_bg.wasm are asked for with this script's own ?v= (the build's
// <meta name="tools-version">), so a cached copy from another build is never used.
const version = new URL(self.location.href).searchParams.get('v');
const at = (file) => {
  const url = new URL(file, self.location.href);
  if (version) url.searchParams.set('v', version);
  return url.href;
};
const ready = import(at('tools.js')).then(async (m) => {
  await m.default({ module_or_path: at('tools_bg.wasm') });
  return m;
});

self.onmessage = async (event) => {
  const { id, name, args } = event.data;
  let tools;
  try {
    tools = await ready;
  } catch (e) {
    self.postMessage({ id, error: "the page's file tools (imports, downloads, share links) could not be loaded (are you offline?)", fatal: true });
    return;
  }
  try {
    if (typeof tools[name] !== 'function') throw new Error(`the tools module has no ${name}`);
    // Files picked on the page arrive as File objects: their text is read here, off the page.
    const text = (a) => (a instanceof Blob ? a.text() : a);
    const ready = await Promise.all(args.map((a) => (Array.isArray(a) ? Promise.all(a.map(text)) : text(a))));
    const answer = tools[name](...ready);
    self.postMessage({ id, answer }, answer instanceof Uint8Array ? [answer.buffer] : []);
  } catch (e) {
    self.postMessage({ id, error: `the tools module failed in ${name}: ${e && e.message ? e.message : e}` });
  }
};
