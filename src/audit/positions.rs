//! The walk by positions, for a memoryless bot: each position once, however many histories
//! reach it.
//!
//! A bot that is [memoryless](Bot::memoryless) makes the same choices at every history of a
//! board, so the games that follow a position are the same however it was reached. The walk
//! goes ply by ply and meets each position once, carrying how many histories reach it and
//! their total chance; whatever the history walk counts once per history (decision points,
//! games, losses, forfeits, blunders, slow wins) is that number of histories times what
//! happens at the position. The report is the history walk's, figure for figure:
//!
//! - Chances stay exact without a fraction reduced per move: the chances of a ply are integers
//!   over one denominator, the product of every earlier ply's least common multiple of the
//!   probabilities' denominators, and they become fractions once a ply. When a number would
//!   outgrow its integer the walk stops, and the caller walks the histories instead, which
//!   reduce every fraction as they go.
//! - The history walk reports the first shortest game in its order (depth first, the
//!   opponent's replies by cell, the bot's choices in its own order). Among games of one
//!   length, that order is the order of the moves' ranks from the first move on. A ply's
//!   positions are listed in the order of the first history that reaches each, which is the
//!   order they are met from the ply before, taken in its order, each position's moves in
//!   their order; so the first lost game met, at the shortest ply with one, is the history
//!   walk's shortest loss, and likewise for the first forfeit.
//!
//! Its pieces (positions and [`step`](super::node::step), lines, a ply's common denominator,
//! checked arithmetic) also walk an exact match (`crate::matchup`): a bot each side, not a
//! random opponent.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::collector::Collector;
use super::exact::{Multiple, Overflow, plus, times};
use super::mistakes::MistakeKind;
use super::node::{Known, Node, Step, prepare, step};
use super::odds::{self, Edge, Graph, To, Weight};
use super::rules::{Bits, Cached, Places, Rules};
pub(crate) use super::shown::Shown;
use super::{Forfeit, Halt, IllegalLine, LosingLine, SideReport, WorstCase, panic_message};
use crate::board::{Board, Cell, Cells, Outcome, Player};
use crate::bots::{Bot, BotError, Choice, Turn};
use crate::game::Game;
use crate::memory::OverMemory;
use crate::position::Position;
use crate::ratio::Ratio;
use crate::review::MoveVerdict;
use crate::value::Evaluation;
use crate::value::{Probe, Value};

/// Audits memoryless `bot` playing `side` of `game` by positions, judged by `table`; `None`
/// when a number outgrows its integer, which takes probabilities far finer than the built-in
/// bots' (or more than 65,535 distinct ones in a ply), or when boards that stand for their
/// images meet a move that is not optimal. Lists the first `keep` mistakes.
pub(super) fn audit<R: Kept>(
    bot: &mut dyn Bot,
    game: Game,
    table: &R::Table,
    side: Player,
    keep: usize,
) -> Result<Option<SideReport>, Halt> {
    match walk_once::<R>(bot, game, table, side, keep, false) {
        // Places that took their memory ahead (an array by code) left the walk no room: it
        // walks again with places that hold only the boards met, as it did before the array.
        (Err(Halt::OverMemory(_)), true) => walk_once::<R>(bot, game, table, side, keep, true).0,
        (walked, _) => walked,
    }
}

/// [`audit`], with the leanest places when `lean`; and whether the places took their memory
/// ahead of the boards met.
fn walk_once<R: Kept>(
    bot: &mut dyn Bot,
    game: Game,
    table: &R::Table,
    side: Player,
    keep: usize,
    lean: bool,
) -> (Result<Option<SideReport>, Halt>, bool) {
    // Taken, not borrowed: a bot that audits another from inside `choose` gets its own.
    let mut buffers = R::take();
    match lean {
        true => buffers.places.lean(game),
        false => buffers.places.ready(game),
    }
    let ahead = buffers.places.ahead_of_boards();
    let mut walk = Walk {
        bot,
        game,
        side,
        table,
        report: SideReport::empty(game, side),
        shown: Shown::new(game),
        ply: 0,
        multiple: Multiple::ONE,
        ends: Ends::default(),
        buffers,
        mistakes: Collector::new(keep),
    };
    let walked = walk.run().and_then(|()| walk.backwards());
    let mut buffers = walk.buffers;
    // A walk that stopped early leaves the places of the ply it was listing.
    let listed = buffers.next.iter().map(|node| (node.board, node.code));
    buffers.places.forget(listed);
    R::keep(buffers);
    let walked = match walked {
        Ok(()) => {
            let mut report = walk.report;
            report.mistakes = walk.mistakes.finish::<R>(game, table, side);
            Ok(Some(report))
        }
        Err(Stop::Overflow | Stop::Unmerged) => Ok(None),
        Err(Stop::Bot(error)) => Err(Halt::Bot(error)),
        Err(Stop::OverMemory(over)) => Err(Halt::OverMemory(over)),
    };
    (walked, ahead)
}

