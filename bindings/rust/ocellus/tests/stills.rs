//! Photos and a recording from Rust on the real daemon.
use ocellus::{Context, ContextOptions, ErrorKind, MovieFileOutput, PhotoOutput, PhotoSettings};
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn photo_and_recording_reach_closures() {
    let ctx = Context::new("org.ocellus.test.rust.stills", &ContextOptions::default()).unwrap();
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    let session = ctx.capture_session().unwrap();
    let photo = PhotoOutput::new().unwrap();
    let movie = MovieFileOutput::new().unwrap();
    photo.set_rotation_angle(180).unwrap();
    assert_eq!(photo.set_rotation_angle(10).unwrap_err().kind, ErrorKind::InvalidArgument);
    session.set_input(&camera).unwrap();
    session.add_photo_output(&photo).unwrap();
    session.add_movie_file_output(&movie).unwrap();
    let refused = photo.capture(&PhotoSettings::default(), |_| panic!("never called")).unwrap_err();
    assert_eq!(refused.kind, ErrorKind::WrongState); // the session is not running
    session.start_running().unwrap();

    let (photos, photo_results) = mpsc::channel();
    photo.capture(&PhotoSettings::default(), move |result| photos.send(result).unwrap()).unwrap();
    let still = photo_results.recv_timeout(Duration::from_secs(10)).unwrap().unwrap();
    assert_eq!((still.orientation, &still.jpeg[..2]), (3, &[0xFF, 0xD8][..]));

    let path = std::env::temp_dir().join(format!("ocellus-rust-{}.mp4", std::process::id()));
    let (recordings, recording_results) = mpsc::channel();
    movie.start_recording(path.to_str().unwrap(), move |recording| recordings.send(recording).unwrap()).unwrap();
    assert_eq!(movie.start_recording("/tmp/other.mp4", |_| ()).unwrap_err().kind, ErrorKind::WrongState);
    // Until the file holds a third of a second of pictures (counted by the writer, not the clock).
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while movie.recorded_duration() < 0.3 {
        assert!(std::time::Instant::now() < deadline, "no pictures recorded");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(movie.is_recording());
    movie.stop_recording().unwrap();
    let recording = recording_results.recv_timeout(Duration::from_secs(10)).unwrap();
    session.stop_running().unwrap();
    assert!(recording.error.is_none() && recording.frames >= 5 && recording.video_codec == "libx264");
    assert_eq!(std::fs::metadata(&path).unwrap().len() as i64, recording.bytes);
    std::fs::remove_file(&path).unwrap();
}
