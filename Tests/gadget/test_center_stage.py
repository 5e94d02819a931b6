"""Center Stage through the real uvcvideo: a gadget camera (640x480) films a photographed face
(scikit-image's astronaut) that the test moves across the room halfway through the stream
(testbed/usb-gadget/scene.c reads its scene again when it changes). Where the face is in what
the session delivers is judged by scikit-image's cascade, an independent detector."""

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gadgets import Format, Function, Gadget, write_scene  # noqa: E402
from client import CLI, wait_for  # noqa: E402

WIDTH, HEIGHT = 640, 480
OUT_WIDTH, OUT_HEIGHT = 320, 240
FOCUS = 60   # subject and background alike: the camera's own autofocus keeps the face sharp
CAMERA = "usb-1d6b:0104-STAGE001"


def room(photo_left):
    """Radiances: the astronaut (240 pixels square) with its left edge at `photo_left`, in front
    of an evenly lit wall a little darker than the photograph (so the camera's own exposure,
    metering the whole picture, leaves the face its contrast)."""
    from PIL import Image
    from skimage import data
    size = 240
    photo = np.asarray(Image.fromarray(data.astronaut()).convert("L").resize((size, size)), dtype=np.float32) / 255
    radiance = np.full((HEIGHT, WIDTH), 0.45, dtype=np.float32)
    radiance[200:200 + size, photo_left:photo_left + size] = photo * 1.4
    return radiance


def face_centre(grey, cascade=[]):
    """(x, y) of the largest face scikit-image finds, in 0…1 of the picture, or None."""
    from skimage import data
    from skimage.feature import Cascade
    if not cascade:   # read once: the emulated guest is slow
        cascade.append(Cascade(data.lbp_frontal_face_cascade_filename()))
    height, width = grey.shape
    found = cascade[0].detect_multi_scale(
        img=grey.astype(np.float64) / 255, scale_factor=1.2, step_ratio=1, min_size=(30, 30), max_size=(130, 130))
    if not found:
        return None
    face = max(found, key=lambda f: f["width"])
    return (face["c"] + face["width"] / 2) / width, (face["r"] + face["height"] / 2) / height


def face_in_view(line):
    """The x centre of the largest face in one metadata line of the stream (framed picture), or None."""
    faces = [o for o in line.get("metadata", {}).get("objects", []) if o["type"] == "face"]
    if not faces:
        return None
    x, _, w, _ = max(faces, key=lambda face: face["bounds"][2])["bounds"]
    return x + w / 2


class Stream:
    """`ocellus stream` running, its JSON lines read as they come. The emulated guest analyses a
    picture in about two seconds, so the test moves on when the app's own metadata output (which
    searches the framed pictures) says the window has settled, not after a fixed time."""

    def __init__(self, args):
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines, self.changed = [], threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for text in self.process.stdout:
            with self.changed:
                self.lines.append(json.loads(text))
                self.changed.notify_all()

    def wait_for_faces(self, predicate, count, timeout):
        """Waits until `count` metadata deliveries in a row after now show a face whose centre passes `predicate`."""
        start = len(self.lines)
        def run():
            centres = [face_in_view(line) for line in self.lines[start:] if "metadata" in line]
            return len(centres) >= count and all(c is not None and predicate(c) for c in centres[-count:])
        with self.changed:
            assert self.changed.wait_for(run, timeout), f"faces seen: {[face_in_view(l) for l in self.lines[start:]]}"

    def finish(self):
        self.process.send_signal(signal.SIGINT)   # ends the stream as Ctrl-C does: the summary follows
        self.process.wait(timeout=60)
        self.reader.join(10)   # every line read, the summary last
        assert self.process.returncode == 0, self.process.stderr.read()
        return self.lines


