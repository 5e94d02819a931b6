"""The `ocellus` command line: its commands, JSON shapes (a public contract) and errors."""

import json
import os
import queue
import subprocess
import threading
import time

from cli_watch import start_watch
from photo_checks import assert_valid_exif

CLI = os.environ.get("OCELLUS_CLI", "ocellus")


def run(*args, check=True):
    return subprocess.run([CLI, *args], capture_output=True, text=True, check=check, timeout=30)


def test_version():
    assert run("version").stdout.startswith("ocellus 0.")


def test_list_json_shape():
    devices = json.loads(run("--app-id", "org.ocellus.test.cli", "list", "--json").stdout)
    assert [d["type"] for d in devices][-1] == "microphone"
    camera = next(d for d in devices if d["unique_id"] == "usb-1d6b:0110-VCAM-0000")
    assert list(camera)[:7] == ["unique_id", "name", "type", "position", "backend", "connected", "formats"]
    # Added in 0.2 after the original keys: what other tools call the device by.
    assert (camera["vendor_id"], camera["product_id"], camera["serial"]) == ("1d6b", "0110", "VCAM-0000")
    assert camera["v4l2_nodes"] == ["/dev/video40"] and isinstance(camera["pipewire_serial"], int)
    assert camera["type"] == "external_camera" and camera["position"] == "unspecified"
    assert camera["backend"] == "pipewire" and camera["connected"] is True
    assert camera["formats"][0] == {"pixel_format": "YUYV", "width": 640, "height": 480, "frame_rates": [30, 15]}


def test_list_table_names_every_device():
    table = run("list").stdout
    assert table.splitlines()[0].split()[:4] == ["#", "TYPE", "POSITION", "BACKEND"]
    for unique_id in ("usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001", "pipewire-vmic0"):
        assert unique_id in table


def read_line(process, timeout=10):
    """The next JSON line of `process`; its lines are read by a thread, since several lines can
    arrive in one read (select() on the pipe would not see the ones already buffered)."""
    if not hasattr(process, "lines"):
        process.lines = queue.Queue()
        threading.Thread(target=lambda: [process.lines.put(line) for line in process.stdout], daemon=True).start()
    try:
        return json.loads(process.lines.get(timeout=timeout))
    except queue.Empty:
        raise AssertionError("no output in time") from None


def test_watch_json_lists_the_devices_present_then_changes(cameras):
    present = [d["unique_id"] for d in json.loads(run("list", "--json").stdout)]
    watcher = subprocess.Popen([CLI, "watch", "--json"], stdout=subprocess.PIPE, text=True)
    try:
        initial = [read_line(watcher) for _ in present]
        assert [(e["event"], e["device"]["unique_id"], e["initial"]) for e in initial] == [
            ("added", unique_id, True) for unique_id in present]
        cameras.add("cliwatch")
        added = read_line(watcher)
        assert added["event"] == "added" and added["device"]["unique_id"] == "pipewire-cliwatch"
        assert added["device"]["type"] == "virtual_camera" and "initial" not in added
        cameras.remove("cliwatch")
        removed = read_line(watcher)
        assert removed["event"] == "removed" and removed["device"]["connected"] is False
    finally:
        watcher.terminate()
        assert watcher.wait(5) == 0


def test_watch_changes_only_skips_the_devices_present(cameras):
    watcher = start_watch(CLI, "watch", "--json", "--changes-only")
    try:
        cameras.add("clichanges")
        added = read_line(watcher)
        assert (added["event"], added["device"]["unique_id"]) == ("added", "pipewire-clichanges") and "initial" not in added
    finally:
        watcher.terminate()
        assert watcher.wait(5) == 0
        cameras.remove("clichanges")


