//! The odds that need the whole tree at once, worked out backwards over the positions the walk
//! by positions met: the worst case (the most an opponent who knows the bot can make it lose)
//! and the odds against the `perfect` style.
//!
//! The walk records each position's moves as it goes ([`Graph`]): the opponent's replies, each
//! marked optimal or not, and the bot's choices with their probabilities. A position's figures
//! are the same however it was reached (the bot is memoryless), so each is worked out once,
//! from the last ply back to the first, both figures in one pass. As in the forward walk, no
//! fraction is reduced on the way: every figure of a ply is an integer over one denominator
//! (one for each figure), the product of the least common multiples of the denominators met at
//! that ply and every later one, and a fraction is made only at the start. The integers are of
//! 64 bits when the first ply's denominators fit in them, as they do for every built-in bot,
//! and of 128 otherwise; when a denominator would outgrow those the answer is `None`, and the
//! caller walks the histories instead. Nothing else can overflow: every figure is a probability
//! times its ply's denominator, and each term of a sum is at most the sum.

use super::Odds;
use crate::board::Cell;
use crate::ratio::Ratio;

/// The moves of every position the walk met, ply by ply, each ply's positions in the walk's
/// order.
#[derive(Default)]
pub(super) struct Graph {
    plies: Vec<Ply>,
    /// How many of `plies` hold the current walk (the rest are kept for their memory).
    used: usize,
}

#[derive(Default)]
struct Ply {
    /// Where each position's moves start in `edges`, and one more: where the ply's end.
    starts: Vec<u32>,
    edges: Vec<Edge>,
    /// The least common multiple of the edges' denominators.
    multiple: u64,
}

/// A move from a position, in 16 bytes: a walk records tens of thousands on tic-tac-toe, tens
/// of millions on 4x4.
#[derive(Clone, Copy)]
pub(super) struct Edge {
    pub cell: Cell,
    pub to: To,
    /// For a move of the bot, its probability; for the opponent's, 1.
    pub numerator: u32,
    pub denominator: u32,
    /// For a reply of the opponent: whether it is one of the optimal moves.
    pub optimal: bool,
}

const _: () = assert!(std::mem::size_of::<Edge>() == 16);

/// Where a move leads: to a position of the next ply, by its place in that ply's list, or to
/// the end of the game. Its number is the move's place among the next ply's values, which
/// start with the four ends.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct To(u32);

impl To {
    /// The end of the game, won by the bot.
    pub const WIN: To = To(0);
    pub const DRAW: To = To(1);
    /// The end of the game, lost by the bot on the board.
    pub const LOSS: To = To(2);
    /// The bot broke the rules (or panicked): the game ends, lost.
    pub const FORFEIT: To = To(3);
    const ENDS: usize = 4;

    /// The position at `place` in the next ply's list.
    pub fn node(place: usize) -> To {
        To(u32::try_from(place + To::ENDS).expect("a ply lists fewer than 2^32 positions"))
    }

    /// The position's place in the next ply's list, if the move leads to one.
    fn place(self) -> Option<usize> {
        (self.0 as usize).checked_sub(To::ENDS)
    }
}

impl Graph {
    /// Forgets the last walk.
    pub fn clear(&mut self) {
        self.used = 0;
    }

    /// The next ply begins.
    pub fn begin_ply(&mut self) {
        if self.plies.len() == self.used {
            self.plies.push(Ply::default());
        }
        let ply = &mut self.plies[self.used];
        ply.starts.clear();
        ply.starts.push(0);
        ply.edges.clear();
        self.used += 1;
    }

    /// The ply ends; `multiple` is the least common multiple of the denominators of its
    /// moves' probabilities, which the walk has worked out already.
    pub fn end_ply(&mut self, multiple: u64) {
        self.plies[self.used - 1].multiple = multiple;
    }

    /// The current position of the ply ends.
    #[inline]
    pub fn end_node(&mut self) {
        let ply = &mut self.plies[self.used - 1];
        ply.starts.push(ply.edges.len() as u32);
    }

    /// A move from the current position.
    #[inline]
    pub fn push(&mut self, edge: Edge) {
        self.plies[self.used - 1].edges.push(edge);
    }

    fn plies(&self) -> &[Ply] {
        &self.plies[..self.used]
    }

