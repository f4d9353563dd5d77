//! Hints to the CPU for the feeds whose rows are too many for any cache.

/// Asks the CPU to bring `x`'s cache line in, without waiting for it.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    prefetch_at(std::ptr::from_ref(x).cast());
}

/// `prefetch` of the first and the last cache line `x` spans, which are
/// all of them for up to 64 bytes: a row of 56 bytes in an array of them
/// straddles two lines more often than not.
#[inline(always)]
pub fn prefetch_all<T: ?Sized>(x: &T) {
    let start = std::ptr::from_ref(x).cast::<u8>();
    prefetch_at(start);
    prefetch_at(start.wrapping_add(size_of_val(x).saturating_sub(1)));
}

#[inline(always)]
fn prefetch_at(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it reads nothing the program sees and
    // cannot fault, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
