// A perfect bot over the line protocol, for `ttt audit --cmd`: the same function the
// in-process audits take (test/audit.test.mjs), so that both ways audit one bot.
const path = require("node:path");

const ttt = require(path.join(process.env.TTT_JS_PACKAGE ?? path.join(__dirname, "..", ".."), "ttt-oracle.cjs"));

const oracle = new ttt.Oracle();

function perfect(board) {
  return oracle.bestMove(board);
}

module.exports = { perfect };

if (require.main === module) {
  const lines = require("node:readline").createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    process.stdout.write(`${perfect(line.split(" ")[0])}\n`);
  });
}
