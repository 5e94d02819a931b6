"""Metadata outputs (behaviour §4) on the real PipeWire test bed: faces and codes in frames a
virtual camera sends, checked against independent references — scikit-image's own cascade
detector (its LBP cascade, its implementation) on the same photograph, and a QR code drawn by the
`qrcode` package whose placement the test knows."""

import json
import os
import subprocess
import threading
import time

import numpy as np
import pytest

CLI = os.environ.get("OCELLUS_CLI", "ocellus")


def iou(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    w = max(0.0, min(ax + aw, bx + bw) - max(ax, bx))
    h = max(0.0, min(ay + ah, by + bh) - max(ay, by))
    shared = w * h
    return shared / (aw * ah + bw * bh - shared)


def picture_with(photo, size=(640, 480), background=200):
    """`photo` (RGB) scaled to the picture's height and centred on a grey picture."""
    from PIL import Image
    width, height = size
    scaled = Image.fromarray(photo).resize((photo.shape[1] * height // photo.shape[0], height))
    canvas = Image.new("RGB", size, (background,) * 3)
    canvas.paste(scaled, ((width - scaled.width) // 2, 0))
    return canvas


def camera_showing(cameras, tmp_path, name, picture):
    """A virtual MJPEG camera whose every frame is `picture` (a PIL image, encoded by libjpeg via Pillow)."""
    path = tmp_path / f"{name}.jpg"
    picture.save(path, quality=92)
    cameras.add(name, "--formats", "MJPG", "--sizes", f"{picture.width}x{picture.height}", "--mjpeg-file", str(path))
    return f"pipewire-{name}"


def reference_faces(picture):
    """Faces by scikit-image's cascade (LBP, its own implementation) as normalised boxes."""
    from skimage import data
    from skimage.color import rgb2gray
    from skimage.feature import Cascade
    detector = Cascade(data.lbp_frontal_face_cascade_filename())
    grey = rgb2gray(np.asarray(picture))
    found = detector.detect_multi_scale(img=grey, scale_factor=1.2, step_ratio=1, min_size=(60, 60), max_size=(300, 300))
    width, height = picture.size
    return [(f["c"] / width, f["r"] / height, f["width"] / width, f["height"] / height) for f in found]


class Deliveries:
    def __init__(self):
        self.lock = threading.Condition()
        self.seen = []

    def __call__(self, objects, timestamp_ns):
        with self.lock:
            self.seen.append((objects, timestamp_ns))
            self.lock.notify_all()

    def wait(self, count, timeout=10):
        with self.lock:
            self.lock.wait_for(lambda: len(self.seen) >= count, timeout)
            return list(self.seen)


def run_metadata(context, unique_id, output, frames=45, video=None):
    import ocellus
    session = context.capture_session()
    session.set_input(next(d for d in context.devices() if d.unique_id == unique_id))
    session.add_metadata_output(output)
    if video:
        session.add_output(video)
    delivered = Deliveries()
    output.set_callback(delivered)
    with session.running():
        time.sleep(frames / 30)
    output.set_callback(None)
    session.close()
    return delivered.seen


def test_a_face_is_found_where_an_independent_detector_finds_it_with_one_id(tmp_path, cameras):
    import ocellus
    from skimage import data
    picture = picture_with(data.astronaut())
    [truth] = reference_faces(picture)
    unique_id = camera_showing(cameras, tmp_path, "metaface", picture)
    with ocellus.Context("org.ocellus.test.metadata.face") as context, ocellus.MetadataOutput(ocellus.MetadataObjectType.FACE) as output:
        seen = run_metadata(context, unique_id, output)
        counts = output.statistics
    assert len(seen) >= 8, f"about 10 analyses a second for 1.5 s: {counts}"
    timestamps = [timestamp for _, timestamp in seen]
    assert timestamps == sorted(timestamps) and len(set(timestamps)) == len(timestamps)
    assert all(len(objects) == 1 for objects, _ in seen), seen[:3]
    faces = [objects[0] for objects, _ in seen]
    assert {face.type for face in faces} == {"face"} and len({face.face_id for face in faces}) == 1, "one face, one ID"
    for face in faces:
        assert iou(face.bounds, truth) > 0.5, (face.bounds, truth)
        assert 0.5 <= face.confidence <= 1
    assert counts.deliveries == len(seen) and counts.objects == len(seen) and counts.analysed_frames >= counts.deliveries


def test_no_face_is_reported_in_a_picture_without_one(tmp_path, cameras):
    import ocellus
    from skimage import data
    picture = picture_with(data.coffee())
    assert reference_faces(picture) == []
    unique_id = camera_showing(cameras, tmp_path, "metacoffee", picture)
    with ocellus.Context("org.ocellus.test.metadata.noface") as context, ocellus.MetadataOutput(ocellus.MetadataObjectType.FACE) as output:
        seen = run_metadata(context, unique_id, output)
        counts = output.statistics
    assert seen == [] and counts.deliveries == 0 and counts.analysed_frames >= 8, counts


def qr_picture(text):
    """A QR code drawn by the `qrcode` package on white, and where its modules are (normalised)."""
    import qrcode
    from PIL import Image
    code = qrcode.QRCode(border=4, box_size=8)
    code.add_data(text)
    code.make()
    drawn = code.make_image().convert("RGB")
    picture = Image.new("RGB", (640, 480), (255, 255, 255))
    left, top = 120, 60
    picture.paste(drawn, (left, top))
    quiet = 4 * 8
    side = code.modules_count * 8
    return picture, ((left + quiet) / 640, (top + quiet) / 480, side / 640, side / 480)


def test_a_qr_code_is_decoded_with_its_bounds(tmp_path, cameras):
    import ocellus
    text = "https://ocellus.org/metadata?test=ü"
    picture, truth = qr_picture(text)
    unique_id = camera_showing(cameras, tmp_path, "metaqr", picture)
    with ocellus.Context("org.ocellus.test.metadata.qr") as context, ocellus.MetadataOutput(ocellus.MetadataObjectType.CODE) as output:
        seen = run_metadata(context, unique_id, output)
    assert len(seen) >= 8
    for objects, _ in seen:
        [code] = objects
        assert (code.type, code.symbology, code.text) == ("code", "qr", text)
        assert code.data == text.encode()
        assert iou(code.bounds, truth) > 0.8, (code.bounds, truth)


def test_bounds_follow_the_outputs_rotation_and_mirroring(tmp_path, cameras):
    """Turned 90° clockwise then mirrored, as a preview draws it: (x, y, w, h) becomes
    (1 - (1 - y - h) - h, x, h, w) = (y, x, h, w)."""
    import ocellus
    picture, _ = qr_picture("turned")
    unique_id = camera_showing(cameras, tmp_path, "metaturn", picture)
    with ocellus.Context("org.ocellus.test.metadata.turn") as context:
        with ocellus.MetadataOutput(ocellus.MetadataObjectType.CODE) as upright:
            [(objects, _), *_] = run_metadata(context, unique_id, upright, frames=20)
            x, y, w, h = objects[0].bounds
        with ocellus.MetadataOutput(ocellus.MetadataObjectType.CODE, rotation_angle=90) as turned:
            [(objects, _), *_] = run_metadata(context, unique_id, turned, frames=20)
            assert iou(objects[0].bounds, (1 - y - h, x, h, w)) > 0.85, (objects[0].bounds, (x, y, w, h))
        with ocellus.MetadataOutput(ocellus.MetadataObjectType.CODE, rotation_angle=90, mirrored=True) as both:
            [(objects, _), *_] = run_metadata(context, unique_id, both, frames=20)
            assert iou(objects[0].bounds, (y, x, h, w)) > 0.85, (objects[0].bounds, (x, y, w, h))


def test_a_slow_callback_drops_analyses_and_never_holds_up_the_video(tmp_path, cameras):
    """Analyses due while the last is still running are dropped and counted; the video output
    beside it gets every frame."""
    import ocellus
    picture, _ = qr_picture("slow")
    unique_id = camera_showing(cameras, tmp_path, "metaslow", picture)
    video = ocellus.VideoDataOutput()
    frames = []
    video.set_frame_callback(lambda frame: frames.append(frame.sequence))
    with ocellus.Context("org.ocellus.test.metadata.slow") as context, \
            ocellus.MetadataOutput(ocellus.MetadataObjectType.CODE, max_rate=30) as output:
        session = context.capture_session()
        session.set_input(next(d for d in context.devices() if d.unique_id == unique_id))
        session.add_metadata_output(output)
        session.add_output(video)
        output.set_callback(lambda objects, timestamp: time.sleep(0.3))
        with session.running():
            time.sleep(2)
        counts = output.statistics
        output.set_callback(None)
        session.close()
    video.close()
    assert counts.dropped_frames >= 30, counts
    assert counts.analysed_frames <= 10, counts
    assert len(frames) >= 50 and sum(video.dropped_frames.values()) == 0, (len(frames), video.dropped_frames)


def test_a_missing_plugin_says_what_is_missing(monkeypatch):
    import ocellus
    monkeypatch.setenv("OCELLUS_FACES_LIB", "/nonexistent/libocellus-faces-opencv.so")
    with pytest.raises(ocellus.LibraryUnavailable, match="libocellus-faces-opencv.so"):
        ocellus.MetadataOutput(ocellus.MetadataObjectType.FACE)
    monkeypatch.setenv("OCELLUS_CODES_LIB", "/nonexistent/libocellus-codes-zxing.so")
    with pytest.raises(ocellus.LibraryUnavailable, match="zxing"):
        ocellus.MetadataOutput(ocellus.MetadataObjectType.CODE)
    monkeypatch.delenv("OCELLUS_FACES_LIB")
    with pytest.raises(ocellus.InvalidArgument, match="face model"):
        ocellus.MetadataOutput(ocellus.MetadataObjectType.FACE, face_model="/nonexistent/model.xml")
    with pytest.raises(ocellus.InvalidArgument):
        ocellus.MetadataOutput(ocellus.MetadataObjectType(0))


def test_the_cli_prints_a_line_per_delivery_then_the_summary(tmp_path, cameras):
    from skimage import data
    face_id = camera_showing(cameras, tmp_path, "metaclif", picture_with(data.astronaut()))
    result = subprocess.run([CLI, "stream", face_id, "--metadata", "faces,codes", "--frames", "30", "--json"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    *deliveries, summary = lines
    assert len(deliveries) >= 5
    for line in deliveries:
        assert set(line) == {"metadata", "event"} and line["event"] == "metadata"
        assert set(line["metadata"]) == {"timestamp_ns", "objects"}
        [face] = line["metadata"]["objects"]
        assert set(face) == {"type", "id", "bounds", "confidence"} and face["type"] == "face"
        assert len(face["bounds"]) == 4 and all(0 <= value <= 1 for value in face["bounds"])
    assert summary["event"] == "summary" and summary["frames"] == 30 and summary["metadata"]["deliveries"] == len(deliveries)
    assert summary["metadata"]["objects"] == len(deliveries)
    bad = subprocess.run([CLI, "stream", face_id, "--metadata", "hands"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "unknown metadata 'hands'" in bad.stderr


def test_an_h264_camera_is_analysed_through_its_decoder(cameras):
    """Frames between analyses still go through the H.264 decoder (later pictures refer to them):
    every analysis decodes a whole picture, none is counted corrupt — not even the frames before
    the first IDR picture when the session joins the camera's stream between two."""
    import ocellus
    cameras.add("metah264", "--formats", "H264")
    with ocellus.Context("org.ocellus.test.metadata.h264") as context, ocellus.MetadataOutput(ocellus.MetadataObjectType.CODE) as output:
        run_metadata(context, "pipewire-metah264", output, frames=60)
        counts = output.statistics
    assert counts.analysed_frames >= 10 and counts.corrupt_frames == 0, counts


def test_corrupt_frames_are_counted_and_lose_nothing_else(tmp_path, cameras):
    """A camera whose every JPEG is cut short: the analyses count them as corrupt, the session runs on
    and the video output beside still gets its frames (flagged corrupt)."""
    import ocellus
    picture, _ = qr_picture("cut short")
    path = tmp_path / "whole.jpg"
    picture.save(path, quality=92)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 3])
    cameras.add("metacut", "--formats", "MJPG", "--mjpeg-file", str(cut))
    video = ocellus.VideoDataOutput()
    frames = []
    video.set_frame_callback(lambda frame: frames.append(frame.sequence))
    with ocellus.Context("org.ocellus.test.metadata.corrupt") as context, ocellus.MetadataOutput(ocellus.MetadataObjectType.CODE) as output:
        seen = run_metadata(context, "pipewire-metacut", output, frames=45, video=video)
        counts = output.statistics
    video.close()
    assert seen == [] and counts.deliveries == 0, seen
    assert counts.corrupt_frames >= 5 and counts.analysed_frames == 0, counts
    assert len(frames) >= 30


GRACE_HOPPER = "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg"   # python3-matplotlib, which python3-skimage needs


def webcam_picture(photo, face_height, centre):
    """A 1280x720 picture (PIL) with the photograph's face `face_height` pixels high, centred at
    `centre`: a person at a desk (40% of the picture), across the room, leaning in."""
    import cv2
    from PIL import Image
    grey = cv2.equalizeHist(cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY))
    haar = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt.xml")
    x, y, w, h = max(haar.detectMultiScale(grey, 1.1, 3), key=lambda box: box[2] * box[3])
    scale = face_height / h
    scaled = Image.fromarray(photo).resize((round(photo.shape[1] * scale), round(photo.shape[0] * scale)))
    canvas = Image.new("RGB", (1280, 720), (90, 90, 90))
    canvas.paste(scaled, (round(centre[0] - (x + w / 2) * scale), round(centre[1] - (y + h / 2) * scale)))
    return canvas


def opencv_tutorial_faces(picture):
    """Faces as OpenCV's tutorial finds them (Haar alt, full resolution, steps of 10%, 3 windows), normalised."""
    import cv2
    grey = cv2.equalizeHist(cv2.cvtColor(np.asarray(picture), cv2.COLOR_RGB2GRAY))
    haar = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt.xml")
    return [(x / 1280, y / 720, w / 1280, h / 720) for x, y, w, h in haar.detectMultiScale(grey, 1.1, 3)]


@pytest.mark.parametrize("name", ["grace_hopper", "astronaut"])
def test_faces_the_size_a_webcam_frames_them_are_found(tmp_path, cameras, name):
    """Real photographs framed as a 1280x720 webcam frames a person, the face from a seventh of the
    picture's height to most of it at several positions: each face is found in nearly every
    analysis, where OpenCV's tutorial detector finds it (the LBP default before found the face 40%
    of the picture high in 0 of 31 analyses)."""
    import cv2
    import ocellus
    from skimage import data
    photo = cv2.cvtColor(cv2.imread(GRACE_HOPPER), cv2.COLOR_BGR2RGB) if name == "grace_hopper" else data.astronaut()
    for height, centre in [(110, (640, 360)), (189, (420, 330)), (223, (880, 380)), (285, (640, 360)), (430, (600, 380)),
                           (620, (640, 360))]:
        picture = webcam_picture(photo, height, centre)
        [truth] = opencv_tutorial_faces(picture)
        unique_id = camera_showing(cameras, tmp_path, f"webcam{name[:5]}{height}", picture)
        with ocellus.Context("org.ocellus.test.metadata.sizes") as context, \
                ocellus.MetadataOutput(ocellus.MetadataObjectType.FACE) as output:
            seen = run_metadata(context, unique_id, output, frames=30)
            counts = output.statistics
        found = [objects for objects, _ in seen if any(iou(face.bounds, truth) > 0.4 for face in objects)]
        assert counts.analysed_frames >= 5, counts
        assert len(found) >= 0.8 * counts.analysed_frames, \
            f"a face {height} px high at {centre}: found in {len(found)} of {counts.analysed_frames} analyses ({seen[:2]})"
