//! Runs inside scripts/testbed.sh (`make test-rust`): a private PipeWire with
//! vcam0, vcam1 and vmic0; more cameras are plugged with `testbed.sh add-camera`.
use ocellus::{Context, ContextOptions, DeviceType, ErrorKind, FrameRate, HotplugEvent, Position};
use std::sync::mpsc;
use std::time::Duration;

mod common;
use common::testbed;

fn plug(name: &str, extra: &[&str]) {
    let mut args = vec!["add-camera", name, "--sizes", "640x480", "--fps", "30"];
    args.extend_from_slice(extra);
    testbed(&args);
}

fn unplug(name: &str) {
    testbed(&["remove-camera", name, "KILL"]);
}

fn context() -> Context {
    Context::new("org.ocellus.test.rust", &ContextOptions::default()).expect("context")
}

#[test]
fn lists_cameras_and_microphone() {
    let ctx = context();
    assert_eq!(ctx.app_id(), "org.ocellus.test.rust");
    let options = ContextOptions { state_directory: Some("/tmp/rs-state".into()), ..Default::default() };
    assert_eq!(Context::new("org.ocellus.test.rust", &options).unwrap().state_directory(), "/tmp/rs-state");
    let devices = ctx.devices().unwrap();
    let camera = devices.iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").expect("vcam0");
    assert_eq!(camera.name(), "Virtual Camera 0");
    assert_eq!(camera.device_type(), DeviceType::ExternalCamera);
    assert_eq!(camera.position(), Position::Unspecified);
    assert_eq!(camera.backend(), ocellus::Backend::PipeWire);
    assert!(camera.is_connected());
    assert_eq!((camera.vendor_id(), camera.product_id()), (Some(0x1d6b), Some(0x0110)));
    assert_eq!(camera.serial_number().as_deref(), Some("VCAM-0000"));
    assert_eq!(camera.property("device.bus-path").as_deref(), Some("pci-0000:00:14.0-usb-0:1:1.0"));
    let formats = camera.formats().unwrap();
    assert_eq!(formats.len(), 9);
    assert_eq!(formats[0].pixel_format, "YUYV");
    assert_eq!((formats[0].width, formats[0].height), (640, 480));
    assert_eq!(formats[0].frame_rates[0], FrameRate { numerator: 30, denominator: 1 });
    assert!(formats.iter().all(|f| f.size_range.is_none()), "a virtual camera lists discrete sizes, no ranges");
    let mic = devices.iter().find(|d| d.device_type() == DeviceType::Microphone).expect("microphone");
    assert_eq!(mic.unique_id(), "pipewire-vmic0");
    assert_eq!(ctx.backend_problem(ocellus::Backend::PipeWire), None);
    // The virtual cameras have no V4L2 node here: their controls come through their PipeWire
    // node, which publishes none; setting one says so.
    assert!(camera.controls().unwrap().is_empty());
    let error = camera.set_control("brightness", 1).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound);
    assert!(error.message.contains("brightness"), "{}", error.message);
}

#[test]
fn hotplug_added_removed_and_replug() {
    let ctx = context();
    let (sender, events) = mpsc::channel();
    // Only this test's camera: the other tests plug theirs meanwhile (cargo runs them in parallel).
    let registration = ctx
        .on_hotplug(move |event, device| {
            if device.unique_id() == "usb-046d:0825-RSCAM-1" {
                sender.send((event, device.clone())).unwrap();
            }
        })
        .unwrap();
    let usb = [
        "--device-prop",
        "device.bus=usb",
        "--device-prop",
        "device.vendor.id=0x046d",
        "--device-prop",
        "device.product.id=0x0825",
        "--device-prop",
        "device.serial=RSCAM-1",
    ];
    let wait = |want: HotplugEvent| {
        let (event, device) = events.recv_timeout(Duration::from_secs(10)).expect("event in time");
        assert_eq!(event, want);
        device
    };
    plug("rshp0", &usb);
    let first = wait(HotplugEvent::Added);
    assert_eq!(first.unique_id(), "usb-046d:0825-RSCAM-1");
    unplug("rshp0");
    let gone = wait(HotplugEvent::Removed);
    assert!(gone.same_instance(&first) && !first.is_connected());
    plug("rshp0", &usb);
    let second = wait(HotplugEvent::Added);
    assert_eq!(second.unique_id(), first.unique_id());
    assert!(second.is_connected() && !second.same_instance(&first));
    unplug("rshp0");
    wait(HotplugEvent::Removed);
    drop(registration);
}

#[test]
fn panicking_callback_is_contained() {
    let ctx = context();
    let (sender, events) = mpsc::channel();
    let _panics = ctx.on_hotplug(|_, _| panic!("boom")).unwrap();
    let _log = ctx
        .on_hotplug(move |event, device| {
            if device.name() == "rsboom" {
                sender.send(event).unwrap();
            }
        })
        .unwrap();
    plug("rsboom", &[]);
    unplug("rsboom");
    assert_eq!(events.recv_timeout(Duration::from_secs(10)).unwrap(), HotplugEvent::Added);
    assert_eq!(events.recv_timeout(Duration::from_secs(10)).unwrap(), HotplugEvent::Removed);
}

#[test]
fn bad_input_is_an_error() {
    for app_id in ["../x", "", &"a".repeat(300), "nul\0byte"] {
        let error = Context::new(app_id, &ContextOptions::default()).err().expect("invalid app ID refused");
        assert_eq!(error.kind, ErrorKind::InvalidArgument, "{}", error);
    }
    let options = ContextOptions { pipewire_remote: Some("/nonexistent/rs-pw-0".into()), ..Default::default() };
    let error = Context::new("org.ocellus.test.rust", &options).err().expect("unreachable remote refused");
    assert_eq!(error.kind, ErrorKind::BackendUnavailable);
    assert!(error.message.contains("/nonexistent/rs-pw-0"), "{}", error.message);
}

#[test]
fn devices_by_unique_id_index_node_or_name() {
    let ctx = ocellus::Context::new("org.ocellus.test.rust.lookup", &ocellus::ContextOptions::default()).unwrap();
    for spec in ["usb-1d6b:0110-VCAM-0000", "/dev/video40", "virtual camera 0"] {
        assert_eq!(ctx.device(spec).unwrap().unique_id(), "usb-1d6b:0110-VCAM-0000", "{spec}");
    }
    assert_eq!(ctx.device("Virtual Camera").err().unwrap().kind, ocellus::ErrorKind::InvalidArgument);
    assert_eq!(ctx.device_by_unique_id("nope").err().unwrap().kind, ocellus::ErrorKind::NotFound);
}
