//! How the library's types appear to programs: every JSON output and export uses these forms.
//!
//! A board of tic-tac-toe is its 9-character text (`X`, `O`, `.`), a player `"X"` or `"O"`, a
//! cell its number 1..9, a set of cells a list of numbers, a value `"win"`/`"draw"`/`"loss"`,
//! a status `"in_progress"`/`"x_wins"`/`"o_wins"`/`"draw"`, a symmetry its name. Each but the
//! board reads back from the same form. An m,n,k game is its name (`"4x4k3"`), and its board
//! its text, rows separated by `/`; a board reads back only with its game (see
//! `export::Record`).

use serde::de::{self, Deserialize, Deserializer};
use serde::{Serialize, Serializer};

use crate::board::{Board, Cell, Cells, Outcome, Player, Status};
use crate::game::Game;
use crate::position::Position;
use crate::symmetry::Symmetry;
use crate::value::{MoveValue, Value};

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Serialize for Game {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Serialize for Position {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.text(&mut [0; 2 * crate::game::MAX_CELLS]))
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.number())
    }
}

impl Serialize for Cells {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Types written as their name (`"X"`, `"win"`, `"in_progress"`, a symmetry's name), and read
/// back from it, or told what was expected: `type, "what it is", every value;`.
macro_rules! by_name {
    ($($type:ty, $what:literal, $all:expr;)*) => {$(
        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$type, D::Error> {
                let text = String::deserialize(deserializer)?;
                $all.into_iter()
                    .find(|value: &$type| value.name() == text)
                    .ok_or_else(|| de::Error::custom(format!("{text:?} is not {}", $what)))
            }
        }
    )*};
}

by_name! {
    Player, "a player (X or O)", [Player::X, Player::O];
    Value, "a value (win, draw, loss)", [Value::Win, Value::Draw, Value::Loss];
    Status, "a status", [
        Status::InProgress,
        Status::Finished(Outcome::Win(Player::X)),
        Status::Finished(Outcome::Win(Player::O)),
        Status::Finished(Outcome::Draw),
    ];
    Symmetry, "a symmetry name", Symmetry::ALL;
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse()
            .map_err(|error: crate::game::GameError| de::Error::custom(error.to_string()))
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cell, D::Error> {
        // The same width as `serialize_u8`, which bincode (not self-describing) needs.
        let number = u8::deserialize(deserializer)?;
        (1..=9)
            .contains(&number)
            .then(|| Cell::from_number(number.into()))
            .flatten()
            .ok_or_else(|| de::Error::custom(format!("{number} is not a cell 1..9")))
    }
}

impl<'de> Deserialize<'de> for Cells {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cells, D::Error> {
        Ok(Vec::<Cell>::deserialize(deserializer)?
            .into_iter()
            .collect())
    }
}

/// [`MoveValue`] as programs see it: `{"cell", "value", "remoteness"}`.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename = "MoveValue")]
struct MoveValueForm {
    cell: u8,
    value: Value,
    remoteness: u8,
}

impl Serialize for MoveValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        MoveValueForm {
            cell: self.cell.number(),
            value: self.value,
            remoteness: self.remoteness,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for MoveValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<MoveValue, D::Error> {
        let form = MoveValueForm::deserialize(deserializer)?;
        let cell = usize::from(form.cell)
            .checked_sub(1)
            .and_then(Cell::new)
            .ok_or_else(|| {
                de::Error::custom(format!(
                    "{} is not a cell 1..{}",
                    form.cell,
                    crate::game::MAX_CELLS
                ))
            })?;
        Ok(MoveValue {
            cell,
            value: form.value,
            remoteness: form.remoteness,
        })
    }
}
