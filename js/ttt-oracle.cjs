"use strict";
// ttt-oracle for Node: the library, compiled to WebAssembly (ttt_oracle.wasm, built from the
// crate by js/src), and this glue, which passes text through the module's memory and turns
// its replies into values and exceptions. The glue holds no rule of the game: every answer,
// and every message of a bad game, position or spec, is the crate's; what it checks is the
// type of what JavaScript passes, and the shape of a bot's answer (js/src/lib.rs says why
// there is no wasm-bindgen here). The ES module entry (index.mjs) re-exports this one.
//
// Everything is synchronous: the module is compiled on first use, and a JavaScript bot is
// called from inside the audit, which waits for its answer. A bot that throws, or returns
// anything that is not an answer, stops the audit with a BotError, as a program that breaks
// the line protocol stops `ttt audit --cmd`; nothing a bot does reaches the module's memory.
// A panic of the module (a bug of ours) or an exception through it ends its instance: the
// call throws an Error saying so, and the next call starts a new instance.

const fs = require("node:fs");
const path = require("node:path");
const util = require("node:util");

/** The module's file: `npm run build` makes it from the crate (js/package.json). */
const WASM = path.join(__dirname, "ttt_oracle.wasm");
/** The milliseconds a bot may take to answer, as `ttt audit --timeout-ms` (2000). */
const DEFAULT_TIMEOUT_MS = 2000;
/** How deep calls may nest (a bot that calls the package, which calls a bot...). */
const MAX_DEPTH = 16;
/** The size of the module's scratch buffer (`SCRATCH` in js/src/lib.rs). */
const SCRATCH = 128;

/** An audit or a match that could not run to its end: over its budget or a bot's failure. */
class AuditFailed extends Error {}
AuditFailed.prototype.name = "AuditFailed";

/**
 * A bot that could not answer at all: a function that threw, returned something that is not
 * an answer, or took longer than its timeout; the message names the bot and the request.
 */
class BotError extends AuditFailed {}
BotError.prototype.name = "BotError";

/** Thrown through the module's frames to end an instance that failed inside a bot. */
class Ended extends Error {}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

let compiled = null;
/** The instance in use: its exports, a view of its memory and what the glue knows of it. */
let live = null;
let generation = 0;
/** The JavaScript bots of the audits and matches running, by number. */
const bots = new Map();
let nextBot = 1;

function instance() {
  if (live !== null) return live;
  if (compiled === null) {
    let bytes;
    try {
      bytes = fs.readFileSync(WASM);
    } catch (error) {
      throw new Error(
        `ttt-oracle: cannot read ${WASM} (${error.code}); from a checkout, build it with ` +
          "`npm run build` in js/ (it needs Rust and its wasm32-unknown-unknown target)",
      );
    }
    compiled = new WebAssembly.Module(bytes);
  }
  const state = {
    generation: ++generation,
    depth: 0,
    ended: false,
    panic: null,
    exports: null,
    view: null,
    scratch: 0,
  };
  const imports = {
    ttt: {
      panicked: (ptr, len) => {
        state.panic = read(state, ptr, len);
      },
      ask: (bot, ptr, len, mark) => ask(state, bot, ptr, len, mark),
      // A solve's progress, which only the page's worker shows.
      solving: () => {},
    },
  };
  state.exports = new WebAssembly.Instance(compiled, imports).exports;
  state.view = new Uint8Array(state.exports.memory.buffer);
  state.exports.ttt_init();
  state.scratch = state.exports.ttt_scratch();
  live = state;
  return state;
}

/**
 * The memory as bytes; a new view once the memory has grown, which detaches the old one's
 * buffer (its length is then 0: quicker to ask than the memory's buffer).
 */
function view(state) {
  if (state.view.length === 0) state.view = new Uint8Array(state.exports.memory.buffer);
  return state.view;
}

// The module's addresses are i32: past 2 GiB they come back negative, so each is read as
// unsigned (`>>> 0`) before it indexes the memory.
function read(state, ptr, len) {
  const at = ptr >>> 0;
  return decoder.decode(view(state).subarray(at, at + len));
}

/** The instance, entered for one call; `leave` when it returns. */
function enter() {
  const state = instance();
  if (state.depth >= MAX_DEPTH) {
    throw new Error(
      `ttt-oracle: calls nested ${MAX_DEPTH} deep (a bot that calls the package, which ` +
        "calls the bot...); stopped there",
    );
  }
  state.depth++;
  return state;
}

/**
 * What an exception out of the module's frames means: a trap (a panic, memory exhausted) or
 * an exception through them leaves its memory as it was mid-call, so the instance ends.
 */
function failed(state, error) {
  state.ended = true;
  if (live === state) live = null;
  if (error instanceof Ended) return error;
  const why = state.panic ?? `${error.name}: ${error.message}`;
  return new Ended(
    `ttt-oracle's WebAssembly module failed (${why}); its instance is dropped, and the ` +
      "next call starts a new one",
  );
}

