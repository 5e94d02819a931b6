"""What the gadget tests share besides the gadgets: the CLI, and waiting for the system."""

import json
import os
import subprocess
import time
from pathlib import Path

CLI = os.environ["OCELLUS_CLI"]


def cli(*args, timeout=60, check=True):
    """Runs `ocellus ARGS`; with `check`, a failure fails the test with the CLI's message."""
    result = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def wait_for(probe, timeout=15, what="it", interval=0.05):
    """`probe()` once it is truthy; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


# What makes a listed device the same device on another stack (not its nodes or daemon serials).
IDENTITY_FIELDS = ("unique_id", "name", "type", "position", "backend", "vendor_id", "product_id", "serial",
                   "formats", "depth_formats")


def record_identities(label, devices):
    """Keeps what this stack listed for `devices` (dicts of `list --json`) under `label`. job.sh
    prints them as `identity:` lines, and scripts/test.sh compares Debian 12's with Debian 13's:
    the same gadget must come out as the same device on both."""
    with open(Path(os.environ.get("TMPDIR", "/tmp")) / "identities.jsonl", "a") as log:
        for device in devices:
            log.write(json.dumps({"label": label, **{k: device.get(k) for k in IDENTITY_FIELDS}}, sort_keys=True) + "\n")
