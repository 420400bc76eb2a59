"use strict";
// Builds ttt_oracle.wasm from the crate (js/src, a member of the Cargo workspace): `npm run
// build`, and `prepare`, which npm runs for `npm install` in this folder and before `npm pack`;
// page.cjs builds it the same way for the page. It needs Rust and its wasm32-unknown-unknown
// target (`rustup target add wasm32-unknown-unknown`); the package `npm pack` makes holds the
// module, and installs without. The build is cargo's release profile in the workspace's target
// folder, which the rest of the project's builds share.

const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const TARGET = "wasm32-unknown-unknown";

function cargo(args, options = {}) {
  return execFileSync(process.env.CARGO ?? "cargo", args, { cwd: root, ...options });
}

/** Builds the module; the path of the file cargo wrote. Exits the process when cargo fails. */
function buildModule() {
  try {
    cargo(["build", "--release", "--target", TARGET, "-p", "ttt-oracle-js"], { stdio: "inherit" });
  } catch (error) {
    console.error(
      `building the WebAssembly module failed (${error.message.split("\n")[0]}); it needs ` +
        `Rust (https://rustup.rs) and its ${TARGET} target: rustup target add ${TARGET}`,
    );
    process.exit(1);
  }
  const metadata = JSON.parse(cargo(["metadata", "--format-version", "1", "--no-deps"]));
  return path.join(metadata.target_directory, TARGET, "release", "ttt_oracle_js.wasm");
}

if (require.main === module) {
  const built = buildModule();
  fs.copyFileSync(built, path.join(__dirname, "ttt_oracle.wasm"));
  // The licences, which npm packs only as files, not as links to the top level's.
  for (const licence of ["LICENSE-MIT", "LICENSE-APACHE"]) {
    fs.copyFileSync(path.join(root, licence), path.join(__dirname, licence));
  }
  console.error(`js/ttt_oracle.wasm: ${fs.statSync(built).size} bytes, from ${built}`);
}

module.exports = { buildModule };