def test_watch_exits_with_an_error_when_the_daemon_dies(private_daemon):
    watcher = start_watch(CLI, "--pipewire-remote", private_daemon.remote, "watch", "--json", "--changes-only",
                          stderr=subprocess.PIPE)
    private_daemon.kill_daemon()
    assert watcher.wait(5) == 1
    removed = json.loads(watcher.stdout.readline())
    assert removed["event"] == "removed" and removed["device"]["unique_id"] == "usb-1d6b:0110-VCAM-0000"
    assert "went away" in watcher.stderr.read()


def test_errors_are_one_line_and_non_zero():
    unreachable = run("--pipewire-remote", "/nonexistent/pw", "list", check=False)
    assert unreachable.returncode == 1
    assert unreachable.stderr.count("\n") == 1 and "/nonexistent/pw" in unreachable.stderr
    bad_app = run("--app-id", "../x", "list", check=False)
    assert bad_app.returncode == 2 and "app ID" in bad_app.stderr and bad_app.stderr.count("\n") == 1   # a usage error
    usage = run("frobnicate", check=False)
    assert usage.returncode == 2 and usage.stderr.count("\n") == 1


def test_watch_refuses_a_ready_descriptor_that_is_not_open():
    result = run("watch", "--ready-fd", "99", check=False)
    assert result.returncode == 2 and "--ready-fd" in result.stderr


def test_virtual_camera_rejects_bad_arguments():
    for args in (["--formats", "NOPE"], ["--sizes", "12"], ["--fps", "0"], ["--prop", "novalue"]):
        result = run("virtual-camera", *args, check=False)
        assert result.returncode == 2 and result.stderr.startswith("ocellus: ")


def test_stream_json_is_one_summary_object():
    result = run("stream", "usb-1d6b:0110-VCAM-0000", "--format", "NV12", "--size", "320x240", "--frames", "15", "--json")
    summary = json.loads(result.stdout)   # exactly one object: the whole of stdout
    assert list(summary) == ["frames", "dropped", "fps", "pixel_format", "width", "height", "latency_ms", "corrupt", "event"]
    assert summary["corrupt"] == 0
    assert (summary["frames"], summary["pixel_format"], summary["width"], summary["height"]) == (15, "NV12", 320, 240)
    assert 10 < summary["fps"] < 45 and summary["dropped"] >= 0
    assert 0 <= summary["latency_ms"]["median"] <= summary["latency_ms"]["p99"] < 1000


def test_stream_of_several_cameras_is_one_summary_of_all():
    """Two cameras in one run: a summary object per camera, the USB cost (the test bed's virtual
    cameras are on no bus: none), no fallback; a camera named twice, or one that is not there, is refused."""
    result = run("stream", "usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001", "--format", "NV12", "--size", "320x240",
                 "--frames", "15", "--json")
    summary = json.loads(result.stdout)
    assert list(summary) == ["cameras", "hardware_cost", "fallbacks", "event"]
    assert [list(camera) for camera in summary["cameras"]] == [["unique_id", "frames", "dropped", "fps", "pixel_format", "width", "height"]] * 2
    assert [camera["unique_id"] for camera in summary["cameras"]] == ["usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001"]
    assert all((c["frames"], c["pixel_format"], c["width"], c["height"]) == (15, "NV12", 320, 240) and 10 < c["fps"] < 45
               for c in summary["cameras"]), summary
    assert summary["hardware_cost"] == {"total": 0, "buses": []} and summary["fallbacks"] == []
    text = run("stream", "usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001", "--frames", "5").stdout.splitlines()
    assert [line.split(":")[0] for line in text[-2:]] == ["usb-1d6b", "usb-1d6b"] and " 5 frames" in text[-1], text
    twice = run("stream", "usb-1d6b:0110-VCAM-0000", "0", "--frames", "5", check=False)
    assert twice.returncode == 2 and "named twice" in twice.stderr
    missing = run("stream", "usb-1d6b:0110-VCAM-0000", "nosuch", "--frames", "5", check=False)
    assert missing.returncode == 1 and "nosuch" in missing.stderr
    one_only = run("stream", "0", "1", "--depth", check=False)
    assert one_only.returncode == 2 and "one camera" in one_only.stderr


