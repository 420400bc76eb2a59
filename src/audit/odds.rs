//! The odds that need the whole tree at once, worked out backwards over the positions the walk
//! by positions met: the worst case (the most an opponent who knows the bot can make it lose)
//! and the odds against the `perfect` style.
//!
//! The walk records each position's moves as it goes ([`Graph`]): the opponent's replies, each
//! marked optimal or not where the perfect style reaches the position (elsewhere none is, and
//! none is read), and the bot's choices with their probabilities. A position's figures
//! are the same however it was reached (the bot is memoryless), so each is worked out once,
//! from the last ply back to the first, both figures in one pass. As in the forward walk, no
//! fraction is reduced on the way: every figure of a ply is an integer over one denominator
//! (one for each figure), the product of the least common multiples of the denominators met at
//! that ply and every later one, and a fraction is made only at the start. The integers are of
//! 64 bits when the first ply's denominators fit in them, as they do for every built-in bot,
//! and of 128 otherwise; when a denominator would outgrow those the answer is `None`, and the
//! caller walks the histories instead, as it does for a ply with more distinct probabilities
//! than a move can name ([`Graph::weight`]). Nothing else can overflow: every figure is a
//! probability times its ply's denominator, and each term of a sum is at most the sum.

use std::collections::HashMap;

use super::Odds;
use super::exact::Overflow;
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
    /// The probabilities of the bot's moves at this ply, each once.
    weights: Weights,
}

/// A move from a position, in 8 bytes: a walk records tens of thousands on tic-tac-toe, tens
/// of millions on 4x4.
#[derive(Clone, Copy)]
pub(super) struct Edge {
    to: To,
    cell: Cell,
    /// For a reply of the opponent at a position the perfect style reaches: whether it is one
    /// of the optimal moves (false elsewhere, where it is never read).
    optimal: bool,
    /// For a move of the bot: its probability, by its place among the ply's.
    weight: Weight,
}

const _: () = assert!(std::mem::size_of::<Edge>() == 8);

impl Edge {
    /// A reply of the opponent, `optimal` or not.
    pub fn reply(cell: Cell, to: To, optimal: bool) -> Edge {
        Edge {
            to,
            cell,
            optimal,
            weight: Weight(0),
        }
    }

    /// A move of the bot, made with the probability `weight` of the ply's.
    pub fn choice(cell: Cell, to: To, weight: Weight) -> Edge {
        Edge {
            to,
            cell,
            optimal: false,
            weight,
        }
    }
}

/// A probability of the bot's moves at a ply, by its place among the ply's
/// ([`Graph::weight`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Weight(u16);

/// The distinct probabilities of a ply's moves of the bot, as numerator and denominator: the
/// moves refer to them by place, since a ply has few (uniform choices among a few cells, a
/// style's shares).
struct Weights {
    fractions: Vec<(u32, u32)>,
    /// The place of 1/d, plus one, for d below 64: a walk asks for these most.
    units: [u16; 64],
    others: HashMap<(u32, u32), u16>,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            fractions: Vec::new(),
            units: [0; 64],
            others: HashMap::new(),
        }
    }
}

impl Weights {
    fn clear(&mut self) {
        self.fractions.clear();
        self.units = [0; 64];
        self.others.clear();
    }

    #[inline(always)]
    fn place(&mut self, numerator: u32, denominator: u32) -> Result<Weight, Overflow> {
        if numerator == 1 && denominator < 64 {
            let unit = self.units[denominator as usize];
            if unit != 0 {
                return Ok(Weight(unit - 1));
            }
        }
        self.add_place(numerator, denominator)
    }

    /// [`place`](Weights::place) met for the first time, or not a unit fraction.
    #[inline(never)]
    fn add_place(&mut self, numerator: u32, denominator: u32) -> Result<Weight, Overflow> {
        if numerator == 1 && denominator < 64 {
            let place = Weights::add(&mut self.fractions, (1, denominator))?;
            self.units[denominator as usize] = place + 1;
            return Ok(Weight(place));
        }
        let fraction = (numerator, denominator);
        let place = match self.others.get(&fraction) {
            Some(&place) => place,
            None => {
                let place = Weights::add(&mut self.fractions, fraction)?;
                self.others.insert(fraction, place);
                place
            }
        };
        Ok(Weight(place))
    }

