"""What the gadget tests share besides the gadgets: the CLI, and waiting for the system."""

import os
import subprocess
import time

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
