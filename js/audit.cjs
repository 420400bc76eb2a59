"use strict";
// Audits and matches of bots, built-in by spec or JavaScript functions, and the reports they
// give: the JSON of `ttt audit --format json` and `ttt match --format json`, with its keys
// also as properties in camelCase. What a function returned is checked here for its shape,
// so that the message of a broken answer can show the value as JavaScript sees it; the
// module reads the checked answer as an external bot's reply (js/src/jsbot.rs).

const { randomBytes } = require("node:crypto");

module.exports = function audits(glue) {
  const { call, gameOf, gameName, describe, bots, nextBot, DEFAULT_TIMEOUT_MS } = glue;

  /**
   * Reads the options an audit or a match takes: any other is a TypeError. Only the object's
   * own options count, as its keys are the ones checked: an inherited one is not read.
   */
  function optionsOf(options, known) {
    if (options === undefined) return {};
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw new TypeError(`options are an object, not ${describe(options)}`);
    }
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) {
        throw new TypeError(`no option is named ${JSON.stringify(key)}; the options: ${known.join(", ")}`);
      }
    }
    return { ...options };
  }

  /**
   * The seed of the games asked again, as text: the caller's, or 53 fresh random bits, so that
   * the seed a report shows as a JSON number is exact in JavaScript.
   */
  function seedOf(seed) {
    if (seed === undefined || seed === null) return (randomBytes(8).readBigUInt64LE() >> 11n).toString();
    if (typeof seed === "number" && Number.isSafeInteger(seed) && seed >= 0) return String(seed);
    if (typeof seed === "bigint" && seed >= 0n && seed < 1n << 64n) return seed.toString();
    throw new RangeError(
      `recheckSeed is an integer from 0 to 2^64 - 1 (a number or a bigint), not ${describe(seed)}`,
    );
  }

  /** A yes-or-no option: `true`, `false` or left out, nothing that only looks like one. */
  function flagOf(name, value) {
    if (value === undefined || typeof value === "boolean") return value === true;
    throw new TypeError(`${name} is true or false, not ${describe(value)}`);
  }

  function timeoutOf(timeoutMs) {
    if (timeoutMs === undefined) return DEFAULT_TIMEOUT_MS;
    if (typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= 86_400_000) return timeoutMs;
    throw new RangeError(
      `timeoutMs is a number of milliseconds between 0 and 86400000, not ${describe(timeoutMs)}`,
    );
  }

  /**
   * A bot for the module: a built-in spec, or a function registered for the call. `held`
   * collects the numbers to drop once the call returns.
   */
  function botOf(bot, game, { name, stateless, timeoutMs }, held) {
    stateless = flagOf("stateless", stateless);
    // Checked for a built-in bot too, which has no use for it, so that a mistake shows.
    const timeout = timeoutOf(timeoutMs);
    if (typeof bot === "string") {
      if (stateless) {
        throw new Error("stateless is said of JavaScript bots; a built-in bot knows what it depends on");
      }
      return { spec: bot };
    }
    if (typeof bot !== "function") {
      throw new TypeError(
        `a bot is a built-in spec ("casual:0.3") or a function (board, toMove) => cell, not ${describe(bot)}`,
      );
    }
    if (name !== undefined && typeof name !== "string") {
      throw new TypeError(`a bot's name is a string, not ${describe(name)}`);
    }
    const id = nextBot();
    bots.set(id, { fn: bot, cells: gameOf(game).cells, timeoutMs: timeout });
    held.push(id);
    return {
      js: id,
      name: name ?? (bot.name || "javascript bot"),
      stateless,
      timeout_ms: timeout,
    };
  }

  /** Runs `request` with the functions of `held` registered, and drops them after. */
  function withBots(held, request) {
    try {
      return call(request);
    } finally {
      for (const id of held) bots.delete(id);
    }
  }

  /**
   * Audits `bot` (a built-in spec such as "smartbot" or "casual:0.3", or a function `(board,
   * toMove) => cell`) on `options.side` ("x", "o" or "both") of `options.game` ("3x3"): every
   * reply of the opponent and every choice of the bot, to the end of every game.
   */
  function audit(bot, options) {
    const known = ["game", "side", "name", "stateless", "timeoutMs", "recheckSeed", "allMistakes"];
    const o = optionsOf(options, known);
    const game = gameName(o.game);
    const held = [];
    const request = {
      op: "audit",
      game,
      side: o.side === undefined ? "both" : o.side,
      recheck_seed: seedOf(o.recheckSeed),
      all_mistakes: flagOf("allMistakes", o.allMistakes),
    };
    if (typeof request.side !== "string") {
      throw new TypeError(`a side is "x", "o" or "both", not ${describe(request.side)}`);
    }
    if (typeof bot === "string" && o.name !== undefined) {
      if (typeof o.name !== "string") throw new TypeError(`a bot's name is a string, not ${describe(o.name)}`);
      request.name = o.name;
    }
    request.bot = botOf(bot, game, o, held);
    return new AuditReport(withBots(held, request), BigInt(request.recheck_seed));
  }

  /**
   * Plays `x` against `o` (specs or functions, as `audit` takes) through every game of
   * `options.game`, every choice of both: the exact odds of each way a game ends.
   */
  function match(x, o, options) {
    const opts = optionsOf(options, ["game", "timeoutMs", "recheckSeed"]);
    const game = gameName(opts.game);
    const held = [];
    const request = { op: "match", game, recheck_seed: seedOf(opts.recheckSeed) };
    request.x = botOf(x, game, { timeoutMs: opts.timeoutMs }, held);
    request.o = botOf(o, game, { timeoutMs: opts.timeoutMs }, held);
    return new MatchReport(withBots(held, request), BigInt(request.recheck_seed));
  }

  const expected = (cells) =>
    `expected a cell 1..${cells}, an array of cells or an object of cell to probability`;

  /**
   * What a function's `answer` means on a board of `cells` cells, for the module: the cell,
   * or `{cells}`, `{odds}` (each cell, its probability as text, and that as given), or
   * `{broken}` saying why it is no answer.
   */
  function classify(answer, cells) {
    const cell = (item) => Number.isInteger(item) && item >= 1 && item <= cells;
    if (typeof answer === "number") {
      if (cell(answer)) return answer;
      return { broken: `${describe(answer)} is not a cell; ${expected(cells)}` };
    }
    if (answer !== null && (typeof answer === "object" || typeof answer === "function")) {
      const then = answer.then;
      if (typeof then === "function") {
        // Rejected, it would end Node as an unhandled rejection.
        Promise.resolve(answer).catch(() => {});
        const what =
          answer instanceof Promise
            ? "a Promise (is it an async function?)"
            : `${describe(answer)}, a thenable`;
        return {
          broken:
            `it returned ${what}, and an audit cannot wait for one: it asks synchronously, ` +
            "from inside the module; audit a function that returns its cell (not an async one)",
        };
      }
    }
    if (Array.isArray(answer)) {
      const seen = [];
      for (let i = 0; i < answer.length; i++) {
        const item = answer[i];
        if (!cell(item)) return { broken: `${describe(item)} is not a cell; ${expected(cells)}` };
        if (seen.includes(item)) {
          return {
            broken: `cell ${item} is named twice in its array; name each cell once (an object gives cells their chances)`,
          };
        }
        seen.push(item);
      }
      if (seen.length === 0) return { broken: `an empty array; ${expected(cells)}` };
      return { cells: seen };
    }
    const entries = entriesOf(answer);
    if (entries === null) return { broken: `${describe(answer)} is not a cell; ${expected(cells)}` };
    if (entries.length === 0) return { broken: `an empty ${answer instanceof Map ? "Map" : "object"}; ${expected(cells)}` };
    const odds = [];
    for (const [key, value] of entries) {
      const number = typeof key === "string" && /^[1-9][0-9]*$/.test(key) ? Number(key) : key;
      if (!cell(number)) return { broken: `${describe(key)} is not a cell; ${expected(cells)}` };
      if (odds.some(([seen]) => seen === number)) {
        return { broken: `cell ${number} is named twice (by ${describe(key)}); name each cell once` };
      }
      let text;
      if (typeof value === "number") text = String(value);
      else if (typeof value === "string") text = value;
      else return { broken: `the probability of cell ${number} is ${describe(value)}` };
      odds.push([number, text, describe(value)]);
    }
    return { odds };
  }

  /** The entries of a Map or of a plain object; null for anything else. */
  function entriesOf(answer) {
    if (answer instanceof Map) return [...answer.entries()];
    if (answer === null || typeof answer !== "object") return null;
    const prototype = Object.getPrototypeOf(answer);
    if (prototype !== Object.prototype && prototype !== null) return null;
    return Object.entries(answer);
  }

  return { audit, match, classify, AuditReport, SideReport, MatchReport };
};

