// The first free cell, over the line protocol, for `ttt audit --cmd`: the function the
// in-process audit of a board with no table takes (test/audit.test.mjs).
const lines = require("node:readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  process.stdout.write(`${line.indexOf(".") + 1}\n`);
});
