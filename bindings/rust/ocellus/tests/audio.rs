//! Microphones and audio from Rust on the real daemon (scripts/testbed.sh: vmic0 plays a 440 Hz tone).
use ocellus::{AudioDataOutput, Context, ContextOptions, DeviceType, ErrorKind, SessionEvent};
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn the_microphone_device_follows_the_default_input_and_delivers_pcm() {
    // A first run (fresh state): nothing was plugged in "since", so automatic switching keeps vcam0.
    let state = std::env::temp_dir().join(format!("ocellus-rust-audio-{}", std::process::id()));
    let options = ContextOptions { state_directory: Some(state.to_string_lossy().into_owned()), ..Default::default() };
    let ctx = Context::new("org.ocellus.test.rust.audio", &options).unwrap();
    let microphone = ctx.default_microphone().unwrap().expect("the test bed has a microphone");
    assert_eq!((microphone.unique_id().as_str(), microphone.device_type()), ("microphone", DeviceType::Microphone));
    let route = ctx.microphone_route().unwrap().unwrap();
    assert_eq!(route.unique_id(), "pipewire-vmic0");
    assert_eq!(microphone.name(), route.name());
    assert!(ctx.preferred_microphone().unwrap().is_none());
    assert_eq!(ctx.set_preferred_microphone(Some(&microphone)).unwrap_err().kind, ErrorKind::InvalidArgument);
    ctx.set_preferred_microphone(Some(&route)).unwrap();
    assert_eq!(ctx.preferred_microphone().unwrap().unwrap().unique_id(), "pipewire-vmic0");
    ctx.set_preferred_microphone(None).unwrap();
    let _routes = ctx.on_microphone_route_change(|_| {}).unwrap();

    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "usb-1d6b:0110-VCAM-0000").unwrap();
    let session = ctx.capture_session().unwrap();
    let (events, seen) = mpsc::channel();
    let _registration = session
        .on_event(move |event| {
            let _ = events.send(event);
        })
        .unwrap();
    assert_eq!(session.set_audio_input(Some(&camera)).unwrap_err().kind, ErrorKind::InvalidArgument);
    let mut pcm = AudioDataOutput::new().unwrap();
    let (sender, buffers) = mpsc::channel();
    pcm.set_sample_callback(move |samples, channels, rate, timestamp| {
        let peak = samples.iter().fold(0f32, |peak, s| peak.max(s.abs()));
        let _ = sender.send((samples.len(), channels, rate, timestamp, peak));
    })
    .unwrap();
    session.set_input(&camera).unwrap();
    session.set_audio_input(Some(&microphone)).unwrap();
    session.add_audio_output(&pcm).unwrap();
    session.set_automatically_switches_camera(true).unwrap();
    assert!(session.automatically_switches_camera() && !session.is_recording());
    session.start_running().unwrap();
    let mut frames = 0;
    let mut last = 0;
    // PipeWire 1.4 gives a client linking to the test bed's microphone (a follower stream of its
    // own process) one quantum of silence before the tone: at most two quiet buffers lead.
    let mut leading = 0;
    while frames < 24_000 {
        let (count, channels, rate, timestamp, peak) = buffers.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!((channels, rate), (2, 48_000));
        if frames == 0 && peak <= 0.1 && leading < 2 {
            leading += 1;
            last = timestamp;
            continue;
        }
        assert!(peak > 0.1 && timestamp > last, "the test tone, in order");
        last = timestamp;
        frames += count / 2;
    }
    session.stop_running().unwrap();
    assert!(pcm.delivered_frames() >= 24_000);
    assert_eq!(seen.recv_timeout(Duration::from_secs(5)).unwrap(), SessionEvent::Started);
    assert_eq!(seen.recv_timeout(Duration::from_secs(5)).unwrap(), SessionEvent::Stopped);
    session.remove_audio_output(&pcm).unwrap();
    assert_eq!(session.remove_audio_output(&pcm).unwrap_err().kind, ErrorKind::NotFound);
    let _ = std::fs::remove_dir_all(state);
}

#[test]
fn a_microphone_alone_runs_through_the_mode_the_app_prefers() {
    use ocellus::MicrophoneMode;
    let ctx = Context::new("org.ocellus.test.rust.modes", &ContextOptions::default()).unwrap();
    let microphone = ctx.default_microphone().unwrap().expect("the test bed has a microphone");
    let session = ctx.capture_session().unwrap();
    let (events, seen) = mpsc::channel();
    let _registration = session
        .on_event(move |event| {
            let _ = events.send(event);
        })
        .unwrap();
    let mode = session.microphone_mode().unwrap();
    assert_eq!((mode.preferred, mode.active, mode.engine.as_str()), (MicrophoneMode::Standard, MicrophoneMode::Standard, "none"));
    // The microphone's own rate and channels; a rate Ocellus does not deliver is refused.
    session.set_audio_format(None, None).unwrap();
    assert!(session.set_audio_format(Some(100), Some(2)).is_err());
    session.set_preferred_microphone_mode(MicrophoneMode::VoiceIsolation).unwrap();
    let mode = session.microphone_mode().unwrap();
    // The test command installs RNNoise (OCELLUS_RNNOISE_LIB); without it the session says why.
    if std::env::var_os("OCELLUS_RNNOISE_LIB").is_some() {
        assert_eq!((mode.active, mode.engine.as_str(), mode.reason.as_str()), (MicrophoneMode::VoiceIsolation, "rnnoise", ""));
        // Echo cancellation's plugin, found beside the library.
        assert_eq!((mode.echo_canceller.as_str(), mode.echo_cancellation_reason.as_str()), ("webrtc", ""));
        assert_eq!(
            seen.recv_timeout(Duration::from_secs(5)).unwrap(),
            SessionEvent::MicrophoneModeChanged("voice_isolation".into())
        );
    } else {
        assert_eq!(mode.active, MicrophoneMode::Standard);
        assert!(mode.reason.contains("RNNoise"), "{}", mode.reason);
    }
    let mut pcm = AudioDataOutput::new().unwrap();
    let (sender, buffers) = mpsc::channel();
    pcm.set_sample_callback(move |samples, channels, _, _| {
        let _ = sender.send(samples.len() / channels as usize);
    })
    .unwrap();
    session.set_audio_input(Some(&microphone)).unwrap();
    session.add_audio_output(&pcm).unwrap();
    session.start_running().unwrap(); // no camera: a session of a microphone alone
    let mut frames = 0;
    while frames < 9_600 {
        frames += buffers.recv_timeout(Duration::from_secs(10)).unwrap();
    }
    session.stop_running().unwrap();
    assert_eq!(pcm.dropped_frames(), 0);
    assert_eq!(MicrophoneMode::WideSpectrum.name(), "wide_spectrum");
}