def test_a_face_walking_across_the_room_stays_centred(tmp_path):
    scene = write_scene(tmp_path / "room.scene", room(100), FOCUS, FOCUS)
    functions = [Function([Format("YUYV", [(WIDTH, HEIGHT)])])]
    frame_bytes = OUT_WIDTH * OUT_HEIGHT
    path = tmp_path / "frames.grey"
    def frames_so_far():
        return path.stat().st_size // frame_bytes if path.exists() else 0
    with Gadget("stagecam", serial="STAGE001", functions=functions, scene=scene).plug(0):
        # 10 frames a second keep the recording small; the window moves on the frames' timestamps.
        stream = Stream([CLI, "stream", CAMERA, "--format", "GRAY8", "--size", f"{OUT_WIDTH}x{OUT_HEIGHT}",
                         "--fps", "10", "--seconds", "180", "--json", "--output", str(path), "--center-stage",
                         "--no-face-exposure", "--no-face-focus", "--metadata", "faces"])
        try:
            # The window settles on the face: three analyses in a row find it in the middle.
            stream.wait_for_faces(lambda x: abs(x - 0.5) < 0.1, 3, timeout=120)
            settled_at = frames_so_far()
            wait_for(lambda: frames_so_far() >= settled_at + 25, timeout=30, what="frames of the settled window")
            # Then the person walks to the other side of the room…
            moved_at = frames_so_far()
            write_scene(scene, room(340), FOCUS, FOCUS)
            # …and the window follows until the face is in the middle again (counted from analyses
            # of frames after the move: three seconds of them, longer than one analysis takes).
            wait_for(lambda: frames_so_far() >= moved_at + 30, timeout=30, what="frames after the move")
            stream.wait_for_faces(lambda x: abs(x - 0.5) < 0.1, 3, timeout=120)
            settled_again_at = frames_so_far()
            wait_for(lambda: frames_so_far() >= settled_again_at + 25, timeout=30, what="frames of the window settled again")
            lines = stream.finish()
        finally:
            stream.process.kill()
    summary = lines[-1]
    print("summary:", summary)
    frames = np.frombuffer(path.read_bytes(), dtype=np.uint8)
    frames = frames[:len(frames) // frame_bytes * frame_bytes].reshape(-1, OUT_HEIGHT, OUT_WIDTH)
    # Every fifth frame while settled and around the move, every tenth elsewhere (the emulated guest detects slowly).
    # Every frame from the move until the window settled again: the moment the face is off-centre is short.
    sampled = sorted(set(range(0, len(frames), 10)) | set(range(settled_at, moved_at, 5))
                     | set(range(moved_at, settled_again_at)) | set(range(settled_again_at, len(frames), 5)))
    centres = {index: face_centre(frames[index]) for index in sampled}
    print(f"settled at frame {settled_at}, moved at {moved_at}, settled again at {settled_again_at} of {len(frames)}; "
          "face x by frame:", {index: round(c[0], 2) if c else None for index, c in centres.items()})
    before = [c for index, c in centres.items() if settled_at <= index < moved_at]
    after = [c for index, c in centres.items() if index >= settled_again_at]
    # The independent detector agrees: centred while settled, before the move and after it.
    assert before and all(c and abs(c[0] - 0.5) < 0.12 and abs(c[1] - 0.5) < 0.15 for c in before), before
    assert after and all(c and abs(c[0] - 0.5) < 0.12 and abs(c[1] - 0.5) < 0.15 for c in after), after
    # In between the face was off-centre (as far as "centred" allows, or out of the picture, which it
    # never was while settled): the scene moved, and the window followed it.
    assert any(c is None or abs(c[0] - 0.5) >= 0.12 for index, c in centres.items() if moved_at <= index < settled_again_at), centres
    stage = summary["center_stage"]
    assert stage["active"] and stage["window"][0] > 0.3, stage   # the window went to the right
    assert stage["window"][2] >= 0.5 - 1e-3, "never past the camera's resolution: 320 of 640 pixels at least"
    # The app's metadata output searched the framed picture: its last face is in the middle too.
    faces = [o for line in lines[:-1] for o in line["metadata"]["objects"] if o["type"] == "face"]
    x, y, w, h = faces[-1]["bounds"]
    assert abs(x + w / 2 - 0.5) < 0.12, faces[-1]
