//! The catalogue of built-in bots, with the publications they were ported from, and the bots
//! that take a parameter.

use super::bot::Bot;
use super::source::{Published, Source};
use super::{
    CMinimax, Forkbot, GeeksMinimax, Marcelo, NewellSimon, Perfect, RandomBot, Smartbot, Tricky,
    marcelo,
};

/// A built-in bot: its name, what it is and where it comes from.
#[derive(Clone, Copy, Debug)]
pub struct BotInfo {
    /// The name to give `ttt audit` and `ttt play`.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// Where it was published, for the bots ported from a publication; `None` for this
    /// crate's own.
    pub source: Option<Source>,
    /// What of that publication the port follows, when there is more than one bot in it.
    pub part: &'static str,
    /// Results the bot's author published from sampled games, if any, to show beside the
    /// exact figures.
    pub published: &'static [Published],
    make: fn() -> Box<dyn Bot + Send>,
}

impl BotInfo {
    /// A fresh instance of the bot.
    pub fn make(&self) -> Box<dyn Bot + Send> {
        (self.make)()
    }
}

const NATH_MITTAL: Source = Source {
    authors: Some("Keshav Nath and Vatsal Mittal"),
    title: "Smart Bot for Tic-Tac-Toe",
    kind: "student report, Delhi Technological University",
    year: Some(2021),
    language: "C",
};

const SRM: Source = Source {
    authors: Some("Mayank Kumar Sohanda, Vedant Singh and Mihir Gupta"),
    title: "Tic Tac Toe",
    kind: "student report, SRM Institute of Science and Technology",
    year: Some(2022),
    language: "C++",
};

const MARCELO: Source = Source {
    authors: Some("Marcelo"),
    title: "Don't lose on Tic-Tac-Toe 99% of the time with this simple strategy!",
    kind: "blog post",
    year: None,
    language: "C#",
};

const MINIMAX_IN_C: Source = Source {
    authors: None,
    title: "Tic-Tac-Toe using minimax in C",
    kind: "report",
    year: None,
    language: "C",
};

const PERL_POST: Source = Source {
    authors: None,
    title: "Writing a Tic-Tac-Toe bot in perl",
    kind: "blog post",
    year: None,
    language: "Perl",
};

const NEWELL_SIMON: Source = Source {
    authors: Some("Kevin Crowley and Robert S. Siegler, after Allen Newell and Herbert A. Simon"),
    title: "Flexible strategy use in young children's tic-tac-toe",
    kind: "journal article, Cognitive Science",
    year: Some(1993),
    language: "a rule list in prose",
};

/// Every built-in bot, in the order `ttt bots` lists them.
pub const CATALOG: &[BotInfo] = &[
    BotInfo {
        name: "perfect",
        summary: "the solved table: every optimal move (fastest win, slowest loss), equally likely",
        source: None,
        part: "",
        published: &[],
        make: || Box::new(Perfect),
    },
    BotInfo {
        name: "tricky",
        summary: "perfect, and among optimal moves the one leaving the opponent most ways to go wrong",
        source: None,
        part: "",
        published: &[],
        make: || Box::new(Tricky),
    },
    BotInfo {
        name: "random",
        summary: "a uniformly random legal move",
        source: Some(NATH_MITTAL),
        part: "its \"dumb bot\"",
        published: &[],
        make: || Box::new(RandomBot),
    },
    BotInfo {
        name: "smartbot",
        summary: "win, block, key-spot scripts as X and O, random opening and random fill",
        source: Some(NATH_MITTAL),
        part: "",
        published: &[],
        make: || Box::new(Smartbot),
    },
    BotInfo {
        name: "geeks-minimax",
        summary: "minimax scoring +10/-10, no depth, first best cell",
        source: Some(SRM),
        part: "the GeeksforGeeks listing it reproduces",
        published: &[],
        make: || Box::new(GeeksMinimax::plain()),
    },
    BotInfo {
        name: "geeks-minimax-depth",
        summary: "the same minimax with the depth correction its text describes (10 - depth)",
        source: Some(SRM),
        part: "its section \"Making our AI smarter\"",
        published: &[],
        make: || Box::new(GeeksMinimax::with_depth()),
    },
    BotInfo {
        name: "marcelo",
        summary: "win, block, centre, random diagonal, far from my last move",
        source: Some(MARCELO),
        part: "",
        published: marcelo::PUBLISHED,
        make: || Box::new(Marcelo::default()),
    },
    BotInfo {
        name: "c-minimax",
        summary: "minimax scoring +1/-1 by whose turn it is, no depth, first best cell",
        source: Some(MINIMAX_IN_C),
        part: "",
        published: &[],
        make: || Box::new(CMinimax::default()),
    },
    BotInfo {
        name: "forkbot",
        summary: "centre, win, block, fork, forcing move, first open cell",
        source: Some(PERL_POST),
        part: "its final version",
        published: &[],
        make: || Box::new(Forkbot),
    },
    BotInfo {
        name: "newell-simon",
        summary: "win, block, fork, block a fork, centre, opposite corner, empty corner, empty side",
        source: Some(NEWELL_SIMON),
        part: "",
        published: &[],
        make: || Box::new(NewellSimon),
    },
];

/// Bots that take a parameter: the form to write, and what it does.
pub const PARAMETERISED: &[(&str, &str)] = &[
    (
        "casual:P",
        "never gives the result away, but with probability P (0..1, e.g. 0.25 or 1/3) a random value-keeping move instead of the fastest",
    ),
    (
        "epsilon:P",
        "with probability P (0..1) a uniformly random legal move, otherwise perfect (the SRM report's \"stochastic factor\")",
    ),
    (
        "cmd:COMMAND",
        "an external program in any language, run as `sh -c COMMAND`, speaking the line protocol",
    ),
];

/// The built-in bot called `name`, if there is one.
pub fn builtin(name: &str) -> Option<Box<dyn Bot + Send>> {
    CATALOG
        .iter()
        .find(|info| info.name == name)
        .map(BotInfo::make)
}

/// The built-in bots and the forms that take a parameter, as `ttt bots --format json` prints
/// them and `ttt serve` answers `/api/bots`: `{"bots": [{"name", "summary", "source", "part",
/// "published"}], "parameterised": [{"form", "summary"}]}`.
#[derive(serde::Serialize)]
pub struct Listing {
    bots: Vec<ListedBot>,
    parameterised: Vec<ListedForm>,
}

#[derive(serde::Serialize)]
struct ListedBot {
    name: &'static str,
    summary: &'static str,
    source: Option<Source>,
    part: Option<&'static str>,
    published: &'static [Published],
}

#[derive(serde::Serialize)]
struct ListedForm {
    form: &'static str,
    summary: &'static str,
}

impl Listing {
    /// Every built-in bot, then every form with a parameter; `with_commands` false leaves out
    /// `cmd:`, the form that starts a program (for clients that may not start one).
    pub fn new(with_commands: bool) -> Listing {
        Listing {
            bots: CATALOG
                .iter()
                .map(|bot| ListedBot {
                    name: bot.name,
                    summary: bot.summary,
                    source: bot.source,
                    part: (!bot.part.is_empty()).then_some(bot.part),
                    published: bot.published,
                })
                .collect(),
            parameterised: PARAMETERISED
                .iter()
                .filter(|(form, _)| with_commands || !form.starts_with("cmd:"))
                .map(|&(form, summary)| ListedForm { form, summary })
                .collect(),
        }
    }
}
