// Audits of built-in specs and of JavaScript functions, well and badly behaved.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";

import { PACKAGE, ROOT, cli, ttt } from "./package.mjs";

const oracle = new ttt.Oracle();
const perfect = (board) => oracle.bestMove(board);
const firstFree = (board) => board.indexOf(".") + 1;
const free = (board) => [...board].flatMap((c, i) => (c === "." ? [i + 1] : []));

test("a built-in spec", () => {
  const report = ttt.audit("smartbot", { side: "x" });
  assert.equal(report.verdict, "can lose");
  assert.equal(report.bot, "smartbot");
  const [side] = report.sides;
  assert.equal(side.side, "X");
  assert.deepEqual(side.shortestLoss, [1, 3, 2, 4, 7, 6, 5, 9]);
  assert.equal(side.losingGames, 38);
  assert.equal(side.shortestForfeit, null);
  assert.deepEqual(Object.keys(side.vsRandom), ["win", "draw", "loss", "illegal"]);
  assert.ok(side.worstCase.loss.includes("/") && side.worstCase.line.length > 0);
});

for (const bot of ["smartbot", "marcelo", "casual:0.3"]) {
  for (const side of ["x", "o", "both"]) {
    test(`toJSON of ${bot} on ${side} is the command line's JSON`, () => {
      const printed = JSON.parse(cli("audit", bot, "--side", side, "--format", "json"));
      assert.deepEqual(ttt.audit(bot, { side }).toJSON(), printed);
    });
  }
}

test("toJSON on another game, and under another name", () => {
  const printed = JSON.parse(cli("audit", "perfect", "--game", "3x4", "--side", "o", "--format", "json"));
  assert.deepEqual(ttt.audit("perfect", { game: "3x4", side: "o" }).toJSON(), printed);
  assert.equal(ttt.audit("perfect", { side: "x", name: "mine" }).toJSON().bots[0].bot, "mine");
});

for (const game of ["3x3", "3x4"]) {
  test(`mistakes on ${game} are the lines of the command line's --mistakes file`, () => {
    const every = cli("audit", "random", "--game", game, "--mistakes", "-").trim().split("\n").map(JSON.parse);
    const report = ttt.audit("random", { game, allMistakes: true });
    // As text, keys in order: quicker than comparing 224,762 objects on 3x4.
    const text = (lines) => lines.map((line) => JSON.stringify(line)).join("\n");
    assert.equal(text(report.mistakes), text(every));
    const [x, o] = report.sides;
    assert.equal(text([...x.mistakes, ...o.mistakes]), text(every));
    assert.deepEqual(
      [x.mistakesTotal, o.mistakesTotal],
      ["X", "O"].map((side) => every.filter((line) => line.side === side).length),
    );
    // Without allMistakes, the first 100 of each side, as the JSON's "first".
    const first = ttt.audit("random", { game });
    for (const [side, listed] of first.sides.map((side, i) => [side, [x, o][i]])) {
      assert.deepEqual(side.mistakes, listed.mistakes.slice(0, 100));
      assert.equal(side.toJSON().mistakes.first.length, side.mistakes.length);
    }
    assert.ok(game === "3x3" || (first.sides[0].mistakes.length === 100 && x.mistakesTotal > 100));
  });
}

test("a bot that never errs has no mistakes", () => {
  const report = ttt.audit("perfect");
  assert.deepEqual(report.mistakes, []);
  assert.deepEqual(report.sides.map((side) => side.mistakesTotal), [0, 0]);
});

test("a JavaScript function's report is that of the same program over the line protocol", () => {
  const bot = path.join(ROOT, "js", "test", "bots", "perfect.cjs");
  const printed = JSON.parse(
    cli("audit", "--cmd", `TTT_JS_PACKAGE=${PACKAGE} node ${bot}`, "--name", "perfect.cjs", "--stateless",
      "--recheck-seed", "7", "--format", "json"),
  );
  const mine = ttt.audit(perfect, { name: "perfect.cjs", stateless: true, recheckSeed: 7 });
  assert.deepEqual(mine.toJSON(), printed);
  assert.equal(mine.verdict, "never loses");
  assert.ok(mine.neverLoses);
  // By history, as `ttt audit --cmd` without --stateless.
  const byHistory = JSON.parse(
    cli("audit", "--cmd", `TTT_JS_PACKAGE=${PACKAGE} node ${bot}`, "--name", "perfect.cjs",
      "--recheck-seed", "7", "--side", "o", "--format", "json"),
  );
  assert.deepEqual(ttt.audit(perfect, { name: "perfect.cjs", recheckSeed: 7n, side: "o" }).toJSON(), byHistory);
});

