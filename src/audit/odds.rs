//! The odds that need the whole tree at once, worked out backwards over the positions the walk
//! by positions met: the worst case (the most an opponent who knows the bot can make it lose)
//! and the odds against the `perfect` style.
//!
//! The walk records each position's moves as it goes ([`Graph`]): the opponent's replies, each
//! marked optimal or not, and the bot's choices with their probabilities. A position's figures
//! are the same however it was reached (the bot is memoryless), so each is worked out once,
//! from the last ply back to the first. As in the forward walk, no fraction is reduced on the
//! way: every figure of a ply is an integer over one denominator, the product of the least
//! common multiples of the denominators met at that ply and every later one, and a fraction is
//! made only at the start. When a denominator would outgrow its integer the answer is `None`,
//! and the caller walks the histories instead. Nothing else can: every figure is a probability
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
    /// Where each position's moves start in `edges`.
    starts: Vec<u32>,
    edges: Vec<Edge>,
}

/// A move from a position, in 16 bytes: a walk records tens of thousands.
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

/// Where a move leads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum To {
    /// A position of the next ply, by its place in that ply's list.
    Node(u16),
    /// The end of the game, won by the bot.
    Win,
    Draw,
    /// The end of the game, lost by the bot on the board.
    Loss,
    /// The bot broke the rules (or panicked): the game ends, lost.
    Forfeit,
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
        ply.edges.clear();
        self.used += 1;
    }

    /// The next position of the ply begins.
    pub fn begin_node(&mut self) {
        let ply = &mut self.plies[self.used - 1];
        ply.starts.push(ply.edges.len() as u32);
    }

    /// A move from the current position.
    pub fn push(&mut self, edge: Edge) {
        self.plies[self.used - 1].edges.push(edge);
    }

    fn plies(&self) -> &[Ply] {
        &self.plies[..self.used]
    }
}

impl Ply {
    fn nodes(&self) -> impl Iterator<Item = &[Edge]> {
        let ends = self.starts[1..]
            .iter()
            .copied()
            .chain([self.edges.len() as u32]);
        self.starts
            .iter()
            .zip(ends)
            .map(|(&start, end)| &self.edges[start as usize..end as usize])
    }
}

/// The least common multiple of `a` and `b`, if it fits; quick when `a` is already a multiple
/// of `b`, as it nearly always is.
fn lcm(a: u64, b: u64) -> Option<u64> {
    // Divisions are slow: most denominators are 1, or the multiple itself.
    if a == 1 {
        return Some(b);
    }
    if b == 1 || a == b || a % b == 0 {
        return Some(a);
    }
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).checked_mul(b)
}

/// Each ply's factor, the least common multiple of what `weight` says each position of the ply
/// divides by, and its denominator, the product of the factors of that ply and every later one;
/// one denominator more at the end: 1, for the games' ends.
fn denominators(
    graph: &Graph,
    weight: impl Fn(usize, usize, &[Edge]) -> Option<u64>,
) -> Option<(Vec<u64>, Vec<u128>)> {
    let plies = graph.plies();
    let mut factors = vec![1u64; plies.len()];
    let mut denominators = vec![1u128; plies.len() + 1];
    for (p, ply) in plies.iter().enumerate().rev() {
        let mut multiple = 1u64;
        for (i, edges) in ply.nodes().enumerate() {
            multiple = lcm(multiple, weight(p, i, edges)?)?;
        }
        factors[p] = multiple;
        denominators[p] = u128::from(multiple).checked_mul(denominators[p + 1])?;
    }
    Some((factors, denominators))
}

/// The lcm of the bot's probabilities' denominators at a position.
fn choice_denominators(edges: &[Edge]) -> Option<u64> {
    edges
        .iter()
        .try_fold(1, |m, edge| lcm(m, u64::from(edge.denominator)))
}

/// The highest chance with which an opponent who knows the bot (every choice it may make, and
/// how likely, but not which it will make) makes it lose or forfeit, and one line of such an
/// opponent's play against the bot's most damaging choices: the opponent's first best reply
/// at each of its turns, the bot's choice that loses most at each of its own (the first among
/// equals). The line is empty when the chance is 0.
pub(super) fn worst_case(graph: &Graph, bot_moves_first: bool) -> Option<(Ratio, Vec<Cell>)> {
    let bots_ply = |p: usize| (p % 2 == 0) == bot_moves_first;
    let (factors, denominators) = denominators(graph, |p, _, edges| {
        if bots_ply(p) {
            choice_denominators(edges)
        } else {
            Some(1)
        }
    })?;
    let plies = graph.plies();
    // Each position's chance, over its ply's denominator.
    let mut values: Vec<Vec<u128>> = vec![Vec::new(); plies.len()];
    for (p, ply) in plies.iter().enumerate().rev() {
        let factor = factors[p];
        let (one, next) = (denominators[p + 1], values.get(p + 1));
        let mut ply_values = Vec::with_capacity(ply.starts.len());
        for edges in ply.nodes() {
            let value = if bots_ply(p) {
                let mut sum = 0u128;
                let mut scaled = Scaled::new(factor);
                for edge in edges {
                    let child = edge_value(edge, next, one);
                    if child != 0 {
                        sum += scaled.weight(edge) * child;
                    }
                }
                sum
            } else {
                let mut most = 0;
                for edge in edges {
                    most = most.max(edge_value(edge, next, one));
                    // Nothing leaves more to lose than a certain loss.
                    if most == one {
                        break;
                    }
                }
                most
            };
            ply_values.push(value);
        }
        values[p] = ply_values;
    }
    let loss = Ratio::new(*values.first()?.first()?, denominators[0]);
    let mut line = Vec::new();
    if loss != Ratio::ZERO {
        let mut node = 0usize;
        for (p, ply) in plies.iter().enumerate() {
            let edges = ply.nodes().nth(node)?;
            let next = values.get(p + 1);
            // The first of the moves that leave the bot the most to lose.
            let edge = edges
                .iter()
                .fold(None, |best: Option<(&Edge, u128)>, edge| {
                    let value = edge_value(edge, next, denominators[p + 1]);
                    match best {
                        Some((_, top)) if top >= value => best,
                        _ => Some((edge, value)),
                    }
                })?;
            match edge.0.to {
                To::Node(next) => {
                    line.push(edge.0.cell);
                    node = usize::from(next);
                }
                To::Forfeit => break,
                _ => {
                    line.push(edge.0.cell);
                    break;
                }
            }
        }
    }
    Some((loss, line))
}