/// The walk's memory.
pub(super) struct Buffers<R: Rules> {
    /// Each board's place in its ply's list; every board unseen between walks.
    places: R::Places,
    /// The positions of the ply being walked, in the order of their first histories.
    nodes: Vec<Node<R>>,
    /// The positions of the next ply, in the same order.
    next: Vec<Node<R>>,
    /// What the walk knows of each of `nodes` before visiting it.
    known: Vec<Known>,
    /// What it knows of each of `next`, learnt as the moves of this ply reach them.
    known_next: Vec<Known>,
    /// Every position's moves, for the odds worked out backwards.
    graph: Graph,
    /// The memory of the backward pass.
    scratch: odds::Scratch,
    /// The bot's answer at the position being walked.
    choices: Vec<Choice>,
}

impl<R: Rules> Default for Buffers<R> {
    fn default() -> Buffers<R> {
        Buffers {
            places: R::Places::default(),
            nodes: Vec::new(),
            next: Vec::new(),
            known: Vec::new(),
            known_next: Vec::new(),
            graph: Graph::default(),
            scratch: odds::Scratch::default(),
            choices: Vec::new(),
        }
    }
}

/// Where a walk's memory comes from, and goes back to.
/// Fresh memory for each walk unless a board says otherwise.
pub(super) trait Kept: Rules {
    fn take() -> Buffers<Self> {
        Buffers::default()
    }
    fn keep(_: Buffers<Self>) {}
}

thread_local! {
    static BUFFERS: std::cell::Cell<Buffers<Board>> = std::cell::Cell::default();
}

/// Tic-tac-toe's memory is kept on each thread from one audit to the next: the walk takes a
/// fraction of a millisecond, and fresh memory for every audit (pages the kernel maps and
/// clears again) made it about a third slower.
impl Kept for Board {
    fn take() -> Buffers<Board> {
        BUFFERS.take()
    }
    fn keep(buffers: Buffers<Board>) {
        BUFFERS.set(buffers);
    }
}

/// A larger game's walk (or one on a cached table) takes long enough that fresh memory costs
/// nothing to speak of, and what it held (hundreds of megabytes on 4x4) goes back at once.
impl Kept for Position {}
impl Kept for Cached {}

/// Why the walk stopped before the end.
enum Stop {
    /// The bot could not answer.
    Bot(BotError),
    /// A number outgrew its integer.
    Overflow,
    /// More memory than the limit.
    OverMemory(OverMemory),
    /// A move of the bot that is not optimal, on boards that stand for their images.
    Unmerged,
}

impl From<OverMemory> for Stop {
    fn from(over: OverMemory) -> Stop {
        Stop::OverMemory(over)
    }
}

impl From<BotError> for Stop {
    fn from(error: BotError) -> Stop {
        Stop::Bot(error)
    }
}

impl From<Overflow> for Stop {
    fn from(_: Overflow) -> Stop {
        Stop::Overflow
    }
}

/// The chances of the games that end with a move of this ply, over the next ply's denominator
/// (so they grow with it), and of those forfeited at one of its positions before any move,
/// over this ply's.
#[derive(Default)]
struct Ends {
    win: u128,
    draw: u128,
    loss: u128,
    illegal: u128,
    forfeited: u128,
}

