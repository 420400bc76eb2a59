// The package used from TypeScript as its docs use it (docs/javascript.md), compiled with
// `tsc --strict --noEmit` against index.d.ts by js/test/types.test.mjs: a type the package
// declares wrongly, or too loosely for these lines, fails that test.
import ttt, { Oracle, analyze, audit, bestMove, match, review } from "ttt-oracle";
import type { Mistake, MoveVerdict, Review, Verdict } from "ttt-oracle";

const oracle = new Oracle("4x4k3");
const cell: number | null = oracle.bestMove("XX../OO../..../....");
const cells: number[] = oracle.bestMoves([5, 1]);
const analysis = analyze("5 1");
const toMove: "X" | "O" = analysis.to_move;
const remoteness: number = analysis.moves[0].remoteness;

const reviewed: Review = review("5 3 9 1 4 2");
const verdict: MoveVerdict = reviewed.plies[4].verdict;
const before: "win" | "draw" | "loss" = reviewed.plies[4].value_before;

const firstFree = (board: string, mark: "X" | "O"): number => board.indexOf(".") + 1;
const report = audit(firstFree, { stateless: true, side: "both", recheckSeed: 7n });
const overall: Verdict | null = report.verdict;
const loss: number[] | null = report.shortestLoss;
const first: Mistake = report.mistakes[0];
const best: number[] = first.best.map((move) => move.cell);
const kind: "win_to_draw" | "win_to_loss" | "draw_to_loss" | "slow_win" = first.kind;
const seed: bigint = report.recheckSeed;
const x = report.sides[0];
const odds: string | undefined = x.vsRandom?.win;

const result = match("perfect", (board: string) => board.indexOf(".") + 1);
const draws: string = result.draws;
const same: number | null = ttt.bestMove("XO..X....") ?? bestMove("", "3x3");
const again: number | null = ttt.default.bestMove("XO..X....");

export const used = [cell, cells, toMove, remoteness, verdict, before, overall, loss, best, kind,
  seed, odds, draws, same, again];