    /// A ply with more than 2^16 - 1 probabilities (which no built-in bot comes near) is
    /// walked by histories instead.
    fn add(fractions: &mut Vec<(u32, u32)>, fraction: (u32, u32)) -> Result<u16, Overflow> {
        let place = u16::try_from(fractions.len())
            .ok()
            .filter(|&place| place < u16::MAX)
            .ok_or(Overflow)?;
        fractions.push(fraction);
        Ok(place)
    }

    fn denominator(&self, weight: Weight) -> u32 {
        self.fractions[usize::from(weight.0)].1
    }

    /// Each probability as an integer over `factor`, into `scaled`. The perfect style's factor
    /// takes in only the denominators of the positions it reaches: a probability met elsewhere,
    /// whose denominator may not divide it, is never read, and weighs 0.
    fn scale<T: Int>(&self, factor: u64, scaled: &mut Vec<T>) {
        let weight = |&(numerator, denominator)| match factor % u64::from(denominator) {
            0 => T::from(numerator) * T::from_u64(scale(factor, u64::from(denominator))),
            _ => T::default(),
        };
        scaled.clear();
        scaled.extend(self.fractions.iter().map(weight));
    }
}

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
    pub fn place(self) -> Option<usize> {
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
        ply.weights.clear();
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

    /// The probability `numerator / denominator` of a move of the bot at this ply, for
    /// [`Edge::choice`]; [`Overflow`] past 2^16 - 1 distinct probabilities in the ply.
    #[inline]
    pub fn weight(&mut self, numerator: u32, denominator: u32) -> Result<Weight, Overflow> {
        self.plies[self.used - 1]
            .weights
            .place(numerator, denominator)
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
                    let denominator = ply.weights.denominator(edge.weight);
                    *perfect = lcm(*perfect, u64::from(denominator))?;
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
        let (mut worst_weights, mut perfect_weights) = (Vec::<T>::new(), Vec::<T>::new());
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
            if bots {
                ply.weights.scale(worst_factor, &mut worst_weights);
                ply.weights.scale(perfect_factor, &mut perfect_weights);
            }
            for (i, value) in worst_here.iter_mut().enumerate() {
                let edges = ply.node(i);
                let mut sum = zero;
                // No branch on the values, which the processor cannot foresee: a zero adds
                // nothing.
                if bots {
                    for edge in edges {
                        let child = worst_next[edge.to.0 as usize];
                        sum += worst_weights[usize::from(edge.weight.0)] * child;
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
                    for edge in edges {
                        let child = perfect_next[edge.to.0 as usize];
                        let weight = perfect_weights[usize::from(edge.weight.0)];
                        for (total, part) in sum.iter_mut().zip(child) {
                            *total += weight * part;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ply_names_each_probability_once_and_refuses_too_many() {
        let mut weights = Weights::default();
        let third = weights.place(1, 3).unwrap();
        let two_thirds = weights.place(2, 3).unwrap();
        let fine = weights.place(1, 1000).unwrap();
        assert!(third != two_thirds && third != fine && two_thirds != fine);
        assert_eq!(weights.place(1, 3).unwrap(), third);
        assert_eq!(weights.place(2, 3).unwrap(), two_thirds);
        assert_eq!(weights.place(1, 1000).unwrap(), fine);
        assert_eq!(weights.denominator(fine), 1000);
        let mut scaled = Vec::<u64>::new();
        weights.scale(3000, &mut scaled);
        assert_eq!(scaled, [1000, 2000, 3]);
        // The perfect style's factor may leave out a denominator met only where it does not
        // get: such a probability is never read, and weighs 0.
        weights.scale(1000, &mut scaled);
        assert_eq!(scaled, [0, 0, 1]);
        // Up to 2^16 - 1 distinct probabilities; the next is an overflow, which sends the
        // audit to the walk by histories.
        for numerator in 3..u32::from(u16::MAX) {
            weights.place(numerator, 100_000).unwrap();
        }
        assert_eq!(weights.fractions.len(), usize::from(u16::MAX));
        assert!(weights.place(1, 3).is_ok());
        assert!(weights.place(1, 100_001).is_err());
        assert!(weights.place(1, 5).is_err());
        weights.clear();
        assert_eq!(weights.place(1, 5).unwrap(), Weight(0));
    }
}
