"""behaviour §5 on the real daemon: the single `microphone` device follows WirePlumber's default input,
a newly plugged microphone and the app's preferred input."""

import threading

import pytest

import ocellus
from ocellus import DeviceType


class RouteLog:
    def __init__(self):
        self.routes, self.changed = [], threading.Condition()

    def __call__(self, device):
        with self.changed:
            self.routes.append(device.unique_id if device else None)
            self.changed.notify_all()

    def wait_for(self, unique_id, timeout=10.0):
        with self.changed:
            assert self.changed.wait_for(lambda: self.routes and self.routes[-1] == unique_id, timeout), self.routes


def test_the_microphone_device_follows_the_route(microphones):
    with ocellus.Context("org.ocellus.test.mics") as context:
        microphone = context.default_microphone
        assert (microphone.unique_id, microphone.type) == ("microphone", DeviceType.MICROPHONE)
        assert context.microphone_route.unique_id == "pipewire-vmic0"
        assert microphone.name == "Virtual Microphone vmic0", "named after its input"
        assert "microphone" not in [d.unique_id for d in context.devices()], "the inputs are listed, not the route"
        log = RouteLog()
        context.add_microphone_route_callback(log)

        microphones.add("vmicnew")   # the most recently connected microphone becomes the route
        log.wait_for("pipewire-vmicnew")
        assert microphone.name == "Virtual Microphone vmicnew"
        assert context.default_microphone.unique_id == "microphone"

        # The user picks defaults in the sound settings (choosing the one already set changes
        # nothing PipeWire can see): the latest choice wins over the newer plug.
        microphones.set_default("vmicnew")
        microphones.set_default("vmic0")
        log.wait_for("pipewire-vmic0")

        new = next(d for d in context.devices() if d.unique_id == "pipewire-vmicnew")
        context.preferred_microphone = new
        log.wait_for("pipewire-vmicnew")
        assert context.preferred_microphone.unique_id == "pipewire-vmicnew"
        microphones.remove("vmicnew")   # the preferred input goes: back to the default
        log.wait_for("pipewire-vmic0")
        assert context.preferred_microphone is None
        microphones.add("vmicnew")      # and comes back: preferred again (by unique ID)
        log.wait_for("pipewire-vmicnew")
        assert context.preferred_microphone.unique_id == "pipewire-vmicnew"
        context.preferred_microphone = None   # still the route: plugged in after the default last changed
        assert context.microphone_route.unique_id == "pipewire-vmicnew"
        microphones.remove("vmicnew")
        log.wait_for("pipewire-vmic0")
        assert microphone.name == "Virtual Microphone vmic0"


def test_preferred_microphone_bad_input():
    with ocellus.Context("org.ocellus.test.mics") as context:
        camera = next(d for d in context.devices() if d.type != DeviceType.MICROPHONE)
        with pytest.raises(ocellus.InvalidArgument):
            context.preferred_microphone = camera
        with pytest.raises(ocellus.InvalidArgument, match="follows the route"):
            context.preferred_microphone = context.default_microphone
        with ocellus.Context("org.ocellus.test.mics.other") as other:
            foreign = next(d for d in other.devices() if d.unique_id == "pipewire-vmic0")
            assert context.microphone_route.unique_id == "pipewire-vmic0"
        assert not foreign.connected
        with pytest.raises(ocellus.NotFound):
            context.preferred_microphone = foreign   # gone with its context
        assert context.preferred_microphone is None


def test_a_session_on_the_microphone_device_needs_some_microphone(private_daemon):
    """A test bed without microphones: no `microphone` device, and no route."""
    with ocellus.Context("org.ocellus.test.mics", pipewire_remote=private_daemon.remote) as context:
        assert context.default_microphone is None and context.microphone_route is None
        assert [d for d in context.devices() if d.type == DeviceType.MICROPHONE] == []


def test_cli_microphones_shows_the_route(microphones):
    import json
    import os
    import subprocess

    cli = os.environ.get("OCELLUS_CLI", "ocellus")
    shown = json.loads(subprocess.run([cli, "microphones", "--json"], capture_output=True, text=True, check=True).stdout)
    assert list(shown) == ["route", "inputs"] and shown["route"]["unique_id"] == "pipewire-vmic0"
    assert [d["unique_id"] for d in shown["inputs"]] == ["pipewire-vmic0"] and shown["inputs"][0]["type"] == "microphone"
    microphones.add("vmiccli")
    microphones.set_default("vmiccli")
    table = subprocess.run([cli, "microphones"], capture_output=True, text=True, check=True).stdout.splitlines()
    assert table[0] == 'microphone -> pipewire-vmiccli "Virtual Microphone vmiccli"'
    assert '* pipewire-vmiccli "Virtual Microphone vmiccli"' in table and '  pipewire-vmic0 "Virtual Microphone vmic0"' in table


def test_the_test_beds_microphone_delivers_to_a_hundred_clients_in_a_row(tmp_path):
    """vmic0 is a producer process of Ocellus's own: PipeWire 0.3.65's in-daemon audiotestsrc, the
    bed's microphone before, stopped delivering to every later client after a few had ended (five
    3-second pw-record runs, then 44-byte files). Each of a hundred pw-record clients in turn hears
    the tone, at its level."""
    import subprocess
    import wave

    import numpy
    for run in range(100):
        path = tmp_path / f"{run}.wav"
        subprocess.run(["timeout", "-s", "INT", "0.3", "pw-record", "--target", "vmic0", "--rate", "48000", "--channels", "2",
                        "--format", "s16", str(path)], capture_output=True, timeout=10)
        with wave.open(str(path)) as recording:
            samples = numpy.frombuffer(recording.readframes(recording.getnframes()), dtype=numpy.int16).astype(numpy.float64)
        assert len(samples) >= 2400, f"client {run}: {len(samples)} samples"
        level = numpy.sqrt(numpy.mean(samples[len(samples) // 4:] ** 2)) / 32768
        assert 0.5 < level < 0.8, f"client {run}: RMS {level:.3f} of full scale (a full-scale sine is 0.707)"
