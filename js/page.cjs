"use strict";
// Writes the page of `ttt serve` as static files into a new folder, its answers made in the
// browser by the library as WebAssembly (docs/web.md, "Without a server"):
//
//     node js/page.cjs FOLDER
//
// The folder gets the page's files (src/web/page: the HTML, its scripts and style, and the
// worker that runs the module), with the page told to ask the worker rather than a server, and
// the module, built from the crate as the npm package's is (it needs Rust and its
// wasm32-unknown-unknown target). Any static file server then serves the whole page. FOLDER must
// not exist, or be empty; the files are written into a temporary folder beside it, renamed
// into place once all are written, so that a failure leaves nothing half-written.

const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");
const { buildModule } = require("./build.cjs");

const PAGE = path.join(__dirname, "..", "src", "web", "page");
const SERVER = '<meta name="ttt-engine" content="server">';
const WASM = '<meta name="ttt-engine" content="wasm">';

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(2);
}

/** `word` as a shell reads it back: quoted unless plain. */
function shellWord(word) {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function main(args) {
  if (args.length !== 1 || args[0].startsWith("-")) {
    fail("give one argument, the folder to write the page into: node js/page.cjs FOLDER");
  }
  const folder = path.resolve(args[0]);
  const inside = path.relative(folder, process.cwd());
  if (!inside.startsWith("..") && !path.isAbsolute(inside)) {
    fail(`${args[0]} is the current folder, or holds it: give a new folder`);
  }
  let entries = null;
  try {
    if (fs.lstatSync(folder).isSymbolicLink()) fail(`${args[0]} is a link: give a new folder`);
    entries = fs.readdirSync(folder);
  } catch (error) {
    if (error.code === "ENOTDIR") fail(`${args[0]} is a file, not a folder`);
    if (error.code !== "ENOENT") fail(`${args[0]}: ${error.message}`);
  }
  if (entries !== null && entries.length > 0) {
    fail(`${args[0]} is not empty: give a new folder (the page is written whole, never over files)`);
  }
  const parent = path.dirname(folder);
  if (!fs.existsSync(parent)) fail(`${path.dirname(args[0])}: no such folder to write into`);
  try {
    fs.accessSync(parent, fs.constants.W_OK);
  } catch (error) {
    fail(`cannot write into ${path.dirname(args[0])}: ${error.code}`);
  }
  const module = buildModule();
  // Ctrl-C or a TERM while the files are written (milliseconds) is taken once they are all in
  // place, so that it never leaves the temporary folder behind.
  const wait = () => {};
  process.on("SIGINT", wait).on("SIGTERM", wait);
  let staging;
  try {
    staging = fs.mkdtempSync(path.join(parent, `.${path.basename(folder)}-`));
  } catch (error) {
    fail(`cannot write into ${path.dirname(args[0])}: ${error.message}`);
  }
  try {
    for (const name of fs.readdirSync(PAGE)) {
      let bytes = fs.readFileSync(path.join(PAGE, name));
      if (name === "index.html") {
        const html = bytes.toString("utf8");
        if (!html.includes(SERVER)) throw new Error(`${name} does not say ${SERVER}`);
        bytes = Buffer.from(html.replace(SERVER, WASM));
      }
      fs.writeFileSync(path.join(staging, name), bytes);
    }
    fs.copyFileSync(module, path.join(staging, "ttt_oracle.wasm"));
    // Readable by a server running as another user, as a folder made by mkdir would be
    // (mkdtemp's is its owner's alone).
    const umask = process.umask();
    fs.chmodSync(staging, 0o777 & ~umask);
    for (const name of fs.readdirSync(staging)) fs.chmodSync(path.join(staging, name), 0o666 & ~umask);
    if (entries !== null) fs.rmdirSync(folder);
    fs.renameSync(staging, folder);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    fail(`writing the page into ${args[0]} failed: ${error.message}`);
  }
  process.off("SIGINT", wait).off("SIGTERM", wait);
  let raw = 0;
  let gzipped = 0;
  for (const name of fs.readdirSync(folder)) {
    const bytes = fs.readFileSync(path.join(folder, name));
    raw += bytes.length;
    gzipped += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  console.log(
    `The page is in ${args[0]}: ${fs.readdirSync(folder).length} files, ${raw} bytes ` +
      `(${gzipped} gzipped). Serve the folder with any static file server, e.g. ` +
      `python3 -m http.server -d ${shellWord(args[0])}`,
  );
}

main(process.argv.slice(2));
