// Types of ttt-oracle: the oracle, audits of a JavaScript bot, matches and reviews. Games are
// named as on the command line ("3x3", "4x4", "4x4k3"); positions are board strings
// ("XO..X....", rows optionally separated by "/") or move lists ("5 1" or [5, 1]), cells
// numbered from 1 row by row. The JSON forms are the command line's, keys and all.

/** A board string, a move list string, or an array of cell numbers. */
export type Position = string | readonly number[];

/** A bot's answer: a cell, equally likely cells, or cells with their probabilities. */
export type Answer =
  | number
  | readonly number[]
  | { readonly [cell: number]: number | string }
  | ReadonlyMap<number | string, number | string>;

/** A JavaScript bot: given the board (a string of X, O and .) and the mark to move. */
export type BotFunction = (board: string, toMove: "X" | "O") => Answer;

/** A bot: a built-in spec ("smartbot", "casual:0.3"; `bots()` lists them) or a function. */
export type Bot = string | BotFunction;

/** An exact probability, "p/q" in lowest terms. */
export type Fraction = string;

/** The odds of each way the games of one side end. */
export interface Odds {
  win: Fraction;
  draw: Fraction;
  loss: Fraction;
  illegal: Fraction;
}

/** A mark, and a side of a game. */
export type Mark = "X" | "O";

/** A position's value for the side to move, under perfect play. */
export type Value = "win" | "draw" | "loss";

/** Where a game stands. */
export type Status = "in_progress" | "x_wins" | "o_wins" | "draw";

/** A move and what it leads to for its mover: that value, in so many plies of perfect play. */
export interface MoveValue {
  cell: number;
  value: Value;
  remoteness: number;
}

/** A position analysed, as `ttt analyze --format json` prints it. */
export interface Analysis {
  /** Left out for tic-tac-toe. */
  game?: string;
  board: string;
  to_move: Mark;
  status: Status;
  value: Value;
  remoteness: number;
  best: number[];
  line: number[];
  moves: MoveValue[];
  /** Only when the game is won: each line of k the winner made, its cells lowest first. */
  won_lines?: number[][];
}

/** A move judged against the table: `best`, or how much worse it was. */
export type MoveVerdict =
  | "best"
  | "win_to_draw"
  | "win_to_loss"
  | "draw_to_loss"
  | "slow_win"
  | "fast_loss";

/** One move of a reviewed game, as in `ttt review --format json`. */
export interface ReviewedPly {
  ply: number;
  player: Mark;
  cell: number;
  value_before: Value;
  remoteness_before: number;
  value: Value;
  remoteness: number;
  best: number[];
  verdict: MoveVerdict;
}

/** A game reviewed, as `ttt review --format json` prints it. */
export interface Review {
  /** Left out for tic-tac-toe. */
  game?: string;
  moves: number[];
  status: Status;
  plies: ReviewedPly[];
  /** How many moves lowered their mover's value. */
  mistakes: number;
  /** Always null here: a move list cannot say a side forfeited. */
  forfeit: Mark | null;
}

/** A mistake of an audited bot, as a line of `ttt audit --mistakes FILE`. */
export interface Mistake {
  /** Left out for tic-tac-toe. */
  game?: string;
  bot: string;
  side: Mark;
  board: string;
  moves: number[];
  played: MoveValue;
  best: MoveValue[];
  kind: "win_to_draw" | "win_to_loss" | "draw_to_loss" | "slow_win";
  /** The histories of the audit that reached the board, and the games through them. */
  histories: number;
  games: number;
}

/** An audit's verdict on a side, or on the bot (the gravest of its sides'). */
export type Verdict =
  | "never loses"
  | "can lose"
  | "breaks the rules"
  | "can lose, breaks the rules"
  | "answers differently";

/** An audit or a match that could not run to its end. */
export declare class AuditFailed extends Error {}

/** A bot that could not answer at all; the message names the bot and the request. */
export declare class BotError extends AuditFailed {}

/** The solved table of one game: every question about a position in constant time. */
export declare class Oracle {
  /** Solves the game first when its table is not embedded. */
  constructor(game?: string);
  /** The game, by name. */
  readonly game: string;
  /** The best move, or null when the game is over; ties go to the lowest cell. */
  bestMove(position: Position): number | null;
  /** Every optimal move, lowest cell first. */
  bestMoves(position: Position): number[];
  /** The position analysed, as `ttt analyze --format json` prints it. */
  analyze(position: Position): Analysis;
}

