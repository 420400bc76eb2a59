//! How counts read for people, in every command's text and every error: thousands grouped
//! (`29,429,345,758 games`) and a noun that agrees with its count (`1 history`, `2 histories`).
//! Output for programs (JSON, exports, the protocol) writes plain numbers.

use std::fmt::Display;

/// A whole number with its thousands grouped by commas: `50,000`, `-1,024`.
pub fn grouped(n: impl Display) -> String {
    let digits = n.to_string();
    let (sign, digits) = match digits.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", digits.as_str()),
    };
    let mut out = String::from(sign);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A count and its noun, grouped and agreeing: `1 history`, `4,000,000 histories`.
pub(crate) fn counted(
    n: impl Display + Copy + PartialEq + From<u8>,
    one: &str,
    many: &str,
) -> String {
    let noun = if n == From::from(1u8) { one } else { many };
    format!("{} {noun}", grouped(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped_from_the_right() {
        let cases: [(i128, &str); 8] = [
            (0, "0"),
            (7, "7"),
            (999, "999"),
            (1000, "1,000"),
            (50000, "50,000"),
            (-1024, "-1,024"),
            (29429345758, "29,429,345,758"),
            (15038733958272, "15,038,733,958,272"),
        ];
        for (n, text) in cases {
            assert_eq!(grouped(n), text);
        }
        assert_eq!(
            grouped(u128::MAX),
            "340,282,366,920,938,463,463,374,607,431,768,211,455"
        );
    }

    #[test]
    fn the_noun_agrees_with_its_count() {
        assert_eq!(counted(1u64, "history", "histories"), "1 history");
        assert_eq!(counted(0u64, "history", "histories"), "0 histories");
        assert_eq!(
            counted(4000000u64, "history", "histories"),
            "4,000,000 histories"
        );
    }
}
