//! What the exhaustive walk remembers: a summary of the games from each state, found by the
//! state's key through an index that is cheap to grow.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use hashbrown::HashTable;

use crate::bots::DependsOn;
use crate::game::Mask;
use crate::ratio::Ratio;

/// A state where the bot is to move: the marks of X and O, and what else the bot depends on.
pub(super) type Key = (Mask, Mask, DependsOn);

/// A multiply-and-rotate hash: the keys are masks, and the default hasher's care for hostile
/// input costs a third of the walk.
#[derive(Default)]
pub(super) struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        // The table's buckets are picked by the low bits: fold the high ones in.
        let h = self.0;
        (h ^ h >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ h >> 32
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u128(&mut self, n: u128) {
        // The default writes the 16 bytes one at a time.
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }
}

pub(super) type Hashed<V> = HashMap<Key, V, BuildHasherDefault<Mix>>;

/// The summaries the exhaustive walk remembers, each beside its state in an arena, found
/// through an index of their places alone (4 bytes a slot, where a table of keys and places
/// took 64): when the index outgrows its place it moves those alone, and the arena, written
/// once in order, never moves what it holds (a large vector grows where it lies).
#[derive(Default)]
pub(super) struct Memo {
    index: HashTable<u32>,
    states: Vec<(Key, Summary)>,
}

impl Memo {
    fn hash(key: &Key) -> u64 {
        let mut hasher = Mix::default();
        key.hash(&mut hasher);
        hasher.finish()
    }

    pub(super) fn get(&self, key: &Key) -> Option<Summary> {
        let states = &self.states;
        self.index
            .find(Memo::hash(key), |&place| states[place as usize].0 == *key)
            .map(|&place| states[place as usize].1)
    }

    pub(super) fn insert(&mut self, key: Key, summary: Summary) {
        // A budget of more than 4 billion states would not fit the machine's memory anyway.
        let place = u32::try_from(self.states.len()).expect("fewer than 2^32 states");
        debug_assert!(self.get(&key).is_none(), "a state is worked out once");
        let hash = Memo::hash(&key);
        self.states.push((key, summary));
        let states = &self.states;
        self.index
            .insert_unique(hash, place, |&place| Memo::hash(&states[place as usize].0));
    }
}

/// No line of that kind from here.
pub(super) const NONE: u8 = u8::MAX;

/// What the games from a state hold.
#[derive(Clone, Copy)]
pub(super) struct Summary {
    pub(super) decision_points: u64,
    pub(super) games: u64,
    pub(super) losses: u64,
    pub(super) forfeits: u64,
    /// Plies from here to the end of the shortest loss, or [`NONE`].
    pub(super) loss_in: u8,
    /// Plies from here to the bot's turn in the shortest forfeit, or [`NONE`].
    pub(super) forfeit_in: u8,
    /// Win, draw and loss against a random opponent from here; a forfeit is the rest, as
    /// every state's odds add up to 1.
    pub(super) odds: [Ratio; 3],
}

impl Summary {
    pub(super) const ZERO: Summary = Summary {
        decision_points: 0,
        games: 0,
        losses: 0,
        forfeits: 0,
        loss_in: NONE,
        forfeit_in: NONE,
        odds: [Ratio::ZERO; 3],
    };

    /// A game over: won by the bot (0), drawn (1), lost (2) or forfeited (3).
    pub(super) fn end(at: usize) -> Summary {
        let mut odds = [Ratio::ZERO; 3];
        if let Some(odd) = odds.get_mut(at) {
            *odd = Ratio::ONE;
        }
        Summary {
            games: 1,
            losses: u64::from(at == 2),
            forfeits: u64::from(at == 3),
            loss_in: if at == 2 { 0 } else { NONE },
            forfeit_in: if at == 3 { 0 } else { NONE },
            odds,
            ..Summary::ZERO
        }
    }
}
