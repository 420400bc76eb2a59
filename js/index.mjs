// The ES module entry of ttt-oracle: the CommonJS one's exports (ttt-oracle.cjs), by name.
import ttt from "./ttt-oracle.cjs";

export const {
  AuditFailed,
  AuditReport,
  BotError,
  MatchReport,
  Oracle,
  SideReport,
  analyze,
  audit,
  bestMove,
  bestMoves,
  bots,
  match,
  review,
} = ttt;
export default ttt;
