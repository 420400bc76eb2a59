//! The searches for the shortest forfeit and the shortest loss, by iterative deepening, when
//! the exhaustive walk outgrows its budget.

use super::memo::{Hashed, Key, NONE};
use super::report::Shortest;
use super::walk::{After, Kind, Walk};
use crate::audit::Halt;
use crate::board::Cell;
use crate::bots::{Choice, Turn};
use crate::game::Mask;
use crate::history::History;

/// The most lines open to the opponent whose pairs [`Walk::plies_to_loss`] weighs as forks
/// (marcelo's largest board has 24 lines); with more, it counts single lines only.
const MAX_OPEN: usize = 32;

impl Walk<'_> {
    /// The shortest line of `kind`, by iterative deepening within the budget (none to search
    /// for a forfeit of a bot that [never forfeits](crate::bots::Bot::never_forfeits)).
    pub(super) fn search(&mut self, kind: Kind) -> Result<Shortest<Vec<Cell>>, Halt> {
        if kind == Kind::Forfeit && self.bot.never_forfeits() {
            return Ok(Shortest::Never);
        }
        self.clear = Hashed::default();
        self.walked = 0;
        self.budget.states = self.budget.searched;
        let mut game = History::empty(self.game);
        for limit in 0..=self.game.cells() {
            match self.deepen(&mut game, kind, limit) {
                Ok(Deepened::Found) => return Ok(Shortest::Line(game.moves().to_vec())),
                Ok(Deepened::Clear { cut: false }) => return Ok(Shortest::Never),
                Ok(Deepened::Clear { cut: true }) => {}
                Err(halt @ (Halt::Bot(_) | Halt::OverMemory(_))) => return Err(halt),
                Err(Halt::OverBudget) => {
                    return Ok(Shortest::Unsettled {
                        plies: limit.saturating_sub(1),
                    });
                }
            }
        }
        Ok(Shortest::Never)
    }

    /// Looks for a line of `kind` ending within `limit` plies of the start; on `Found`, `game`
    /// holds it (its moves, for a forfeit those before the bot's turn).
    fn deepen(&mut self, game: &mut History, kind: Kind, limit: usize) -> Result<Deepened, Halt> {
        let ply = game.moves().len();
        let left = limit - ply;
        let position = game.position();
        let bot_to_move = position.to_move() == self.side;
        if kind == Kind::Loss {
            let Some(needed) = self.plies_to_loss(game, bot_to_move) else {
                return Ok(Deepened::Clear { cut: false });
            };
            if needed > left {
                return Ok(Deepened::Clear { cut: true });
            }
        }
        if !bot_to_move {
            if left == 0 {
                return Ok(Deepened::Clear { cut: true });
            }
            let mut cut = false;
            for cell in game.legal_moves() {
                game.play_unchecked(cell);
                let found = match self.after(game, cell) {
                    After::Won if kind == Kind::Loss => Ok(Deepened::Found),
                    After::Won | After::Drawn => Ok(Deepened::Clear { cut: false }),
                    After::Open => self.deepen(game, kind, limit),
                };
                match found {
                    Ok(Deepened::Found) => return Ok(Deepened::Found),
                    Ok(Deepened::Clear { cut: c }) => cut |= c,
                    Err(stop) => {
                        game.undo();
                        return Err(stop);
                    }
                }
                game.undo();
            }
            return Ok(Deepened::Clear { cut });
        }
        let key = self.key(game);
        if let Some(&clear) = key.and_then(|key| self.clear.get(&key)) {
            if clear == NONE {
                return Ok(Deepened::Clear { cut: false });
            }
            if usize::from(clear) >= left {
                return Ok(Deepened::Clear { cut: true });
            }
        }
        self.expand_state()?;
        let choices = match self.ask(game)? {
            Err(_) if kind == Kind::Forfeit => return Ok(Deepened::Found),
            Err(_) => return Ok(self.cleared(key, left, false)),
            Ok(choices) => choices,
        };
        debug_assert!(
            !self.blocks || self.blocks_as_it_says(game, &choices),
            "{} says it blocks threats, and left one open after {:?}",
            self.bot.name(),
            game.moves()
        );
        let empty = position.empty_mask();
        let legal =
            |turn: &Turn| matches!(turn, Turn::Mark(cell) if empty >> cell.index() & 1 == 1);
        if kind == Kind::Forfeit && choices.iter().any(|choice| !legal(&choice.turn)) {
            self.choices[ply] = choices;
            return Ok(Deepened::Found);
        }
        let mut cut = false;
        let mut outcome = Ok(());
        for choice in &choices {
            let Turn::Mark(cell) = choice.turn else {
                continue;
            };
            if !legal(&choice.turn) {
                continue;
            }
            if left == 0 {
                cut = true;
                break;
            }
            game.play_unchecked(cell);
            let found = match self.after(game, cell) {
                After::Won | After::Drawn => Ok(Deepened::Clear { cut: false }),
                After::Open => self.deepen(game, kind, limit),
            };
            match found {
                Ok(Deepened::Found) => {
                    self.choices[ply] = choices;
                    return Ok(Deepened::Found);
                }
                Ok(Deepened::Clear { cut: c }) => cut |= c,
                Err(stop) => {
                    outcome = Err(stop);
                    game.undo();
                    break;
                }
            }
            game.undo();
        }
        self.choices[ply] = choices;
        outcome?;
        Ok(self.cleared(key, left, cut))
    }

    /// Whether `choices`, the bot's at `game`, keep its word that it
    /// [blocks threats](crate::bots::Bot::blocks_threats): where the opponent has one cell only that
    /// completes a line of theirs, each legal mark is on it or completes a line of the bot's.
    /// Checked in debug builds, where the search relies on it.
    fn blocks_as_it_says(&self, game: &History, choices: &[Choice]) -> bool {
        let position = game.position();
        let geometry = position.geometry();
        let empty = position.empty_mask();
        let threats = geometry.completing(position.mask(!self.side), empty);
        if threats.count_ones() != 1 {
            return true;
        }
        let fine = threats | geometry.completing(position.mask(self.side), empty);
        choices.iter().all(|choice| match choice.turn {
            Turn::Mark(cell) if empty >> cell.index() & 1 == 1 => fine >> cell.index() & 1 == 1,
            _ => true,
        })
    }

    /// The fewest plies from `game` to the end of a loss, or `None` when no loss can come: no
    /// line is open for the opponent (each holds a mark of the bot's), or, against a bot that
    /// blocks threats, one only.
    ///
    /// The opponent must fill a line free of the bot's marks. Against a bot that
    /// [blocks threats](crate::bots::Bot::blocks_threats) it must do more: the bot's last turn before the
    /// loss faced two cells that complete the opponent's lines (with one, the bot marks it or
    /// wins), so two open lines were filled but for one cell each, which takes all the cells
    /// of both but two.
    fn plies_to_loss(&self, game: &History, bot_to_move: bool) -> Option<usize> {
        let position = game.position();
        let theirs = position.mask(!self.side);
        let mine = position.mask(self.side);
        // For each line open to the opponent, the cells it lacks there.
        let mut lacking = [0 as Mask; MAX_OPEN];
        let mut open = 0;
        let mut fewest = usize::MAX;
        for &line in position.geometry().lines() {
            if line & mine != 0 {
                continue;
            }
            let lacks = line & !theirs;
            fewest = fewest.min(lacks.count_ones() as usize);
            if open < MAX_OPEN {
                lacking[open] = lacks;
            }
            open += 1;
        }
        if open == 0 {
            return None;
        }
        // The opponent's moves still needed.
        let mut moves = fewest;
        let its_win_now = !bot_to_move && fewest == 1;
        if self.blocks && !its_win_now && open <= MAX_OPEN {
            // The cells both lines of a fork lack, but the two the fork leaves empty.
            let lacking = &lacking[..open];
            let fork = lacking
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| lacking[i + 1..].iter().map(move |&b| a | b))
                .map(|both| (both.count_ones() as usize).saturating_sub(2))
                .min();
            // With one open line only, no fork can come: the bot blocks it in time.
            let fork = fork?;
            moves = moves.max(fork + 1);
        }
        Some(if bot_to_move {
            2 * moves
        } else {
            2 * moves - 1
        })
    }

    /// Records that the state `key` holds no line within `left` plies (none at all unless
    /// `cut`).
    fn cleared(&mut self, key: Option<Key>, left: usize, cut: bool) -> Deepened {
        if let Some(key) = key {
            let clear = if cut {
                left.min(usize::from(NONE - 1)) as u8
            } else {
                NONE
            };
            let entry = self.clear.entry(key).or_insert(0);
            *entry = (*entry).max(clear);
        }
        Deepened::Clear { cut }
    }
}

/// What one pass of iterative deepening found below a position.
enum Deepened {
    /// A line of the kind searched; the game holds it.
    Found,
    /// None within the limit; `cut` when the limit (not the end of every game) stopped it.
    Clear { cut: bool },
}
