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

impl Serialize for Player {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
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

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Serialize for Status {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Serialize for Symmetry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Reads a string and turns it into a value, or says what was expected.
fn from_name<'de, D, T>(
    deserializer: D,
    what: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let text = String::deserialize(deserializer)?;
    parse(&text).ok_or_else(|| de::Error::custom(format!("{text:?} is not {what}")))
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse()
            .map_err(|error: crate::game::GameError| de::Error::custom(error.to_string()))
    }
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Player, D::Error> {
        from_name(deserializer, "a player (X or O)", |s| match s {
            "X" => Some(Player::X),
            "O" => Some(Player::O),
            _ => None,
        })
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

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        from_name(deserializer, "a value (win, draw, loss)", |s| {
            [Value::Win, Value::Draw, Value::Loss]
                .into_iter()
                .find(|v| v.name() == s)
        })
    }
}

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Status, D::Error> {
        from_name(deserializer, "a status", |s| {
            [
                Status::InProgress,
                Status::Finished(Outcome::Win(Player::X)),
                Status::Finished(Outcome::Win(Player::O)),
                Status::Finished(Outcome::Draw),
            ]
            .into_iter()
            .find(|v| v.name() == s)
        })
    }
}

impl<'de> Deserialize<'de> for Symmetry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Symmetry, D::Error> {
        from_name(deserializer, "a symmetry name", |s| {
            Symmetry::ALL.into_iter().find(|v| v.name() == s)
        })
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
