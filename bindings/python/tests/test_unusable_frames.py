"""Frames Ocellus cannot use (issue 46), on the real PipeWire test bed: a camera whose every JPEG
is cut short must end a stream with a reason instead of streaming nothing for ever, count what
it dropped, and never become a photo; a producer whose buffers fall short of the format it
agreed (what another app renegotiating the camera leaves) must never be read past."""

import json
import os
import subprocess
import time

from PIL import Image

CLI = os.environ.get("OCELLUS_CLI", "ocellus")


def cut_camera(cameras, tmp_path, name):
    """A camera whose every MJPEG frame is a real JPEG cut to a third: a readable header, no picture."""
    whole = tmp_path / "whole.jpg"
    Image.new("RGB", (320, 240), (40, 120, 200)).save(whole, "JPEG", quality=90)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 3])
    cameras.add(name, "--formats", "MJPG", "--sizes", "320x240", "--fps", "30", "--mjpeg-file", str(cut))
    return f"pipewire-{name}"


def test_a_camera_whose_every_jpeg_is_corrupt_ends_the_stream_with_a_reason(cameras, tmp_path):
    camera = cut_camera(cameras, tmp_path, "cutall")
    began = time.monotonic()
    # --frames N: corrupt frames never count, so only the first-frame deadline ends it.
    run = subprocess.run([CLI, "stream", camera, "--format", "NV12", "--frames", "5", "--json"],
                         capture_output=True, text=True, timeout=60)
    took = time.monotonic() - began
    assert run.returncode == 1, run
    assert "could be decoded" in run.stderr and camera in run.stderr, run.stderr
    assert took < 15, f"{took:.1f} s to give up"
    # A run shorter than the deadline: the summary counts the corrupt frames, and it still fails.
    run = subprocess.run([CLI, "stream", camera, "--format", "BGRA", "--seconds", "2", "--json"],
                         capture_output=True, text=True, timeout=60)
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert run.returncode == 1 and "could be decoded" in run.stderr, run
    assert summary["frames"] == 0 and summary["corrupt"] >= 20 and summary["dropped"] >= summary["corrupt"], summary


def test_a_corrupt_camera_jpeg_never_becomes_a_photo(cameras, tmp_path):
    camera = cut_camera(cameras, tmp_path, "cutsnap")
    photo = tmp_path / "photo.jpg"
    began = time.monotonic()
    run = subprocess.run([CLI, "snap", camera, "-o", str(photo)], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and not photo.exists(), run
    assert "could be decoded" in run.stderr, run.stderr
    assert time.monotonic() - began < 15


def test_buffers_short_of_their_format_are_dropped_not_read(cameras):
    """The virtual camera agrees 640x480 YUYV and sends a quarter of each frame: every frame is
    dropped as corrupt (never read past), and the stream ends with a reason."""
    cameras.add("shortbuf", "--formats", "YUY2", "--sizes", "640x480", "--fps", "30", "--short-frames")
    for pixel_format in ("I420", "BGRA"):
        run = subprocess.run([CLI, "stream", "pipewire-shortbuf", "--format", pixel_format, "--seconds", "2", "--json"],
                             capture_output=True, text=True, timeout=60)
        summary = json.loads(run.stdout.strip().splitlines()[-1])
        assert run.returncode == 1, run
        assert summary["frames"] == 0 and summary["corrupt"] >= 20, summary
