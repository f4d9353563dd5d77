//! One value of every row, a column (issue 69): the values, and a bit a
//! row saying it has one.
//!
//! A row of `Option`s spends a discriminant and its padding on every
//! value, measured or not. Here a value costs its own bytes and a bit
//! saying it is there, and a column no row has a value in costs nothing.
//! The function table (`FunctionTable`) and the call graph's edges keep
//! their numbers so, and put a row together when it is read.

use super::metrics::{add_count, add_opt};

/// A number a column holds, and how two of them add (`add_count`,
/// `add_opt`: absent only when both are).
pub trait Amount: Copy + Default {
    /// Both together, as the row's `Option`s added.
    fn plus(a: Option<Self>, b: Option<Self>) -> Option<Self>;
}

impl Amount for u64 {
    fn plus(a: Option<u64>, b: Option<u64>) -> Option<u64> {
        add_count(a, b)
    }
}

impl Amount for f64 {
    fn plus(a: Option<f64>, b: Option<f64>) -> Option<f64> {
        add_opt(a, b)
    }
}

/// One value of every row: the values, and a bit a row saying it has one.
/// Both stay empty (every value absent) until some row is given a value,
/// so a column the profile never fills costs nothing.
#[derive(Clone, Debug, Default)]
pub struct Col<T> {
    values: Vec<T>,
    present: Vec<u64>,
}

impl<T: Amount> Col<T> {
    /// Value `i`, `None` where absent.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        let word = *self.present.get(i / 64)?;
        (word >> (i % 64) & 1 == 1).then(|| self.values[i])
    }

    /// Sets value `i` of a table of `len` rows (`None`: absent).
    #[inline]
    pub fn set(&mut self, i: usize, len: usize, v: Option<T>) {
        match v {
            Some(x) => {
                if self.values.is_empty() {
                    self.values.resize(len, T::default());
                    self.present.resize(len.div_ceil(64), 0);
                }
                self.values[i] = x;
                self.present[i / 64] |= 1 << (i % 64);
            }
            None => {
                if let Some(word) = self.present.get_mut(i / 64) {
                    *word &= !(1 << (i % 64));
                }
            }
        }
    }

    /// Adds `v` to value `i` of a table of `len` rows (`Amount::plus`);
    /// `None` adds nothing, as the row's sum left the row as it was.
    #[inline]
    pub fn add(&mut self, i: usize, len: usize, v: Option<T>) {
        if v.is_some() {
            let sum = T::plus(self.get(i), v);
            self.set(i, len, sum);
        }
    }

    /// Makes room for row `len - 1`, absent: a column that holds any row's
    /// value has a place for every row.
    pub fn push(&mut self, len: usize) {
        if self.values.is_empty() {
            return;
        }
        self.values.push(T::default());
        if self.present.len() < len.div_ceil(64) {
            self.present.push(0);
        }
    }

    /// Whether no row was ever given a value: the column holds nothing.
    pub fn is_unfilled(&self) -> bool {
        self.values.is_empty() && self.present.is_empty()
    }

    /// Gives back what growing the column reserved past its length.
    pub fn shrink_to_fit(&mut self) {
        self.values.shrink_to_fit();
        self.present.shrink_to_fit();
    }

    /// Applies `f` to every present value.
    pub fn map_present(&mut self, f: impl Fn(T) -> Option<T>) {
        for i in 0..self.values.len() {
            if let Some(v) = self.get(i) {
                let len = self.values.len();
                self.set(i, len, f(v));
            }
        }
    }

    /// The rows `keep` says, in order.
    pub fn kept(&self, keep: &[bool]) -> Col<T> {
        let mut out = Col::default();
        let len = keep.iter().filter(|&&k| k).count();
        let kept = keep.iter().enumerate().filter(|&(_, &k)| k);
        for (to, (from, _)) in kept.enumerate() {
            if let Some(v) = self.get(from) {
                out.set(to, len, Some(v));
            }
        }
        out
    }

    /// The rows `order` names, in its order.
    pub fn reordered(&self, order: &[u32]) -> Col<T> {
        let mut out = Col::default();
        for (to, &from) in order.iter().enumerate() {
            out.set(to, order.len(), self.get(from as usize));
        }
        out
    }
}