const GRAVEST_FIRST = [
  "answers differently",
  "can lose, breaks the rules",
  "can lose",
  "breaks the rules",
  "never loses",
];

/**
 * What an audit found: the verdict, the shortest loss and forfeit over the sides, and each
 * side audited; `toJSON()` is what `ttt audit --format json` prints for the same bot and sides.
 */
class AuditReport {
  #json;

  constructor({ report, verdicts, mistakes }, recheckSeed) {
    this.#json = report;
    /**
     * The seed of the games asked again, exactly, as a bigint: `toJSON()` has it as a JSON
     * number, which JavaScript reads rounded past 2^53 (a seed given as a bigint).
     */
    this.recheckSeed = recheckSeed;
    const bot = report.bots[0];
    /** The bot's name. */
    this.bot = bot.bot;
    /** The game, by name. */
    this.game = report.game ?? "3x3";
    /** Each side audited, X first. */
    this.sides = bot.sides.map((side, i) => new SideReport(side, verdicts[i], mistakes[i]));
    /** The gravest side's verdict, or null when a search without a table did not settle it. */
    this.verdict = verdicts.includes(null)
      ? null
      : (GRAVEST_FIRST.find((verdict) => verdicts.includes(verdict)) ?? null);
    /** Whether every side audited never loses (on the board or by a forfeit). */
    this.neverLoses = this.sides.every((side) => side.neverLoses);
    /** The shortest game lost on the board over the sides, as a move list; null if none. */
    this.shortestLoss = shortest(this.sides.map((side) => side.shortestLoss));
    /** The shortest game forfeited (a taken cell), as a move list; null if none. */
    this.shortestForfeit = shortest(this.sides.map((side) => side.shortestForfeit));
    /** The mistakes of every side, X's first, each as a line of `ttt audit --mistakes FILE`. */
    this.mistakes = this.sides.flatMap((side) => side.mistakes ?? []);
  }

