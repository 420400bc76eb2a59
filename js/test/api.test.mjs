// The JavaScript surface: games, positions, the oracle, reviews, matches and bots, through
// both entries, compared with the command line where it prints the same thing.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { inspect } from "node:util";

import { PACKAGE, cli, esm, ttt } from "./package.mjs";

test("positions are boards or move lists, as strings or arrays", () => {
  assert.equal(ttt.bestMove("XO..X...."), 9);
  assert.equal(ttt.bestMove("XO./.X./..."), 9);
  assert.equal(ttt.bestMove("1 2 5"), 9);
  assert.equal(ttt.bestMove([1, 2, 5]), 9);
  assert.equal(ttt.bestMove(""), 1);
  assert.deepEqual(ttt.bestMoves("5 1"), [2, 3, 4, 6, 7, 8, 9]);
  assert.equal(ttt.bestMove("XXXOO...."), null);
  assert.deepEqual(ttt.bestMoves("XXXOO...."), []);
});

test("half a UTF-16 pair in a position or a game is the crate's error about the character", () => {
  assert.throws(() => ttt.bestMove("\uD800"), (error) => error.message.startsWith('unknown character "\\u{fffd}" at position 1'));
  assert.throws(() => ttt.bestMove("", "3x3\uD800"), (error) => error.message.includes("is not a game"));
});

test("other games by name, each with its oracle", () => {
  assert.equal(ttt.bestMove("XXX./OOO./..../....", "4x4"), 4);
  assert.equal(new ttt.Oracle("4x4k3").bestMove(""), 6);
  const oracle = new ttt.Oracle("4x3");
  assert.equal(oracle.game, "4x3");
  assert.equal(inspect(oracle), 'Oracle("4x3")');
  assert.equal(new ttt.Oracle().game, "3x3");
  // A game with no embedded table, solved on first use.
  assert.equal(new ttt.Oracle("3x3k2").bestMove(""), 1);
});

test("every best move agrees with the command line's, over every reachable 3x3 board", () => {
  const records = cli("export", "--format", "jsonl").trim().split("\n").map(JSON.parse);
  assert.equal(records.length, 5478);
  const oracle = new ttt.Oracle();
  for (const record of records) {
    const best = record.best.length ? record.best[0] : null;
    assert.equal(oracle.bestMove(record.board), best, record.board);
    assert.deepEqual(oracle.bestMoves(record.board), record.best, record.board);
  }
});

test("analyze is what `ttt analyze --format json` prints", () => {
  for (const [moves, game] of [["5 1 9", "3x3"], ["6 1", "4x4"], ["", "3x4"]]) {
    const printed = JSON.parse(cli("analyze", "--moves", moves, "--game", game, "--format", "json"));
    assert.deepEqual(ttt.analyze(moves, game), printed);
    assert.deepEqual(new ttt.Oracle(game).analyze(moves), printed);
  }
  const analysis = ttt.analyze([5, 1, 9]);
  assert.deepEqual(Object.keys(analysis), ["board", "to_move", "status", "value", "remoteness", "best", "line", "moves"]);
  assert.deepEqual(analysis.line, [3, 2, 8, 4, 6, 7]);
});

const BAD = [
  ["a short board", () => ttt.bestMove("XO..X..."), "a board has 9 cells, this has 8 (write 9 of X, O and . row-major, e.g. X...O....)"],
  ["a cell off the board", () => ttt.bestMove("10"), 'move 1 is "10", not a cell: cells are numbered 1 to 9, each written as one digit'],
  ["a cell off the board, in an array", () => ttt.bestMoves([5, 10]), 'move 2 is "10", not a cell: cells are numbered 1 to 9, each written as one digit'],
  ["an unknown game", () => ttt.bestMove("", "3x3x"), /^"3x3x" is not a game: write MxN/],
  ["an unknown game, for an oracle", () => new ttt.Oracle("9"), /^"9" is not a game/],
  ["a game too large for a table", () => new ttt.Oracle("6x6"), /6x6/],
  ["a taken cell", () => ttt.analyze("5 5"), /5/],
  ["a bad review", () => ttt.review("1 2 3 4 5 6 7 8"), /./],
  ["a non-ASCII board", () => ttt.bestMove("XO..X...é"), /é/],
];

for (const [name, call, message] of BAD) {
  test(`${name} is an Error with the crate's message`, () => {
    assert.throws(call, (error) => {
      assert.equal(error.constructor, Error);
      if (typeof message === "string") assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    });
  });
}

test("the messages are the command line's, which says what it read first", () => {
  const printed = (args) => {
    try {
      cli(...args);
    } catch (error) {
      return error.stderr.trim().replace(/^error: /, "");
    }
    assert.fail(`ttt ${args.join(" ")} succeeded`);
  };
  const same = (call, args) =>
    assert.throws(call, (error) => {
      assert.equal(printed(args), `${args.at(-2) === "--moves" ? "bad move list" : "bad board"} "${args.at(-1)}": ${error.message}`);
      return true;
    });
  same(() => ttt.bestMove("XO..X..."), ["best", "XO..X..."]);
  same(() => ttt.bestMove("10"), ["best", "--moves", "10"]);
});

