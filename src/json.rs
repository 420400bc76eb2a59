//! How the library's types appear to programs: every JSON output and export uses these forms.
//!
//! A board is its 9-character text (`X`, `O`, `.`), a player `"X"` or `"O"`, a cell its number
//! 1..9, a set of cells a list of numbers, a value `"win"`/`"draw"`/`"loss"`, a status
//! `"in_progress"`/`"x_wins"`/`"o_wins"`/`"draw"`, a symmetry its name.

use serde::{Serialize, Serializer};

use crate::board::{Board, Cell, Cells, Player, Status};
use crate::solve::Value;
use crate::symmetry::Symmetry;

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Serialize for Player {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
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
