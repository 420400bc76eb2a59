//! Reading a bot specification (`perfect`, `casual:0.3`, `cmd:COMMAND`...) into a bot.

use super::bot::{Bot, BotError};
use super::catalog::{CATALOG, PARAMETERISED, builtin};
#[cfg(not(target_family = "wasm"))]
use super::external::{self, External};
use super::styles::{Casual, Epsilon};
use crate::ratio::Ratio;

/// The finest probability a style takes: thousandths. The auditor's odds are exact fractions,
/// and a bot's probabilities multiply along every game; with denominators up to 1,000 the
/// products stay within 128 bits for any game.
pub const MAX_DENOMINATOR: u128 = 1000;

/// Reads a probability from 0 to 1 written as a decimal with at most three places (`0.25`,
/// `.5`, `1`) or a fraction whose denominator is at most 1,000 (`1/3`), exactly.
///
/// # Errors
///
/// [`BotError`] when the text is not such a number, lies outside 0..1, or is finer than
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
/// # Ok::<(), ttt_oracle::bots::BotError>(())
/// ```
pub fn parse_probability(text: &str) -> Result<Ratio, BotError> {
    let bad = || BotError {
        message: format!(
            "probability {} is not a number from 0 to 1 with at most three decimal places \
             (write e.g. 0.25, or a fraction such as 1/3 with a denominator up to 1000)",
            crate::text::quote(text)
        ),
    };
    let number = |s: &str| -> Result<u128, BotError> {
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
/// [`BotError`] naming what is wrong and listing what is allowed.
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
/// # Ok::<(), ttt_oracle::bots::BotError>(())
/// ```
pub fn from_spec(spec: &str) -> Result<Box<dyn Bot + Send>, BotError> {
    if let Some(p) = spec.strip_prefix("casual:") {
        return Ok(Box::new(Casual::new(parse_probability(p)?)));
    }
    if let Some(p) = spec.strip_prefix("epsilon:") {
        return Ok(Box::new(Epsilon::new(parse_probability(p)?)));
    }
    if let Some(command) = spec.strip_prefix("cmd:") {
        if command.trim().is_empty() {
            return Err(BotError {
                message: "cmd: needs a command, e.g. cmd:\"python3 bot.py\"".to_string(),
            });
        }
        #[cfg(not(target_family = "wasm"))]
        return Ok(Box::new(External::new(
            command,
            command,
            external::DEFAULT_TIMEOUT,
        )));
        #[cfg(target_family = "wasm")]
        return Err(BotError {
            message: format!("cmd:{command}: this build cannot start programs (WebAssembly)"),
        });
    }
    builtin(spec).ok_or_else(|| unknown(spec))
}

/// The forms that take a parameter, by the word before their colon: `casual`, `epsilon`, `cmd`.
fn parameterised_words() -> impl Iterator<Item = &'static str> {
    PARAMETERISED
        .iter()
        .filter_map(|(form, _)| form.split_once(':').map(|(word, _)| word))
}

/// Why `spec` names no bot: a form that takes a parameter given without one, or an unknown
/// name, with the closest known spelling when one is close (as clap suggests a subcommand).
fn unknown(spec: &str) -> BotError {
    let quoted = crate::text::quote(spec);
    if let Some((form, _)) = PARAMETERISED
        .iter()
        .find(|(form, _)| form.split_once(':').is_some_and(|(word, _)| word == spec))
    {
        return BotError {
            message: format!(
                "{quoted} needs its parameter: write {form}, e.g. {}",
                example(form)
            ),
        };
    }
    let hint = suggestion(spec)
        .map(|close| format!(" (did you mean {close}?)"))
        .unwrap_or_default();
    BotError {
        message: format!("unknown bot {quoted}{hint}; choose one of: {}", allowed()),
    }
}

/// A form with its parameter filled in, for messages.
fn example(form: &str) -> String {
    match form.split_once(':') {
        Some(("cmd", _)) => "cmd:\"python3 bot.py\"".to_string(),
        Some((word, _)) => format!("{word}:0.25"),
        None => form.to_string(),
    }
}

/// The bot `spec` was probably meant to name: a built-in name, or a form with a parameter
/// whose word is mistyped (`casul:0.3` is `casual:0.3`). `None` when nothing is close.
fn suggestion(spec: &str) -> Option<String> {
    if let Some((word, parameter)) = spec.split_once(':') {
        return closest(word, parameterised_words()).map(|word| format!("{word}:{parameter}"));
    }
    let names = CATALOG.iter().map(|info| info.name);
    match closest(spec, names.chain(parameterised_words()))? {
        name if CATALOG.iter().any(|info| info.name == name) => Some(name.to_string()),
        word => PARAMETERISED
            .iter()
            .find(|(form, _)| form.split_once(':').is_some_and(|(w, _)| w == word))
            .map(|(form, _)| form.to_string()),
    }
}

/// The candidate closest to `typed`, ignoring case, when it is close: by the measure and the
/// threshold clap uses to suggest a subcommand (Jaro similarity above 0.7). `None` when
/// nothing is that close.
fn closest<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let typed = typed.to_lowercase();
    candidates
        .into_iter()
        .map(|candidate| (strsim::jaro(&typed, candidate), candidate))
        .filter(|&(similarity, _)| similarity > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}
