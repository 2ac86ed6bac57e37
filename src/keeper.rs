//! `zebra-keeper`: the launcher of a walled bot, and what the keeper and the init of one
//! become (see `sandbox::launch` and `sandbox::keeper`, whose code this is). No Rust
//! runtime setup runs (`no_main`): the init may run in a view without `/dev/null`, and
//! needs none.

#![no_main]

/// # Safety
/// Called by the C runtime alone.
#[no_mangle]
pub unsafe extern "C" fn main(argc: libc::c_int, argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: the C runtime passes `argc` valid strings in `argv`.
    unsafe { zebra_referee::sandbox::keeper::helper_main(argc, argv) }
}