    /// What [`backwards`] holds beside the graph, at most: for each position and end, whether
    /// it is reached, its worst case and its three chances against the perfect style.
    pub fn scratch_bytes(&self) -> u64 {
        let places: usize = self.plies().iter().map(|ply| To::ENDS + ply.len()).sum();
        places as u64 * (1 + 8 + 24)
    }

    /// Hands `each` every ply, from the last to the first, with how many games follow a move
    /// of that ply by where it leads: one for the end of a game, every game from the position
    /// otherwise (a memoryless bot's games from a position are the same however it is reached).
    pub fn games_after(&self, mut each: impl FnMut(usize, &dyn Fn(To) -> u64)) {
        let (mut next, mut this) = (Vec::<u64>::new(), Vec::<u64>::new());
        for (p, ply) in self.plies().iter().enumerate().rev() {
            let after = |to: To| to.place().map_or(1, |place| next[place]);
            each(p, &after);
            this.clear();
            this.extend(
                (0..ply.len()).map(|i| ply.node(i).iter().map(|e| after(e.to)).sum::<u64>()),
            );
            std::mem::swap(&mut next, &mut this);
        }
    }
}

impl Ply {
    /// How many positions the ply lists.
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The moves of position `i`.
    fn node(&self, i: usize) -> &[Edge] {
        &self.edges[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// The least common multiple of `a` and `b`, if it fits; quick when `a` is already a multiple
/// of `b`, as it nearly always is.
fn lcm(a: u64, b: u64) -> Option<u64> {
    // Divisions are slow: most denominators are 1, or the multiple itself.
    if a == b || b == 1 {
        return Some(a);
    }
    if a == 1 {
        return Some(b);
    }
    if a % b == 0 {
        return Some(a);
    }
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).checked_mul(b)
}

/// An unsigned integer the backward pass works in: `u64` when the denominators fit in it, and
/// `u128` otherwise, where each operation costs more.
trait Int:
    Copy
    + Default
    + Ord
    + std::ops::Add<Output = Self>
    + std::ops::AddAssign
    + std::ops::Mul<Output = Self>
    + From<u32>
    + Into<u128>
{
    fn from_u64(value: u64) -> Self;
    fn checked_mul(self, other: Self) -> Option<Self>;
}

impl Int for u64 {
    fn from_u64(value: u64) -> u64 {
        value
    }

    fn checked_mul(self, other: u64) -> Option<u64> {
        u64::checked_mul(self, other)
    }
}

impl Int for u128 {
    fn from_u64(value: u64) -> u128 {
        u128::from(value)
    }

    fn checked_mul(self, other: u128) -> Option<u128> {
        u128::checked_mul(self, other)
    }
}

/// The memory of the backward pass, kept from one audit to the next as the walk's is. Each
/// array holds every ply's positions in turn, each ply's after the four ends of the games that
/// end with the ply before (see [`To`]), and four more ends after the last ply.
#[derive(Default)]
pub(super) struct Scratch {
    /// Whether the perfect style lets the game reach each position.
    reached: Vec<bool>,
    /// The worst case from each position, over its ply's worst-case denominator.
    worst: Vec<u64>,
    /// The chances of losing on the board, of forfeiting and of winning against the perfect
    /// style, over the ply's perfect-style denominator; only positions the perfect style
    /// reaches are set.
    perfect: Vec<[u64; 3]>,
}

/// Both figures worked out backwards: the worst case and one line of it, and the odds against
/// the `perfect` style; `None` when a denominator outgrows 128 bits.
///
/// The worst case is the highest chance with which an opponent who knows the bot (every choice
/// it may make, and how likely, but not which it will make) makes it lose or forfeit; its line
/// is such an opponent's play against the bot's most damaging choices: the opponent's first
/// best reply at each of its turns, the bot's choice that loses most at each of its own (the
/// first among equals). The line is empty when the chance is 0. The odds are those of the bot
/// against an opponent who picks uniformly among its optimal moves.
pub(super) fn backwards(
    graph: &Graph,
    bot_moves_first: bool,
    scratch: &mut Scratch,
) -> Option<(Ratio, Vec<Cell>, Odds)> {
    let Scratch {
        reached,
        worst,
        perfect,
    } = scratch;
    let plies = graph.plies();
    let bots_ply = |p: usize| (p % 2 == 0) == bot_moves_first;
    // Where each ply's values start, and the ends after the last ply.
    let mut bases = Vec::with_capacity(plies.len() + 1);
    let mut base = 0;
    for ply in plies {
        bases.push(base);
        base += To::ENDS + ply.len();
    }
    bases.push(base);
    let factors = factors(plies, &bases, bots_ply, reached)?;
    let pass = Pass {
        plies,
        bases: &bases,
        factors: &factors,
        bots_ply: &bots_ply,
        reached,
    };
    pass.run::<u64>(worst, perfect)
        .or_else(|| pass.run::<u128>(&mut Vec::new(), &mut Vec::new()))
}

/// Each ply's worst-case and perfect-style factors: the least common multiples of what its
/// positions divide by (the bot's probabilities' denominators, at every position for the worst
/// case and at the positions the perfect style reaches for its odds; and for the perfect style
/// the number of its optimal replies at the positions it reaches). Also marks the positions the
/// perfect style reaches, working forwards.
fn factors(
    plies: &[Ply],
    bases: &[usize],
    bots_ply: impl Fn(usize) -> bool,
    reached: &mut Vec<bool>,
) -> Option<Vec<[u64; 2]>> {
    reached.clear();
    reached.resize(bases[plies.len()] + To::ENDS, false);
    // The first position, if the walk listed any.
    if let Some(root) = reached.get_mut(To::ENDS) {
        *root = true;
    }
    let mut factors = vec![[1u64; 2]; plies.len()];
    for (p, ply) in plies.iter().enumerate() {
        let (this, next) = reached.split_at_mut(bases[p + 1]);
        let this = &this[bases[p] + To::ENDS..];
        let [worst, perfect] = &mut factors[p];
        if bots_ply(p) {
            *worst = ply.multiple;
        }
        for (i, _) in this.iter().enumerate().filter(|(_, on_path)| **on_path) {
            let edges = ply.node(i);
            if bots_ply(p) {
                for edge in edges {
                    *perfect = lcm(*perfect, u64::from(edge.denominator))?;
                    next[edge.to.0 as usize] = true;
                }
            } else {
                let mut optimal = 0;
                for edge in edges.iter().filter(|edge| edge.optimal) {
                    optimal += 1;
                    next[edge.to.0 as usize] = true;
                }
                *perfect = lcm(*perfect, optimal.max(1))?;
            }
        }
    }
    Some(factors)
}

/// The backward pass, in integers of one width or another.
struct Pass<'a, F> {
    plies: &'a [Ply],
    bases: &'a [usize],
    factors: &'a [[u64; 2]],
    bots_ply: &'a F,
    reached: &'a [bool],
}

impl<F: Fn(usize) -> bool> Pass<'_, F> {
    fn run<T: Int>(
        &self,
        worst: &mut Vec<T>,
        perfect: &mut Vec<[T; 3]>,
    ) -> Option<(Ratio, Vec<Cell>, Odds)> {
        let (plies, bases) = (self.plies, self.bases);
        // Each ply's denominators, the products of the factors of that ply and every later
        // one; one more at the end, 1, for the games' ends.
        let mut denominators = vec![[T::from(1); 2]; plies.len() + 1];
        for p in (0..plies.len()).rev() {
            let [worst, perfect] = self.factors[p].map(T::from_u64);
            let [worst_later, perfect_later] = denominators[p + 1];
            denominators[p] = [
                worst.checked_mul(worst_later)?,
                perfect.checked_mul(perfect_later)?,
            ];
        }
        let zero = T::default();
        // Every value is written before it is read (those of the positions the perfect style
        // does not reach are never read): what the last audit left needs no clearing.
        let len = self.reached.len();
        if worst.len() < len {
            worst.resize(len, zero);
        }
        if perfect.len() < len {
            perfect.resize(len, [zero; 3]);
        }
        for p in (0..=plies.len()).rev() {
            // The ends of the games that end with the ply before, over this ply's denominators.
            let [one, perfect_one] = denominators[p];
            let ends = bases[p]..bases[p] + To::ENDS;
            worst[ends.clone()].copy_from_slice(&[zero, zero, one, one]);
            // In the order of `To`'s ends: win, draw, loss, forfeit.
            perfect[ends].copy_from_slice(&[
                [zero, zero, perfect_one],
                [zero; 3],
                [perfect_one, zero, zero],
                [zero, perfect_one, zero],
            ]);
            let Some(ply) = plies.get(p) else {
                continue;
            };
            let [worst_factor, perfect_factor] = self.factors[p];
            let nodes = bases[p] + To::ENDS..bases[p + 1];
            let (worst_here, worst_next) = worst.split_at_mut(bases[p + 1]);
            let (perfect_here, perfect_next) = perfect.split_at_mut(bases[p + 1]);
            let worst_here = &mut worst_here[nodes.clone()];
            let perfect_here = &mut perfect_here[nodes.clone()];
            let reached = &self.reached[nodes];
            let bots = (self.bots_ply)(p);
            for (i, value) in worst_here.iter_mut().enumerate() {
                let edges = ply.node(i);
                let mut sum = zero;
                if bots {
                    let mut weights = Scaled::<T>::new(worst_factor);
                    for edge in edges {
                        let child = worst_next[edge.to.0 as usize];
                        if child != zero {
                            sum += weights.weight(edge) * child;
                        }
                    }
                } else {
                    for edge in edges {
                        sum = sum.max(worst_next[edge.to.0 as usize]);
                    }
                }
                *value = sum;
                if !reached[i] {
                    continue;
                }
                let mut sum = [zero; 3];
                if bots {
                    let mut weights = Scaled::<T>::new(perfect_factor);
                    for edge in edges {
                        let child = perfect_next[edge.to.0 as usize];
                        if child != [zero; 3] {
                            let weight = weights.weight(edge);
                            for (total, part) in sum.iter_mut().zip(child) {
                                *total += weight * part;
                            }
                        }
                    }
                } else {
                    let mut optimal = 0;
                    for edge in edges.iter().filter(|edge| edge.optimal) {
                        optimal += 1;
                        for (total, part) in sum.iter_mut().zip(perfect_next[edge.to.0 as usize]) {
                            *total += part;
                        }
                    }
                    let each = T::from_u64(scale(perfect_factor, optimal.max(1)));
                    sum = sum.map(|total| total * each);
                }
                perfect_here[i] = sum;
            }
        }
        let root = bases[0] + To::ENDS;
        let [worst_denominator, denominator] = denominators[0].map(Into::into);
        let loss = Ratio::new((*worst.get(root)?).into(), worst_denominator);
        let line = if loss == Ratio::ZERO {
            Vec::new()
        } else {
            self.line(worst)
        };
        // The bot wins against the perfect style only where its side wins the game (never on
        // 3x3 or 4x4, which are draws); what is neither won, lost nor forfeited is a draw.
        let [lost, illegal, won] = perfect[root].map(Into::into);
        let odds = Odds {
            win: Ratio::new(won, denominator),
            draw: Ratio::new(denominator - lost - illegal - won, denominator),
            loss: Ratio::new(lost, denominator),
            illegal: Ratio::new(illegal, denominator),
        };
        Some((loss, line, odds))
    }