  /** The report as `ttt audit BOT --side SIDE --format json` prints it. */
  toJSON() {
    return structuredClone(this.#json);
  }
}

function shortest(lines) {
  return lines.filter((line) => line !== null).reduce((a, b) => (a === null || b.length < a.length ? b : a), null);
}

/** What an audit found on one side: the keys of its JSON in camelCase. */
class SideReport {
  #json;

  constructor(json, verdict, mistakes) {
    this.#json = json;
    /** "X" or "O". */
    this.side = json.side;
    /** "never loses", "can lose", ...; null when a search without a table did not settle it. */
    this.verdict = verdict;
    this.neverLoses = json.never_loses === true;
    this.shortestLoss = json.shortest_loss ?? null;
    this.shortestForfeit = json.shortest_illegal ?? null;
    this.decisionPoints = json.decision_points ?? null;
    this.games = json.games ?? null;
    this.losingGames = json.losing_games ?? null;
    this.forfeitedGames = json.illegal_games ?? null;
    /** The exact odds against a random opponent: win, draw, loss, illegal, as "p/q". */
    this.vsRandom = json.vs_random?.exact ?? null;
    /** The exact odds against a perfect opponent, as `vsRandom`. */
    this.vsPerfect = json.vs_perfect?.exact ?? null;
    /** The worst an opponent who knows the bot can do: `{loss: "p/q", line}`, or null. */
    this.worstCase = json.worst_case?.loss ? { loss: json.worst_case.loss, line: json.worst_case.line } : null;
    /** The side's mistakes (the first 100, or all with `allMistakes`); null without a table. */
    this.mistakes = mistakes;
    /** How many mistakes the side made, each position and move once; null without a table. */
    this.mistakesTotal = json.mistakes?.total ?? null;
  }

  /** The side as it appears in the report's `toJSON().bots[0].sides`. */
  toJSON() {
    return structuredClone(this.#json);
  }
}

/** The exact odds of every way a match ends, each as "p/q". */
class MatchReport {
  #json;

  constructor({ report, answers_differently }, recheckSeed) {
    this.#json = report;
    /** The seed of the games asked again, exactly, as `AuditReport.recheckSeed`. */
    this.recheckSeed = recheckSeed;
    this.x = report.x;
    this.o = report.o;
    this.games = report.games;
    this.xWins = report.exact.x_wins;
    this.draws = report.exact.draws;
    this.oWins = report.exact.o_wins;
    this.xForfeits = report.exact.x_forfeits;
    this.oForfeits = report.exact.o_forfeits;
    /** "X" or "O" when that side's function answered differently when asked again; or null. */
    this.answersDifferently = answers_differently;
  }

  /** The report in the JSON form of `ttt match X O --format json` for one pairing. */
  toJSON() {
    return structuredClone(this.#json);
  }
}
