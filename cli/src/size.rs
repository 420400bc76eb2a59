//! `--max-memory`: a size as people write it, read into bytes.

/// `bytes` rounded up to a size `--max-memory` takes and people read: whole mebibytes below a
/// gibibyte (`40M`), tenths of a gibibyte above (`2.5G`, `16G`).
pub fn round_up(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    if bytes < GIB {
        return format!("{}M", bytes.div_ceil(1 << 20));
    }
    let tenths = (u128::from(bytes) * 10).div_ceil(u128::from(GIB));
    match tenths % 10 {
        0 => format!("{}G", tenths / 10),
        tenth => format!("{}.{tenth}G", tenths / 10),
    }
}

/// Reads a size as `--max-memory` takes it: a number of bytes, or with a suffix K, M, G or T
/// (powers of 1024, `B` or `iB` after them allowed, any case), a fraction allowed: `512M`,
/// `1.5G`, `2GiB`, `1000000`.
///
/// # Errors
///
/// What is wrong with the text, and what would be right.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let wanted = "a number of bytes, or a number with K, M, G or T after it (e.g. 512M, 2G)";
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    let unitless = lower
        .strip_suffix("ib")
        .or_else(|| lower.strip_suffix('b'))
        .unwrap_or(&lower);
    let (number, shift) = match unitless.chars().last() {
        Some('k') => (&unitless[..unitless.len() - 1], 10),
        Some('m') => (&unitless[..unitless.len() - 1], 20),
        Some('g') => (&unitless[..unitless.len() - 1], 30),
        Some('t') => (&unitless[..unitless.len() - 1], 40),
        _ if unitless.len() != lower.len() && lower.ends_with("ib") => {
            return Err(format!("{wanted}, not {trimmed:?}"));
        }
        _ => (unitless, 0),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || (shift == 0 && number != whole) {
        return Err(format!("{wanted}, not {trimmed:?}"));
    }
    let too_large = || format!("{trimmed:?} is more memory than any machine has");
    let whole: u64 = whole.parse().map_err(|_| too_large())?;
    let mut bytes = whole.checked_shl(shift).filter(|b| b >> shift == whole);
    if !fraction.is_empty() {
        // Nine digits of a fraction are finer than a byte of any unit here.
        let digits: String = fraction.chars().take(9).collect();
        let scale = 10u64.pow(digits.len() as u32);
        let part: u64 = digits.parse().unwrap_or(0);
        let extra = (u128::from(part) << shift) / u128::from(scale);
        bytes = bytes.and_then(|b| b.checked_add(extra as u64));
    }
    match bytes.ok_or_else(too_large)? {
        0 => Err(format!("a size must be more than 0, not {trimmed:?}")),
        bytes => Ok(bytes),
    }
}
