//! Reading a bot specification (`perfect`, `casual:0.3`, `cmd:COMMAND`...) into a bot.

use std::fmt;

use super::bot::Bot;
use super::catalog::{CATALOG, PARAMETERISED, builtin};
use super::external::{self, External};
use super::styles::{Casual, Epsilon};
use crate::ratio::Ratio;

/// Why a bot specification names no bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// What is wrong, and what is allowed.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}

/// The finest probability a style takes: thousandths. The auditor's odds are exact fractions,
/// and a bot's probabilities multiply along every game; with denominators up to 1,000 the
/// products stay within 128 bits for any game.
pub const MAX_DENOMINATOR: u128 = 1000;

/// Reads a probability from 0 to 1 written as a decimal with at most three places (`0.25`,
/// `.5`, `1`) or a fraction whose denominator is at most 1,000 (`1/3`), exactly.
///
/// # Errors
///
/// [`SpecError`] when the text is not such a number, lies outside 0..1, or is finer than
/// thousandths.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Ratio, bots::parse_probability};
///
/// assert_eq!(parse_probability("0.25")?, Ratio::new(1, 4));
/// assert_eq!(parse_probability("1/3")?, Ratio::new(1, 3));
/// assert!(parse_probability("1.5").is_err());
/// assert!(parse_probability("0.0001").is_err());
/// # Ok::<(), ttt_oracle::bots::SpecError>(())
/// ```
pub fn parse_probability(text: &str) -> Result<Ratio, SpecError> {
    let bad = || SpecError {
        message: format!(
            "probability {} is not a number from 0 to 1 with at most three decimal places \
             (write e.g. 0.25, or a fraction such as 1/3 with a denominator up to 1000)",
            crate::quote::quote(text)
        ),
    };
    let number = |s: &str| -> Result<u128, SpecError> {
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse().map_err(|_| bad())
    };
    let (num, den) = if let Some((num, den)) = text.split_once('/') {
        (number(num)?, number(den)?)
    } else {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        if fraction.len() > 3 || (whole.is_empty() && fraction.is_empty()) {
            return Err(bad());
        }
        let whole = if whole.is_empty() { 0 } else { number(whole)? };
        let fraction_value = if fraction.is_empty() {
            0
        } else {
            number(fraction)?
        };
        let den = 10u128.pow(fraction.len() as u32);
        (whole * den + fraction_value, den)
    };
    if den == 0 || num > den {
        return Err(bad());
    }
    let p = Ratio::new(num, den);
    if p.denom() > MAX_DENOMINATOR {
        return Err(bad());
    }
    Ok(p)
}

/// Every form [`from_spec`] takes, for error messages.
pub fn allowed() -> String {
    let mut forms: Vec<&str> = CATALOG.iter().map(|info| info.name).collect();
    forms.extend(PARAMETERISED.iter().map(|(form, _)| *form));
    forms.join(", ")
}

/// The bot a specification names: a built-in name (`perfect`, `smartbot`, ...), `casual:P`,
/// `epsilon:P`, or `cmd:COMMAND` for an external program (with the default timeout).
///
/// # Errors
///
/// [`SpecError`] naming what is wrong and listing what is allowed.
///
/// # Examples
///
/// ```
/// use ttt_oracle::bots::from_spec;
///
/// assert_eq!(from_spec("casual:0.5")?.name(), "casual:0.5");
/// assert!(from_spec("casual:2").is_err());
/// let error = from_spec("deep-blue").err().unwrap();
/// assert!(error.to_string().contains("newell-simon"));
/// # Ok::<(), ttt_oracle::bots::SpecError>(())
/// ```
pub fn from_spec(spec: &str) -> Result<Box<dyn Bot + Send>, SpecError> {
    if let Some(p) = spec.strip_prefix("casual:") {
        return Ok(Box::new(Casual::new(parse_probability(p)?)));
    }
    if let Some(p) = spec.strip_prefix("epsilon:") {
        return Ok(Box::new(Epsilon::new(parse_probability(p)?)));
    }
    if let Some(command) = spec.strip_prefix("cmd:") {
        if command.trim().is_empty() {
            return Err(SpecError {
                message: "cmd: needs a command, e.g. cmd:\"python3 bot.py\"".to_string(),
            });
        }
        return Ok(Box::new(External::new(
            command,
            command,
            external::DEFAULT_TIMEOUT,
        )));
    }
    builtin(spec).ok_or_else(|| SpecError {
        message: format!(
            "unknown bot {}; choose one of: {}",
            crate::quote::quote(spec),
            allowed()
        ),
    })
}
