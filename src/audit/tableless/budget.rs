//! How much an audit may hold: the states of the walk and of each search.

/// How many distinct states (positions where the bot is to move, with what it depends on) each
/// walk may work out before it gives up: the bound on its memory (about 200 bytes a state
/// remembered by the exhaustive walk; for a program, whose every answer is kept to the end so
/// that it is never asked the same question twice, every one of its turns the walk comes to is
/// a state, and each distinct question takes some 220 bytes on 5x5, 1 KB on 11x11, whose
/// questions are longer) and so on its time.
///
/// On a game with a table, the walk by histories of a bot that is not memoryless counts each
/// history as a state: [`audit`](crate::audit()) and [`matchup`](crate::matchup()) stop past
/// `states` (about 170 bytes a history), and do not use `searched`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditBudget {
    /// The most states the exhaustive walk may hold.
    pub states: usize,
    /// The most states each search may work out (counting a state again each time a deeper
    /// pass works it out again).
    pub searched: usize,
}

impl AuditBudget {
    /// The default: 4,000,000 states for each, about 0.8 GB at most for the walk, and a minute or
    /// two at most for a built-in bot (docs/performance.md); a program's answers, kept through
    /// the walk and both searches, may take a few GB.
    pub const DEFAULT: AuditBudget = AuditBudget {
        states: 4_000_000,
        searched: 4_000_000,
    };

    /// The same number of states for the walk and for each search.
    pub fn of(states: usize) -> AuditBudget {
        AuditBudget {
            states,
            searched: states,
        }
    }
}

impl Default for AuditBudget {
    fn default() -> AuditBudget {
        AuditBudget::DEFAULT
    }
}
