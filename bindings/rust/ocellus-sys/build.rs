//! Finds libocellus: `OCELLUS_LIB_DIR` if set, else `pkg-config --libs ocellus`.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=OCELLUS_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
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
        _ => panic!("libocellus not found: set OCELLUS_LIB_DIR or install ocellus.pc where pkg-config finds it"),
    }
}
