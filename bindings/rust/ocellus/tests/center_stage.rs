//! Center Stage from Rust on the real daemon: off by default, the setting per camera across
//! handles, and a microphone refused. (What framing does to the picture is judged in the Python
//! suite, against scikit-image.)
use ocellus::{CenterStageState, Context, ContextOptions, DeviceType, ErrorKind};

mod common;
use common::testbed;

#[test]
fn the_setting_follows_the_camera_and_a_microphone_is_refused() {
    testbed(&["add-camera", "ruststage", "--sizes", "640x480", "--fps", "30"]);
    let ctx = Context::new("org.ocellus.test.rust.centerstage", &ContextOptions::default()).unwrap();
    let find = || ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "pipewire-ruststage").unwrap();
    let camera = find();
    let off = CenterStageState { enabled: false, active: false, window: [0.0, 0.0, 1.0, 1.0] };
    assert_eq!(camera.center_stage().unwrap(), off);
    camera.set_center_stage(true).unwrap();
    let again = find();
    assert_eq!(again.center_stage().unwrap(), CenterStageState { enabled: true, ..off }, "not active: nothing streams it");
    again.set_center_stage(false).unwrap();
    assert_eq!(camera.center_stage().unwrap(), off);

    let microphone = ctx.devices().unwrap().into_iter().find(|d| d.device_type() == DeviceType::Microphone).unwrap();
    let refused = microphone.center_stage().unwrap_err();
    assert_eq!(refused.kind, ErrorKind::InvalidArgument);
    assert!(refused.message.contains("not a camera"), "{}", refused.message);
}
