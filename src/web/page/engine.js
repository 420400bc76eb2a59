// Where the page's answers come from: the JSON API of `ttt serve` (docs/web.md), or, in the page
// written as static files (`node js/page.cjs DIR`), the same answers made in this browser by the
// library compiled to WebAssembly, in a worker (worker.js) so that a solve never blocks the page.
// Both answer the same requests with the same bytes: the module runs the very function that
// answers them in `ttt serve`. app.js asks through `api` and `mapUrl` only.
"use strict";

const ENGINE = document.querySelector('meta[name="ttt-engine"]')?.content === "wasm"
  ? startWorker() : null;

// `/api/NAME` asked with PARAMS (posted as JSON, so that a pasted transcript is not bounded by
// the length of an address), answered as JSON; an answer that is not 2xx throws its error.
async function api(name, params) {
  const request = JSON.stringify(params);
  const { status, body } = ENGINE
    ? await ENGINE.ask("POST", `/api/${name}`, request)
    : await fetched(`api/${name}`, request);
  const json = JSON.parse(body);
  if (status < 200 || status > 299) throw new Error(json.error || `HTTP ${status}`);
  return json;
}

async function fetched(target, request) {
  const response = await fetch(target, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: request,
  });
  return { status: response.status, body: await response.text() };
}

// The address of the map of perfect play for `side` (x or o): the server's, or the worker's
// drawing as a blob.
const maps = new Map();
async function mapUrl(side) {
  if (!ENGINE) return `map.svg?as=${side}`;
  if (!maps.has(side)) {
    const { status, type, body } = await ENGINE.ask("GET", `/map.svg?as=${side}`, "");
    if (status !== 200) throw new Error(JSON.parse(body).error);
    maps.set(side, URL.createObjectURL(new Blob([body], { type })));
  }
  return maps.get(side);
}

// The worker, asked one request at a time in order. While it solves a game with no table in
// the module (4x4, 4x4k3 and any other past 12 cells), its progress shows in #solving.
function startWorker() {
  const worker = new Worker("worker.js");
  const waiting = new Map();
  let next = 0;
  worker.onmessage = ({ data }) => {
    if (data.progress) {
      showSolving(data.progress);
      return;
    }
    showSolving(null);
    const { resolve, reject } = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.failure) reject(new Error(data.failure));
    else resolve(data);
  };
  // A worker that cannot start (its script missing, say) gives an event with no message; it
  // answers nothing after, so every request from then on fails at once.
  let failed = null;
  worker.onerror = (event) => {
    failed = `the engine failed: ${event.message || "worker.js could not be started"}`;
    for (const { reject } of waiting.values()) reject(new Error(failed));
    waiting.clear();
  };
  return {
    ask(method, target, body) {
      if (failed) return Promise.reject(new Error(failed));
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, method, target, body });
      });
    },
  };
}

// The bar under the status line of each section (.solving), which any of them may have asked.
function showSolving(progress) {
  for (const element of document.querySelectorAll(".solving")) {
    element.hidden = progress === null;
    if (progress === null) continue;
    const percent = Math.floor(progress.fraction * 100);
    element.querySelector("progress").value = progress.fraction;
    element.querySelector("span").textContent =
      `Solving ${progress.game} in this browser: ${percent}%`;
  }
}