test("a position or a game of another type is a TypeError", () => {
  for (const position of [5, null, undefined, {}, ["5"], [1.5], [-1], [2 ** 60]]) {
    assert.throws(() => ttt.bestMove(position), TypeError, inspect(position));
    assert.throws(() => ttt.analyze(position), TypeError, inspect(position));
  }
  assert.throws(() => ttt.bestMove("", 3), TypeError);
  assert.throws(() => new ttt.Oracle(null), TypeError);
});

test("a board followed by a newline and more is read whole, as the command line reads it", () => {
  for (const text of ["XO..X....\nX........", "XO..X....\n", "\nXO..X...."]) {
    let printed;
    try {
      printed = ttt.bestMove(text);
    } catch (error) {
      printed = error.message;
    }
    const general = (() => {
      try {
        return ttt.bestMoves(text)[0] ?? null;
      } catch (error) {
        return error.message;
      }
    })();
    assert.equal(printed, general, JSON.stringify(text));
  }
});

test("a board mistyped inside a long string is the crate's error, not a crash", () => {
  assert.throws(() => ttt.bestMove("X".repeat(1000)), /1000/);
  assert.throws(() => ttt.bestMove("5 ".repeat(200)), /move 2/);
});

test("review is what `ttt review --format json` prints", () => {
  const printed = JSON.parse(cli("review", "--moves", "5 3 9 1 4 2", "--format", "json"));
  assert.deepEqual(ttt.review("5 3 9 1 4 2"), printed);
  assert.deepEqual(ttt.review([5, 3, 9, 1, 4, 2]), printed);
  assert.equal(ttt.review("5 3 9 1 4 2").plies[4].verdict, "draw_to_loss");
  const other = JSON.parse(cli("review", "--game", "4x4", "--moves", "6 1 7", "--format", "json"));
  assert.deepEqual(ttt.review("6 1 7", "4x4"), other);
});

test("match has the command line's exact odds", () => {
  const printed = JSON.parse(cli("match", "perfect", "smartbot", "--format", "json")).matches[0];
  const report = ttt.match("perfect", "smartbot");
  assert.deepEqual(report.toJSON(), printed);
  assert.deepEqual(JSON.parse(JSON.stringify(report)), printed);
  assert.equal(report.games, 784);
  assert.deepEqual([report.xWins, report.draws, report.oWins], ["107/567", "460/567", "0/1"]);
  assert.equal(report.answersDifferently, null);
  const other = JSON.parse(cli("match", "perfect", "random", "--game", "3x4", "--format", "json")).matches[0];
  assert.deepEqual(ttt.match("perfect", "random", { game: "3x4" }).toJSON(), other);
});

test("a match of JavaScript functions", () => {
  const oracle = new ttt.Oracle();
  const perfect = (board) => oracle.bestMove(board);
  const report = ttt.match(perfect, (board) => board.indexOf(".") + 1, { recheckSeed: 1 });
  assert.equal(report.x, "perfect");
  assert.equal(report.oWins, "0/1");
  assert.equal(report.games, 1);
  assert.equal(ttt.match(perfect, perfect).draws, "1/1");
});

test("bots is what `ttt bots --format json` prints, but the form that starts a program", () => {
  const printed = JSON.parse(cli("bots", "--format", "json"));
  printed.parameterised = printed.parameterised.filter((form) => !form.form.startsWith("cmd:"));
  assert.deepEqual(ttt.bots(), printed);
  assert.ok(ttt.bots().bots.some((bot) => bot.name === "smartbot"));
});

test("the ES module and CommonJS entries export the same", () => {
  const names = Object.keys(ttt).sort();
  assert.deepEqual(Object.keys(esm).filter((name) => name !== "default").sort(), names);
  for (const name of names) assert.equal(esm[name], ttt[name], name);
  assert.equal(esm.default, ttt);
});

test("the type declarations name every export", () => {
  const types = readFileSync(path.join(PACKAGE, "index.d.ts"), "utf8");
  for (const name of Object.keys(ttt)) {
    assert.match(types, new RegExp(`export (declare )?(function|class|const) ${name}\\b`), name);
  }
  const declared = [...types.matchAll(/export (?:declare )?(?:function|class|const) (\w+)/g)];
  for (const [, name] of declared) assert.ok(name in ttt, `${name} is declared, not exported`);
});

test("the package.json's entries are the files tested", () => {
  const manifest = JSON.parse(readFileSync(path.join(PACKAGE, "package.json"), "utf8"));
  const entry = manifest.exports["."];
  assert.equal(entry.require, "./ttt-oracle.cjs");
  assert.equal(entry.import, "./index.mjs");
  assert.equal(entry.types, "./index.d.ts");
});