test("a function is named by its name, or the name given", () => {
  function mine(board) {
    return perfect(board);
  }
  assert.equal(ttt.audit(mine, { side: "x" }).bot, "mine");
  assert.equal(ttt.audit(mine, { side: "x", name: "theirs" }).bot, "theirs");
  assert.equal(ttt.audit((board) => perfect(board), { side: "x" }).bot, "javascript bot");
});

test("a function that remembers is audited by history; a stateless one by board", () => {
  const seen = [];
  const remembering = (board, toMove) => {
    seen.push([board, toMove]);
    return firstFree(board);
  };
  assert.equal(ttt.audit(remembering, { side: "o" }).verdict, "can lose");
  const byHistory = seen.length;
  assert.ok(seen.every(([board, toMove]) => board.length === 9 && toMove === "O"));
  seen.length = 0;
  assert.equal(ttt.audit(remembering, { side: "o", stateless: true, recheckSeed: 1 }).verdict, "can lose");
  assert.ok(seen.length < byHistory, `${seen.length} < ${byHistory}`);
});

test("equally likely and weighted choices", () => {
  const uniform = ttt.audit(free);
  const weighted = ttt.audit((board) => Object.fromEntries(free(board).map((cell, _, all) => [cell, `1/${all.length}`])), {
    stateless: true,
  });
  const mapped = ttt.audit((board) => new Map(free(board).map((cell, _, all) => [cell, 1 / all.length === 0.5 ? 0.5 : `1/${all.length}`])), {
    stateless: true,
  });
  const random = ttt.audit("random");
  assert.deepEqual(uniform.sides[0].toJSON().vs_random, random.sides[0].toJSON().vs_random);
  assert.deepEqual(weighted.sides[1].vsPerfect, random.sides[1].vsPerfect);
  assert.deepEqual(mapped.sides[0].vsRandom, random.sides[0].vsRandom);
});

test("a function declared stateless that is not is caught", () => {
  let calls = 0;
  const moody = (board) => {
    calls += 1;
    const cells = free(board);
    return cells[calls % cells.length];
  };
  assert.equal(ttt.audit(moody, { stateless: true, side: "x", recheckSeed: 1 }).verdict, "answers differently");
});

test("only an options object's own options are read", () => {
  const inherited = Object.create({ game: "chess", side: "sideways" });
  inherited.side = "x";
  const report = ttt.audit("perfect", inherited);
  assert.equal(report.game, "3x3");
  assert.deepEqual(report.sides.map((side) => side.side), ["X"]);
});

test("the seed of the games asked again is kept exactly", () => {
  const moody = () => {
    let calls = 0;
    return (board) => free(board)[++calls % free(board).length];
  };
  // A seed past 2^53, given as a bigint: exact on the report, rounded in its JSON numbers.
  const big = 12345678901234567890n;
  const report = ttt.audit(moody(), { side: "x", recheckSeed: big });
  assert.equal(report.verdict, "answers differently");
  assert.equal(report.recheckSeed, big);
  assert.equal(ttt.match(moody(), "random", { recheckSeed: big }).recheckSeed, big);
  // A seed drawn by the package fits a double, so that its JSON shows it exactly.
  for (let run = 0; run < 20; run++) {
    const drawn = ttt.audit(moody(), { side: "x" });
    assert.ok(drawn.recheckSeed <= BigInt(Number.MAX_SAFE_INTEGER), `${drawn.recheckSeed}`);
    const seed = drawn.toJSON().bots[0].sides[0].recheck.seed;
    assert.equal(BigInt(seed), drawn.recheckSeed);
  }
});

