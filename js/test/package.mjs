// The package under test, and the project's own `ttt` to compare with.
//
// The package is the checkout's js/ folder, or the one installed where TTT_JS_PACKAGE says
// (.ci/test installs the tarball `npm pack ./js` makes, and tests that).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const PACKAGE = path.resolve(process.env.TTT_JS_PACKAGE ?? path.join(ROOT, "js"));

const require = createRequire(import.meta.url);
/** The package's CommonJS entry. */
export const ttt = require(path.join(PACKAGE, "ttt-oracle.cjs"));
/** The package's ES module entry. */
export const esm = await import(path.join(PACKAGE, "index.mjs"));

/** What `ttt ARGS` prints, from the release build the README's main job makes (built here if
 * missing), run from the repository's root. Exit code 1 is an audit's verdict "can lose", not
 * a failure; any other but 0 throws, with what it printed on standard error. */
export function cli(...args) {
  const binary = process.env.TTT ?? path.join(ROOT, "target", "release", "ttt");
  if (!existsSync(binary)) {
    execFileSync("cargo", ["build", "-q", "--release", "--bin", "ttt"], { cwd: ROOT, stdio: "inherit" });
  }
  const run = spawnSync(binary, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) {
    throw Object.assign(new Error(`ttt ${args.join(" ")} exited with ${run.status}: ${run.stderr}`), {
      stderr: run.stderr,
    });
  }
  return run.stdout;
}