    /// The worst-case line, from the worst case of every position.
    fn line<T: Int>(&self, worst: &[T]) -> Vec<Cell> {
        let mut line = Vec::new();
        let mut node = 0usize;
        for (p, ply) in self.plies.iter().enumerate() {
            let next = &worst[self.bases[p + 1]..];
            // The first of the moves that leave the bot the most to lose.
            let mut best: Option<(&Edge, T)> = None;
            for edge in ply.node(node) {
                let value = next[edge.to.0 as usize];
                if best.is_none_or(|(_, top)| value > top) {
                    best = Some((edge, value));
                }
            }
            let Some((edge, _)) = best else {
                break;
            };
            if edge.to == To::FORFEIT {
                break;
            }
            line.push(edge.cell);
            match edge.to.place() {
                Some(place) => node = place,
                None => break,
            }
        }
        line
    }
}

/// `factor` over `denominator`, which divides it: the integer weight of a probability's
/// numerator at a ply whose positions' probabilities are all over `factor`.
fn scale(factor: u64, denominator: u64) -> u64 {
    if denominator == 1 {
        factor
    } else {
        factor / denominator
    }
}

/// The integer weights of a position's choices at a ply whose probabilities are all over
/// `factor`: the choices of one position mostly share a denominator, divided into `factor`
/// once.
struct Scaled<T> {
    factor: u64,
    last: (u32, T),
}

impl<T: Int> Scaled<T> {
    fn new(factor: u64) -> Scaled<T> {
        Scaled {
            factor,
            last: (1, T::from_u64(factor)),
        }
    }

    /// The weight of `edge`'s probability.
    fn weight(&mut self, edge: &Edge) -> T {
        if edge.denominator != self.last.0 {
            self.last = (
                edge.denominator,
                T::from_u64(scale(self.factor, u64::from(edge.denominator))),
            );
        }
        T::from(edge.numerator) * self.last.1
    }
}