/** Perfect for its first `calls` calls, then the first free cell. */
function turnsAfter(calls) {
  let made = 0;
  return (board) => (++made <= calls ? perfect(board) : firstFree(board));
}

for (const stateless of [true, false]) {
  test(`a function that turns once audited is caught (stateless: ${stateless})`, () => {
    let calls = 0;
    const counted = (board) => {
      calls += 1;
      return perfect(board);
    };
    const honest = ttt.audit(counted, { side: "x", stateless, recheckSeed: 1 });
    assert.ok(honest.neverLoses);
    const audited = calls - honest.toJSON().bots[0].sides[0].recheck.requests;
    const report = ttt.audit(turnsAfter(audited), { side: "x", stateless, recheckSeed: 1 });
    assert.equal(report.verdict, "answers differently");
    const { difference } = report.toJSON().bots[0].sides[0].recheck;
    assert.notDeepEqual(difference.recorded, difference.alone);
  });
}

test("a match won by a function that turns once asked enough says so", () => {
  let calls = 0;
  const counted = (board) => {
    calls += 1;
    return perfect(board);
  };
  const honest = ttt.match(counted, "random", { recheckSeed: 1 });
  assert.equal(honest.answersDifferently, null);
  const matched = calls - honest.toJSON().x_recheck.requests;
  const report = ttt.match(turnsAfter(matched), "random", { recheckSeed: 1 });
  assert.equal(report.oWins, "0/1");
  assert.equal(report.answersDifferently, "X");
  assert.equal(report.toJSON().o_recheck, null);
});

test("a taken cell is a forfeit, judged as any other move", () => {
  const report = ttt.audit(() => 5, { side: "x" });
  assert.equal(report.verdict, "breaks the rules");
  assert.deepEqual(report.shortestForfeit, [5, 1]);
});

test("a function that writes to its board changes nothing: a string cannot change", () => {
  const writing = (board) => {
    try {
      board[0] = "O"; // a TypeError in strict code, which ES modules are
    } catch {
      // ignored: the board is as it was
    }
    return perfect(board);
  };
  // Sloppy code ignores the write silently.
  const sloppy = new Function("board", "perfect", 'board[0] = "O"; return perfect(board);');
  const clean = ttt.audit(perfect, { recheckSeed: 3 }).toJSON();
  assert.deepEqual(ttt.audit(writing, { recheckSeed: 3, name: "perfect" }).toJSON(), clean);
  assert.deepEqual(ttt.audit((board) => sloppy(board, perfect), { recheckSeed: 3, name: "perfect" }).toJSON(), clean);
  // One that lets the TypeError out is a BotError, as any exception.
  assert.throws(
    () => ttt.audit((board) => ((board[0] = "O"), 5)),
    (error) => error instanceof ttt.BotError && /TypeError: Cannot assign to read only property '0'/.test(error.message),
  );
});

class Thenable {
  then(resolve) {
    resolve(5);
  }
}

