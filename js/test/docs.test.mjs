// The JavaScript examples (```js blocks) of the README and of every page of docs/, run: the
// one place that runs them (tests/integration/docs.rs leaves them here).
//
// Each block is a program of its own, run by Node as an ES module (a block with an `import`)
// or CommonJS, from a scratch folder where "ttt-oracle" is the package under test. A line
// `EXPRESSION; // => SHOWN` states what the expression is: SHOWN is its value as Node's
// `util.inspect` writes it on one line (`breakLength: Infinity, compact: true`), or `Uncaught NAME: MESSAGE` for what it throws; a
// SHOWN ending in `...` stands for any text after what it shows.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { PACKAGE, ROOT } from "./package.mjs";

const PAGES = ["README.md", ...readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];

/** The ```js blocks of a page: each its first line's number and its lines. */
function blocks(page) {
  const lines = readFileSync(path.join(ROOT, page), "utf8").split("\n");
  const found = [];
  let block = null;
  lines.forEach((line, index) => {
    if (block === null && line.trim() === "```js") block = { line: index + 2, lines: [] };
    else if (block !== null && line.trim() === "```") {
      found.push(block);
      block = null;
    } else if (block !== null) block.lines.push(line);
  });
  return found;
}

const CHECKED = /^(\s*)(.+?);?\s*\/\/ => (.*)$/;

/** A block as a program: each checked line a call of `__check`. */
function program(page, block) {
  const esm = block.lines.some((line) => /^import /.test(line));
  const preamble = esm ? 'import { inspect as __inspect } from "node:util";' : 'const { inspect: __inspect } = require("node:util");';
  const check = `function __check(evaluate, shown, place) {
  let actual;
  try {
    actual = __inspect(evaluate(), { breakLength: Infinity, compact: true, depth: Infinity });
  } catch (error) {
    actual = "Uncaught " + error.name + ": " + error.message;
  }
  const same = shown.endsWith("...") ? actual.startsWith(shown.slice(0, -3)) : actual === shown;
  if (!same) throw new Error(place + ": the page shows\\n  " + shown + "\\nbut it is\\n  " + actual);
}`;
  const body = block.lines.map((line, i) => {
    const match = CHECKED.exec(line);
    if (match === null) return line;
    const [, indent, expression, shown] = match;
    assert.doesNotMatch(expression, /^(const|let|var) /, `${page}:${block.line + i}: // => follows an expression`);
    return `${indent}__check(() => (${expression}), ${JSON.stringify(shown)}, ${JSON.stringify(`${page}:${block.line + i}`)});`;
  });
  return { esm, text: [preamble, check.replaceAll("\n", " "), ...body].join("\n") };
}

const scratch = path.join(ROOT, "target", "js-docs");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(path.join(scratch, "node_modules"), { recursive: true });
symlinkSync(PACKAGE, path.join(scratch, "node_modules", "ttt-oracle"), "dir");

test("the pages have JavaScript examples", () => {
  assert.ok(blocks("docs/javascript.md").length > 3);
  assert.ok(blocks("README.md").length > 0);
});

for (const page of PAGES) {
  blocks(page).forEach((block, i) => {
    test(`${page}:${block.line}`, () => {
      const { esm, text } = program(page, block);
      const file = path.join(scratch, `${page.replaceAll("/", "-")}-${i}.${esm ? "mjs" : "cjs"}`);
      writeFileSync(file, text);
      const run = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: "utf8" });
      assert.equal(run.status, 0, `${page}:${block.line} failed:\n${run.stderr}${run.stdout}`);
    });
  });
}
