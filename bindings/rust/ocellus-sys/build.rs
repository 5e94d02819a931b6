//! Finds libocellus: `OCELLUS_LIB_DIR` if set, else `pkg-config --libs ocellus`. Documentation
//! builds (`DOCS_RS`) link nothing. When neither finds it the build fails here, with one message
//! saying how to fix it (not with hundreds of undefined symbols at link time), and asks cargo to
//! look again when the lookup could change: the variables it reads, and the directories
//! pkg-config searches (installing libocellus-dev adds ocellus.pc to one).
use std::env;
use std::process::Command;

fn pkg_config(args: &[&str]) -> Option<String> {
    let out = Command::new("pkg-config").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    for variable in ["OCELLUS_LIB_DIR", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR", "DOCS_RS"] {
        println!("cargo:rerun-if-env-changed={}", variable);
    }
    if env::var_os("DOCS_RS").is_some() {
        return;
    }
    if let Ok(dir) = env::var("OCELLUS_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
        println!("cargo:rustc-link-lib=dylib=ocellus");
        return;
    }
    if let Some(found) = pkg_config(&["--variable=pcfiledir", "ocellus"]) {
        println!("cargo:rerun-if-changed={}/ocellus.pc", found);
    }
    let searched = pkg_config(&["--variable=pc_path", "pkg-config"]).unwrap_or_default();
    for dir in searched.split(':').chain(env::var("PKG_CONFIG_PATH").unwrap_or_default().split(':')) {
        if !dir.is_empty() && std::path::Path::new(dir).is_dir() {
            println!("cargo:rerun-if-changed={}", dir);
        }
    }
    let Some(libs) = pkg_config(&["--libs", "ocellus"]) else {
        eprintln!(
            "error: libocellus not found: install libocellus-dev (Debian), or set OCELLUS_LIB_DIR to the \
             directory holding libocellus.so, or PKG_CONFIG_PATH to one holding ocellus.pc"
        );
        std::process::exit(1);
    };
    for flag in libs.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={}", lib);
        }
    }
}