const BAD = {
  throws: [() => { throw new Error("no idea"); }, "it threw Error: no idea\n    at "],
  "throws a non-Error": [() => { throw 42; }, "it threw 42 (number)"],
  string: [() => "5", '"5" (string) is not a cell'],
  undefined: [() => undefined, "undefined (undefined) is not a cell"],
  null: [() => null, "null (null) is not a cell"],
  fraction: [() => 5.5, "5.5 (number) is not a cell"],
  boolean: [() => true, "true (boolean) is not a cell"],
  "off the board": [() => 10, "10 (number) is not a cell; expected a cell 1..9, an array of cells or an object of cell to probability"],
  zero: [() => 0, "0 (number) is not a cell"],
  huge: [() => 1e300, "1e+300 (number) is not a cell"],
  unsafe: [() => 2 ** 53 + 2, "9007199254740994 (number) is not a cell"],
  infinite: [() => Infinity, "Infinity (number) is not a cell"],
  NaN: [() => NaN, "NaN (number) is not a cell"],
  bigint: [() => 5n, "5n (bigint) is not a cell"],
  symbol: [() => Symbol("five"), "Symbol(five) (symbol) is not a cell"],
  function: [() => () => 5, "[Function (anonymous)] (Function) is not a cell"],
  date: [() => new Date(0), "(Date) is not a cell"],
  "empty array": [() => [], "an empty array"],
  "empty object": [() => ({}), "an empty object; expected a cell"],
  "empty Map": [() => new Map(), "an empty Map; expected a cell"],
  "a cell twice in an array": [() => [5, 5], "cell 5 is named twice in its array"],
  "a string in an array": [() => ["5"], '"5" (string) is not a cell'],
  "odds short of 1": [() => ({ 1: 0.5, 2: 0.25 }), "its probabilities add up to 3/4, not 1"],
  "odds NaN": [() => ({ 1: NaN }), "the probability of cell 1 is NaN (number)"],
  "odds negative": [() => ({ 1: -1, 2: 2 }), "the probability of cell 1 is -1 (number)"],
  "odds too fine": [() => ({ 1: 1 / 3, 2: 2 / 3 }), "the probability of cell 1 is 0.3333333333333333 (number)"],
  "odds of another type": [() => ({ 1: true }), "the probability of cell 1 is true (boolean)"],
  "odds of a non-cell": [() => ({ a: 1 }), '"a" (string) is not a cell'],
  "a cell twice in a Map": [() => new Map([[5, 0.5], ["5", 0.5]]), 'cell 5 is named twice (by "5" (string))'],
  "an async function": [async () => 5, "it returned a Promise (is it an async function?), and an audit cannot wait for one"],
  "a rejected Promise": [async () => { throw new Error("later"); }, "an audit cannot wait for one"],
  "a thenable": [() => new Thenable(), "it returned Thenable {} (Object), a thenable, and an audit cannot wait for one"],
  "a revoked Proxy": [() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; }, "its answer could not be read: TypeError"],
  "a Proxy that throws": [() => new Proxy({}, { get() { throw new Error("trap"); } }), "its answer could not be read: Error: trap"],
  "a throw with half a UTF-16 pair": [() => { throw new Error("bad \uD800 news"); }, "it threw Error: bad \uFFFD news"],
};

for (const [name, [bot, says]] of Object.entries(BAD)) {
  test(`a bad answer (${name}) is a BotError naming the bot and the request`, () => {
    assert.throws(
      () => ttt.audit(bot, { name: "bad", side: "x" }),
      (error) => {
        assert.ok(error instanceof ttt.BotError, error.stack);
        assert.ok(error instanceof ttt.AuditFailed);
        assert.equal(error.name, "BotError");
        assert.ok(error.message.startsWith('JavaScript bot "bad" failed on request "......... X": '), error.message);
        assert.ok(error.message.includes(says), `${JSON.stringify(error.message)} says ${JSON.stringify(says)}`);
        return true;
      },
    );
  });
}

