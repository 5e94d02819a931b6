"""Center Stage (behaviour §4) on the real PipeWire: a wide virtual camera (1280x720) films a
photographed face (scikit-image's astronaut) off to the left. Where the face ends up in what the
session delivers is judged by scikit-image's own cascade, an independent detector; the photo's
pixels by Pillow's libjpeg."""

import io
import json
import os
import subprocess
import time

import numpy as np
import pytest

CLI = os.environ.get("OCELLUS_CLI", "ocellus")

WIDTH, HEIGHT = 1280, 720
OUT_WIDTH, OUT_HEIGHT = 640, 360


def wide_picture():
    """The astronaut (560 pixels square) left of centre on a grey wall."""
    from PIL import Image
    from skimage import data
    photo = Image.fromarray(data.astronaut()).resize((560, 560))
    canvas = Image.new("RGB", (WIDTH, HEIGHT), (190,) * 3)
    canvas.paste(photo, (160, 160))
    return canvas


def wide_camera(cameras, tmp_path, name):
    path = tmp_path / f"{name}.jpg"
    wide_picture().save(path, quality=92)
    cameras.add(name, "--sizes", f"{WIDTH}x{HEIGHT}", "--formats", "MJPG", "--mjpeg-file", str(path))
    return f"pipewire-{name}"


def face_in(grey):
    """The one face scikit-image finds in a grey picture, as (centre x, centre y, height) in 0…1."""
    from skimage import data
    from skimage.feature import Cascade
    height, width = grey.shape
    found = Cascade(data.lbp_frontal_face_cascade_filename()).detect_multi_scale(
        img=grey.astype(np.float64) / 255, scale_factor=1.2, step_ratio=1, min_size=(30, 30), max_size=(300, 300))
    assert found, "the reference detector finds the face"
    face = max(found, key=lambda f: f["width"])
    return ((face["c"] + face["width"] / 2) / width, (face["r"] + face["height"] / 2) / height, face["height"] / height)