def test_stream_of_two_cameras_synchronized_counts_pairs():
    """--synchronized: the two cameras' frames in pairs by capture time; the run ends at --frames pairs."""
    summary = json.loads(run("stream", "usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001", "--synchronized",
                             "--format", "GRAY8", "--size", "320x240", "--frames", "20", "--json").stdout)
    assert list(summary) == ["cameras", "hardware_cost", "fallbacks", "pairs", "unmatched", "event"]
    assert summary["pairs"] == 20 and [c["frames"] for c in summary["cameras"]] == [20, 20], summary
    assert 0 <= summary["unmatched"] <= 4, "two cameras at one rate: nearly every frame finds its partner"
    alone = run("stream", "0", "--synchronized", "--frames", "3", check=False)
    assert alone.returncode == 2 and "two cameras" in alone.stderr


def test_stream_for_seconds_with_live_stats():
    started = time.monotonic()
    result = run("stream", "usb-1d6b:0110-VCAM-0000", "--seconds", "2.5")
    assert 2.4 < time.monotonic() - started < 15
    lines = result.stdout.splitlines()
    assert lines[0].startswith("streaming YUYV 1920x1080")   # the high preset
    assert any(" fps, " in line and "latency median" in line for line in lines[1:-1]), lines   # the live line
    frames = int(lines[-1].split()[0])
    assert 40 <= frames <= 90


def test_snap_writes_a_jpeg_with_exif(tmp_path):
    path = tmp_path / "photo.jpg"
    summary = json.loads(run("snap", "usb-1d6b:0110-VCAM-0000", "-o", str(path), "--json").stdout)
    assert list(summary) == ["path", "bytes", "width", "height", "duration", "orientation", "exif_orientation", "event"]
    data = path.read_bytes()
    assert summary["path"] == str(path) and summary["bytes"] == len(data)
    assert (summary["width"], summary["height"], summary["orientation"]) == (1920, 1080, 1)   # photo preset: the largest
    assert data[:2] == b"\xff\xd8" and b"Exif\x00\x00" in data[:64]
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height,codec_name", "-of", "json", str(path)],
                           capture_output=True, text=True, check=True)
    assert json.loads(probe.stdout)["streams"][0] == {"codec_name": "mjpeg", "width": 1920, "height": 1080}
    assert_valid_exif(path, 1920, 1080)



def test_every_json_line_says_what_it_is_in_one_vocabulary(tmp_path, microphones):
    """Issue 52.3: frame, metadata and summary lines each carry "event"; a key means one thing in
    every command, and the older keys stay beside the new ones with the same values."""
    lines = [json.loads(line) for line in run("stream", "0", "--frames", "3", "--frame-events").stdout.splitlines()]
    assert [line["event"] for line in lines] == ["frame"] * 3 + ["summary"]
    snap = json.loads(run("snap", "0", "-o", str(tmp_path / "p.jpg"), "--size", "640x480", "--json").stdout)
    assert snap["event"] == "summary" and snap["exif_orientation"] == snap["orientation"] and 1 <= snap["orientation"] <= 8
    record = json.loads(run("record", "0", "-o", str(tmp_path / "m.mp4"), "--seconds", "1", "--size", "320x240", "--json").stdout)
    assert record["event"] == "summary" and record["rotation_degrees"] == record["orientation"] in (0, 90, 180, 270)
    microphones.add("vocab0")
    listen = json.loads(run("listen", "pipewire-vocab0", "-o", str(tmp_path / "s.wav"), "--seconds", "1", "--json").stdout)
    assert listen["event"] == "summary" and listen["path"] == listen["file"] == str(tmp_path / "s.wav")
    assert (listen["duration"], listen["audio_frames"], listen["dropped_audio_frames"]) == (listen["seconds"], listen["frames"], listen["dropped"])
    assert listen["audio_frames"] > 0


