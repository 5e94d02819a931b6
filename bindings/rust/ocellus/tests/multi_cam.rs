//! Multi-camera sessions from Rust on the real daemon: the test bed's two cameras in one session,
//! each feeding its own output, started and stopped as one.
use ocellus::{BusFit, Context, ContextOptions, ErrorKind, SessionEvent, VideoDataOutput};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

#[test]
fn two_cameras_stream_as_one_session() {
    let ctx = Context::new("org.ocellus.test.rust.multicam", &ContextOptions::default()).unwrap();
    let devices = ctx.devices().unwrap();
    let ids = ["usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001"];
    let cameras: Vec<_> = ids.iter().map(|id| devices.iter().find(|d| d.unique_id() == *id).unwrap()).collect();
    let mut multi = ctx.multi_cam_session().unwrap();
    let counts: Vec<Arc<AtomicU64>> = (0..2).map(|_| Arc::new(AtomicU64::new(0))).collect();
    let mut outputs = Vec::new();
    for (camera, count) in cameras.iter().zip(&counts) {
        let mut output = VideoDataOutput::new(Some("NV12"), Some((320, 240))).unwrap();
        let count = Arc::clone(count);
        output
            .set_frame_callback(move |_| {
                count.fetch_add(1, Ordering::Relaxed);
            })
            .unwrap();
        let branch = multi.add_camera(camera).unwrap();
        branch.add_output(&output).unwrap();
        assert_eq!(branch.bus_fit(), BusFit::Automatic);
        outputs.push(output);
    }
    assert!(!multi.can_add_camera(cameras[0]));
    assert_eq!(multi.add_camera(cameras[0]).err().unwrap().kind, ErrorKind::InvalidArgument);
    assert_eq!(multi.cameras(), ids);
    assert_eq!(multi.hardware_cost().unwrap(), None); // the test bed's cameras are on no USB bus
    let branch = multi.branch(ids[1]).unwrap();
    assert_eq!(branch.start_running().unwrap_err().kind, ErrorKind::WrongState); // the session starts it
    branch.set_bus_fit(BusFit::On).unwrap();
    assert_eq!(branch.bus_fit(), BusFit::On);
    let (sender, events) = mpsc::channel();
    let registration = multi
        .on_event(move |event, camera| {
            let _ = sender.send((event, camera));
        })
        .unwrap();
    multi.start_running().unwrap();
    assert!(multi.is_running());
    assert_eq!(events.recv_timeout(Duration::from_secs(5)).unwrap(), (SessionEvent::Started, None));
    std::thread::sleep(Duration::from_millis(1500));
    multi.stop_running().unwrap();
    assert_eq!(events.recv_timeout(Duration::from_secs(5)).unwrap(), (SessionEvent::Stopped, None));
    drop(registration);
    assert!(counts.iter().all(|count| count.load(Ordering::Relaxed) >= 20), "{counts:?}");
    multi.remove_camera(cameras[1]).unwrap();
    assert_eq!(multi.cameras(), ids[..1]);
    assert_eq!(multi.remove_camera(cameras[1]).unwrap_err().kind, ErrorKind::NotFound);
}
