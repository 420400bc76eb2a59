//! `ttt map`: the SVG read back as XML, and every board on it checked against the table: the
//! perfect player's move optimal and drawn in its cell, every reply of the opponent a nested
//! board in the cell it takes, every game drawn to its end; and the same bytes every time.

use crate::common;

use std::collections::BTreeSet;

use assert_cmd::Command;
use roxmltree::{Document, Node};
use ttt_oracle::web::map;
use ttt_oracle::{Cell, Game, Oracle, Player, Position};

/// A board's square on the picture: x, y, side.
fn square(node: Node) -> [f64; 3] {
    let numbers: Vec<f64> = node
        .attribute("data-box")
        .expect("a board has data-box")
        .split(' ')
        .map(|n| n.parse().expect("a number"))
        .collect();
    [numbers[0], numbers[1], numbers[2]]
}

/// The square of `cell` (1..9) in `board`.
fn cell_square([x, y, side]: [f64; 3], cell: u8) -> [f64; 3] {
    let index = f64::from(cell - 1);
    let third = side / 3.0;
    [
        x + third * (index % 3.0),
        y + third * (index / 3.0).floor(),
        third,
    ]
}

fn inside([x, y, side]: [f64; 3], (px, py): (f64, f64)) -> bool {
    px > x && px < x + side && py > y && py < y + side
}

/// The first point a mark's shape draws: a cross's path starts at a corner, a ring's centre.
fn point(mark: Node) -> (f64, f64) {
    let shape = mark.first_element_child().expect("a mark has a shape");
    match shape.tag_name().name() {
        "circle" => (
            shape.attribute("cx").unwrap().parse().unwrap(),
            shape.attribute("cy").unwrap().parse().unwrap(),
        ),
        "path" => {
            let d = shape.attribute("d").unwrap();
            let first: Vec<f64> = d[1..d.find('L').unwrap()]
                .split(' ')
                .map(|n| n.parse().unwrap())
                .collect();
            (first[0], first[1])
        }
        other => panic!("a mark drawn as {other}"),
    }
}

fn classes<'a>(node: Node<'a, '_>) -> BTreeSet<&'a str> {
    node.attribute("class").unwrap_or("").split(' ').collect()
}

/// Checks the board `node` and everything nested in it; returns how many games end in it.
fn check_board(oracle: &Oracle, player: Player, node: Node) -> usize {
    let moves = node.attribute("data-moves").unwrap();
    let list = if moves == "none" { "" } else { moves };
    let position = Position::from_move_list(Game::TIC_TAC_TOE, list).unwrap().0;
    let here = square(node);
    let children: Vec<Node> = node.children().filter(Node::is_element).collect();
    let marks: Vec<Node> = children
        .iter()
        .copied()
        .filter(|n| classes(*n).contains("mark"))
        .collect();
    let best: Vec<Node> = marks
        .iter()
        .copied()
        .filter(|n| classes(*n).contains("best"))
        .collect();
    for mark in &marks {
        let cell: u8 = mark.attribute("data-cell").unwrap().parse().unwrap();
        assert!(
            inside(cell_square(here, cell), point(*mark)),
            "{moves}: the mark on {cell} is drawn outside its cell"
        );
        let drawn = mark.attribute("data-player").unwrap();
        let on_board = position.get(Cell::from_number(cell.into()).unwrap());
        if classes(*mark).contains("best") {
            assert_eq!(
                on_board, None,
                "{moves}: the move {cell} is on a taken cell"
            );
            assert_eq!(drawn, player.to_string());
        } else {
            assert_eq!(on_board.map(|p| p.to_string()).as_deref(), Some(drawn));
        }
    }
    assert_eq!(
        marks.len() - best.len(),
        position.ply(),
        "{moves}: marks drawn"
    );
    let to_play = !position.is_over() && position.to_move() == player;
    let after = if to_play {
        assert_eq!(best.len(), 1, "{moves}: the perfect move is drawn once");
        let cell: u8 = best[0].attribute("data-cell").unwrap().parse().unwrap();
        let cell = Cell::from_number(cell.into()).unwrap();
        assert!(
            oracle.best_moves(&position).contains(cell),
            "{moves}: {cell} is not a best move"
        );
        position.play(cell).unwrap()
    } else {
        assert!(best.is_empty(), "{moves}: a move drawn out of turn");
        position
    };
    let nested: Vec<Node> = children
        .iter()
        .copied()
        .filter(|n| classes(*n).contains("board"))
        .collect();
    if after.is_over() {
        assert!(nested.is_empty(), "{moves}: boards after the end");
        assert_ne!(
            after.winner(),
            Some(!player),
            "{moves}: the perfect player lost"
        );
        return 1;
    }
    let replies: Vec<u8> = after.legal_moves().iter().map(|c| c.number()).collect();
    assert_eq!(nested.len(), replies.len(), "{moves}: one board a reply");
    let mut games = 0;
    for (board, reply) in nested.iter().zip(replies) {
        let mut expected: Vec<String> = (!list.is_empty())
            .then(|| list.to_string())
            .into_iter()
            .collect();
        if to_play {
            expected.push(best[0].attribute("data-cell").unwrap().to_string());
        }
        expected.push(reply.to_string());
        assert_eq!(
            board.attribute("data-moves"),
            Some(expected.join(" ").as_str())
        );
        let [x, y, side] = square(*board);
        let cell = cell_square(here, reply);
        assert!(inside(cell, (x, y)) && inside(cell, (x + side, y + side)));
        games += check_board(oracle, player, *board);
    }
    games
}

fn check_map(player: Player) -> usize {
    let svg = map::svg(player).unwrap();
    let document = Document::parse(&svg).expect("the map is well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.attribute("data-player"),
        Some(player.to_string().as_str())
    );
    let top: Vec<Node> = root
        .children()
        .filter(|n| classes(*n).contains("board"))
        .collect();
    assert_eq!(top.len(), 1);
    assert_eq!(top[0].attribute("data-moves"), Some("none"));
    check_board(&Oracle::of(Game::TIC_TAC_TOE).unwrap(), player, top[0])
}

#[test]
fn every_move_on_the_map_of_x_is_perfect_and_every_game_ends() {
    // Against a perfect X, O's replies end in these many games, each drawn to its end.
    assert!(check_map(Player::X) > 30);
}

#[test]
fn every_move_on_the_map_of_o_is_perfect_and_every_game_ends() {
    assert!(check_map(Player::O) > 300);
}

#[test]
fn the_command_writes_the_same_bytes_each_time() {
    let run = |args: &[&str]| {
        let out = Command::new(crate::common::ttt())
            .args(args)
            .output()
            .unwrap();
        common::assert_success(&out);
        out.stdout
    };
    let first = run(&["map"]);
    assert_eq!(first, run(&["map", "--as", "x"]));
    assert_eq!(first, map::svg(Player::X).unwrap().into_bytes());
    assert_ne!(first, run(&["map", "--as", "O"]));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("map.svg");
    run(&["map", "--as", "o", "-o", file.to_str().unwrap()]);
    assert_eq!(std::fs::read(&file).unwrap(), run(&["map", "--as", "o"]));
    let out = Command::new(crate::common::ttt())
        .args(["map", "--as", "z"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
