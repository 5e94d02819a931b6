"""Fixtures for the Python suite. It runs inside scripts/testbed.sh (`make test-python`),
which provides a private PipeWire with vcam0, vcam1 and vmic0."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
TESTBED = ROOT / "scripts" / "testbed.sh"


@pytest.fixture(scope="session", autouse=True)
def testbed_dir():
    directory = os.environ.get("OCELLUS_TESTBED_DIR")
    if not directory:
        pytest.exit("run inside scripts/testbed.sh (make test-python)", returncode=2)
    return directory


class Cameras:
    """Plugs and unplugs virtual cameras (each its own process) and unplugs what is left at the end."""

    def __init__(self, directory):
        self.directory = directory
        self.plugged = set()

    def add(self, name, *args):
        subprocess.run([str(TESTBED), "add-camera", self.directory, name, "--sizes", "640x480", "--fps", "30", *args],
                       check=True, stdout=subprocess.DEVNULL)
        self.plugged.add(name)

    def remove(self, name):
        subprocess.run([str(TESTBED), "signal", self.directory, name, "CONT"], check=False)
        subprocess.run([str(TESTBED), "remove-camera", self.directory, name, "KILL"], check=True)
        self.plugged.discard(name)

    def signal(self, name, signal_name):
        """STOP: the camera stalls (its producer no longer runs) without going away; CONT: it recovers."""
        subprocess.run([str(TESTBED), "signal", self.directory, name, signal_name], check=True)

    def remove_all(self):
        for name in list(self.plugged):
            self.remove(name)


@pytest.fixture
def cameras(testbed_dir):
    plug = Cameras(testbed_dir)
    yield plug
    plug.remove_all()


class Microphones:
    """Plugs and unplugs virtual microphones (440 Hz tones at a chosen volume, each a process of
    its own: `ocellus virtual-camera --microphone`) and unplugs what is left."""

    def __init__(self, directory):
        self.directory = directory
        self.plugged = set()

    def add(self, name, volume=None):
        subprocess.run([str(TESTBED), "add-mic", self.directory, name, *([str(volume)] if volume else [])], check=True)
        self.plugged.add(name)

    def remove(self, name):
        subprocess.run([str(TESTBED), "remove-mic", self.directory, name], check=True)
        self.plugged.discard(name)

    def set_default(self, name):
        """What a user does in the sound settings: WirePlumber then publishes default.audio.source."""
        nodes = subprocess.run(["pw-cli", "ls", "Node"], capture_output=True, text=True, check=True).stdout
        node_id = None
        for line in nodes.splitlines():
            words = line.split()
            if words[:1] == ["id"]:
                node_id = words[1].rstrip(",")
            elif words[:3] == ["node.name", "=", f'"{name}"']:
                break
        subprocess.run(["wpctl", "set-default", node_id], check=True)

    def remove_all(self):
        for name in list(self.plugged):
            self.remove(name)
        self.set_default("vmic0")


@pytest.fixture
def microphones(testbed_dir):
    plug = Microphones(testbed_dir)
    yield plug
    plug.remove_all()


class EventLog:
    """Collects hotplug events from the library thread; `wait` blocks until a predicate holds."""

    def __init__(self):
        self.events = []
        self.changed = threading.Condition()

    def __call__(self, event, device):
        with self.changed:
            self.events.append((event, device))
            self.changed.notify_all()

    def wait(self, predicate, timeout=10.0):
        with self.changed:
            assert self.changed.wait_for(lambda: predicate(self.events), timeout), f"events so far: {self.events}"
        return self.events


@pytest.fixture
def event_log():
    return EventLog()


class PrivateDaemon:
    """A second, disposable test bed (its own pipewire + wireplumber), for tests that kill the daemon."""

    def __init__(self):
        output = subprocess.run([str(TESTBED), "start", "--cameras", "1", "--mics", "0"],
                                check=True, capture_output=True, text=True).stdout
        exports = dict(line[len("export "):].split("=", 1) for line in output.splitlines() if line.startswith("export "))
        self.directory = exports["OCELLUS_TESTBED_DIR"]
        self.remote = exports["PIPEWIRE_REMOTE"]

    def kill_daemon(self):
        with open(os.path.join(self.directory, "pids")) as pids:
            pid = next(int(line.split()[0]) for line in pids if line.split()[1] == "pipewire")
        os.kill(pid, 9)

    def stop(self):
        subprocess.run([str(TESTBED), "stop", self.directory], check=False)


@pytest.fixture
def private_daemon():
    daemon = PrivateDaemon()
    yield daemon
    daemon.stop()


@pytest.fixture
def session():
    """A capture session of its own context, with the test bed's first camera at hand (`session.camera`)."""
    import ocellus   # after the path above is set
    with ocellus.Context("org.ocellus.test.session") as ctx:
        session = ctx.capture_session()
        session.camera = next(d for d in ctx.devices() if d.unique_id == "usb-1d6b:0110-VCAM-0000")
        yield session
        session.close()
