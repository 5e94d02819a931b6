#!/usr/bin/env python3
"""`make soak` (not part of `make test`): the failures of the world, many times over, with the
process's file descriptors, threads and resident memory compared before and after.

  1. unplug/replug while streaming (CYCLES, default 200): a camera is plugged, streamed from,
     killed; the session must report the loss, and the next camera must stream again;
  2. SIGKILL mid-recording (KILLS, default 20, half of them with sound): `ocellus record` is
     killed at a random moment; every file must still play (ffprobe counts its frames);
  3. the daemon killed mid-stream (DAEMONS, default 10): a private PipeWire dies under a
     streaming session; the session must report it and the context must close cleanly.

Runs inside scripts/testbed.sh. Prints one line per phase and "N passed, N failed".
"""
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
import ocellus  # noqa: E402
from ocellus import SessionEvent, VideoDataOutput  # noqa: E402

TESTBED = ROOT / "scripts" / "testbed.sh"
CLI = os.environ.get("OCELLUS_CLI", "ocellus")
DIRECTORY = os.environ["OCELLUS_TESTBED_DIR"]


def resources():
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return {"fds": len(os.listdir("/proc/self/fd")), "threads": len(os.listdir("/proc/self/task")),
            "rss_kb": int(status["VmRSS"].split()[0])}


def growth(before, after):
    return {key: after[key] - before[key] for key in before}


def stream_until_lost(context, unique_id, lose):
    """Streams `unique_id` until 3 frames arrived, calls `lose()`, and waits for the runtime error."""
    device = next(d for d in context.devices() if d.unique_id == unique_id)
    session = context.capture_session()
    output = VideoDataOutput()
    frames, lost = threading.Semaphore(0), threading.Event()
    output.set_frame_callback(lambda frame: frames.release())
    session.add_event_callback(lambda event, message: event is SessionEvent.RUNTIME_ERROR and lost.set())
    session.set_input(device)
    session.add_output(output)
    session.start_running()
    try:
        for _ in range(3):
            if not frames.acquire(timeout=10):
                return "no frames"
        started = time.monotonic()
        lose()
        if not lost.wait(10):
            return "no runtime error after the loss"
        return time.monotonic() - started
    finally:
        session.close()
        output.close()


def wait_for_device(context, unique_id, present, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(d.unique_id == unique_id for d in context.devices()) == present:
            return True
        time.sleep(0.01)
    return False


def unplug_cycles(count):
    failures, latencies = [], []
    with ocellus.Context("org.ocellus.soak") as context:
        before = None
        for cycle in range(count):
            subprocess.run([str(TESTBED), "add-camera", DIRECTORY, "soakcam", "--sizes", "320x240", "--fps", "30"],
                           check=True, stdout=subprocess.DEVNULL)
            if not wait_for_device(context, "pipewire-soakcam", True):
                failures.append(f"cycle {cycle}: the camera never appeared")
                continue
            result = stream_until_lost(context, "pipewire-soakcam", lambda: subprocess.run(
                [str(TESTBED), "remove-camera", DIRECTORY, "soakcam", "KILL"], check=True))
            if isinstance(result, str):
                failures.append(f"cycle {cycle}: {result}")
            else:
                latencies.append(result)
            wait_for_device(context, "pipewire-soakcam", False)
            if cycle == 9:
                before = resources()   # after a warm-up: caches and thread pools are in place
        after = resources()
    return failures, latencies, before, after


def kills_mid_recording(count):
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(count):
            path = os.path.join(scratch, f"kill{index}.mp4")
            sound = ["--audio", "pipewire-vmic0"] if index % 2 else []
            recorder = subprocess.Popen([CLI, "record", "usb-1d6b:0110-VCAM-0000", "-o", path, "--size", "640x480", *sound],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(random.uniform(2.5, 5.0))   # a SIGKILL loses about the last fragment (1 s)
            recorder.send_signal(signal.SIGKILL)
            recorder.wait()
            probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                    "stream=nb_read_frames", "-of", "csv=p=0", path], capture_output=True, text=True)
            text = probe.stdout.strip()
            frames = int(text) if probe.returncode == 0 and text.isdigit() else 0
            if frames < 15:
                failures.append(f"kill {index}{' with sound' if sound else ''}: {frames} playable frames "
                                f"({os.path.getsize(path) if os.path.exists(path) else 0} bytes) {probe.stderr.strip()[:200]}")
    return failures


def daemon_kills(count):
    failures = []
    before = None
    for index in range(count):
        output = subprocess.run([str(TESTBED), "start", "--cameras", "1", "--mics", "0"], check=True,
                                capture_output=True, text=True).stdout
        exports = dict(line[len("export "):].split("=", 1) for line in output.splitlines() if line.startswith("export "))
        directory = exports["OCELLUS_TESTBED_DIR"]

        def kill_daemon():
            with open(os.path.join(directory, "pids")) as pids:
                pid = next(int(line.split()[0]) for line in pids if line.split()[1] == "pipewire")
            os.kill(pid, signal.SIGKILL)

        try:
            with ocellus.Context("org.ocellus.soak.daemon", pipewire_remote=exports["PIPEWIRE_REMOTE"]) as context:
                result = stream_until_lost(context, "usb-1d6b:0110-VCAM-0000", kill_daemon)
                if isinstance(result, str):
                    failures.append(f"daemon kill {index}: {result}")
        finally:
            subprocess.run([str(TESTBED), "stop", directory], check=False)
        if index == 1:
            before = resources()
    return failures, before, resources()


def main():
    cycles = int(os.environ.get("CYCLES", "200"))
    kills = int(os.environ.get("KILLS", "20"))
    daemons = int(os.environ.get("DAEMONS", "10"))
    passed = failed = 0

    def verdict(name, failures, detail):
        nonlocal passed, failed
        if failures:
            failed += 1
            print(f"not ok - {name}: {detail}")
            for failure in failures[:10]:
                print(f"    {failure}")
        else:
            passed += 1
            print(f"ok - {name}: {detail}")
        sys.stdout.flush()

    start = resources()
    failures, latencies, before, after = unplug_cycles(cycles)
    change = growth(before, after)
    # Bounded: no descriptor or thread per cycle, and memory within 8 MB over 190 cycles.
    leaks = [f"grew {change}"] if change["fds"] > 0 or change["threads"] > 0 or change["rss_kb"] > 8192 else []
    latencies.sort()
    median = latencies[len(latencies) // 2] * 1000 if latencies else float("nan")
    verdict(f"{cycles} unplug/replug cycles while streaming", failures + leaks,
            f"{len(latencies)} losses reported, median {median:.1f} ms; after warm-up {before} -> {after}")
    failures = kills_mid_recording(kills)
    verdict(f"{kills} SIGKILLs mid-recording ({kills // 2} with sound)", failures, "every file plays" if not failures else "")
    failures, before, after = daemon_kills(daemons)
    change = growth(before, after)
    leaks = [f"grew {change}"] if change["fds"] > 0 or change["threads"] > 0 or change["rss_kb"] > 8192 else []
    verdict(f"{daemons} daemon kills mid-stream", failures + leaks, f"{before} -> {after} (process start: {start})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
