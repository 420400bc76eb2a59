// The engine of the page written as static files (docs/web.md, "Without a server"): the library
// compiled to WebAssembly (ttt_oracle.wasm, the module of the npm package in js/), asked what
// `ttt serve` would answer, in this worker so that a solve never blocks the page. Each message
// is a request {id, method, target, body}; the answer is {id, status, type, body}, or {id,
// failure} when the module itself failed. While a request solves a game (4x4 and 4x4k3 are not
// in the module: they are solved on first use), {progress: {game, fraction}} messages come first.
"use strict";

const decoder = new TextDecoder();
const encoder = new TextEncoder();
let module = null;
let instance = null;
let panic = null;

function read(ptr, len) {
  const at = ptr >>> 0;
  return decoder.decode(new Uint8Array(instance.exports.memory.buffer, at, len));
}

// An instance of the module: a new one after a failure, as a trap leaves its memory mid-call.
async function ready() {
  if (instance !== null) return instance.exports;
  if (module === null) {
    const response = await fetch("ttt_oracle.wasm");
    if (!response.ok) throw new Error(`ttt_oracle.wasm: HTTP ${response.status}`);
    module = await WebAssembly.compile(await response.arrayBuffer());
  }
  instance = await WebAssembly.instantiate(module, {
    ttt: {
      panicked: (ptr, len) => {
        panic = read(ptr, len);
      },
      // Bots written in JavaScript are the npm package's; the page plays built-in ones only.
      ask: () => {
        throw new Error("the page asks no JavaScript bot");
      },
      solving: (ptr, len, fraction) => postMessage({ progress: { game: read(ptr, len), fraction } }),
    },
  });
  instance.exports.ttt_init();
  return instance.exports;
}

// The module's answer to `request` ({op, ...}), as `ttt_call` gives it.
function call(exports, request) {
  const bytes = encoder.encode(JSON.stringify(request));
  const ptr = exports.ttt_alloc(bytes.length) >>> 0;
  new Uint8Array(exports.memory.buffer).set(bytes, ptr);
  exports.ttt_call(ptr, bytes.length);
  exports.ttt_free(ptr, bytes.length);
  const reply = JSON.parse(read(exports.ttt_reply_ptr(), exports.ttt_reply_len()));
  if (reply.error) throw new Error(reply.error.message);
  return reply.ok;
}

// One request at a time, in the order they came.
let queue = Promise.resolve();
onmessage = ({ data }) => {
  queue = queue.then(async () => {
    const { id, method, target, body } = data;
    try {
      const exports = await ready();
      postMessage({ id, ...call(exports, { op: "respond", method, target, body }) });
    } catch (error) {
      const failure = panic ?? error.message;
      if (panic !== null || error instanceof WebAssembly.RuntimeError) instance = null;
      panic = null;
      postMessage({ id, failure: `the engine failed: ${failure}` });
    }
  });
};
