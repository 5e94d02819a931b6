"""Movie files from `ocellus record` on the real daemon, checked with ffprobe and by decoding with ffmpeg."""

import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

CLI = os.environ.get("OCELLUS_CLI", "ocellus")
VCAM0 = "usb-1d6b:0110-VCAM-0000"


def record(*args, check=True, timeout=60):
    return subprocess.run([CLI, "record", *args], capture_output=True, text=True, check=check, timeout=timeout)


def probe(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries",
                          "stream=codec_type,codec_name,width,height,nb_read_frames,duration:stream_side_data",
                          "-of", "json", str(path)], capture_output=True, text=True, check=True).stdout
    return json.loads(out)["streams"]


def first_frame_upright(path):
    """The first frame as a player shows it (ffmpeg applies the display matrix), grey."""
    streams = probe(path)
    width, height = streams[0]["width"], streams[0]["height"]
    rotation = next((s.get("rotation", 0) for s in streams[0].get("side_data_list", [])), 0)
    if rotation in (90, -90, 270, -270):
        width, height = height, width
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(height, width)


class SessionEvents:
    """A session's events as (event, message) pairs, collected from the library thread."""

    def __init__(self):
        self.events, self.changed = [], threading.Condition()

    def __call__(self, event, message):
        with self.changed:
            self.events.append((event, message))
            self.changed.notify_all()

    def wait_for(self, predicate, timeout=10):
        with self.changed:
            assert self.changed.wait_for(lambda: predicate(self.events), timeout), self.events


def test_h264_recording_has_the_frames_and_duration(tmp_path):
    path = tmp_path / "clip.mp4"
    summary = json.loads(record(VCAM0, "-o", str(path), "--seconds", "2", "--size", "640x480", "--json").stdout)
    assert list(summary) == ["path", "bytes", "width", "height", "duration", "orientation", "frames", "dropped", "rotation_degrees", "event"]
    assert summary["bytes"] == path.stat().st_size and (summary["width"], summary["height"]) == (640, 480)
    assert 1.8 <= summary["duration"] <= 2.6 and summary["orientation"] == 0
    [video] = probe(path)
    assert (video["codec_name"], video["width"], video["height"]) == ("h264", 640, 480)
    assert 50 <= int(video["nb_read_frames"]) <= 75 and abs(float(video["duration"]) - summary["duration"]) < 0.1
    frame = first_frame_upright(path)
    # The virtual camera's ramp, dark on the left, bright on the right; medians over a fifth of the
    # width or more, so the moving bright bar (1/16 of the width) cannot sway them.
    assert np.median(frame[100, :200]) < 70 and np.median(frame[100, -200:]) > 180


def test_a_size_the_camera_does_not_offer_is_recorded_scaled(tmp_path):
    # The writer was opened at the stream's size (640x480) while frames came scaled to the size
    # asked for: "the camera format changed while recording", no frame (found by the memcheck run).
    path = tmp_path / "small.mp4"
    summary = json.loads(record(VCAM0, "-o", str(path), "--seconds", "1", "--size", "320x240", "--json").stdout)
    [video] = probe(path)
    assert (video["width"], video["height"], summary["width"], summary["height"]) == (320, 240, 320, 240)
    assert summary["frames"] >= 20 and int(video["nb_read_frames"]) == summary["frames"]


@pytest.fixture
def jpeg_camera(cameras):
    # On a USB bus, so that it is an external camera (a virtual one takes no mounting correction).
    cameras.add("recjpg", "--formats", "MJPG", "--sizes", "640x480", "--prop", "device.bus=usb")
    return "pipewire-recjpg"


def test_mjpeg_is_kept_and_the_capture_angle_goes_into_the_matrix(tmp_path, jpeg_camera):
    state = tmp_path / "state"
    subprocess.run([CLI, "--state-dir", str(state), "mount-rotation", jpeg_camera, "90"], check=True)
    path = tmp_path / "clip.mov"
    summary = json.loads(subprocess.run([CLI, "--state-dir", str(state), "record", jpeg_camera, "-o", str(path),
                                         "--seconds", "1.5", "--json"], capture_output=True, text=True, check=True).stdout)
    assert summary["orientation"] == 90
    [video] = probe(path)
    assert video["codec_name"] == "mjpeg" and (video["width"], video["height"]) == (640, 480)
    [matrix] = video["side_data_list"]
    assert matrix["side_data_type"] == "Display Matrix" and matrix["rotation"] == -90   # as a phone's portrait video
    upright = first_frame_upright(path)
    # Turned clockwise for display: the ramp's dark left edge is now at the top.
    assert upright.shape == (640, 480) and np.median(upright[:200, 240]) < 70 and np.median(upright[-200:, 240]) > 180