/**
 * A JSON.stringify replacer: a string with a lone surrogate (half a UTF-16 pair) gets U+FFFD
 * for it, as UTF-8 has no such thing and the module's JSON reader would refuse the escape
 * JSON.stringify writes for it (Node 20 and later; Node 18 lacks `toWellFormed`).
 */
function wellFormed(_key, value) {
  return typeof value === "string" && value.toWellFormed ? value.toWellFormed() : value;
}

/** Passes `text` to `body(ptr, len)` in a buffer of the module's. */
function withText(state, text, body) {
  const bytes = encoder.encode(text);
  const ptr = state.exports.ttt_alloc(bytes.length) >>> 0;
  view(state).set(bytes, ptr);
  const result = body(ptr, bytes.length);
  state.exports.ttt_free(ptr, bytes.length);
  return result;
}

function replyOf(state) {
  const exports = state.exports;
  return JSON.parse(read(state, exports.ttt_reply_ptr(), exports.ttt_reply_len()));
}

function raise(error) {
  const kind = { bot: BotError, audit: AuditFailed }[error.kind] ?? Error;
  return new kind(error.message);
}

/** Sends a JSON request to the module: its answer, or the error it raises. */
function call(request) {
  const text = JSON.stringify(request, wellFormed);
  const state = enter();
  let reply;
  try {
    withText(state, text, (ptr, len) => state.exports.ttt_call(ptr, len));
    reply = replyOf(state);
  } catch (error) {
    throw failed(state, error);
  } finally {
    state.depth--;
  }
  if (reply.error) throw raise(reply.error);
  return reply.ok;
}

function gameName(game) {
  if (game === undefined) return "3x3";
  if (typeof game !== "string") {
    throw new TypeError(`a game is named by a string ("3x3", "4x4k3"), not ${describe(game)}`);
  }
  return game;
}

/** A position as text: a board string or a move list, or an array of cell numbers. */
function positionText(position) {
  if (typeof position === "string") return position;
  if (Array.isArray(position)) {
    for (const cell of position) {
      if (!Number.isSafeInteger(cell) || cell < 0) {
        throw new TypeError(`a move is a cell number, not ${describe(cell)}`);
      }
    }
    return position.join(" ");
  }
  throw new TypeError(
    "a position is a board string, a move list string or an array of cell numbers, not " +
      describe(position),
  );
}

/** The games asked about, by the name given: the crate's name and the number of cells. */
const games = new Map();

function gameOf(game) {
  const name = gameName(game);
  let known = games.get(name);
  if (known === undefined) {
    known = call({ op: "game", game: name });
    games.set(name, known);
  }
  return known;
}

const closing = new FinalizationRegistry(({ generation, handle }) => {
  if (live !== null && live.generation === generation) live.exports.ttt_close(handle);
});

/**
 * The solved table of one game: every question about a position in constant time.
 * `new Oracle("4x4")` solves the game first when its table is not embedded.
 */
class Oracle {
  #game;
  #generation = 0;
  #handle = 0;

  constructor(game = "3x3") {
    this.#game = gameOf(game).name;
    this.#open();
  }

  /** The game, by name ("3x3", "4x4k3"...). */
  get game() {
    return this.#game;
  }

  #open() {
    const state = enter();
    let handle;
    try {
      handle = withText(state, this.#game, (ptr, len) => state.exports.ttt_open(ptr, len));
    } catch (error) {
      throw failed(state, error);
    } finally {
      state.depth--;
    }
    if (handle === 0) throw raise(replyOf(state).error);
    this.#generation = state.generation;
    this.#handle = handle;
    closing.register(this, { generation: state.generation, handle });
  }