test("a throwing function is reported with its stack", () => {
  function deep() {
    throw new RangeError("no idea");
  }
  assert.throws(() => ttt.audit(deep, { side: "o" }), (error) => {
    assert.match(error.message, /request "X\.\.\.\.\.\.\.\. O 1": it threw RangeError: no idea\n {4}at deep \(/);
    return true;
  });
});

test("a bad bot changes no later verdict", () => {
  assert.throws(() => ttt.audit(() => "x"), ttt.BotError);
  assert.equal(ttt.audit(perfect).verdict, "never loses");
  assert.equal(ttt.bestMove("XO..X...."), 9);
});

test("a function slower than its timeout is seen late once it returns", () => {
  const slow = (board) => {
    const until = performance.now() + 30;
    while (performance.now() < until);
    return perfect(board);
  };
  assert.throws(() => ttt.audit(slow, { timeoutMs: 10, name: "slow" }), {
    name: "BotError",
    message: /^JavaScript bot "slow" failed on request "......... X": no answer within 10 ms \(a JavaScript function cannot be interrupted/,
  });
});

test("a function slower than its timeout that then throws is late, and its exception said", () => {
  const slowThenThrows = () => {
    const until = performance.now() + 30;
    while (performance.now() < until);
    throw new RangeError("gave up");
  };
  assert.throws(() => ttt.audit(slowThenThrows, { timeoutMs: 10, name: "slow" }), {
    name: "BotError",
    message: /no answer within 10 ms \(.*\), and then it threw RangeError: gave up/s,
  });
});

test("a function that calls the package, even an audit, is audited as any other", () => {
  let audits = 0;
  const auditing = (board) => {
    if (audits++ === 0) assert.equal(ttt.audit("perfect", { side: "x" }).verdict, "never loses");
    return ttt.bestMove(board);
  };
  assert.equal(ttt.audit(auditing, { side: "o" }).verdict, "never loses");
});

test("a function that audits itself without end is stopped, and the package goes on", () => {
  const selfish = (board) => ttt.audit(selfish).sides.length + board.length;
  assert.throws(() => ttt.audit(selfish, { side: "x" }), (error) => {
    assert.ok(error instanceof ttt.BotError);
    assert.match(error.message, /calls nested 16 deep/);
    return true;
  });
  assert.equal(ttt.audit(perfect).verdict, "never loses");
});

test("bad options are TypeErrors and RangeErrors; bad specs, games and sides the crate's Errors", () => {
  assert.throws(() => ttt.audit(perfect, { sides: "x" }), { name: "TypeError", message: /no option is named "sides"/ });
  assert.throws(() => ttt.audit(perfect, "x"), TypeError);
  assert.throws(() => ttt.audit(42), { name: "TypeError", message: /a bot is a built-in spec/ });
  assert.throws(() => ttt.audit(perfect, { recheckSeed: -1 }), RangeError);
  assert.throws(() => ttt.audit(perfect, { recheckSeed: 2n ** 64n }), RangeError);
  assert.throws(() => ttt.audit(perfect, { timeoutMs: 0 }), RangeError);
  assert.throws(() => ttt.audit(perfect, { side: "z" }), { name: "Error", message: 'side "z" is not a side; expected "x", "o" or "both"' });
  assert.throws(() => ttt.audit("nobot"), { name: "Error", message: /^unknown bot "nobot"/ });
  assert.throws(() => ttt.audit("perfect", { stateless: true }), { message: /stateless is said of JavaScript bots/ });
  assert.throws(() => ttt.audit(perfect, { game: "2" }), { message: /"2" is not a game/ });
  assert.throws(() => ttt.match(perfect, "random", { game: "5x5" }), ttt.AuditFailed);
  // Options that only look like what they name.
  assert.throws(() => ttt.audit(perfect, { stateless: "false" }), { name: "TypeError", message: 'stateless is true or false, not "false" (string)' });
  assert.throws(() => ttt.audit(perfect, { allMistakes: "no" }), { name: "TypeError", message: /^allMistakes is true or false/ });
  assert.throws(() => ttt.audit("random", { timeoutMs: -5 }), RangeError);
  assert.throws(() => ttt.match("random", "perfect", { timeoutMs: -5 }), RangeError);
  assert.throws(() => ttt.audit("random", { name: {} }), { name: "TypeError", message: /^a bot's name is a string/ });
  assert.throws(() => ttt.audit(perfect, { side: null }), { name: "TypeError", message: /^a side is "x", "o" or "both", not null/ });
  assert.throws(() => ttt.audit(perfect, [1]), { name: "TypeError", message: /^options are an object/ });
});

test("an audit on a board with no table is the command line's search", () => {
  const bot = path.join(ROOT, "js", "test", "bots", "first-free.cjs");
  const printed = JSON.parse(cli("audit", "--cmd", `node ${bot}`, "--name", "firstFree", "--game", "6x5k2", "--side", "x", "--format", "json"));
  const report = ttt.audit(firstFree, { game: "6x5k2", side: "x" });
  // But the states the walk worked out: for a program, which is asked ahead, each of its turns.
  const json = report.toJSON();
  assert.ok(json.bots[0].sides[0].states < printed.bots[0].sides[0].states);
  json.bots[0].sides[0].states = printed.bots[0].sides[0].states;
  assert.deepEqual(json, printed);
  assert.equal(report.verdict, "can lose");
  assert.deepEqual(report.shortestLoss, [1, 2, 3, 6]);
  assert.equal(report.sides[0].mistakes, null);
});
