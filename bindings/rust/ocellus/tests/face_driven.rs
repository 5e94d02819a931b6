//! Face-driven settings from Rust on the real daemon: a virtual camera (nothing to steer: tier
//! none), the settings per camera across handles, and a microphone refused.
use ocellus::{Context, ContextOptions, DeviceType, ErrorKind, FaceDrivenAdjustment, FaceDrivenState, FaceDrivenTier};

mod common;
use common::testbed;

#[test]
fn settings_follow_the_camera_and_a_microphone_is_refused() {
    testbed(&["add-camera", "rustface", "--sizes", "640x480", "--fps", "30"]);
    let ctx = Context::new("org.ocellus.test.rust.facedriven", &ContextOptions::default()).unwrap();
    let find = || ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "pipewire-rustface").unwrap();
    let camera = find();
    let automatic = FaceDrivenState { automatically_adjusts: true, enabled: true, tier: FaceDrivenTier::None, active: false };
    assert_eq!(camera.face_driven(FaceDrivenAdjustment::Exposure).unwrap(), automatic);
    camera.set_face_driven(FaceDrivenAdjustment::Focus, false, false).unwrap();
    let again = find();
    let focus = again.face_driven(FaceDrivenAdjustment::Focus).unwrap();
    assert!(!focus.automatically_adjusts && !focus.enabled);
    assert_eq!(again.face_driven(FaceDrivenAdjustment::Exposure).unwrap(), automatic);
    assert_eq!(FaceDrivenTier::CameraRegion.label(), "roi");

    let microphone = ctx.devices().unwrap().into_iter().find(|d| d.device_type() == DeviceType::Microphone).unwrap();
    let refused = microphone.face_driven(FaceDrivenAdjustment::Exposure).unwrap_err();
    assert_eq!(refused.kind, ErrorKind::InvalidArgument);
    assert!(refused.message.contains("not a camera"), "{}", refused.message);
}
