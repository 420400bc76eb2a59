//! The exact arithmetic of the walks' chances: a ply's common denominator ([`Multiple`]), and
//! products and sums of 128-bit integers that say when they outgrow them ([`Overflow`]), for
//! the caller to walk the histories instead, which reduce every fraction as they go.

/// A number outgrew its integer: a denominator (of far too fine probabilities), a chance over
/// it, or a count of histories (of a bot that offers one move many times over); or a ply of
/// the walk by positions met more distinct probabilities than its moves can name (65,535,
/// which takes a bot written against the library).
#[derive(Debug)]
pub(crate) struct Overflow;

/// The least common multiple of denominators, and the last denominator scaled to it (the
/// positions of a ply mostly share theirs).
pub(crate) struct Multiple {
    pub(crate) value: u64,
    last: (u128, u128),
}

impl Multiple {
    pub(crate) const ONE: Multiple = Multiple {
        value: 1,
        last: (1, 1),
    };

    /// Makes the multiple a multiple of `denominator`; the factor it grew by, if it did.
    pub(crate) fn take_in(&mut self, denominator: u128) -> Result<Option<u128>, Overflow> {
        if denominator == self.last.0 {
            return Ok(None);
        }
        let d = u64::try_from(denominator).map_err(|_| Overflow)?;
        let factor = d / gcd(self.value, d);
        self.value = self.value.checked_mul(factor).ok_or(Overflow)?;
        self.last = (denominator, u128::from(self.value / d));
        Ok((factor > 1).then_some(u128::from(factor)))
    }

    /// The multiple over `denominator`, which `take_in` has just taken in.
    pub(crate) fn over(&self, denominator: u128) -> u128 {
        debug_assert_eq!(self.last.0, denominator);
        self.last.1
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

pub(crate) fn times(a: u128, b: u128) -> Result<u128, Overflow> {
    // Mostly both fit in 64 bits, and one multiplication gives the product.
    if (a | b) >> 64 == 0 {
        return Ok((a as u64 as u128) * (b as u64 as u128));
    }
    a.checked_mul(b).ok_or(Overflow)
}

pub(crate) fn plus(a: u128, b: u128) -> Result<u128, Overflow> {
    a.checked_add(b).ok_or(Overflow)
}