def test_sigkill_leaves_a_playable_file(tmp_path):
    path = tmp_path / "killed.mp4"
    process = subprocess.Popen([CLI, "record", VCAM0, "-o", str(path), "--size", "640x480"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith("recording")
    time.sleep(3)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    [video] = probe(path)
    # Everything up to the last complete fragment (a key frame each second) is there.
    assert video["codec_name"] == "h264" and int(video["nb_read_frames"]) >= 30
    assert np.median(first_frame_upright(path)[100, -200:]) > 180


def test_recording_killed_in_its_first_second_keeps_its_first_pictures(tmp_path):
    # The first fragment waited for the next key frame, a second in: killed before, the file had no picture.
    for delay in (0.25, 0.5, 0.8):
        path = tmp_path / f"early{delay}.mp4"
        process = subprocess.Popen([CLI, "record", VCAM0, "-o", str(path), "--size", "640x480"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert process.stdout.readline().startswith("recording")
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        streams = probe(path)
        video = next(s for s in streams if s["codec_type"] == "video")
        assert int(video["nb_read_frames"]) >= 1, (delay, streams)
        assert np.median(first_frame_upright(path)[100, -200:]) > 180


def test_camera_unplugged_mid_recording_finishes_the_file(tmp_path, cameras, jpeg_camera):
    path = tmp_path / "unplugged.mp4"
    process = subprocess.Popen([CLI, "record", jpeg_camera, "-o", str(path), "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    cameras.remove("recjpg")
    out, err = process.communicate(timeout=20)
    assert process.returncode == 1 and "disconnected" in err and "the file holds" in err
    summary = json.loads(out)
    [video] = probe(path)
    assert int(video["nb_read_frames"]) >= 20 and abs(float(video["duration"]) - summary["duration"]) < 0.2


def test_disk_full_is_a_clear_error_and_the_file_plays(tmp_path, jpeg_camera):
    disk = tmp_path / "small"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        result = record(jpeg_camera, "-o", str(disk / "full.mp4"), "--seconds", "20", "--json", check=False)
        assert result.returncode == 1 and "No space left on device" in result.stderr, result.stderr
        [video] = probe(disk / "full.mp4")
        assert int(video["nb_read_frames"]) >= 3
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_bad_recordings_are_refused(tmp_path):
    unwritable = record(VCAM0, "-o", str(tmp_path / "missing" / "x.mp4"), "--seconds", "1", check=False)
    assert unwritable.returncode == 1 and "cannot write" in unwritable.stderr
    wrong_kind = record(VCAM0, "-o", str(tmp_path / "x.avi"), "--seconds", "1", check=False)
    assert wrong_kind.returncode == 2 and ".mp4 or .mov" in wrong_kind.stderr   # a usage error
    assert not (tmp_path / "x.avi").exists()


def test_without_ffmpeg_recording_fails_by_name_and_streaming_goes_on(tmp_path):
    # FFmpeg is loaded on first use: a libavcodec that cannot be loaded (here a broken file
    # found first on the loader's path) costs recording, never the rest of the library.
    broken = tmp_path / "lib"
    broken.mkdir()
    codec = next(name for name in os.listdir("/usr/lib/x86_64-linux-gnu") if name.startswith("libavcodec.so."))
    (broken / codec).write_bytes(b"not a library")
    env = dict(os.environ, LD_LIBRARY_PATH=f"{broken}:{os.environ.get('LD_LIBRARY_PATH', '')}")
    recording = subprocess.run([CLI, "record", VCAM0, "-o", str(tmp_path / "clip.mp4"), "--seconds", "1"],
                               capture_output=True, text=True, env=env, timeout=60)
    assert recording.returncode == 1 and "libavcodec" in recording.stderr and "could not be loaded" in recording.stderr
    assert recording.stderr.count("\n") == 1
    streaming = subprocess.run([CLI, "stream", VCAM0, "--format", "NV12", "--frames", "5", "--json"],
                               capture_output=True, text=True, env=env, timeout=60, check=True)
    assert json.loads(streaming.stdout)["frames"] == 5


def test_recording_from_python_while_frames_keep_flowing(tmp_path, microphones):
    import threading

    import ocellus

    microphones.add("vmicpython")   # heard, so a microphone of its own (see `Microphones`)
    with ocellus.Context("org.ocellus.test.recording") as context:
        camera = next(d for d in context.devices() if d.unique_id == VCAM0)
        session = context.capture_session()
        preview = ocellus.VideoDataOutput("NV12", 320, 240)
        counts, lock = {"during": 0}, threading.Lock()
        movie = ocellus.MovieFileOutput(rotation_angle=270)
        deadline = time.monotonic() + 5
        while not any(d.unique_id == "pipewire-vmicpython" for d in context.devices()) and time.monotonic() < deadline:
            time.sleep(0.01)
        microphone = next(d for d in context.devices() if d.unique_id == "pipewire-vmicpython")
        pcm = ocellus.AudioDataOutput()
        heard = []
        pcm.set_callback(lambda samples, ts: heard.append((samples.shape[1], float(np.abs(samples).max()), ts)))
        with pytest.raises(ocellus.InvalidArgument):
            session.set_audio_input(camera)   # a camera is no microphone
        session.set_audio_input(microphone)
        session.add_audio_output(pcm)

        def count(_frame):
            with lock:
                counts["during"] += movie.is_recording

        preview.set_frame_callback(count)
        session.set_input(camera)
        session.set_preset(ocellus.Preset.VGA_640X480)
        session.add_output(preview)
        session.add_movie_file_output(movie)
        with pytest.raises(ocellus.WrongState):
            movie.start_recording(str(tmp_path / "early.mp4"))   # not running
        with session.running():
            finished = movie.start_recording(str(tmp_path / "py.mp4"))
            with pytest.raises(ocellus.WrongState):
                movie.start_recording(str(tmp_path / "twice.mp4"))
            time.sleep(1.5)
            assert movie.is_recording and movie.recorded_duration > 0.5
            movie.stop_recording()
            recording = finished.result(timeout=10)
            assert not movie.is_recording
            again = movie.start_recording(str(tmp_path / "again.mov"))   # a second recording after the first
            time.sleep(0.5)
        second = again.result(timeout=10)   # the session stopping finishes it
        assert pcm.delivered_frames >= 48000
        session.remove_audio_output(pcm)
        session.remove_movie_file_output(movie)
        with pytest.raises(ocellus.NotFound):
            session.remove_movie_file_output(movie)
        session.set_audio_input(None)
        session.close()
        movie.close()
    assert recording.error is None and recording.video_codec == "libx264" and recording.rotation == 270
    assert (recording.width, recording.height) == (640, 480) and recording.frames >= 30 and recording.dropped_frames == 0
    assert counts["during"] >= 30, "the video data output kept its frames while recording"
    video = probe(tmp_path / "py.mp4")[0]
    assert int(video["nb_read_frames"]) == recording.frames and video["side_data_list"][0]["rotation"] == 90
    assert second.error is None and second.frames > 0 and probe(tmp_path / "again.mov")[0]["codec_name"] == "h264"
    assert [s["codec_type"] for s in probe(tmp_path / "py.mp4")] == ["video", "audio"]
    assert heard and {channels for channels, _, _ in heard} == {2} and max(peak for _, peak, _ in heard) > 0.1
    assert all(a[2] < b[2] for a, b in zip(heard, heard[1:])), "timestamps increase"
    assert not (tmp_path / "twice.mp4").exists() and not (tmp_path / "early.mp4").exists()


def test_audio_track_from_the_microphone(tmp_path, microphones):
    microphones.add("vmictrack")   # heard, so a microphone of its own (see `Microphones`)
    path = tmp_path / "sound.mp4"
    summary = json.loads(record(VCAM0, "-o", str(path), "--seconds", "2", "--size", "640x480", "--audio", "pipewire-vmictrack",
                                "--json").stdout)
    video, audio = probe(path)
    assert (video["codec_type"], audio["codec_type"], audio["codec_name"]) == ("video", "audio", "aac")
    assert abs(float(audio["duration"]) - float(video["duration"])) < 0.1 and summary["duration"] > 1.8
    assert summary["dropped_audio_frames"] == 0
    pcm = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:a", "-f", "s16le", "-ac", "1", "-"],
                         capture_output=True, check=True).stdout
    samples = np.frombuffer(pcm, np.int16).astype(np.int32)
    assert len(samples) > 1.7 * 48000 and np.abs(samples).max() > 3000, "the test source's tone, not silence"
    unknown = record(VCAM0, "-o", str(tmp_path / "x.mp4"), "--seconds", "1", "--audio", "no-such-mic", check=False)
    assert unknown.returncode == 1 and "no connected microphone" in unknown.stderr


def decoded_sound(path):
    """The movie's audio track as mono floats at 48 kHz."""
    pcm = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:a", "-f", "f32le", "-ac", "1", "-ar", "48000", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(pcm, np.float32)


def test_default_microphone_change_while_recording(tmp_path, microphones):
    """The session hears the `microphone` device; the user moves the default input mid-recording:
    the recording keeps going, its sound moves from the loud to the quiet microphone, in step."""
    import ocellus

    # Two microphones of its own (see `Microphones`).
    microphones.add("vmicloud")
    microphones.add("vmicquiet", volume=0.3)
    microphones.set_default("vmicloud")
    with ocellus.Context("org.ocellus.test.recording.route") as context:
        deadline = time.monotonic() + 5
        while context.microphone_route.unique_id != "pipewire-vmicloud" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert context.microphone_route.unique_id == "pipewire-vmicloud"
        camera = next(d for d in context.devices() if d.unique_id == VCAM0)
        microphone = context.default_microphone
        session = context.capture_session()
        events = []
        session.add_event_callback(lambda event, message: events.append((event, message)))
        session.set_input(camera)
        session.set_preset(ocellus.Preset.VGA_640X480)
        session.set_audio_input(microphone)
        movie = ocellus.MovieFileOutput()
        session.add_movie_file_output(movie)
        # The route's move is under test, not how soon WirePlumber links a new stream (seconds on a
        # loaded machine): the recording starts once the loud microphone is heard.
        loud = threading.Event()
        pcm = ocellus.AudioDataOutput()
        peaks = []

        def hear(samples, _ts):
            peaks.append(round(float(np.abs(samples).max()), 2))
            if peaks[-1] > 0.5:
                loud.set()
        pcm.set_callback(hear)
        session.add_audio_output(pcm)
        with session.running():
            assert loud.wait(20), f"the loud microphone was never heard: peaks {peaks[-20:]}, events {events}"
            finished = movie.start_recording(str(tmp_path / "route.mp4"))
            time.sleep(1.5)
            microphones.set_default("vmicquiet")
            deadline = time.monotonic() + 5
            while context.microphone_route.unique_id != "pipewire-vmicquiet" and time.monotonic() < deadline:
                time.sleep(0.01)
            moved_at = movie.recorded_duration
            assert microphone.name == "Virtual Microphone vmicquiet"
            time.sleep(1.5)
            assert session.is_running and movie.is_recording
            movie.stop_recording()
            recording = finished.result(timeout=10)
        session.close()
        movie.close()
    assert recording.error is None and ocellus.SessionEvent.RUNTIME_ERROR not in [event for event, _ in events]
    video, audio = probe(tmp_path / "route.mp4")
    sound = decoded_sound(tmp_path / "route.mp4")
    rate = 48000
    # What a failure needs to be understood: the peak of every 100 ms, the route's move, the session's events.
    story = (f"peaks per 100 ms {[round(float(np.abs(sound[i:i + 4800]).max()), 2) for i in range(0, len(sound), 4800)]}, "
             f"moved at {moved_at:.2f} s, events {events}")
    # Both tracks start with the first picture and end with the last (silence where sound never came).
    assert abs(float(audio["duration"]) - float(video["duration"])) < 0.1, f"sound in step with the picture: {story}"
    before = sound[int(0.3 * rate):int((moved_at - 0.2) * rate)]
    after = sound[int((moved_at + 0.5) * rate):-int(0.2 * rate)]
    assert np.abs(before).max() > 0.5, f"the loud default microphone first: {story}"
    assert 0.02 < np.abs(after).max() < 0.5 * np.abs(before).max(), f"then the quiet one: moved, not silent: {story}"


def test_automatic_switching_waits_for_the_recording(tmp_path, cameras):
    """behaviour §4: a camera plugged in during a recording becomes the input only once the recording ends."""
    import ocellus

    with ocellus.Context("org.ocellus.test.recording.switch", state_directory=str(tmp_path / "state")) as context:
        camera = next(d for d in context.devices() if d.unique_id == VCAM0)
        session = context.capture_session()
        log = SessionEvents()

        def wait_for(event, message):
            log.wait_for(lambda seen: (event, message) in seen)

        session.add_event_callback(log)
        session.set_input(camera)
        session.set_preset(ocellus.Preset.VGA_640X480)
        movie = ocellus.MovieFileOutput()
        session.add_movie_file_output(movie)
        session.automatically_switches_camera = True
        assert session.automatically_switches_camera
        with session.running():
            assert context.system_preferred_camera.unique_id == VCAM0
            finished = movie.start_recording(str(tmp_path / "kept.mp4"))
            assert session.is_recording
            cameras.add("switchnew", "--device-prop", "device.bus=usb", "--device-prop", "device.vendor.id=0x2e1a",
                        "--device-prop", "device.product.id=0x4c02", "--device-prop", "device.serial=SWITCH01")
            new = "usb-2e1a:4c02-SWITCH01"
            wait_for(ocellus.SessionEvent.SWITCH_DEFERRED, new)
            time.sleep(0.5)
            assert movie.is_recording and not any(e == ocellus.SessionEvent.INPUT_SWITCHED for e, _ in log.events)
            movie.stop_recording()
            recording = finished.result(timeout=10)
            wait_for(ocellus.SessionEvent.INPUT_SWITCHED, new)   # the recording ended: now
            assert session.is_running and not session.is_recording
            cameras.remove("switchnew")   # unplugged: back to the next preferred camera, still running
            wait_for(ocellus.SessionEvent.INPUT_SWITCHED, VCAM0)
            deadline = time.monotonic() + 5
            while not session.is_running and time.monotonic() < deadline:
                time.sleep(0.01)
            assert session.is_running, log.events
        session.automatically_switches_camera = False
        session.close()
        movie.close()
    assert recording.error is None and recording.frames > 0
    [video] = probe(tmp_path / "kept.mp4")
    assert (video["width"], video["height"]) == (640, 480), "the whole recording from the first camera"


def test_h264_camera_is_recorded_as_it_came(tmp_path, cameras):
    """No re-encoding: the movie's stream is the camera's H.264, starting at its first IDR picture."""
    import ocellus

    cameras.add("rech264", "--formats", "H264", "--sizes", "640x480")
    with ocellus.Context("org.ocellus.test.recording.h264") as context:
        session = context.capture_session()
        session.set_input(next(d for d in context.devices() if d.unique_id == "pipewire-rech264"))
        movie = ocellus.MovieFileOutput(rotation_angle=90)
        session.add_movie_file_output(movie)
        with session.running():
            finished = movie.start_recording(str(tmp_path / "camera.mp4"))
            time.sleep(2)
            movie.stop_recording()
            recording = finished.result(timeout=10)
            again = movie.start_recording(str(tmp_path / "camera.mov"))   # QuickTime too, from the next IDR
            time.sleep(1)
            movie.stop_recording()
            second = again.result(timeout=10)
        session.close()
        movie.close()
    assert second.error is None and second.video_codec == "h264" and probe(tmp_path / "camera.mov")[0]["codec_name"] == "h264"
    assert recording.error is None and recording.video_codec == "h264", "kept, not re-encoded with libx264"
    [video] = probe(tmp_path / "camera.mp4")
    assert (video["codec_name"], video["width"], video["height"]) == ("h264", 640, 480)
    assert int(video["nb_read_frames"]) == recording.frames >= 45 and video["side_data_list"][0]["rotation"] == -90
    frame = first_frame_upright(tmp_path / "camera.mp4")   # the first frame decodes: it is an IDR
    assert frame.shape == (640, 480) and np.median(frame[:100, 200]) < 70 and np.median(frame[-100:, 200]) > 180


def test_automatic_switch_to_a_camera_that_cannot_serve_keeps_the_input(tmp_path, cameras):
    """The system preferred camera cannot serve the session's outputs (a pinned size it lacks):
    SWITCH_FAILED says why, and the session keeps running on its camera."""
    import ocellus

    with ocellus.Context("org.ocellus.test.recording.switchfail", state_directory=str(tmp_path / "state")) as context:
        camera = next(d for d in context.devices() if d.unique_id == VCAM0)
        session = context.capture_session()
        log = SessionEvents()
        session.add_event_callback(log)
        output = ocellus.VideoDataOutput("NV12", 1280, 720)   # vcam0 has 1280x720; the new camera only 640x480
        session.set_input(camera)
        session.add_output(output)
        session.automatically_switches_camera = True
        with session.running():
            cameras.add("switchsmall", "--device-prop", "device.bus=usb", "--device-prop", "device.vendor.id=0x2e1a",
                        "--device-prop", "device.product.id=0x4c03", "--device-prop", "device.serial=SMALL001")
            log.wait_for(lambda seen: any(e == ocellus.SessionEvent.SWITCH_FAILED for e, _ in seen))
            failed = next(m for e, m in log.events if e == ocellus.SessionEvent.SWITCH_FAILED)
            assert failed.startswith("usb-2e1a:4c03-SMALL001: ") and "no format that serves every output" in failed
            delivered = output.delivered_frames
            time.sleep(0.3)
            assert session.is_running and output.delivered_frames > delivered, "still streaming from vcam0"
        session.close()


def test_recording_under_cpu_pressure_keeps_up_or_says_why(tmp_path, cameras):
    # 1080p30 raw frames encoded while a busy loop shares the recorder's one core: the writer
    # picks a preset the core can carry and, if it still falls behind, halves the rate and says so.
    cameras.add("pressure", "--sizes", "1920x1080", "--fps", "30")
    busy = subprocess.Popen(["taskset", "-c", "0", "python3", "-c", "while True: pass"])
    try:
        path = tmp_path / "pressure.mp4"
        done = subprocess.run(["taskset", "-c", "0", CLI, "record", "pipewire-pressure", "-o", str(path),
                               "--seconds", "4", "--json"], capture_output=True, text=True, timeout=60)
    finally:
        busy.kill()
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    total = summary["frames"] + summary["dropped"]
    assert total >= 90, summary
    if summary["dropped"] > total * 0.05:
        assert "cannot keep up" in done.stderr, (summary, done.stderr)
        assert summary["dropped"] <= total * 0.6, summary
    assert probe(path)[0]["nb_read_frames"] == str(summary["frames"])


def test_sigkill_with_a_microphone_that_delivers_nothing_keeps_the_picture(tmp_path, testbed_dir):
    # The microphone stalls (its process stopped) half a second into each recording; the recorder
    # is killed at moments spread over a second and a half, so that the kills fall at every point
    # of a (one-second) fragment. Every file must play, with the picture up to about a second
    # before the kill: video fragments do not wait for sound.
    testbed = os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts", "testbed.sh")
    try:
        subprocess.run([testbed, "add-process-mic", testbed_dir, "deadmic"], check=True)
        for attempt, after_stall in enumerate(np.linspace(2.2, 3.7, 7)):
            subprocess.run([testbed, "signal", testbed_dir, "deadmic", "CONT"], check=True)
            path = tmp_path / f"kill{attempt}.mp4"
            recorder = subprocess.Popen([CLI, "record", VCAM0, "-o", str(path), "--size", "640x480",
                                         "--audio", "pipewire-deadmic"], stderr=subprocess.PIPE, text=True)
            started = time.monotonic()
            time.sleep(0.8)
            subprocess.run([testbed, "signal", testbed_dir, "deadmic", "STOP"], check=True)
            time.sleep(float(after_stall))
            recorder.kill()
            recorder.wait()
            elapsed = time.monotonic() - started
            streams = probe(path)
            video = next(s for s in streams if s["codec_type"] == "video")
            # Recording starts ~0.3 s in; the last fragment (a second) and the silence margin may be
            # lost with the process. Without the silence, nothing after the stall would be there.
            assert int(video["nb_read_frames"]) >= (elapsed - 2.0) * 30 * 0.7, (attempt, elapsed, streams)
            assert any(s["codec_type"] == "audio" for s in streams)
    finally:
        subprocess.run([testbed, "remove-camera", testbed_dir, "deadmic", "KILL"], check=False)


def daemon_major():
    """The test bed's PipeWire major (0 for 0.3.65, 1 for 1.4)."""
    version = subprocess.run(["pipewire", "--version"], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"libpipewire (\d+)\.", version).group(1))


def test_sound_track_ends_with_the_picture_when_the_microphone_stalls(tmp_path, testbed_dir):
    """A microphone that stops delivering mid-recording: the file still has sound to the last picture
    (the tone, then silence), and the recorder says why the sound went quiet."""
    testbed = os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts", "testbed.sh")
    path = tmp_path / "stalled.mp4"
    try:
        subprocess.run([testbed, "add-process-mic", testbed_dir, "stallmic"], check=True)
        recorder = subprocess.Popen([CLI, "record", VCAM0, "-o", str(path), "--size", "320x240", "--seconds", "3",
                                     "--audio", "pipewire-stallmic", "--json"], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)
        subprocess.run([testbed, "signal", testbed_dir, "stallmic", "STOP"], check=True)
        out, err = recorder.communicate(timeout=30)
    finally:
        subprocess.run([testbed, "signal", testbed_dir, "stallmic", "CONT"], check=False)
        subprocess.run([testbed, "remove-camera", testbed_dir, "stallmic", "KILL"], check=False)
    assert recorder.returncode == 0, err
    # PipeWire 0.3 stops the stream of a stalled producer; 1.x's graph goes on and fills its
    # buffers with silence, so the stall never reaches the stream and nothing can say so.
    if daemon_major() < 1:
        assert "sent no sound" in err
    summary = json.loads(out)
    video, audio = probe(path)
    assert summary["duration"] > 2.5 and abs(float(video["duration"]) - summary["duration"]) < 0.1, summary
    assert abs(float(audio["duration"]) - float(video["duration"])) < 0.1, (video, audio)


def test_a_system_with_another_ffmpeg_is_told_which_it_has_and_which_this_build_needs(tmp_path):
    """FFmpeg 7 in place of the FFmpeg this build was made for (the Debian 12 build on Debian 13):
    a private mount namespace (bwrap) hides the build's libavcodec and offers one named for
    another major; the message names both and the Debian packages, rather than failing blindly."""
    header = subprocess.run(["sh", "-c", "printf '#include <libavcodec/version.h>\\nLIBAVCODEC_VERSION_MAJOR\\n' | cc -E -P -"],
                            capture_output=True, text=True, check=True).stdout.split()
    major = int(header[-1])
    # The file itself: newer bwrap (Debian 13's) will not bind over the SONAME's symlink.
    system = os.path.realpath(f"/usr/lib/x86_64-linux-gnu/libavcodec.so.{major}")
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(system, other / f"libavcodec.so.{major + 2}")   # a copy: the bind below hides the file itself
    run = subprocess.run(["bwrap", "--bind", "/", "/", "--dev-bind", "/dev", "/dev", "--ro-bind", "/dev/null", system,
                          "env", f"LD_LIBRARY_PATH={other}",
                          CLI, "record", VCAM0, "-o", str(tmp_path / "clip.mp4"), "--seconds", "1"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert f"this build of Ocellus uses FFmpeg {major - 54} (Debian: libavcodec{major}," in run.stderr, run.stderr
    assert f"this system has FFmpeg {major - 52} (libavcodec.so.{major + 2})" in run.stderr, run.stderr
