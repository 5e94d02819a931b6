//! A metadata output from Rust on the real daemon: a QR code drawn by Python's `qrcode` package (an
//! independent encoder) shown by a virtual MJPEG camera, decoded into a closure.
use ocellus::{Context, ContextOptions, ErrorKind, MetadataObjectKind, MetadataObjectTypes, MetadataOutput};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

mod common;
use common::testbed;

#[test]
fn a_qr_code_reaches_the_closure() {
    let picture = std::env::temp_dir().join(format!("ocellus-rust-qr-{}.jpg", std::process::id()));
    let drawn = Command::new("/usr/bin/python3")
        .args(["-c", "import qrcode, sys; from PIL import Image; c = qrcode.make('ocellus from rust').convert('RGB'); p = Image.new('RGB', (640, 480), 'white'); p.paste(c, (100, 40)); p.save(sys.argv[1], quality=92)"])
        .arg(&picture)
        .status()
        .expect("python3 runs");
    assert!(drawn.success());
    testbed(&[
        "add-camera",
        "rustqr",
        "--sizes",
        "640x480",
        "--fps",
        "30",
        "--formats",
        "MJPG",
        "--mjpeg-file",
        picture.to_str().unwrap(),
    ]);

    let ctx = Context::new("org.ocellus.test.rust.metadata", &ContextOptions::default()).unwrap();
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "pipewire-rustqr").unwrap();
    let session = ctx.capture_session().unwrap();
    let mut output = MetadataOutput::new(MetadataObjectTypes::CODES | MetadataObjectTypes::FACES, None).unwrap();
    assert_eq!(output.set_max_rate(1000.0).unwrap_err().kind, ErrorKind::InvalidArgument);
    let (sender, deliveries) = mpsc::channel();
    output.set_callback(move |objects, timestamp_ns| drop(sender.send((objects.to_vec(), timestamp_ns)))).unwrap();
    session.set_input(&camera).unwrap();
    session.add_metadata_output(&output).unwrap();
    session.start_running().unwrap();
    let (objects, timestamp_ns) = deliveries.recv_timeout(Duration::from_secs(10)).unwrap();
    session.stop_running().unwrap();
    testbed(&["remove-camera", "rustqr", "KILL"]);
    let _ = std::fs::remove_file(&picture);

    assert!(timestamp_ns > 0);
    assert_eq!(objects.len(), 1, "{objects:?}");
    match &objects[0].kind {
        MetadataObjectKind::Code { symbology, text, bytes } => {
            assert_eq!(
                (symbology.as_str(), text.as_str(), bytes.as_slice()),
                ("qr", "ocellus from rust", &b"ocellus from rust"[..])
            )
        }
        other => panic!("a code, not {other:?}"),
    }
    let (x, y, w, h) = objects[0].bounds;
    assert!(x > 0.1 && y > 0.05 && x + w < 0.9 && y + h < 0.95, "{:?}", objects[0].bounds);
    let counts = output.statistics();
    assert!(counts.deliveries >= 1 && counts.objects >= 1 && counts.analysed_frames >= counts.deliveries, "{counts:?}");
}

#[test]
fn a_missing_face_model_is_refused_with_why() {
    let error = MetadataOutput::new(MetadataObjectTypes::FACES, Some("/nonexistent/faces.xml")).err().expect("refused");
    assert_eq!(error.kind, ErrorKind::InvalidArgument);
    assert!(error.message.contains("/nonexistent/faces.xml"), "{}", error.message);
}
