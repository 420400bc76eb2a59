//! Where a published bot comes from, and the results its author published.

use std::fmt;

/// Where a published bot comes from: who wrote it, where, when, and in what language.
///
/// # Examples
///
/// ```
/// use ttt_oracle::bots::CATALOG;
///
/// let smartbot = CATALOG.iter().find(|b| b.name == "smartbot").unwrap();
/// let source = smartbot.source.unwrap();
/// assert_eq!(source.year, Some(2021));
/// assert_eq!(source.language, "C");
/// assert_eq!(
///     source.to_string(),
///     "Keshav Nath and Vatsal Mittal, \"Smart Bot for Tic-Tac-Toe\", student report, \
///      Delhi Technological University, 2021, C"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Source {
    /// The authors, as the publication names them; `None` when it is unsigned.
    pub authors: Option<&'static str>,
    /// The publication's title.
    pub title: &'static str,
    /// What kind of publication, and where.
    pub kind: &'static str,
    /// The year, when the publication gives it.
    pub year: Option<u16>,
    /// The language of the bot's code.
    pub language: &'static str,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.authors {
            Some(authors) => write!(f, "{authors}, \"{}\", {}, ", self.title, self.kind)?,
            None => write!(f, "\"{}\", unsigned {}, ", self.title, self.kind)?,
        }
        match self.year {
            Some(year) => write!(f, "{year}, {}", self.language),
            None => write!(f, "year not given, {}", self.language),
        }
    }
}

/// Sampled results an author published for a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Published {
    /// The side the bot played.
    pub side: crate::board::Player,
    /// Games played.
    pub games: u64,
    /// Games the bot won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the bot lost.
    pub losses: u64,
    /// What the opponent was.
    pub opponent: &'static str,
}
