// A render worker run by Node.js (vitrine serve --render-node): the same
// frames as `vitrine render-worker` (internal/render/frame.go), on stdin and
// stdout. The shop sends the server bundle as the first frame; the worker
// runs it, answers "ready" (or why not), then answers each request, a URL,
// a NUL byte and the page data, with the app's HTML or the render's error.
// docs/decisions/0140-node-renderer.md
'use strict';
const vm = require('node:vm');

const MAX_FRAME = 64 << 20;
const OK = 0;
const ERROR = 1;

function answer(kind, text) {
  const body = Buffer.from(text, 'utf8');
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length + 1, 0);
  head[4] = kind;
  // Writes to a pipe are synchronous on Linux: answers leave in order.
  process.stdout.write(Buffer.concat([head, body]));
}

function load(source) {
  try {
    vm.runInThisContext(source, { filename: 'server.js' });
  } catch (e) {
    return `load server bundle: ${e}`;
  }
  return typeof globalThis.render === 'function' ? '' : 'server bundle does not define globalThis.render';
}

function serve(body) {
  const nul = body.indexOf(0);
  if (nul < 0) {
    answer(ERROR, 'render worker: a request is a URL, a NUL byte and the page data; no NUL byte');
    return;
  }
  const url = body.toString('utf8', 0, nul);
  try {
    const html = globalThis.render(url, body.toString('utf8', nul + 1));
    if (typeof html !== 'string') answer(ERROR, `render ${url}: bundle returned ${typeof html}, not a string`);
    else answer(OK, html);
  } catch (e) {
    answer(ERROR, `render ${url}: ${e && e.stack ? e.stack : e}`);
  }
}

let loaded = false;
let pending = [];
let size = 0;
process.stdin.on('data', (chunk) => {
  pending.push(chunk);
  size += chunk.length;
  for (;;) {
    if (size < 4) return;
    // The frame's length from its head, and the chunks joined only once
    // the whole frame is here (a large one comes in many chunks).
    const head = pending[0].length >= 4 ? pending[0] : Buffer.concat(pending, size);
    const n = head.readUInt32BE(0);
    if (n > MAX_FRAME) {
      process.stderr.write('render worker: frame over 64 MiB\n');
      process.exit(1);
    }
    if (size < 4 + n) return;
    let buf = pending.length === 1 ? pending[0] : Buffer.concat(pending, size);
    const body = buf.subarray(4, 4 + n);
    buf = buf.subarray(4 + n);
    pending = buf.length ? [buf] : [];
    size = buf.length;
    if (loaded) {
      serve(body);
      continue;
    }
    const err = load(body.toString('utf8'));
    if (err) {
      answer(ERROR, err);
      process.exit(1);
    }
    loaded = true;
    answer(OK, 'ready');
  }
});
process.stdin.on('end', () => process.exit(0));
