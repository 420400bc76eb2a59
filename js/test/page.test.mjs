// js/page.cjs, which writes the page as static files (docs/web.md, "Without a server"): what it
// refuses, before it builds anything, with exit code 2 and a message naming the folder. (The
// page it writes is tested in Chromium: tests/browser/test_static.py.)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";

import { ROOT } from "./package.mjs";

const PAGE = path.join(ROOT, "js", "page.cjs");

function page(cwd, ...args) {
  return spawnSync(process.execPath, [PAGE, ...args], { cwd, encoding: "utf8" });
}

test("page.cjs refuses what is not a new folder, and writes nothing", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "ttt-page-"));
  try {
    writeFileSync(path.join(scratch, "a-file"), "");
    mkdirSync(path.join(scratch, "taken"));
    writeFileSync(path.join(scratch, "taken", "notes.txt"), "mine");
    mkdirSync(path.join(scratch, "empty"));
    symlinkSync(path.join(scratch, "empty"), path.join(scratch, "link"));
    const refused = [
      [[], "give one argument, the folder to write the page into"],
      [["one", "two"], "give one argument"],
      [["--help"], "give one argument"],
      [["a-file"], "a-file is a file, not a folder"],
      [["taken"], "taken is not empty: give a new folder"],
      [["link"], "link is a link: give a new folder"],
      [["."], ". is the current folder, or holds it"],
      [[".."], ".. is the current folder, or holds it"],
      [["no/such/parent"], "no/such: no such folder to write into"],
    ];
    for (const [args, message] of refused) {
      const run = page(scratch, ...args);
      assert.equal(run.status, 2, `${args}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`^error: ${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`), `${args}`);
      assert.equal(run.stdout, "");
    }
    assert.deepEqual(readdirSync(scratch).sort(), ["a-file", "empty", "link", "taken"]);
    assert.deepEqual(readdirSync(path.join(scratch, "taken")), ["notes.txt"]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