def test_snap_errors(tmp_path):
    unwritable = run("snap", "usb-1d6b:0110-VCAM-0000", "-o", str(tmp_path / "missing" / "x.jpg"), check=False)
    assert unwritable.returncode == 1 and "cannot write" in unwritable.stderr
    assert not (tmp_path / "missing").exists()
    unknown = run("snap", "no-such-camera", "-o", str(tmp_path / "x.jpg"), check=False)
    assert unknown.returncode == 1 and "no connected device" in unknown.stderr
    assert run("snap", "usb-1d6b:0110-VCAM-0000", check=False).returncode == 2   # no -o


def test_prefer_fails_when_the_choice_cannot_be_saved(tmp_path):
    # A state directory others can write is refused: the choice would be lost at exit, so `prefer` fails.
    state = tmp_path / "shared-state"
    state.mkdir()
    state.chmod(0o777)
    done = run("--state-dir", str(state), "prefer", "usb-1d6b:0110-VCAM-0000", check=False)
    assert done.returncode != 0
    assert "can be written by others" in done.stderr and "kept in memory only" in done.stderr
    private = tmp_path / "private-state"
    assert run("--state-dir", str(private), "prefer", "usb-1d6b:0110-VCAM-0000").returncode == 0
    preferred = json.loads(run("--state-dir", str(private), "preferred", "--json").stdout)
    assert preferred["user_preferred"]["unique_id"] == "usb-1d6b:0110-VCAM-0000"


def test_a_selection_file_cut_mid_line_is_reported_not_obeyed(tmp_path):
    state = tmp_path / "state"
    run("--state-dir", str(state), "--app-id", "org.ocellus.test.cut", "prefer", "usb-1d6b:0111-VCAM-0001")
    selection = state / "org.ocellus.test.cut.selection"
    text = selection.read_bytes()
    cut = text.index(b"usb-1d6b:0111-VCAM-0001") + len(b"usb-1d6b:0111-VCA")   # the ID of another "camera"
    selection.write_bytes(text[:cut])
    done = run("--state-dir", str(state), "--app-id", "org.ocellus.test.cut", "preferred", "--json")
    assert "corrupt" in done.stderr and "cut short" in done.stderr
    assert list(state.glob("org.ocellus.test.cut.selection.corrupt-*"))


def test_a_camera_by_index_node_name_or_nothing():
    devices = json.loads(run("list", "--json").stdout)
    index = next(i for i, d in enumerate(devices) if d["unique_id"] == "usb-1d6b:0110-VCAM-0000")
    for spec in (str(index), "/dev/video40", "virtual camera 0", "usb-1d6b:0110-VCAM-0000"):
        summary = json.loads(run("stream", spec, "--frames", "2", "--json").stdout)
        assert summary["frames"] == 2, spec
    assert json.loads(run("stream", "--frames", "2", "--json").stdout)["frames"] == 2   # the system preferred camera
    ambiguous = run("stream", "virtual camera", "--frames", "1", check=False)
    assert ambiguous.returncode == 1 and "could mean" in ambiguous.stderr and "VCAM-0001" in ambiguous.stderr
    missing = run("stream", "99", "--frames", "1", check=False)
    assert missing.returncode == 1 and "there is no device 99" in missing.stderr
    table = run("list").stdout.splitlines()
    assert table[index + 1].split()[0] == str(index)   # the # column is what commands take


def test_version_flag_and_help_per_command():
    assert run("--version").stdout == run("version").stdout
    for command in ("list", "stream", "snap", "record", "prefer", "controls"):
        help_text = run(command, "--help").stdout
        assert help_text.startswith("usage: ocellus ") and f" {command}" in help_text.splitlines()[0], command
        assert "virtual-camera" not in help_text, command   # only that command's part
    assert "CAMERA is a unique ID" in run("stream", "--help").stdout
    assert run("bogus", "--help", check=False).returncode == 2
    # The command's options as its man page gives them, and `help COMMAND` says the same.
    stream_help = run("stream", "--help").stdout
    assert "\noptions:\n  --format NAME\n" in stream_help and "  --synchronized\n      With two cameras" in stream_help
    assert all(len(line) <= 80 for line in stream_help.split("\noptions:\n")[1].splitlines())
    assert run("help", "stream").stdout == stream_help
    assert run("help", "bogus", check=False).returncode == 2


