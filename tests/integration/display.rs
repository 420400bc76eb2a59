//! The reports' `Display` is the command line's text: an audit's side, with a table and
//! without, a match and a review, printed by the library and by `ttt` with `NO_COLOR`, in the
//! same test.

use assert_cmd::Command;
use ttt_oracle::audit::{AuditBudget, Mistakes, Report, audit_tableless};
use ttt_oracle::bots::{self, CATALOG};
use ttt_oracle::draw::Style;
use ttt_oracle::matchup::MatchOptions;
use ttt_oracle::{AuditOptions, Game, History, Player, Review, audit, matchup};

/// What `ttt args` prints with `NO_COLOR`, and its exit code.
fn plain(args: &[&str]) -> (String, Option<i32>) {
    let out = Command::new(crate::common::ttt())
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

/// `text` with its heading's name `name` given as "the bot", as the report's `Display` names
/// it, and without the author's published figures, which the report does not hold.
fn unnamed(text: &str, name: &str) -> String {
    let text = text.replacen(&format!("{name} as "), "the bot as ", 1);
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| !line.starts_with("  published:"))
        .collect();
    lines.join("\n")
}

#[test]
fn an_audits_side_shows_as_ttt_audit_prints_it() {
    let (stdout, code) = plain(&["audit", "smartbot", "--side", "o"]);
    assert_eq!(code, Some(1));
    let mut smartbot = bots::from_spec("smartbot").unwrap();
    let options = AuditOptions {
        mistakes: Mistakes::DRAWN,
        ..AuditOptions::new(Game::TIC_TAC_TOE, Player::O)
    };
    let report = audit(smartbot.as_mut(), &options).unwrap();
    let side = report.solved().unwrap();
    let published = CATALOG
        .iter()
        .find(|info| info.name == "smartbot")
        .unwrap()
        .published;
    let named = side.text("smartbot", published, Style::PLAIN);
    // Between the table and the last line, after a blank line.
    assert!(stdout.contains(&format!("\n\n{named}\n\n")), "{stdout}");
    assert!(
        named.contains("\n    replay: ttt review --moves "),
        "{named}"
    );
    assert_eq!(format!("{side}"), unnamed(&named, "smartbot"));
    assert_eq!(format!("{report}"), format!("{side}"));
    // With the library's default options no mistake is listed: the count alone, no heading
    // over an empty list and no command-line flag.
    let report = audit(
        smartbot.as_mut(),
        &AuditOptions::new(Game::TIC_TAC_TOE, Player::O),
    )
    .unwrap();
    let text = format!("{report}");
    assert!(
        text.ends_with("\n  mistakes: 52 by position and move"),
        "{text}"
    );
}

#[test]
fn an_audit_without_a_table_shows_as_ttt_audit_prints_it() {
    let (stdout, code) = plain(&["audit", "--game", "5x5", "marcelo", "--side", "x"]);
    assert_eq!(code, Some(1));
    let mut marcelo = bots::from_spec("marcelo").unwrap();
    let game: Game = "5x5".parse().unwrap();
    let side = audit_tableless(marcelo.as_mut(), game, Player::X, AuditBudget::DEFAULT).unwrap();
    let named = side.text("marcelo", Style::PLAIN);
    assert!(named.starts_with("marcelo as X on 5x5: "), "{named}");
    assert!(stdout.contains(&format!("\n\n{named}\n\n")), "{stdout}");
    assert_eq!(format!("{side}"), unnamed(&named, "marcelo"));
    assert_eq!(
        format!("{}", Report::Searched(side.clone())),
        format!("{side}")
    );
}

#[test]
fn a_match_shows_as_ttt_match_prints_it() {
    let (stdout, code) = plain(&["match", "perfect", "random"]);
    assert_eq!(code, Some(0));
    let play = |x: &str, o: &str| {
        let (mut x, mut o) = (bots::from_spec(x).unwrap(), bots::from_spec(o).unwrap());
        matchup(x.as_mut(), o.as_mut(), &MatchOptions::default()).unwrap()
    };
    let (there, back) = (play("perfect", "random"), play("random", "perfect"));
    let both = format!("{there}\n\n{back}\n\nMean score a game, as X and as O");
    assert!(stdout.starts_with(&both), "{stdout}");
    assert_eq!(there.text(Style::PLAIN), format!("{there}"));
}

#[test]
fn a_review_shows_as_ttt_review_prints_it() {
    // An unfinished game with no mistake, and one whose mistake is drawn with its board.
    for moves in ["5 1 9 2", "5 3 9 1 4 2"] {
        let (stdout, code) = plain(&["review", "--moves", moves]);
        assert_eq!(code, Some(0));
        let review = Review::new(&History::parse(Game::TIC_TAC_TOE, moves).unwrap()).unwrap();
        assert_eq!(stdout, format!("{review}\n"));
    }
    let review = Review::new(&History::parse(Game::TIC_TAC_TOE, "5 3 9 1 4 2").unwrap()).unwrap();
    assert!(format!("{review}").contains("\nPly 5: X played 4, draw to loss"));
}
