//! A game's geometry: its lines, and the threats they make.

use crate::game::Game;

#[test]
fn completing_finds_a_players_threats() {
    let geometry = Game::TIC_TAC_TOE.geometry();
    // X on 1 and 5 (indices 0 and 4), O on 9: X threatens nothing more, as 9 is O's...
    let (x, o) = (0b0_0001_0001, 0b1_0000_0000);
    let empty = geometry.full() & !(x | o);
    assert_eq!(geometry.completing(x, empty), 0);
    // ...but with 2 as well, 3 (row) and 8 (column), two threats.
    let x = x | 0b10;
    let empty = geometry.full() & !(x | o);
    assert_eq!(geometry.completing(x, empty), 0b0_1000_0100);
}
