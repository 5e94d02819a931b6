"""The `ocellus` command line: its commands, JSON shapes (a public contract) and errors."""

import json
import os
import select
import subprocess
import time

CLI = os.environ.get("OCELLUS_CLI", "ocellus")


def run(*args, check=True):
    return subprocess.run([CLI, *args], capture_output=True, text=True, check=check, timeout=30)


def test_version():
    assert run("version").stdout.startswith("ocellus 0.")


def test_list_json_shape():
    devices = json.loads(run("--app-id", "org.ocellus.test.cli", "list", "--json").stdout)
    assert [d["type"] for d in devices][-1] == "microphone"
    camera = next(d for d in devices if d["unique_id"] == "usb-1d6b:0110-VCAM-0000")
    assert list(camera) == ["unique_id", "name", "type", "position", "backend", "connected", "formats"]
    assert camera["type"] == "external_camera" and camera["position"] == "unspecified"
    assert camera["backend"] == "pipewire" and camera["connected"] is True
    assert camera["formats"][0] == {"pixel_format": "YUYV", "width": 640, "height": 480, "frame_rates": [30, 15]}


def test_list_table_names_every_device():
    table = run("list").stdout
    assert table.splitlines()[0].split()[:3] == ["TYPE", "POSITION", "BACKEND"]
    for unique_id in ("usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001", "pipewire-vmic0"):
        assert unique_id in table


def read_line(process, timeout=10):
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    assert ready, "no output in time"
    return json.loads(process.stdout.readline())


def test_watch_json_reports_added_and_removed(cameras):
    watcher = subprocess.Popen([CLI, "watch", "--json"], stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.3)  # let it connect before plugging
        cameras.add("cliwatch")
        added = read_line(watcher)
        assert added["event"] == "added" and added["device"]["unique_id"] == "pipewire-cliwatch"
        assert added["device"]["type"] == "virtual_camera"
        cameras.remove("cliwatch")
        removed = read_line(watcher)
        assert removed["event"] == "removed" and removed["device"]["connected"] is False
    finally:
        watcher.terminate()
        assert watcher.wait(5) == 0


def test_watch_exits_with_an_error_when_the_daemon_dies(private_daemon):
    watcher = subprocess.Popen([CLI, "--pipewire-remote", private_daemon.remote, "watch", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.3)
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
    assert bad_app.returncode == 1 and "app ID" in bad_app.stderr and bad_app.stderr.count("\n") == 1
    usage = run("frobnicate", check=False)
    assert usage.returncode == 2 and usage.stderr.count("\n") == 1


def test_virtual_camera_rejects_bad_arguments():
    for args in (["--formats", "NOPE"], ["--sizes", "12"], ["--fps", "0"], ["--prop", "novalue"]):
        result = run("virtual-camera", *args, check=False)
        assert result.returncode == 2 and result.stderr.startswith("ocellus: ")