def test_usage_mistakes_exit_2_before_anything_runs(tmp_path):
    """Issue 52.9: the exit status the man page gives usage errors, for values the library
    refuses too, and flags the synopsis marks exclusive."""
    for args in (["stream", "--frames", "3", "--seconds", "1"],
                 ["stream", "--json", "--frame-events"], ["record", "-o", str(tmp_path / "clip.avi"), "--seconds", "1"],
                 ["--app-id", "bad id", "list"], ["--app-id", "", "list"]):
        result = run(*args, check=False)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, (args, result.stderr)
    assert not (tmp_path / "clip.avi").exists()


def test_stream_output_pipes_raw_frames_into_ffmpeg(tmp_path):
    # Rows without padding, as ffmpeg's rawvideo reads them; messages move to stderr.
    done = subprocess.run([CLI, "stream", "usb-1d6b:0110-VCAM-0000", "--format", "I420", "--size", "320x240",
                           "--frames", "5", "--json", "--output", "-"], capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) == 5 * 320 * 240 * 3 // 2
    assert json.loads(done.stderr.decode().strip().splitlines()[-1])["frames"] == 5
    raw = tmp_path / "frames.yuv"
    raw.write_bytes(done.stdout)
    decoded = subprocess.run(["ffmpeg", "-v", "error", "-f", "rawvideo", "-pixel_format", "yuv420p", "-video_size", "320x240",
                              "-i", str(raw), "-f", "null", "-"], capture_output=True, text=True)
    assert decoded.returncode == 0, decoded.stderr
    path = tmp_path / "bgr.raw"
    run("stream", "usb-1d6b:0110-VCAM-0000", "--format", "BGR24", "--size", "320x240", "--frames", "3", "--output", str(path))
    assert path.stat().st_size == 3 * 320 * 240 * 3


def test_a_format_nobody_makes_is_named_as_such():
    # NV21 passed as a four-letter code and got "a size must keep a format's aspect ratio".
    result = subprocess.run([os.environ.get("OCELLUS_CLI", "ocellus"), "stream", "--format", "nv21", "--frames", "1"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and "cannot give nv21" in result.stderr.lower() and "aspect ratio" not in result.stderr, result.stderr


def test_list_and_stream_work_without_home():
    # The state directory comes from the password database when HOME is unset (services, env -i).
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_STATE_HOME", "OCELLUS_STATE_DIR")}
    cli = os.environ.get("OCELLUS_CLI", "ocellus")
    assert subprocess.run([cli, "list"], env=env, capture_output=True, timeout=30).returncode == 0
    assert subprocess.run([cli, "stream", "--frames", "3"], env=env, capture_output=True, timeout=30).returncode == 0


def test_a_state_home_that_is_not_utf8_is_an_error_not_another_directory(tmp_path):
    # Swift strings repair bad bytes: /tmp/x/caf\xe9 became /tmp/x/caf\ufffd, another directory.
    env = {k: v for k, v in os.environ.items() if k != "OCELLUS_STATE_DIR"}
    env = {os.fsencode(k): os.fsencode(v) for k, v in env.items()}
    env[b"XDG_STATE_HOME"] = os.fsencode(tmp_path) + b"/caf\xe9"
    result = subprocess.run([os.environ.get("OCELLUS_CLI", "ocellus"), "prefer", "usb-1d6b:0110-VCAM-0000"], env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and "XDG_STATE_HOME is not valid UTF-8" in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written anywhere else
