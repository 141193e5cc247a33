// The page's side of the tools module's Web Worker (public/tools-worker.js), for src/browser/worker.rs:
// starts the worker on first use, posts each call with an id and settles its promise with the
// answer. Bundled with the page's loader (scripts/page-wasm.mjs).
let worker = null;
let next = 0;
const pending = new Map();
function failAll(message) {
    for (const p of pending.values()) p.reject(message);
    pending.clear();
}
export function start_tools() {
    if (worker) return;
    const version = document.querySelector('meta[name="tools-version"]')?.content;
    const url = new URL('tools-worker.js', document.baseURI);
    if (version) url.searchParams.set('v', version);
    worker = new Worker(url.href, { type: 'module' });
    worker.onmessage = (event) => {
        const { id, answer, error, fatal, closing, progress } = event.data;
        const p = pending.get(id);
        if (progress !== undefined) { p?.onProgress?.(progress); return; }
        if (fatal || closing) { worker.terminate(); worker = null; }
        if (p) {
            pending.delete(id);
            if (error === undefined) p.resolve(answer); else p.reject(error);
        }
        // A worker that closed to give its memory back: the calls it had not answered go to a new one.
        if (closing && pending.size) {
            start_tools();
            for (const [i, q] of pending) send(i, q.name, q.args);
        }
    };
    worker.onerror = () => {
        worker.terminate();
        worker = null;
        failAll("the page's file tools (imports, downloads, share links) could not be loaded (are you offline?)");
    };
}
// Posting a picked file costs the page a file-system call (the browser takes its snapshot): a list
// of files goes one by one before its call, yielding every 20 ms, so thousands never hold the page.
// Calls are sent one after another, in the order made. A send cut short by a worker that closed is
// made again, whole, to the next one.
let sending = Promise.resolve();
function send(id, name, args) {
    sending = sending.then(() => sendNow(id, name, args)).catch(() => {});
}
async function sendNow(id, name, args) {
    const w = worker;
    // A call the page no longer waits for (its worker failed) is not sent.
    if (!w || !pending.has(id)) return;
    let since = performance.now();
    for (const [arg, list] of args.entries()) {
        if (!Array.isArray(list) || !list.some((x) => x instanceof Blob)) continue;
        for (const item of list) {
            w.postMessage({ id, arg, item });
            if (performance.now() - since > 20) {
                await new Promise((r) => setTimeout(r));
                if (w !== worker) return;
                since = performance.now();
            }
        }
    }
    w.postMessage({ id, name, args: args.map((a) => (Array.isArray(a) && a.some((x) => x instanceof Blob) ? [] : a)) });
}
export function tools_call(name, args, onProgress) {
    start_tools();
    return new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject, name, args, onProgress });
        send(id, name, args);
    });
}
