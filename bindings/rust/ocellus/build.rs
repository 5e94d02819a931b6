//! In the Ocellus repository, the Rust guide (docs/rust.md) is compiled as a doctest
//! (`RustGuide` in lib.rs); the packaged crate has no guide beside it and skips it.
use std::path::Path;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(ocellus_guide)");
    let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../docs/rust.md");
    println!("cargo:rerun-if-changed={}", guide.display());
    if guide.exists() {
        println!("cargo:rustc-cfg=ocellus_guide");
    }
}
