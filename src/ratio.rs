//! Exact probabilities: fractions kept in lowest terms.

use std::fmt;
use std::ops::{Add, AddAssign, Mul};

/// A non-negative fraction in lowest terms, exact where a float would round.
///
/// # Examples
///
/// ```
/// use ttt_oracle::Ratio;
///
/// let third = Ratio::new(1, 3);
/// assert_eq!((third + third + third).to_string(), "1/1");
/// assert_eq!((Ratio::new(1, 2) * Ratio::new(2, 3)).to_string(), "1/3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u128,
    den: u128,
}

/// Binary GCD (Stein): shifts and subtractions only, because 128-bit division is slow and
/// the auditor reduces a fraction at every node it visits.
macro_rules! binary_gcd {
    ($name:ident, $t:ty) => {
        const fn $name(mut a: $t, mut b: $t) -> $t {
            if a == 0 || b == 0 {
                return a | b;
            }
            let shift = (a | b).trailing_zeros();
            a >>= a.trailing_zeros();
            loop {
                b >>= b.trailing_zeros();
                if a > b {
                    let t = a;
                    a = b;
                    b = t;
                }
                b -= a;
                if b == 0 {
                    return a << shift;
                }
            }
        }
    };
}

binary_gcd!(gcd64, u64);
binary_gcd!(gcd128, u128);

const TOO_FINE: &str =
    "an exact probability outgrew 128 bits: a bot's probabilities must have small denominators";

/// `a / b`, in 64 bits when both fit: 128-bit division is a slow library call.
const fn div(a: u128, b: u128) -> u128 {
    if a <= u64::MAX as u128 && b <= u64::MAX as u128 {
        (a as u64 / b as u64) as u128
    } else {
        a / b
    }
}

