#!/usr/bin/env python3
"""Runs every generated bad-input case in its own process (two at a time) and
fails a case on any signal, any hang (10 s), any success for input that must
fail, and any refusal without a message. Prints "ok"/"not ok" per case and the
closing line "N passed, N failed, N skipped".

usage: run.py BINARY CASES.TSV [FILTER]
"""
import concurrent.futures
import os
import signal
import subprocess
import sys

SKIP = 77


TESTBED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "testbed.sh")


def run_case(binary, number, name):
    """One case; a case inside an audio callback hears a microphone plugged for it alone: the test
    bed's vmic0 (PipeWire 0.3.65's in-daemon audiotestsrc) goes silent for good after some of the
    cases' processes end mid-stream, and its later cases could not get into the callback."""
    bed = os.environ.get("OCELLUS_TESTBED_DIR")
    if bed and name.startswith("inside audio callback"):
        microphone = f"badinput{number}"
        subprocess.run([TESTBED, "add-mic", bed, microphone], check=True, capture_output=True)
        try:
            return run_process(binary, number, {**os.environ, "OCELLUS_BADINPUT_MICROPHONE": f"pipewire-{microphone}"})
        finally:
            subprocess.run([TESTBED, "remove-mic", bed, microphone], capture_output=True)
    # Cases inside a metadata or a photo callback need frames, and get a camera of their own: on
    # PipeWire 0.3.65 the test bed's cameras stop sending after many cases ended mid-stream.
    if bed and name.startswith("inside metadata callback"):
        return with_camera(binary, number, "OCELLUS_BADINPUT_CODE_CAMERA", f"badinputqr{number}",
                           ["--formats", "MJPG", "--mjpeg-file", os.environ["OCELLUS_BADINPUT_QR"]])
    if bed and name.startswith("inside photo callback"):
        return with_camera(binary, number, "OCELLUS_BADINPUT_PHOTO_CAMERA", f"badinputphoto{number}", [])
    return run_process(binary, number, os.environ)


def with_camera(binary, number, variable, camera, options):
    """Runs case `number` with a camera plugged for it alone, its unique ID in `variable`."""
    bed = os.environ["OCELLUS_TESTBED_DIR"]
    subprocess.run([TESTBED, "add-camera", bed, camera, "--sizes", "640x480", "--fps", "30", *options], check=True,
                   capture_output=True)
    try:
        return run_process(binary, number, {**os.environ, variable: f"pipewire-{camera}"})
    finally:
        subprocess.run([TESTBED, "remove-camera", bed, camera, "KILL"], capture_output=True)


def run_process(binary, number, environment):
    try:
        done = subprocess.run([binary, str(number)], capture_output=True, timeout=20, text=True, errors="replace",
                              env=environment)
    except subprocess.TimeoutExpired as expired:
        return "fail", "hung (no exit within 20 s)", (expired.stderr or b"")[-600:] if isinstance(expired.stderr, bytes) else ""
    if done.returncode == 0:
        return "pass", "", ""
    if done.returncode == SKIP:
        return "skip", done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "", ""
    if done.returncode < 0:
        return "fail", f"killed by {signal.Signals(-done.returncode).name}", done.stderr[-1200:]
    return "fail", f"exit {done.returncode}", done.stderr[-1200:]


def main():
    binary, table = sys.argv[1], sys.argv[2]
    wanted = sys.argv[3] if len(sys.argv) > 3 else ""
    cases = []
    for line in open(table):
        number, name, expectation = line.rstrip("\n").split("\t")
        if wanted in name:
            cases.append((int(number), name, expectation))
    counts = {"pass": 0, "fail": 0, "skip": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("BADINPUT_JOBS", "2"))) as pool:
        futures = [(case, pool.submit(run_case, binary, case[0], case[1])) for case in cases]
        for (number, name, expectation), future in futures:
            verdict, reason, detail = future.result()
            counts[verdict] += 1
            if verdict == "pass":
                print(f"ok - {name} [{expectation}]")
            elif verdict == "skip":
                print(f"ok - {name} # SKIP {reason}")
            else:
                print(f"not ok - {name} [{expectation}]: {reason}")
                for detail_line in detail.strip().splitlines()[-6:]:
                    print(f"    {detail_line}")
            sys.stdout.flush()
    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
