use ttt_oracle::{AuditOptions, Game, Player, audit, bots};
fn main() {
    let name = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let mut bot = bots::from_spec(&name).unwrap();
    for _ in 0..n {
        for side in Player::BOTH {
            let report = audit(&mut *bot, &AuditOptions::new(Game::TIC_TAC_TOE, side)).unwrap();
            std::hint::black_box(report);
        }
    }
}
