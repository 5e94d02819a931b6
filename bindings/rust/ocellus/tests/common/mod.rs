//! What the integration tests share: the test bed they run inside (`make test-rust` starts it).
use std::path::PathBuf;
use std::process::Command;

/// `scripts/testbed.sh COMMAND $OCELLUS_TESTBED_DIR ARGS…`: plugs and unplugs virtual cameras.
pub fn testbed(args: &[&str]) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../scripts/testbed.sh");
    let dir = std::env::var("OCELLUS_TESTBED_DIR").expect("run inside scripts/testbed.sh");
    let status = Command::new(script).arg(args[0]).arg(dir).args(&args[1..]).stdout(std::process::Stdio::null()).status();
    assert!(status.expect("testbed.sh runs").success(), "testbed.sh {:?} failed", args);
}
