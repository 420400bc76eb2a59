// The package's figures (docs/performance.md, JavaScript): node js/bench/bench.mjs
//
// Medians of several runs, each checked against what it computes, so that a fast wrong
// answer cannot look good: the best move from JavaScript per call, through a kept Oracle and
// through the function that takes a game; an audit of a perfect JavaScript function on
// tic-tac-toe, by history and stateless; the module's first load; 4x4's first best move, which
// solves its table; the module's size, raw and gzipped.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const entry = path.join(here, "..", "ttt-oracle.cjs");
const { Oracle, audit, bestMove } = (await import(entry)).default;

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];

/** Nanoseconds per call of `body` over `boards`, the median of `runs` runs. */
function perCall(body, boards, expected, runs = 9, rounds = 200) {
  const times = [];
  for (let run = 0; run < runs; run++) {
    let sum = 0;
    const start = process.hrtime.bigint();
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < boards.length; i++) sum += body(boards[i]) ?? 0;
    }
    const ns = Number(process.hrtime.bigint() - start);
    assert.equal(sum, expected * rounds);
    times.push(ns / (rounds * boards.length));
  }
  return median(times);
}

// Every board of a sample of games in progress: the positions a bot is asked about.
const oracle = new Oracle();
const boards = [];
for (let seed = 1; boards.length < 1000; seed++) {
  let moves = [];
  let s = seed;
  while (oracle.bestMove(moves) !== null && moves.length < 8) {
    const free = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((c) => !moves.includes(c));
    s = (s * 1103515245 + 12345) % 2147483648;
    moves = [...moves, free[s % free.length]];
    if (oracle.bestMove(moves) !== null) boards.push(oracle.analyze(moves).board);
  }
}
const expected = boards.reduce((sum, board) => sum + (oracle.bestMove(board) ?? 0), 0);

perCall((board) => oracle.bestMove(board), boards, expected, 3); // warming up
const kept = perCall((board) => oracle.bestMove(board), boards, expected);
const byGame = perCall((board) => bestMove(board), boards, expected);
// A move list takes the general path: the position played move by move.
const lists = [[5, 1], [1, 2, 5], [5, 1, 9, 3]];
const listed = perCall((moves) => oracle.bestMove(moves), lists, lists.reduce((sum, m) => sum + oracle.bestMove(m), 0), 9, 20000);

const perfect = (board) => oracle.bestMove(board);
function auditMs(options) {
  const times = [];
  for (let run = -5; run < 9; run++) {
    const start = performance.now();
    const report = audit(perfect, { recheckSeed: run + 5, ...options });
    if (run >= 0) times.push(performance.now() - start);
    assert.equal(report.verdict, "never loses");
  }
  return median(times);
}
const byHistory = auditMs({});
const stateless = auditMs({ stateless: true });

// The first calls of a fresh process: the module read, compiled and made an instance by the
// first; the first audit, whose code V8 has only compiled quickly so far (it optimises the
// functions it finds hot as they run).
const loads = [];
const firstAudits = [];
for (let run = 0; run < 5; run++) {
  const script = `const t = performance.now(); const ttt = require(${JSON.stringify(entry)}); ttt.bestMove("");
    const a = performance.now(); const oracle = new ttt.Oracle();
    if (ttt.audit((board) => oracle.bestMove(board)).verdict !== "never loses") throw new Error("wrong");
    console.log(a - t, performance.now() - a)`;
  const [load, first] = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).split(" ").map(Number);
  loads.push(load);
  firstAudits.push(first);
}

// 4x4, which the module does not embed: its table solved by the first call that needs it.
const solves = [];
for (let run = 0; run < 5; run++) {
  const script = `const ttt = require(${JSON.stringify(entry)}); ttt.bestMove("");
    const t = performance.now(); const cell = ttt.bestMove("", "4x4");
    if (cell !== 1) throw new Error("wrong: " + cell);
    console.log(performance.now() - t)`;
  solves.push(Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })));
}

const wasm = readFileSync(path.join(here, "..", "ttt_oracle.wasm"));
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
console.log(`best move, a kept Oracle:        ${kept.toFixed(0)} ns a call (median of 9 runs of ${boards.length * 200})`);
console.log(`best move, bestMove(board):      ${byGame.toFixed(0)} ns a call`);
console.log(`best move, a kept Oracle, moves: ${listed.toFixed(0)} ns a call (a move list, [5, 1]...)`);
console.log(`audit of a perfect function:     ${byHistory.toFixed(1)} ms by history, ${stateless.toFixed(1)} ms stateless (medians of 9 after 5, both sides)`);
console.log(`first call of a process:         ${median(loads).toFixed(0)} ms (median of 5: read, compile, instantiate)`);
console.log(`first audit of a process:        ${median(firstAudits).toFixed(1)} ms by history (median of 5)`);
console.log(`4x4's first best move:           ${median(solves).toFixed(0)} ms (median of 5: its table solved)`);
console.log(`ttt_oracle.wasm:                 ${mb(wasm.length)}, ${mb(gzipSync(wasm, { level: 9 }).length)} gzipped`);