const fn gcd(a: u128, b: u128) -> u128 {
    // Most fractions an audit meets fit in 64 bits, where the same steps are cheaper.
    if a <= u64::MAX as u128 && b <= u64::MAX as u128 {
        return gcd64(a as u64, b as u64) as u128;
    }
    gcd128(a, b)
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// One.
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// `num / den` in lowest terms.
    ///
    /// # Panics
    ///
    /// If `den` is zero.
    pub const fn new(num: u128, den: u128) -> Ratio {
        assert!(den != 0, "a fraction needs a non-zero denominator");
        // The chances an audit multiplies mostly have 1 for numerator: nothing to divide out.
        if num <= 1 || den == 1 {
            return Ratio {
                num,
                den: if num == 0 { 1 } else { den },
            };
        }
        // `den` is not zero, so neither is the gcd.
        let g = gcd(num, den);
        Ratio {
            num: div(num, g),
            den: div(den, g),
        }
    }

    /// `1 - self`, for a probability (at most 1).
    ///
    /// # Panics
    ///
    /// If `self` is more than 1.
    pub const fn complement(self) -> Ratio {
        assert!(self.num <= self.den, "a probability is at most 1");
        Ratio {
            num: self.den - self.num,
            den: self.den,
        }
    }

    /// The numerator, in lowest terms.
    pub const fn numer(self) -> u128 {
        self.num
    }

    /// The denominator, in lowest terms.
    pub const fn denom(self) -> u128 {
        self.den
    }

    /// `self + other`, or `None` where a term would outgrow 128 bits.
    pub(crate) fn checked_add(self, other: Ratio) -> Option<Ratio> {
        if self.num == 0 {
            return Some(other);
        }
        if other.num == 0 {
            return Some(self);
        }
        let g = gcd(self.den, other.den);
        let (a, b) = (div(self.den, g), div(other.den, g));
        let num = self
            .num
            .checked_mul(b)?
            .checked_add(other.num.checked_mul(a)?)?;
        Some(Ratio::new(num, a.checked_mul(other.den)?))
    }

    /// `self * other`, or `None` where a term would outgrow 128 bits.
    pub(crate) fn checked_mul(self, other: Ratio) -> Option<Ratio> {
        if other == Ratio::ONE {
            return Some(self);
        }
        let a = Ratio::new(self.num, other.den);
        let b = Ratio::new(other.num, self.den);
        Some(Ratio {
            num: a.num.checked_mul(b.num)?,
            den: a.den.checked_mul(b.den)?,
        })
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// A sum of many fractions, kept over a multiple of their denominators and reduced once, when
/// read: adding a fraction whose denominator divides the multiple, as nearly every chance of an
/// audit's games does, takes a multiplication and an addition, not two gcds. When the multiple
/// would outgrow 128 bits the sum so far is reduced and added as [`Ratio`]s are, with the same
/// result and the same limits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sum {
    num: u128,
    den: u128,
}

impl Sum {
    pub(crate) const ZERO: Sum = Sum { num: 0, den: 1 };

    /// The sum, in lowest terms.
    pub(crate) const fn value(self) -> Ratio {
        Ratio::new(self.num, self.den)
    }
}

/// `a / b` when `b` divides `a`.
fn quotient(a: u128, b: u128) -> Option<u128> {
    if a == b {
        return Some(1);
    }
    let q = div(a, b);
    (q * b == a).then_some(q)
}

impl AddAssign<Ratio> for Sum {
    fn add_assign(&mut self, other: Ratio) {
        if other.num == 0 {
            return;
        }
        // Mostly everything fits in 64 bits and the denominator divides the multiple: the
        // product of two 64-bit numbers cannot overflow.
        if (self.den | other.den | other.num) >> 64 == 0 {
            let (mine, theirs) = (self.den as u64, other.den as u64);
            if mine % theirs == 0 {
                let scaled = other.num * u128::from(mine / theirs);
                if let Some(num) = self.num.checked_add(scaled) {
                    self.num = num;
                    return;
                }
            }
        }
        let den = match quotient(self.den, other.den) {
            Some(_) => Some(self.den),
            None => div(self.den, gcd(self.den, other.den)).checked_mul(other.den),
        };
        let num = den.and_then(|den| {
            let mine = self.num.checked_mul(div(den, self.den))?;
            let theirs = other.num.checked_mul(div(den, other.den))?;
            mine.checked_add(theirs)
        });
        *self = match (num, den) {
            (Some(num), Some(den)) => Sum { num, den },
            _ => {
                let sum = self.value() + other;
                Sum {
                    num: sum.num,
                    den: sum.den,
                }
            }
        };
    }
}

impl Add for Ratio {
    type Output = Ratio;

    fn add(self, other: Ratio) -> Ratio {
        self.checked_add(other).expect(TOO_FINE)
    }
}

impl AddAssign for Ratio {
    fn add_assign(&mut self, other: Ratio) {
        *self = *self + other;
    }
}

impl Mul for Ratio {
    type Output = Ratio;

    fn mul(self, other: Ratio) -> Ratio {
        self.checked_mul(other).expect(TOO_FINE)
    }
}

/// The order of the numbers, exactly, however large their terms.
///
/// # Examples
///
/// ```
/// use ttt_oracle::Ratio;
///
/// assert!(Ratio::new(1, 3) < Ratio::new(1, 2));
/// assert_eq!(Ratio::new(2, 4).max(Ratio::new(1, 3)), Ratio::new(1, 2));
/// let huge = Ratio::new(u128::MAX - 1, u128::MAX);
/// assert!(huge < Ratio::ONE && Ratio::new(1, u128::MAX) < huge);
/// ```
impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> std::cmp::Ordering {
        if self.den == other.den {
            return self.num.cmp(&other.num);
        }
        wide_mul(self.num, other.den).cmp(&wide_mul(other.num, self.den))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// `a * b` as 256 bits: the high 128, then the low.
fn wide_mul(a: u128, b: u128) -> (u128, u128) {
    let (a_hi, a_lo) = (a >> 64, a & u128::from(u64::MAX));
    let (b_hi, b_lo) = (b >> 64, b & u128::from(u64::MAX));
    let low = a_lo * b_lo;
    let (middle, carry) = (a_hi * b_lo).overflowing_add(a_lo * b_hi);
    let (low, low_carry) = low.overflowing_add(middle << 64);
    let high = a_hi * b_hi + (middle >> 64) + (u128::from(carry) << 64) + u128::from(low_carry);
    (high, low)
}

/// `p/q` in lowest terms, for example `1/3`; zero is `0/1`.
impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

#[cfg(test)]
mod tests {
    use super::{Ratio, Sum};

    /// Adds `terms` both ways: as a sum over a multiple, and reduced one by one.
    fn both(terms: &[Ratio]) -> (Ratio, Ratio) {
        let mut sum = Sum::ZERO;
        let mut reduced = Ratio::ZERO;
        for &term in terms {
            sum += term;
            reduced += term;
        }
        (sum.value(), reduced)
    }

    #[test]
    fn a_sum_over_a_multiple_is_the_sum_reduced_one_by_one() {
        let mut terms = Vec::new();
        for den in 1..=40u128 {
            for num in 0..=den.min(3) {
                terms.push(Ratio::new(num, den * 7 * 9));
            }
        }
        let (sum, reduced) = both(&terms);
        assert_eq!(sum, reduced);
        // Denominators past 64 bits.
        let big = 1u128 << 100;
        let terms = [
            Ratio::new(1, 3),
            Ratio::new(1, big),
            Ratio::new(3, big * 4),
            Ratio::new(1, 6),
            Ratio::new(1, big),
        ];
        let (sum, reduced) = both(&terms);
        assert_eq!(sum, reduced);
        // A multiple of the denominators past 128 bits, where the reduced sum is not.
        let p = 3u128.pow(63);
        let (sum, reduced) = both(&[Ratio::new(1, p), Ratio::new(p - 1, p), Ratio::new(1, big)]);
        assert_eq!(reduced, Ratio::new(big + 1, big));
        assert_eq!(sum, reduced);
    }
}
