fn main() {
    for _ in 0..20 {
        for side in ttt_oracle::Player::BOTH {
            let mut bot = ttt_oracle::bots::builtin("perfect").unwrap();
            std::hint::black_box(ttt_oracle::audit(bot.as_mut(), side).unwrap());
        }
    }
}
