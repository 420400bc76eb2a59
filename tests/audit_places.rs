//! The places of an audit's walk on a board of at most 16 cells, under the memory limit, in a
//! process of its own with the counting allocator (as the `ttt` binary has it): the array by
//! base-3 code (172 MB on 16 cells) is taken ahead of the boards the walk meets, and a walk it
//! leaves without room is walked again with a hash map, which holds only those boards.

use ttt_oracle::memory::{self, Counting};
use ttt_oracle::{AuditOptions, Game, Player, bots};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// 4 bytes for each of the 3^16 codes of a board of 16 cells.
const ARRAY: u64 = 4 * 43_046_721;

#[test]
fn a_walk_the_array_leaves_without_room_is_walked_again_with_a_hash_map() {
    // `perfect` as X on 4x4 with k = 3 wins fast: its walk meets 677 positions, some kilobytes.
    let game: Game = "4x4k3".parse().unwrap();
    let options = AuditOptions::new(game, Player::X);
    let audit = || {
        let mut perfect = bots::from_spec("perfect").unwrap();
        ttt_oracle::audit(perfect.as_mut(), &options)
    };
    let free = format!("{:?}", audit().unwrap());
    // Room for the array and 16 KB: the walk with the array stops at the limit, the walk with
    // the hash map fits.
    memory::set_limit(Some(memory::in_use() + ARRAY + (16 << 10)));
    let limited = audit();
    memory::set_limit(None);
    assert_eq!(format!("{:?}", limited.unwrap()), free);
    // With no room for the array, the hash map from the start.
    memory::set_limit(Some(memory::in_use() + (ARRAY / 2)));
    let limited = audit();
    memory::set_limit(None);
    assert_eq!(format!("{:?}", limited.unwrap()), free);
}
