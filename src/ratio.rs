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

const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
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
        // `den` is not zero, so neither is the gcd.
        let g = gcd(num, den);
        Ratio {
            num: num / g,
            den: den / g,
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

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Add for Ratio {
    type Output = Ratio;

    fn add(self, other: Ratio) -> Ratio {
        let g = gcd(self.den, other.den);
        let den = self.den / g * other.den;
        Ratio::new(self.num * (other.den / g) + other.num * (self.den / g), den)
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
        let a = Ratio::new(self.num, other.den);
        let b = Ratio::new(other.num, self.den);
        Ratio::new(a.num * b.num, a.den * b.den)
    }
}

/// `p/q` in lowest terms, for example `1/3`; zero is `0/1`.
impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}
