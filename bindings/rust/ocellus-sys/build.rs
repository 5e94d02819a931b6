//! Finds libocellus: `OCELLUS_LIB_DIR` if set, else `pkg-config --libs ocellus`. Documentation
//! builds (`DOCS_RS`, `cargo doc` on a machine without the library) link nothing and do not fail.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=OCELLUS_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=DOCS_RS");
    if env::var_os("DOCS_RS").is_some() {
        return;
    }
    if let Ok(dir) = env::var("OCELLUS_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
        println!("cargo:rustc-link-lib=dylib=ocellus");
        return;
    }
    let output = Command::new("pkg-config").args(["--libs", "ocellus"]).output();
    match output {
        Ok(out) if out.status.success() => {
            for flag in String::from_utf8_lossy(&out.stdout).split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-L") {
                    println!("cargo:rustc-link-search=native={}", dir);
                } else if let Some(lib) = flag.strip_prefix("-l") {
                    println!("cargo:rustc-link-lib=dylib={}", lib);
                }
            }
        }
        // Linking will fail with the library's name; say how to fix it rather than panic here.
        _ => println!("cargo:warning=libocellus not found: set OCELLUS_LIB_DIR, or install ocellus.pc where pkg-config finds it (PKG_CONFIG_PATH)"),
    }
}