  /** The best move (a cell number), or null when the game is over; ties to the lowest cell. */
  bestMove(position) {
    const text = positionText(position);
    if (live === null || live.generation !== this.#generation) this.#open();
    const state = live;
    const n = text.length;
    if (n >= SCRATCH) {
      return call({ op: "best_move", game: this.#game, position: text });
    }
    const bytes = view(state);
    const scratch = state.scratch;
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code > 127) return call({ op: "best_move", game: this.#game, position: text });
      bytes[scratch + i] = code;
    }
    bytes[scratch + n] = 10; // the newline that ends a line of `ttt best -`
    let cell;
    try {
      cell = state.exports.ttt_best_move(this.#handle, n);
    } catch (error) {
      throw failed(state, error);
    }
    if (cell > 0) return cell;
    if (cell === 0) return null;
    throw raise(replyOf(state).error);
  }

  /** Every optimal move, lowest cell first; empty when the game is over. */
  bestMoves(position) {
    return call({ op: "best_moves", game: this.#game, position: positionText(position) });
  }

  /**
   * The position analysed, as `ttt analyze --format json` prints it: board, to_move, status,
   * value ("win", "draw", "loss" for the side to move), remoteness (plies to the end under
   * perfect play), best, line (the perfect line) and moves (each move's value).
   */
  analyze(position) {
    return call({ op: "analyze", game: this.#game, position: positionText(position) });
  }

  [util.inspect.custom]() {
    return `Oracle(${JSON.stringify(this.#game)})`;
  }
}

/** The oracles of the functions below, one per game name. */
const oracles = new Map();

function oracleOf(game) {
  const name = gameName(game);
  let oracle = oracles.get(name);
  if (oracle === undefined) {
    oracle = new Oracle(name);
    oracles.set(name, oracle);
  }
  return oracle;
}

/** The best move in `position` of `game` ("3x3" by default), or null when the game is over. */
function bestMove(position, game) {
  return oracleOf(game).bestMove(position);
}

/** Every optimal move in `position` of `game`, lowest cell first. */
function bestMoves(position, game) {
  return oracleOf(game).bestMoves(position);
}

/** `position` of `game` analysed: see `Oracle.analyze`. */
function analyze(position, game) {
  return oracleOf(game).analyze(position);
}

/** Every move of a game judged against the table, as `ttt review --format json` prints it. */
function review(moves, game) {
  return call({ op: "review", game: gameName(game), moves: positionText(moves) });
}

/**
 * The built-in bots and the forms that take a parameter, as `ttt bots --format json` prints
 * them (but `cmd:`, which starts a program: no bot here can).
 */
function bots_() {
  return call({ op: "bots" });
}

module.exports = {
  AuditFailed,
  BotError,
  Oracle,
  bestMove,
  bestMoves,
  analyze,
  review,
  bots: bots_,
};

// Audits and matches (audit.cjs) share the glue's insides.
const audits = require("./audit.cjs")({
  call,
  gameOf,
  gameName,
  describe,
  bots,
  nextBot: () => nextBot++,
  DEFAULT_TIMEOUT_MS,
});
module.exports.audit = audits.audit;
module.exports.match = audits.match;
module.exports.AuditReport = audits.AuditReport;
module.exports.SideReport = audits.SideReport;
module.exports.MatchReport = audits.MatchReport;
// The exports as a default too, as index.d.ts declares them for TypeScript (which reads this
// entry as a module with a default export): `require("ttt-oracle").default` is the package.
// Not enumerable, so that it is no export of its own.
Object.defineProperty(module.exports, "default", { value: module.exports });

/** A value for a message: how it reads, cut to 60 characters, and its type. */
function describe(value) {
  let shown;
  try {
    shown =
      typeof value === "string"
        ? JSON.stringify(value)
        : util.inspect(value, { depth: 1, breakLength: Infinity, maxArrayLength: 12 });
  } catch {
    shown = "?";
  }
  if (shown.length > 60) shown = `${shown.slice(0, 57)}...`;
  return `${shown} (${kind(value)})`;
}

function kind(value) {
  if (value === null) return "null";
  if (typeof value !== "object" && typeof value !== "function") return typeof value;
  try {
    return Object.prototype.toString.call(value).slice(8, -1);
  } catch {
    return typeof value;
  }
}

/**
 * The module asks bot `id` about the board of `len` bytes at `ptr`, `mark` to move: the cell
 * it returned, or 0 with its answer handed over as JSON (module's `ttt_answer`).
 */
function ask(state, id, ptr, len, mark) {
  const bot = bots.get(id);
  const at = ptr >>> 0;
  const board = String.fromCharCode.apply(null, view(state).subarray(at, at + len));
  const toMove = mark === 88 ? "X" : "O";
  let answer;
  try {
    const started = performance.now();
    const fn = bot.fn;
    let returned;
    try {
      returned = fn(board, toMove);
    } catch (error) {
      answer = { threw: thrown(error) };
    }
    if (answer === undefined) answer = audits.classify(returned, bot.cells);
    // Late, it is late whatever it did, and what it threw is said too.
    if (performance.now() - started > bot.timeoutMs) answer = { late: true, threw: answer?.threw };
  } catch (error) {
    answer = { broken: `its answer could not be read: ${thrown(error)}` };
  }
  // A call of the bot's into the package that ended this instance: out through its frames.
  if (state.ended || live !== state) {
    throw new Ended(
      "ttt-oracle's WebAssembly module failed in a call the bot made into the package; its " +
        "instance is dropped, and the next call starts a new one",
    );
  }
  if (typeof answer === "number") return answer;
  withText(state, JSON.stringify(answer, wellFormed), (p, n) => state.exports.ttt_answer(p, n));
  return 0;
}

/**
 * What a bot threw, for the message: an Error's stack down to the bot's own frames (not the
 * glue's and the module's that called it), anything else described.
 */
function thrown(error) {
  try {
    if (error instanceof Error) {
      const lines = String(error.stack ?? error).split("\n");
      const glue = lines.findIndex((line) => line.includes(__filename));
      return (glue > 0 ? lines.slice(0, glue) : lines).join("\n");
    }
  } catch {
    // A stack that cannot be read: described below.
  }
  return describe(error);
}
