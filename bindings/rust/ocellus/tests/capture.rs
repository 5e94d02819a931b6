//! Capture from Rust on the real daemon (scripts/testbed.sh: vcam0 draws a luma ramp).
use ocellus::{Context, ContextOptions, ErrorKind, VideoDataOutput};
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn frames_reach_a_closure_and_can_be_retained() {
    let ctx = Context::new("org.ocellus.test.rust.capture", &ContextOptions::default()).unwrap();
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    assert!(camera.supports_multitasking());
    let session = ctx.capture_session().unwrap();
    assert_eq!(session.start_running().unwrap_err().kind, ErrorKind::WrongState); // no input yet
    let mut output = VideoDataOutput::new(Some("NV12"), Some((320, 240))).unwrap(); // converted and scaled
    let (sender, frames) = mpsc::channel();
    output
        .set_frame_callback(move |frame| {
            let (luma, stride) = frame.plane(0).unwrap();
            let ramp_ok = (0..300).step_by(10).all(|x| {
                let value = luma[100 * stride as usize + x] as i32;
                (value - (16 + x as i32 * 219 / 320)).abs() <= 3 || value >= 230
            });
            let _ =
                sender.send((frame.width(), frame.height(), frame.pixel_format(), frame.plane_count(), ramp_ok, frame.retain()));
        })
        .unwrap();
    session.set_input(&camera).unwrap();
    session.add_output(&output).unwrap();
    session.start_running().unwrap();
    let (width, height, format, planes, ramp_ok, retained) = frames.recv_timeout(Duration::from_secs(10)).unwrap();
    session.stop_running().unwrap();
    assert_eq!((width, height, format.as_str(), planes), (320, 240, "NV12", 2));
    assert!(ramp_ok);
    let kept = retained.unwrap();
    assert_eq!(kept.frame().plane(0).unwrap().0.len(), 320 * 240);
    assert!(output.delivered_frames() >= 1);
}

