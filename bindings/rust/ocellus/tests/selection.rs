//! Camera selection from Rust, inside scripts/testbed.sh (vcam0, vcam1, vmic0).
use ocellus::{ffi, Context, ContextOptions, Position, PreferredCamera};
use std::sync::mpsc;
use std::time::Duration;

fn context(state: &str) -> Context {
    let options = ContextOptions { state_directory: Some(state.into()), ..Default::default() };
    Context::new("org.ocellus.test.rust.selection", &options).expect("context")
}

#[test]
fn choice_is_persisted_and_observed() {
    let state = format!("/tmp/ocellus-rust-selection-{}", std::process::id());
    let ctx = context(&state);
    assert_eq!(ctx.state_problem(), None);
    let first = ctx.user_preferred_camera().unwrap().expect("a camera");
    assert_eq!(first.unique_id(), "usb-1d6b:0110-VCAM-0000");
    let (sender, changes) = mpsc::channel();
    let registration = ctx
        .on_preferred_camera_change(move |kind, camera| {
            sender.send((kind, camera.map(|c| c.unique_id()))).unwrap();
        })
        .unwrap();
    let vcam1 = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0111-VCAM-0001").unwrap();
    ctx.set_user_preferred_camera(&vcam1).unwrap();
    let expected = Some("usb-1d6b:0111-VCAM-0001".to_string());
    assert_eq!(changes.recv_timeout(Duration::from_secs(10)).unwrap(), (PreferredCamera::User, expected.clone()));
    assert_eq!(changes.recv_timeout(Duration::from_secs(10)).unwrap(), (PreferredCamera::System, expected));
    drop(registration);
    drop(ctx);

    let restarted = context(&state);
    assert!(restarted.system_preferred_camera().unwrap().unwrap().unique_id().ends_with("VCAM-0001"));
    let microphone = restarted.devices().unwrap().into_iter().find(|d| d.unique_id() == "pipewire-vmic0").unwrap();
    let error = restarted.set_user_preferred_camera(&microphone).unwrap_err();
    assert_eq!(error.kind, ocellus::ErrorKind::InvalidArgument);
    std::fs::remove_dir_all(&state).ok();
}

#[test]
fn discovery_session_filters() {
    let state = format!("/tmp/ocellus-rust-discovery-{}", std::process::id());
    let ctx = context(&state);
    let externals =
        ctx.discovery_session(ffi::OC_DEVICE_TYPES_EXTERNAL_CAMERA, ffi::OC_MEDIA_TYPE_VIDEO, Position::Unspecified).unwrap();
    assert_eq!(externals.devices().unwrap().len(), 2);
    let fronts = ctx.discovery_session(0, ffi::OC_MEDIA_TYPE_ANY, Position::Front).unwrap();
    assert!(fronts.devices().unwrap().is_empty());
    let bad = ctx.discovery_session(1 << 12, ffi::OC_MEDIA_TYPE_ANY, Position::Unspecified);
    assert_eq!(bad.err().unwrap().kind, ocellus::ErrorKind::InvalidArgument);
    std::fs::remove_dir_all(&state).ok();
}