def stream_window(unique_id, tmp_path, *flags):
    """The CLI's last grey frame (640x360) and summary."""
    path = tmp_path / "frames.grey"
    result = subprocess.run([CLI, "stream", unique_id, "--format", "GRAY8", "--size", f"{OUT_WIDTH}x{OUT_HEIGHT}",
                             "--seconds", "4", "--json", "--output", str(path), *flags],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    frames = np.frombuffer(path.read_bytes(), dtype=np.uint8).reshape(-1, OUT_HEIGHT, OUT_WIDTH)
    return frames, json.loads(result.stdout.splitlines()[-1])


def grey_session(context, unique_id, width, height):
    """The camera, a session streaming it and a GRAY8 output of `width`x`height` in it."""
    import ocellus
    device = next(d for d in context.devices() if d.unique_id == unique_id)
    session = context.capture_session()
    session.set_input(device)
    video = ocellus.VideoDataOutput("GRAY8", width, height)
    session.add_output(video)
    return device, session, video


def test_the_cli_frames_the_face_centred_and_larger_within_the_cameras_resolution(tmp_path, cameras):
    unique_id = wide_camera(cameras, tmp_path, "stagecli")
    whole, plain = stream_window(unique_id, tmp_path)
    framed, summary = stream_window(unique_id, tmp_path, "--center-stage")
    assert "center_stage" not in plain
    x, y, size = face_in(whole[-1])
    assert x < 0.4, "without Center Stage the face stays where the camera sees it"
    fx, fy, fsize = face_in(framed[-1])
    assert abs(fx - 0.5) < 0.08 and abs(fy - 0.5) < 0.1, ("the face is centred", fx, fy)
    assert fsize > 1.6 * size, ("the window zooms in on the face", fsize, size)
    stage = summary["center_stage"]
    assert stage["active"] is True
    left, top, width, height = stage["window"]
    # 640x360 delivered from 1280x720: the window keeps at least half the camera's width.
    assert width == pytest.approx(height) and 0.5 - 1e-3 <= width < 0.8
    assert 0 <= left and left + width <= 1 and 0 <= top and top + height <= 1
    # The motion is smooth: no frame's face jumps (the first second's frames move toward it).
    centres = [face_in(frame)[0] for frame in framed[::6]]
    assert all(abs(b - a) < 0.15 for a, b in zip(centres, centres[1:])), centres


def test_turned_on_and_off_while_streaming_and_observable(tmp_path, cameras):
    import ocellus
    unique_id = wide_camera(cameras, tmp_path, "stagelive")
    with ocellus.Context("org.ocellus.test.centerstage") as context:
        device, session, video = grey_session(context, unique_id, OUT_WIDTH, OUT_HEIGHT)
        assert device.center_stage() == ocellus.CenterStageState(False, False, (0.0, 0.0, 1.0, 1.0))
        with session.running():
            time.sleep(1)
            assert not device.center_stage().active, "off by default"
            assert face_in(video.read(timeout=5).image)[0] < 0.4
            device.set_center_stage(True)
            assert device.center_stage().enabled
            time.sleep(3)
            state = device.center_stage()
            assert state.active and state.window[2] < 0.8, state
            assert abs(face_in(video.read(timeout=5).image)[0] - 0.5) < 0.08
            device.set_center_stage(False)
            time.sleep(3)
            assert device.center_stage() == ocellus.CenterStageState(False, False, (0.0, 0.0, 1.0, 1.0)), "zoomed back out"
            assert face_in(video.read(timeout=5).image)[0] < 0.4
        session.close()


def test_photos_movies_and_metadata_follow_the_window(tmp_path, cameras):
    import cv2
    import ocellus
    from PIL import Image
    unique_id = wide_camera(cameras, tmp_path, "stagephoto")
    with ocellus.Context("org.ocellus.test.centerstage.photo") as context, \
            ocellus.MetadataOutput(ocellus.MetadataObjectType.FACE) as metadata, ocellus.PhotoOutput() as photos, \
            ocellus.MovieFileOutput() as movie:
        device = next(d for d in context.devices() if d.unique_id == unique_id)
        device.set_center_stage(True)
        session = context.capture_session()
        session.set_input(device)
        session.add_output(ocellus.VideoDataOutput("NV12", OUT_WIDTH, OUT_HEIGHT))
        session.add_metadata_output(metadata)
        session.add_photo_output(photos)
        session.add_movie_file_output(movie)
        seen = []
        metadata.set_callback(lambda objects, timestamp: seen.append(objects))
        with session.running():
            time.sleep(3.5)
            window = device.center_stage().window
            photo = photos.capture().result(timeout=10)
            # The camera sends MJPEG: framed, the movie is decoded, cut and encoded again.
            recording = movie.start_recording(str(tmp_path / "framed.mp4"))
            time.sleep(1.5)
            movie.stop_recording()
            recorded = recording.result(timeout=30)
        metadata.set_callback(None)
        session.close()
    # The photo is the window's own pixels (the camera's, cropped, not scaled up).
    picture = Image.open(io.BytesIO(photo.data))
    assert picture.size == (photo.width, photo.height)
    assert abs(photo.width - window[2] * WIDTH) <= 4 and abs(photo.height - window[3] * HEIGHT) <= 4
    assert abs(face_in(np.asarray(picture.convert("L")))[0] - 0.5) < 0.1
    # The movie (read back by OpenCV's FFmpeg) shows the face in its middle, at the camera's size.
    assert recorded.error is None and recorded.video_codec != "mjpeg", recorded
    video = cv2.VideoCapture(recorded.path)
    ok, first = video.read()
    assert ok and first.shape[:2] == (HEIGHT, WIDTH)
    assert abs(face_in(cv2.cvtColor(first, cv2.COLOR_BGR2GRAY))[0] - 0.5) < 0.1
        # Metadata bounds are in the framed picture: the face in its middle once framed.
    [face] = [objects for objects in seen if objects][-1]
    x, y, w, h = face.bounds
    assert abs(x + w / 2 - 0.5) < 0.08, face.bounds


def test_an_output_at_the_cameras_full_size_leaves_no_room(tmp_path, cameras):
    """Zooming would give it fewer of the camera's pixels than it delivers: Center Stage stays
    inactive, and the output gets the whole picture."""
    import ocellus
    unique_id = wide_camera(cameras, tmp_path, "stagefull")
    with ocellus.Context("org.ocellus.test.centerstage.full") as context:
        device, session, video = grey_session(context, unique_id, WIDTH, HEIGHT)
        device.set_center_stage(True)
        with session.running():
            time.sleep(2.5)
            assert device.center_stage() == ocellus.CenterStageState(True, False, (0.0, 0.0, 1.0, 1.0))
            assert face_in(video.read(timeout=5).image)[0] < 0.4
        session.close()