#[test]
fn frames_can_be_pulled_by_name_and_iterated() {
    let ctx = Context::new("org.ocellus.test.rust.pull", &ContextOptions::default()).unwrap();
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    assert_eq!(VideoDataOutput::new(Some("BOGUS"), None).err().unwrap().kind, ErrorKind::InvalidArgument);
    let output = VideoDataOutput::new(Some("BGR24"), Some((640, 480))).unwrap(); // OpenCV's order, by name
    assert!(!output.full_range()); // YUV in video range unless asked
    output.set_full_range(true).unwrap();
    assert!(output.full_range());
    output.set_full_range(false).unwrap();
    assert_eq!(output.next_frame(Duration::from_secs(60)).err().unwrap().kind, ErrorKind::WrongState); // nothing can come
    assert!(output.pollable_fd().unwrap() >= 0);
    let session = ctx.capture_session().unwrap();
    session.set_input(&camera).unwrap();
    session.add_output(&output).unwrap();
    session.start_running().unwrap();
    let first = output.next_frame(Duration::from_secs(5)).unwrap();
    assert_eq!((first.frame().pixel_format().as_str(), first.frame().plane(0).unwrap().1), ("BGR24", 640 * 3));
    let sequences: Vec<u64> = output.frames(Duration::from_secs(5)).take(3).map(|f| f.frame().sequence()).collect();
    session.stop_running().unwrap();
    assert_eq!(sequences.len(), 3);
    assert!(sequences[0] > first.frame().sequence() && sequences.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(ocellus::pixel_format_name(ocellus::pixel_format_code("i420").unwrap()), "I420");
}

#[test]
fn a_camera_off_usb_has_no_hardware_cost() {
    // The test bed's virtual camera is not on a USB bus: nothing to report, and no error.
    // USB cameras' costs are tested against the real kernel (Tests/gadget/test_bus_cost.py).
    let ctx = Context::new("org.ocellus.test.rust.cost", &ContextOptions::default()).unwrap();
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    let session = ctx.capture_session().unwrap();
    assert_eq!(session.hardware_cost().unwrap(), None, "no input");
    session.set_input(&camera).unwrap();
    assert_eq!(session.hardware_cost().unwrap(), None);
}

#[test]
fn two_cameras_frames_are_paired_by_capture_time() {
    use ocellus::OutputSynchronizer;
    use std::sync::{Arc, Mutex};
    let ctx = Context::new("org.ocellus.test.rust.pairs", &ContextOptions::default()).unwrap();
    let devices = ctx.devices().unwrap();
    let first = VideoDataOutput::new(Some("NV12"), Some((320, 240))).unwrap();
    let second = VideoDataOutput::new(Some("NV12"), Some((320, 240))).unwrap();
    assert!(OutputSynchronizer::for_cameras(&first, &first).is_err(), "one output given twice");
    let mut synchronizer = OutputSynchronizer::for_cameras(&first, &second).unwrap();
    let pairs = Arc::new(Mutex::new(Vec::new()));
    let seen = pairs.clone();
    synchronizer.set_callback(move |a, b| seen.lock().unwrap().push((a.timestamp_ns(), b.timestamp_ns()))).unwrap();
    let sessions: Vec<_> = [("usb-1d6b:0110-VCAM-0000", &first), ("usb-1d6b:0111-VCAM-0001", &second)]
        .into_iter()
        .map(|(id, output)| {
            let session = ctx.capture_session().unwrap();
            session.set_input(devices.iter().find(|d| d.unique_id() == id).unwrap()).unwrap();
            session.add_output(output).unwrap();
            session.start_running().unwrap();
            session
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    for session in &sessions {
        session.stop_running().unwrap();
    }
    let pairs = pairs.lock().unwrap();
    assert!(pairs.len() >= 20, "{} pairs", pairs.len());
    assert!(pairs.iter().all(|(a, b)| a.abs_diff(*b) <= 33_333_333 / 2), "{:?}", &pairs[..3]);
    assert_eq!(synchronizer.delivered_pairs(), pairs.len() as u64);
}

#[test]
fn a_camera_without_depth_refuses_depth_outputs() {
    use ocellus::{DepthDataOutput, OutputSynchronizer};
    let ctx = Context::new("org.ocellus.test.rust.depth", &ContextOptions::default()).unwrap();
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    assert!(camera.depth_formats().unwrap().is_empty());
    assert!(!camera.depth_format_runs_beside(0, 0));
    assert_eq!(DepthDataOutput::new(Some("YUYV"), None).err().unwrap().kind, ErrorKind::InvalidArgument);
    let depth = DepthDataOutput::new(Some("Z32F"), None).unwrap();
    let session = ctx.capture_session().unwrap();
    session.set_input(&camera).unwrap();
    let refused = session.add_depth_output(&depth).unwrap_err();
    assert_eq!(refused.kind, ErrorKind::InvalidArgument);
    assert!(refused.message.contains("not a depth camera"), "{}", refused.message);
    let mut picture = VideoDataOutput::new(None, None).unwrap();
    {
        let synchronizer = OutputSynchronizer::new(&picture, &depth).unwrap();
        assert_eq!(synchronizer.delivered_pairs(), 0);
        assert_eq!(synchronizer.unmatched_frames(), (0, 0));
    }
    picture.set_frame_callback(|_| {}).unwrap(); // free again once the synchronizer is dropped
}

#[test]
fn an_unsandboxed_app_is_authorized_directly() {
    use ocellus::CameraAuthorization;
    let ctx = Context::new("org.ocellus.test.rust.access", &ContextOptions::default()).unwrap();
    assert!(!ctx.uses_camera_portal());
    assert_eq!(ctx.camera_authorization(), CameraAuthorization::Authorized);
    assert_eq!(ctx.request_camera_access().unwrap(), CameraAuthorization::Authorized);
}

/// An app's camera object: the context and a session beside it in one struct (a session holds a
/// counted handle of its context, as rusb's devices do), moved to a worker thread whole, and the
/// app's own `Context` dropped first: the connection lives until the session goes.
#[test]
fn a_session_lives_beside_its_context_and_moves_to_a_thread() {
    struct Camera {
        _context: Context,
        session: ocellus::CaptureSession,
        output: VideoDataOutput,
    }
    let ctx = Context::new("org.ocellus.test.rust.owned", &ContextOptions::default()).unwrap();
    let device = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    let camera = Camera {
        _context: ctx.clone(),
        session: ctx.capture_session().unwrap(),
        output: VideoDataOutput::new(None, Some((640, 480))).unwrap(),
    };
    drop(ctx);
    let worker = std::thread::spawn(move || {
        camera.session.set_input(&device).unwrap();
        camera.session.add_output(&camera.output).unwrap();
        camera.session.start_running().unwrap();
        let frame = camera.output.next_frame(Duration::from_secs(10)).unwrap();
        camera.session.stop_running().unwrap();
        let width = frame.frame().width();
        drop(camera); // the session, its output and the last handle of the context, in that order
        width
    });
    assert_eq!(worker.join().unwrap(), 640);
}

#[test]
fn a_configuration_says_before_streaming_what_it_runs_and_then_runs_it() {
    let ctx = Context::new("org.ocellus.test.rust.check", &ContextOptions::default()).unwrap();
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    let session = ctx.capture_session().unwrap();
    assert_eq!(session.check_configuration().unwrap(), None); // no input
    let output = VideoDataOutput::new(Some("NV12"), Some((320, 240))).unwrap();
    session.set_input(&camera).unwrap();
    session.add_output(&output).unwrap();
    let check = session.check_configuration().unwrap().unwrap();
    assert!(check.as_asked() && check.reason.is_empty(), "{check:?}");
    let offered = camera.formats().unwrap();
    assert!(offered.iter().any(|f| (f.pixel_format.as_str(), f.width, f.height)
        == (check.runs.pixel_format.as_str(), check.runs.width, check.runs.height)));
    session.start_running().unwrap();
    assert_eq!(session.active_format().unwrap(), check.runs);
    session.stop_running().unwrap();
    // What cannot run is the error committing would give.
    let square = VideoDataOutput::new(Some("NV12"), Some((300, 300))).unwrap();
    session.begin_configuration().unwrap();
    session.add_output(&square).unwrap();
    let checked = session.check_configuration().unwrap_err();
    let committed = session.commit_configuration().unwrap_err();
    assert_eq!((checked.kind, checked.message), (ErrorKind::InvalidArgument, committed.message));
}
