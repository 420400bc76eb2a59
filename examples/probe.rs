fn main() {
    for s in std::env::args().skip(1) {
        let b: ttt_oracle::Board = s.parse().unwrap();
        let t = ttt_oracle::table();
        println!("{} {:?} {:?} {:?}", b, t.probe(&b), t.best_moves(&b), t.analyze(&b));
    }
}
