// The package's TypeScript types (index.d.ts) against the way its docs use it
// (test/types/usage.ts), compiled with `tsc --strict --noEmit`. TypeScript is not a dependency
// of the package: the test takes the compiler TTT_TSC names (.ci/test installs a pinned
// version into target/npm/tsc), or skips, saying so.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";

import { PACKAGE, ROOT } from "./package.mjs";

const tsc = process.env.TTT_TSC;

test("the types describe the package as its docs use it", { skip: !tsc && "TTT_TSC is not set" }, () => {
  const folder = mkdtempSync(path.join(tmpdir(), "ttt-types-"));
  try {
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "es2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        types: [],
        paths: { "ttt-oracle": [path.join(PACKAGE, "index.d.ts")] },
      },
      files: [path.join(ROOT, "js", "test", "types", "usage.ts")],
    };
    writeFileSync(path.join(folder, "tsconfig.json"), JSON.stringify(config));
    const run = spawnSync(tsc, ["-p", folder], { encoding: "utf8" });
    assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
