//! The rotation coordinator from Rust, on the test bed's external camera vcam0.
use ocellus::{Context, ContextOptions, ErrorKind};

#[test]
fn external_camera_angles() {
    let state = format!("/tmp/ocellus-rust-rotation-{}", std::process::id());
    let options = ContextOptions { state_directory: Some(state.clone()), ..Default::default() };
    let ctx = Context::new("org.ocellus.test.rust.rotation", &options).unwrap();
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    let coordinator = ctx.rotation_coordinator(&camera, None).unwrap();
    assert!(coordinator.is_mirrored());
    coordinator.set_interface_orientation(Some(0)).unwrap();
    coordinator.set_host_orientation(180).unwrap();
    assert_eq!(coordinator.angles(), (180, 0)); // the camera did not move: only the preview turns
    coordinator.set_mounting_correction(90).unwrap();
    assert_eq!(coordinator.angles(), (270, 90));
    assert_eq!(coordinator.set_host_orientation(10).unwrap_err().kind, ErrorKind::InvalidArgument);
    drop(coordinator);
    std::fs::remove_dir_all(&state).ok();
}