/// `factor` over `denominator`, which divides it: the integer weight of a probability's
/// numerator at a ply whose positions' probabilities are all over `factor`.
fn scale(factor: u64, denominator: u64) -> u128 {
    u128::from(if denominator == 1 {
        factor
    } else {
        factor / denominator
    })
}

/// The integer weights of a position's choices at a ply whose probabilities are all over
/// `factor`: the choices of one position mostly share a denominator, divided into `factor`
/// once.
struct Scaled {
    factor: u64,
    last: (u32, u128),
}

impl Scaled {
    fn new(factor: u64) -> Scaled {
        Scaled {
            factor,
            last: (1, u128::from(factor)),
        }
    }

    /// The weight of `edge`'s probability.
    fn weight(&mut self, edge: &Edge) -> u128 {
        if edge.denominator != self.last.0 {
            self.last = (
                edge.denominator,
                scale(self.factor, u64::from(edge.denominator)),
            );
        }
        u128::from(edge.numerator) * self.last.1
    }
}

/// What a move leaves the bot to lose, over the next ply's denominator.
fn edge_value(edge: &Edge, next: Option<&Vec<u128>>, denominator: u128) -> u128 {
    match edge.to {
        To::Node(i) => next.map_or(0, |values| values[usize::from(i)]),
        To::Loss | To::Forfeit => denominator,
        To::Win | To::Draw => 0,
    }
}

/// The exact odds of the bot against the `perfect` style: an opponent who picks uniformly among
/// its optimal moves.
pub(super) fn against_perfect(graph: &Graph, bot_moves_first: bool) -> Option<Odds> {
    let bots_ply = |p: usize| (p % 2 == 0) == bot_moves_first;
    let optimal = |edges: &[Edge]| edges.iter().filter(|e| e.optimal).count() as u64;
    let plies = graph.plies();
    // Only the positions the perfect style lets the game reach count, a few of them all.
    let mut reached: Vec<Vec<bool>> = plies
        .iter()
        .map(|ply| vec![false; ply.starts.len()])
        .collect();
    if let Some(root) = reached.first_mut().and_then(|ply| ply.first_mut()) {
        *root = true;
    }
    for (p, ply) in plies.iter().enumerate() {
        let (this, next) = reached.split_at_mut(p + 1);
        for (i, edges) in ply.nodes().enumerate() {
            if !this[p][i] {
                continue;
            }
            for edge in edges {
                if let To::Node(child) = edge.to {
                    if bots_ply(p) || edge.optimal {
                        next[0][usize::from(child)] = true;
                    }
                }
            }
        }
    }
    let (factors, denominators) = denominators(graph, |p, i, edges| {
        if !reached[p][i] {
            Some(1)
        } else if bots_ply(p) {
            choice_denominators(edges)
        } else {
            Some(optimal(edges).max(1))
        }
    })?;
    // The bot's chances of losing on the board and of forfeiting: it never wins against the
    // perfect style, which never loses, so the rest is a draw.
    let mut values: Vec<Vec<[u128; 2]>> = vec![Vec::new(); plies.len()];
    for (p, ply) in plies.iter().enumerate().rev() {
        let factor = factors[p];
        let mut ply_values = Vec::with_capacity(ply.starts.len());
        for (i, edges) in ply.nodes().enumerate() {
            let mut sum = [0u128; 2];
            let mut scaled = Scaled::new(factor);
            if !reached[p][i] {
                ply_values.push(sum);
                continue;
            }
            let each = if bots_ply(p) {
                0
            } else {
                scale(factor, optimal(edges).max(1))
            };
            for edge in edges {
                let weight = if bots_ply(p) {
                    scaled.weight(edge)
                } else if edge.optimal {
                    each
                } else {
                    continue;
                };
                match edge.to {
                    To::Node(i) => {
                        let [loss, illegal] = values[p + 1][usize::from(i)];
                        sum[0] += weight * loss;
                        sum[1] += weight * illegal;
                    }
                    To::Loss => sum[0] += weight * denominators[p + 1],
                    To::Forfeit => sum[1] += weight * denominators[p + 1],
                    To::Win => unreachable!("the perfect style never loses"),
                    To::Draw => {}
                }
            }
            ply_values.push(sum);
        }
        values[p] = ply_values;
    }
    let [loss, illegal] = *values.first()?.first()?;
    let denominator = denominators[0];
    Some(Odds {
        win: Ratio::ZERO,
        draw: Ratio::new(denominator - loss - illegal, denominator),
        loss: Ratio::new(loss, denominator),
        illegal: Ratio::new(illegal, denominator),
    })
}