export declare function bestMove(position: Position, game?: string): number | null;
export declare function bestMoves(position: Position, game?: string): number[];
export declare function analyze(position: Position, game?: string): Analysis;
/** Every move of a game judged against the table, as `ttt review --format json` prints it. */
export declare function review(moves: Position, game?: string): Review;
/** The built-in bots, then the forms that take a parameter, as `ttt bots --format json`. */
export declare function bots(): {
  bots: { name: string; summary: string; source: Record<string, unknown> | null }[];
  parameterised: { form: string; summary: string }[];
};

export interface AuditOptions {
  /** "3x3" by default. */
  game?: string;
  /** "x", "o" or "both" (the default). */
  side?: "x" | "o" | "both";
  /** The bot's name in the report: the function's name by default. */
  name?: string;
  /** That the function answers from the board alone; the audit checks it. */
  stateless?: boolean;
  /** The milliseconds a call may take, 2000 by default (seen once the call returns). */
  timeoutMs?: number;
  /** The seed of the games asked again; fresh by default. */
  recheckSeed?: number | bigint;
  /** Every mistake in `mistakes`, not the first 100 of each side. */
  allMistakes?: boolean;
}

/** What an audit found on one side. */
export declare class SideReport {
  readonly side: Mark;
  /** null when a search without a table did not settle it. */
  readonly verdict: Verdict | null;
  readonly neverLoses: boolean;
  readonly shortestLoss: number[] | null;
  readonly shortestForfeit: number[] | null;
  readonly decisionPoints: number | null;
  readonly games: number | null;
  readonly losingGames: number | null;
  readonly forfeitedGames: number | null;
  readonly vsRandom: Odds | null;
  readonly vsPerfect: Odds | null;
  readonly worstCase: { loss: Fraction; line: number[] } | null;
  readonly mistakes: Mistake[] | null;
  readonly mistakesTotal: number | null;
  toJSON(): Record<string, unknown>;
}

/** What an audit found: `toJSON()` is what `ttt audit --format json` prints. */
export declare class AuditReport {
  readonly bot: string;
  readonly game: string;
  readonly sides: SideReport[];
  readonly verdict: Verdict | null;
  readonly neverLoses: boolean;
  readonly shortestLoss: number[] | null;
  readonly shortestForfeit: number[] | null;
  readonly mistakes: Mistake[];
  /** The seed of the games asked again, exactly (`toJSON()` rounds it past 2^53). */
  readonly recheckSeed: bigint;
  toJSON(): Record<string, unknown>;
}

export declare function audit(bot: Bot, options?: AuditOptions): AuditReport;

export interface MatchOptions {
  game?: string;
  timeoutMs?: number;
  recheckSeed?: number | bigint;
}

/** The exact odds of every way a match ends. */
export declare class MatchReport {
  readonly x: string;
  readonly o: string;
  readonly games: number;
  readonly xWins: Fraction;
  readonly draws: Fraction;
  readonly oWins: Fraction;
  readonly xForfeits: Fraction;
  readonly oForfeits: Fraction;
  readonly answersDifferently: Mark | null;
  /** The seed of the games asked again, exactly. */
  readonly recheckSeed: bigint;
  toJSON(): Record<string, unknown>;
}

export declare function match(x: Bot, o: Bot, options?: MatchOptions): MatchReport;

/** Every export, as the CommonJS entry's `module.exports` and the ES module's default. */
interface Package {
  AuditFailed: typeof AuditFailed;
  AuditReport: typeof AuditReport;
  BotError: typeof BotError;
  MatchReport: typeof MatchReport;
  Oracle: typeof Oracle;
  SideReport: typeof SideReport;
  analyze: typeof analyze;
  audit: typeof audit;
  bestMove: typeof bestMove;
  bestMoves: typeof bestMoves;
  bots: typeof bots;
  match: typeof match;
  review: typeof review;
  /** The package again, as `require("ttt-oracle").default`. */
  default: Package;
}
declare const ttt: Package;
export default ttt;