struct Walk<'a, R: Rules> {
    bot: &'a mut dyn Bot,
    game: Game,
    side: Player,
    table: &'a R::Table,
    report: SideReport,
    /// The game last shown to the bot, moved to the next position asked about.
    shown: Shown<R>,
    /// The ply being walked.
    ply: usize,
    /// The least common multiple of the denominators of this ply's moves so far: the next
    /// ply's chances are over this ply's denominator times it.
    multiple: Multiple,
    /// The chances of the games that end at this ply's positions or with its moves.
    ends: Ends,
    buffers: Buffers<R>,
    /// Each position and move that gave value away.
    mistakes: Collector,
}

impl<R: Kept> Walk<'_, R> {
    fn run(&mut self) -> Result<(), Stop> {
        self.buffers.graph.clear();
        let mut nodes = std::mem::take(&mut self.buffers.nodes);
        nodes.clear();
        nodes.push(Node::root(self.game));
        self.buffers.known.clear();
        self.buffers.known.push(Known::default().reached_if(true));
        let mut denominator: u128 = 1;
        while !nodes.is_empty() {
            // The places of this ply served to list it; the next ply's are set from here on.
            let listed = nodes.iter().map(|node| (node.board, node.code));
            self.buffers.places.forget(listed);
            self.ends = Ends::default();
            self.multiple = Multiple::ONE;
            self.buffers.next.clear();
            self.buffers.known_next.clear();
            self.buffers.graph.begin_ply();
            if Player::at_ply(self.ply) == self.side {
                prepare(self.bot, self.game, &nodes, self.ply)?;
            }
            let ahead = if <R::Places as Places<R>>::FETCHES_AHEAD {
                2
            } else {
                0
            };
            for (i, node) in nodes.iter().enumerate().take(ahead) {
                self.warm(node);
                self.fetch_lookup(node, i, false);
            }
            for (i, node) in nodes.iter().enumerate() {
                crate::memory::check()?;
                // Most of the walk of a large game is waiting for memory: the places of the
                // positions after the moves of two positions ahead, and the positions listed
                // there of the next one, are fetched while this one is walked; and so is what
                // the table's lookups of those two positions read.
                if ahead > 0 {
                    if let Some(ahead) = nodes.get(i + 2) {
                        self.warm(ahead);
                        self.fetch_lookup(ahead, i + 2, false);
                    }
                    if let Some(ahead) = nodes.get(i + 1) {
                        self.warm_listed(ahead);
                        self.fetch_lookup(ahead, i + 1, true);
                    }
                }
                // Without `Known`, every position counts as one the perfect style reaches.
                let known = match R::REMEMBERS {
                    true => self.buffers.known[i],
                    false => Known::default().reached_if(true),
                };
                self.visit(node, known)?;
                self.buffers.graph.end_node();
            }
            self.buffers.graph.end_ply(self.multiple.value);
            let next_denominator = times(denominator, u128::from(self.multiple.value))?;
            let (ends, odds) = (&self.ends, &mut self.report.vs_random);
            odds.win += Ratio::new(ends.win, next_denominator);
            odds.draw += Ratio::new(ends.draw, next_denominator);
            odds.loss += Ratio::new(ends.loss, next_denominator);
            odds.illegal += Ratio::new(ends.illegal, next_denominator);
            odds.illegal += Ratio::new(ends.forfeited, denominator);
            std::mem::swap(&mut nodes, &mut self.buffers.next);
            let buffers = &mut self.buffers;
            std::mem::swap(&mut buffers.known, &mut buffers.known_next);
            denominator = next_denominator;
            self.ply += 1;
        }
        self.buffers.nodes = nodes;
        Ok(())
    }

    /// Asks the memory for the places of the positions after each move at `node` (every
    /// empty cell: the bot's choices are not known yet).
    #[inline(always)]
    fn warm(&self, node: &Node<R>) {
        let mover = Player::at_ply(self.ply);
        for cell in node.board.empty_cells() {
            self.buffers
                .places
                .warm(node.board.code_after(node.code, cell, mover));
        }
    }

    /// Asks the memory for what the table's lookup of `node`, the `i`-th of the ply, reads
    /// (the `second` step after the first: see [`Rules::fetch`]), if the visit looks it up:
    /// at each of the bot's positions where one lookup evaluates it, at the opponent's where
    /// the perfect style plays and no judged move of the bot looked it up already.
    #[inline(always)]
    fn fetch_lookup(&self, node: &Node<R>, i: usize, second: bool) {
        let looks_up = if Player::at_ply(self.ply) == self.side {
            R::EVALUATE_AT_ONCE
        } else if !R::REMEMBERS {
            true
        } else {
            let known = self.buffers.known[i];
            known.reached() && known.evaluation().is_none()
        };
        if looks_up {
            node.board.fetch(self.table, second);
        }
    }

    /// Asks the memory for the positions after each move at `node` already listed, which
    /// [`warm`](Walk::warm) made their places known.
    #[inline(always)]
    fn warm_listed(&self, node: &Node<R>) {
        let mover = Player::at_ply(self.ply);
        for cell in node.board.empty_cells() {
            let place = self
                .buffers
                .places
                .peek(node.board.code_after(node.code, cell, mover));
            if let Some(listed) = place.and_then(|place| self.buffers.next.get(place)) {
                crate::memory::prefetch(listed);
            }
        }
    }

    /// Plays on from `node`, a game in progress: every reply of the opponent, or every choice
    /// of the bot, asked once here.
    fn visit(&mut self, node: &Node<R>, known: Known) -> Result<(), Stop> {
        if Player::at_ply(self.ply) == self.side {
            return self.bot_turn(node, known.reached());
        }
        let replies = node.board.empty_cells();
        // Which replies are optimal matters only where the perfect style plays: elsewhere
        // the backward pass never reads it.
        let optimal = match known.evaluation() {
            _ if !known.reached() => Cells::EMPTY,
            Some(evaluation) => evaluation.best,
            None => node.board.best_moves(self.table),
        };
        let each = times(node.chance, self.weight(1, replies.len() as u128)?)?;
        for cell in replies {
            let optimal = optimal.contains(cell);
            let to = self.reach(node, cell, each, optimal)?;
            self.buffers.graph.push(Edge::reply(cell, to, optimal));
        }
        Ok(())
    }

    /// Counts the games through `node` that `cell` ends with `outcome`, with their `chance`
    /// over the next ply's denominator.
    fn finish(
        &mut self,
        node: &Node<R>,
        cell: Cell,
        outcome: Outcome,
        chance: u128,
    ) -> Result<To, Overflow> {
        let (report, ends) = (&mut self.report, &mut self.ends);
        report.games += u64::from(node.histories);
        match outcome {
            Outcome::Draw => {
                ends.draw = plus(ends.draw, chance)?;
                Ok(To::DRAW)
            }
            Outcome::Win(winner) if winner == self.side => {
                ends.win = plus(ends.win, chance)?;
                Ok(To::WIN)
            }
            Outcome::Win(_) => {
                ends.loss = plus(ends.loss, chance)?;
                report.losing_games += u64::from(node.histories);
                if report.shortest_loss.is_none() {
                    self.first_loss(node, cell);
                }
                Ok(To::LOSS)
            }
        }
    }

    fn bot_turn(&mut self, node: &Node<R>, reached: bool) -> Result<(), Stop> {
        let board = node.board;
        self.report.decision_points += u64::from(node.histories);
        self.shown.show(node.line, self.ply);
        let game = &self.shown.game;
        let mut choices = std::mem::take(&mut self.buffers.choices);
        choices.clear();
        match catch_unwind(AssertUnwindSafe(|| {
            self.bot.choose_into(game, &mut choices)
        })) {
            Ok(answer) => answer?,
            Err(payload) => {
                let message = panic_message(payload, &self.shown.game);
                self.forfeit(node, || Forfeit::Panic(message))?;
                return Ok(());
            }
        };
        if choices.is_empty() {
            self.forfeit(node, || Forfeit::Turn(Turn::Nothing))?;
        }
        let empty = board.empty_cells();
        // An optimal move gives nothing away, and needs no judging.
        let (optimal, mut before) = match R::EVALUATE_AT_ONCE {
            true => {
                let evaluation = board.evaluate(self.table);
                (evaluation.best, Some(evaluation))
            }
            false => (board.best_moves(self.table), None),
        };
        // The choices of a position mostly share their probability, and so their chance.
        let mut last: Option<(Ratio, u128, Weight)> = None;
        for choice in &choices {
            let p = choice.probability;
            let (chance, weight) = match last {
                Some((q, chance, weight)) if q == p => (chance, weight),
                _ => {
                    let chance = times(node.chance, self.weight(p.numer(), p.denom())?)?;
                    let fraction = |n: u128| u32::try_from(n).map_err(|_| Overflow);
                    let (numerator, denominator) = (fraction(p.numer())?, fraction(p.denom())?);
                    let weight = self.buffers.graph.weight(numerator, denominator)?;
                    last = Some((p, chance, weight));
                    (chance, weight)
                }
            };
            let (cell, to) = match choice.turn {
                Turn::Mark(cell) if empty.contains(cell) => {
                    let to = self.reach(node, cell, chance, reached)?;
                    let mut mistake = None;
                    if !optimal.contains(cell) {
                        if R::MERGES_IMAGES {
                            return Err(Stop::Unmerged);
                        }
                        let before = *before.get_or_insert_with(|| board.evaluate(self.table));
                        let verdict = self.judge(board, before, cell, to);
                        let histories = u64::from(node.histories);
                        self.report.count_verdict(verdict, histories);
                        mistake = MistakeKind::of(verdict);
                    }
                    if let Some(kind) = mistake {
                        let line = (node.line.0.bits(), R::Line::WIDTH);
                        let histories = u64::from(node.histories);
                        self.mistakes
                            .note_position(kind, self.ply, line, cell, histories, to);
                    }
                    (cell, to)
                }
                ref turn => {
                    self.report.games += u64::from(node.histories);
                    self.report.illegal_games += u64::from(node.histories);
                    self.ends.illegal = plus(self.ends.illegal, chance)?;
                    self.first_forfeit(node, || Forfeit::Turn(turn.clone()));
                    (NO_CELL, To::FORFEIT)
                }
            };
            self.buffers.graph.push(Edge::choice(cell, to, weight));
        }
        self.buffers.choices = choices;
        Ok(())
    }

    /// Keeps the game that `cell` ends at `node` as the shortest loss: the first met.
    #[cold]
    #[inline(never)]
    fn first_loss(&mut self, node: &Node<R>, cell: Cell) {
        let mut line = node.line.to_vec(self.ply);
        line.push(cell);
        self.report.shortest_loss =
            Some(LosingLine::new::<R>(line, self.side, self.game, self.table));
    }

    /// Every game through `node` forfeited, with `what`.
    fn forfeit(&mut self, node: &Node<R>, what: impl FnOnce() -> Forfeit) -> Result<(), Overflow> {
        let certain = self.buffers.graph.weight(1, 1)?;
        self.buffers
            .graph
            .push(Edge::choice(NO_CELL, To::FORFEIT, certain));
        self.report.games += u64::from(node.histories);
        self.report.illegal_games += u64::from(node.histories);
        self.ends.forfeited = plus(self.ends.forfeited, node.chance)?;
        self.first_forfeit(node, what);
        Ok(())
    }

    /// Keeps a forfeit at `node` as the shortest if none came before it.
    fn first_forfeit(&mut self, node: &Node<R>, what: impl FnOnce() -> Forfeit) {
        if self.report.shortest_illegal.is_none() {
            self.report.shortest_illegal = Some(IllegalLine {
                moves: node.line.to_vec(self.ply),
                what: what(),
            });
        }
    }

    /// The probability `numerator / denominator` as an integer over the ply's multiple, which
    /// grows to take in the denominator: then every chance already carried to the next ply
    /// grows with it.
    fn weight(&mut self, numerator: u128, denominator: u128) -> Result<u128, Overflow> {
        if let Some(factor) = self.multiple.take_in(denominator)? {
            for node in &mut self.buffers.next {
                node.chance = times(node.chance, factor)?;
            }
            let ends = &mut self.ends;
            for chance in [
                &mut ends.win,
                &mut ends.draw,
                &mut ends.loss,
                &mut ends.illegal,
            ] {
                *chance = times(*chance, factor)?;
            }
        }
        times(numerator, self.multiple.over(denominator))
    }

    /// Brings the histories of `node`, playing `cell`, to the position after it or to the end
    /// of their games, with `chance` over the next ply's denominator. `reaches` says whether
    /// the perfect style lets the game reach the position after the move.
    #[inline(always)]
    fn reach(
        &mut self,
        node: &Node<R>,
        cell: Cell,
        chance: u128,
        reaches: bool,
    ) -> Result<To, Overflow> {
        let buffers = &mut self.buffers;
        let places = Some(&mut buffers.places);
        match step(node, self.ply, cell, chance, &mut buffers.next, places)? {
            // A game that ends is counted as it ends, never listed.
            Step::End(outcome) => self.finish(node, cell, outcome, chance),
            Step::At(place) if R::REMEMBERS => {
                let known = &mut buffers.known_next;
                match known.get_mut(place) {
                    Some(known) => *known = known.reached_if(reaches),
                    None => known.push(Known::default().reached_if(reaches)),
                }
                Ok(To::node(place))
            }
            Step::At(place) => Ok(To::node(place)),
        }
    }

    /// What the bot's move on `cell` at `board`, to `to`, did to the value `before` it held
    /// there: a move not among the optimal. One in a drawn position loses (every drawing move
    /// is optimal), and one in a lost position loses sooner (every slowest loss is): only in a
    /// won position is the table asked what the move gave away.
    fn judge(&mut self, board: R, before: Evaluation, cell: Cell, to: To) -> MoveVerdict {
        let verdict = match before.value {
            Value::Win => self.verdict(board, before, cell, to),
            Value::Draw => MoveVerdict::DrawToLoss,
            Value::Loss => MoveVerdict::FastLoss,
        };
        // The table's own word, asked without keeping anything: the walk of a debug build
        // stays the release build's.
        debug_assert_eq!(
            verdict,
            MoveVerdict::leading_to(
                (before.value, before.remoteness),
                board.mark(cell, self.side).probe(self.table),
            )
        );
        verdict
    }

    /// [`judge`](Walk::judge)'s verdict from the table. Where one lookup gives a position's
    /// optimal moves too, the position after the move, if the game goes on, keeps what it
    /// gave: the opponent's turn there then needs no lookup of its own.
    fn verdict(&mut self, board: R, before: Evaluation, cell: Cell, to: To) -> MoveVerdict {
        // A set of images keeps the optimal moves of its first board, which `board.mark` may
        // not be: the walk by images stops before judging any move.
        debug_assert!(
            !R::MERGES_IMAGES,
            "a move judged on boards that stand for images"
        );
        let after = board.mark(cell, self.side);
        let after = match to.place() {
            Some(place) if R::REMEMBERS => {
                let known = &mut self.buffers.known_next[place];
                let evaluation = known.evaluation().unwrap_or_else(|| {
                    let evaluation = after.evaluate(self.table);
                    *known = known.remember(evaluation);
                    evaluation
                });
                Probe {
                    value: evaluation.value,
                    remoteness: evaluation.remoteness,
                }
            }
            _ => after.probe(self.table),
        };
        MoveVerdict::leading_to((before.value, before.remoteness), after)
    }

    /// Works out the odds that need the whole tree, and the games through each mistake, from
    /// the moves the walk recorded.
    fn backwards(&mut self) -> Result<(), Stop> {
        self.mistakes.count_games(&self.buffers.graph);
        let (empty, _) = R::empty(self.game);
        if self.report.never_loses() && empty.probe(self.table).value == Value::Draw {
            // No opponent makes it lose, and the perfect style, which never loses a drawn
            // game, draws.
            self.report.vs_perfect.draw = crate::ratio::Ratio::ONE;
            return Ok(());
        }
        let buffers = &mut self.buffers;
        crate::memory::room_for(buffers.graph.scratch_bytes())?;
        let first = self.side == Player::X;
        let (loss, line, odds) =
            odds::backwards(&buffers.graph, first, &mut buffers.scratch).ok_or(Stop::Overflow)?;
        self.report.worst_case = WorstCase { loss, line };
        self.report.vs_perfect = odds;
        Ok(())
    }
}

/// The cell of a move that is none (a forfeit), where one must be given.
const NO_CELL: Cell = Cell::ALL[0];
