"""Microphone modes on the real daemon: a mix of real speech and real typing played as a virtual
microphone (pw-cat, a process of its own), heard by `ocellus listen` raw and voice-isolated at
once, compared window by window; a mode switch mid-stream from Python; the engine missing.

Material from Debian packages, decoded by sox at test time: alsa-utils' recorded voice
(/usr/share/sounds/alsa) and bucklespring-data's recorded key presses."""

import glob
import json
import os
import subprocess
import sys
import threading
import time
import wave

import numpy as np
import pytest

import ocellus
from ocellus import MicrophoneMode, SessionEvent

CLI = os.environ.get("OCELLUS_CLI", "ocellus")
RATE = 48_000
WINDOW = RATE // 100
REQUIRED = os.environ.get("OCELLUS_REQUIRE_VOICE_ENGINES") == "1"
HAS_ENGINE = bool(os.environ.get("OCELLUS_RNNOISE_LIB")) or REQUIRED
# Voice isolation's engines (OCELLUS_VOICE_ISOLATION_ENGINE), each where it is installed or required.
ENGINES = [pytest.param("rnnoise", marks=pytest.mark.skipif(not HAS_ENGINE, reason="no RNNoise installed")),
           pytest.param("deepfilternet", marks=pytest.mark.skipif(not (os.environ.get("OCELLUS_DEEPFILTER_LIB") or REQUIRED),
                                                                  reason="no DeepFilterNet installed"))]


def decode(path):
    raw = subprocess.run(["sox", path, "-t", "f32", "-e", "floating-point", "-r", str(RATE), "-c", "1", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype=np.float32)


def speech_and_typing(snr_db, utterances=5):
    """Clean speech (lead-in of 1.5 s, 0.7 s pauses) and typing throughout, scaled to `snr_db` over the speech."""
    voices = ["Front_Center", "Front_Left", "Rear_Right", "Side_Left", "Rear_Center"][:utterances]
    pause = np.zeros(RATE * 7 // 10, np.float32)
    clean = np.concatenate([np.zeros(RATE * 3 // 2, np.float32)]
                           + [part for voice in voices for part in (decode(f"/usr/share/sounds/alsa/{voice}.wav"), pause)])
    keys = [decode(path) for path in sorted(glob.glob("/usr/share/buckle/wav/*.wav"))[:24]]
    assert len(keys) >= 20, "bucklespring-data's key sounds"
    rng = np.random.default_rng(42)
    noise = np.zeros_like(clean)
    at = 0
    while at < len(noise):
        key = keys[rng.integers(len(keys))]
        end = min(len(noise), at + len(key))
        noise[at:end] += key[:end - at]
        at += RATE * int(rng.integers(90, 200)) // 1000
    energy = np.add.reduceat(clean.astype(np.float64) ** 2, np.arange(0, len(clean) - WINDOW, WINDOW))
    speech = np.flatnonzero(energy > energy.max() * 1e-4)
    near = np.zeros(len(energy), bool)
    for index in speech:
        near[max(0, index - 10):index + 11] = True
    pauses = np.flatnonzero(~near)
    speech_power = energy[speech].sum() / (len(speech) * WINDOW)
    noise *= np.sqrt(speech_power / np.mean(noise.astype(np.float64) ** 2) / 10 ** (snr_db / 10))
    return clean, noise, speech, pauses


def read_wav(path):
    """Mono float samples of a 32-bit float WAV as `ocellus listen` writes it (read with Python's wave module
    for the header, numpy for the data)."""
    with open(path, "rb") as file:
        data = file.read()
    channels = int.from_bytes(data[22:24], "little")
    start = data.index(b"data") + 8
    samples = np.frombuffer(data[start:start + int.from_bytes(data[start - 4:start], "little")], dtype=np.float32)
    return samples.reshape(-1, channels).mean(axis=1)


def align(captured, reference):
    """Index of `reference`'s first sample in `captured` (FFT cross-correlation)."""
    size = 1 << int(np.ceil(np.log2(len(captured) + len(reference))))
    correlation = np.fft.irfft(np.fft.rfft(captured, size) * np.conj(np.fft.rfft(reference, size)), size)
    lag = int(np.argmax(correlation))
    return lag if lag < size // 2 else lag - size


def window_energy(signal, offset, windows):
    starts = offset + windows * WINDOW
    inside = (starts >= 0) & (starts + WINDOW <= len(signal))
    return sum(float(np.sum(signal[s:s + WINDOW].astype(np.float64) ** 2)) for s in starts[inside]), int(inside.sum())


class VirtualMicrophone:
    """A WAV file played as a microphone by pw-cat (media.class Audio/Source), linked to nothing."""

    def __init__(self, name, path):
        self.name = name
        self.process = subprocess.Popen(
            ["pw-cat", "-p", "--target", "0", "-P",
             f"{{ media.class=Audio/Source node.name={name} node.description={name} session.suspend-timeout-seconds=0 }}",
             str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            listed = json.loads(subprocess.run([CLI, "list", "--json"], capture_output=True, text=True, check=True).stdout)
            if any(d["unique_id"] == f"pipewire-{name}" for d in listed):
                return
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"{name} did not appear")

    def stop(self):
        self.process.kill()
        self.process.wait()


def probe_streams(path):
    return json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", str(path)],
                                     capture_output=True, text=True, check=True).stdout)["streams"]


def write_wav(path, samples, channels=1):
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(np.repeat((np.clip(samples, -1, 1) * 32767).astype("<i2"), channels).tobytes())


def intelligibility(signal, offset, clean):
    """STOI (pystoi, fetched by scripts/fetch-voice-engines.sh) of `signal` from `offset` against the clean
    speech: 0 to 1, how much of it a listener would understand."""
    path = os.environ.get("OCELLUS_PYSTOI_PATH")
    if not path:
        if REQUIRED:
            raise AssertionError("OCELLUS_PYSTOI_PATH: pystoi is required (scripts/fetch-voice-engines.sh)")
        return None
    if path not in sys.path:
        sys.path.append(path)
    from pystoi import stoi
    start, end = max(0, -offset), min(len(clean), len(signal) - offset)
    return float(stoi(clean[start:end], signal[offset + start:offset + end], RATE))


def typing_and_voice(raw, isolated, clean, mix, speech, pauses):
    """(typing left in the pauses, change of the voice's level) of `isolated` against `raw`, in dB,
    window by window, each capture aligned to the mix on its own."""
    raw_at, isolated_at = align(raw, mix), align(isolated, clean)
    raw_pause, counted = window_energy(raw, raw_at, pauses)
    isolated_pause, _ = window_energy(isolated, isolated_at, pauses)
    raw_speech, spoken = window_energy(raw, raw_at, speech)
    isolated_speech, _ = window_energy(isolated, isolated_at, speech)
    assert counted > 100 and spoken > 100, f"the captures cover the mix: {counted} pause and {spoken} speech windows"
    return 10 * np.log10(isolated_pause / raw_pause), 10 * np.log10(isolated_speech / raw_speech)


def heard_twice(tmp_path, command, engine="rnnoise"):
    """Plays the speech-and-typing mix as a virtual microphone and runs `command(mode, seconds)` for
    the standard and the voice-isolation mode at once (both hear the same playback); returns their
    JSON summaries and the mix."""
    clean, noise, speech, pauses = speech_and_typing(snr_db=5)
    mix = clean + noise
    write_wav(tmp_path / "mix.wav", mix)
    microphone = VirtualMicrophone("voicemix", tmp_path / "mix.wav")
    try:
        seconds = len(mix) / RATE - 0.8   # ends before the file does (then the microphone goes)
        environment = {**os.environ, "OCELLUS_VOICE_ISOLATION_ENGINE": engine}
        runs = {mode: subprocess.Popen(command(mode, f"{seconds:.2f}"), stdout=subprocess.PIPE, text=True, env=environment)
                for mode in ("standard", "voice-isolation")}
        summaries = {mode: json.loads(run.communicate(timeout=90)[0].strip().splitlines()[-1]) for mode, run in runs.items()}
    finally:
        microphone.stop()
    assert summaries["voice-isolation"]["mode"] == {"preferred": "voice_isolation", "active": "voice_isolation", "engine": engine}
    assert summaries["standard"]["mode"]["active"] == "standard"
    return summaries, (clean, mix, speech, pauses)


@pytest.mark.parametrize("engine", ENGINES)
def test_voice_isolation_removes_typing_and_keeps_the_voice_on_the_real_daemon(tmp_path, engine):
    summaries, (clean, mix, speech, pauses) = heard_twice(tmp_path, lambda mode, seconds: [
        CLI, "listen", "pipewire-voicemix", "--mode", mode, "--seconds", seconds, "-o", str(tmp_path / f"{mode}.wav"), "--json"],
        engine)
    assert all(summary["dropped"] == 0 for summary in summaries.values())
    raw, isolated = read_wav(tmp_path / "standard.wav"), read_wav(tmp_path / "voice-isolation.wav")
    noise_left, speech_level = typing_and_voice(raw, isolated, clean, mix, speech, pauses)
    understood = intelligibility(raw, align(raw, mix), clean), intelligibility(isolated, align(isolated, clean), clean)
    print(f"daemon, {engine}: typing in pauses {noise_left:.1f} dB, speech level {speech_level:+.1f} dB, STOI {understood}")
    assert noise_left <= -20, f"typing left in the pauses: {noise_left:.1f} dB"
    assert abs(speech_level) <= 3, f"speech level changed by {speech_level:.1f} dB"
    if understood[0] is not None:
        assert understood[1] >= understood[0] + 0.05, f"intelligibility (STOI) raw → isolated: {understood}"


@pytest.mark.skipif(not HAS_ENGINE, reason="no RNNoise installed (the test command installs it)")
def test_recordings_carry_the_isolated_voice(tmp_path):
    summaries, (clean, mix, speech, pauses) = heard_twice(tmp_path, lambda mode, seconds: [
        CLI, "record", "usb-1d6b:0110-VCAM-0000", "-o", str(tmp_path / f"{mode}.mp4"), "--seconds", seconds,
        "--audio", "pipewire-voicemix", "--microphone-mode", mode, "--json"])

    def sound(path):   # the AAC track, decoded by FFmpeg
        return np.frombuffer(subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-vn", "-ac", "1", "-ar", str(RATE),
                                             "-f", "f32le", "-"], capture_output=True, check=True).stdout, dtype=np.float32)

    noise_left, speech_level = typing_and_voice(sound(tmp_path / "standard.mp4"), sound(tmp_path / "voice-isolation.mp4"),
                                                clean, mix, speech, pauses)
    print(f"recording: typing in pauses {noise_left:.1f} dB, speech level {speech_level:+.1f} dB")
    assert noise_left <= -20, f"typing left in the recording's pauses: {noise_left:.1f} dB"
    assert abs(speech_level) <= 3, f"speech level changed by {speech_level:.1f} dB"


def test_modes_switch_mid_stream_without_a_gap_in_a_session_of_a_microphone_alone(microphones):
    microphones.add("modes0")
    with ocellus.Context("org.ocellus.test.python.modes") as ctx:
        microphone = next(d for d in ctx.devices() if d.unique_id == "pipewire-modes0")
        session = ocellus.CaptureSession(ctx)
        events = []
        session.add_event_callback(lambda event, message: events.append((event, message)))
        buffers = []
        switches = []
        lock = threading.Lock()
        output = ocellus.AudioDataOutput()

        def heard(samples, timestamp_ns):
            with lock:
                buffers.append((timestamp_ns, len(samples)))

        output.set_callback(heard)
        session.set_audio_input(microphone)
        session.add_audio_output(output)
        session.start_running()   # no camera
        for mode in (MicrophoneMode.VOICE_ISOLATION, MicrophoneMode.WIDE_SPECTRUM, MicrophoneMode.VOICE_ISOLATION,
                     MicrophoneMode.STANDARD):
            time.sleep(0.5)
            with lock:
                switches.append(len(buffers))
            session.preferred_microphone_mode = mode
            state = session.microphone_mode
            assert state.preferred == mode
            if HAS_ENGINE:
                assert (state.active, state.reason) == (mode, "")
                # Voice isolation cancels echo (the plugin beside the library), whatever plays or not.
                expected = "webrtc" if mode == MicrophoneMode.VOICE_ISOLATION else "none"
                assert (state.echo_canceller, state.echo_cancellation_reason) == (expected, ""), state
        time.sleep(0.5)
        session.stop_running()
        output.set_callback(None)
    assert output.dropped_frames == 0
    with lock:
        # Each buffer's capture time against the first one's plus the frames before it: PipeWire's
        # times jitter by a few ms from buffer to buffer, but a lost or repeated run of samples
        # would shift every later buffer. Between switches the median offset stays put.
        start = buffers[0][0]
        before = np.cumsum([0] + [frames for _, frames in buffers[:-1]])
        offsets = np.array([(timestamp - start) / 1e9 - count / RATE for (timestamp, _), count in zip(buffers, before)]) * 1000
    bounds = [0, *switches, len(offsets)]
    medians = [float(np.median(offsets[a + 3:b])) for a, b in zip(bounds, bounds[1:])]
    assert len(buffers) > 100 and all(b - a > 10 for a, b in zip(bounds, bounds[1:]))
    assert max(medians) - min(medians) < 3, f"the sound's capture times shift across the switches (ms): {medians}"
    if HAS_ENGINE:
        changes = [message for event, message in events if event == SessionEvent.MICROPHONE_MODE_CHANGED]
        assert changes == ["voice_isolation", "wide_spectrum", "voice_isolation", "standard"]


def test_without_the_engine_the_standard_mode_runs_and_says_why(tmp_path, microphones):
    microphones.add("modes1")
    out = tmp_path / "heard.wav"
    run = subprocess.run([CLI, "listen", "pipewire-modes1", "--mode", "voice-isolation", "--seconds", "1", "-o", str(out), "--json"],
                         capture_output=True, text=True, timeout=30,
                         env={**os.environ, "OCELLUS_RNNOISE_LIB": str(tmp_path / "missing" / "librnnoise.so")})
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["mode"]["preferred"] == "voice_isolation" and summary["mode"]["active"] == "standard"
    assert summary["mode"]["engine"] == "none" and "OCELLUS_RNNOISE_LIB" in summary["mode"]["reason"]
    assert "voice_isolation is unavailable" in run.stderr
    assert summary["frames"] > 40_000 and summary["channels"] == 2 and summary["sample_rate"] == RATE
    # An independent reader agrees with the summary.
    info = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", str(out)],
                                     capture_output=True, text=True, check=True).stdout)["streams"][0]
    assert (info["codec_name"], int(info["sample_rate"]), info["channels"]) == ("pcm_f32le", RATE, 2)
    assert int(info["duration_ts"]) == summary["frames"]


def test_listen_refuses_what_it_cannot_do(tmp_path):
    def listen(*args):
        return subprocess.run([CLI, "listen", *args], capture_output=True, text=True, timeout=30)
    assert listen("--mode", "loud", "-o", str(tmp_path / "x.wav")).returncode == 2
    assert listen("--seconds", "1").returncode == 2          # no -o
    camera = listen("usb-1d6b:0110-VCAM-0000", "-o", str(tmp_path / "y.wav"), "--seconds", "1")
    assert camera.returncode == 1 and "not a microphone" in camera.stderr
    assert not (tmp_path / "y.wav").exists(), "nothing left behind"
    unwritable = listen("-o", str(tmp_path / "no" / "such" / "dir.wav"), "--seconds", "1")
    assert unwritable.returncode == 1 and "cannot write" in unwritable.stderr


def node_id(name):
    """The id of the PipeWire node named `name` (pw-cli's listing), or None."""
    current = None
    for line in subprocess.run(["pw-cli", "ls", "Node"], capture_output=True, text=True, check=True).stdout.splitlines():
        words = line.split()
        if words[:1] == ["id"]:
            current = words[1].rstrip(",")
        elif words[:3] == ["node.name", "=", f'"{name}"'] and current:
            return current
    return None


class Room:
    """A machine that plays into a room its microphone hears: the test bed's speakers (a null sink, the
    default output) and a microphone ("roommic", a virtual source) that hears the speakers 40 ms late
    (pw-loopback, as a speaker and a room delay it) plus whatever is played into it as the near end.
    Nodes and the loopback go at the end."""

    NODES = {"speakers": "Audio/Sink", "roommic": "Audio/Source/Virtual"}

    def __init__(self):
        self.processes = []
        for name, media_class in self.NODES.items():
            subprocess.run(["pw-cli", "create-node", "adapter",
                            f"{{ factory.name=support.null-audio-sink node.name={name} node.description={name} "
                            f"media.class={media_class} object.linger=true audio.position=[FL FR] "
                            # Never suspended: WirePlumber 0.4.13 segfaults suspending a node destroyed meanwhile.
                            f"session.suspend-timeout-seconds=0 }}"],
                           check=True, stdout=subprocess.DEVNULL)
        self.wait_for(list(self.NODES))
        self.spawn(["pw-loopback", "-n", "room", "-d", "0.04", "--capture-props", "{ stream.capture.sink=true }",
                    "--playback-props", "{ node.autoconnect=false }"])
        self.link("output.room", "roommic")

    def wait_for(self, names):
        deadline = time.monotonic() + 10
        while not all(node_id(name) for name in names):
            assert time.monotonic() < deadline, f"{names} did not appear"
            time.sleep(0.05)

    def spawn(self, command):
        self.processes.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def link(self, source, sink):
        """Links `source`'s output ports to `sink`'s inputs by hand: WirePlumber 0.4 routes playback
        streams to sinks only, never into a virtual source."""
        deadline = time.monotonic() + 10
        while subprocess.run(["pw-link", f"{source}:output_FL", f"{sink}:input_FL"], capture_output=True).returncode != 0:
            assert time.monotonic() < deadline, f"{source} did not appear"
            time.sleep(0.05)
        subprocess.run(["pw-link", f"{source}:output_FR", f"{sink}:input_FR"], check=True)

    def play_far_end(self, path):
        """What a call's far end says, played through the speakers (the default output)."""
        self.spawn(["pw-cat", "-p", "--target", "speakers", str(path)])

    def say_near(self, path):
        """What the person at the microphone says (unheard by the speakers)."""
        self.spawn(["pw-cat", "-p", "-P", "{ node.name=nearend node.autoconnect=false }", str(path)])
        self.link("nearend", "roommic")

    def close(self):
        for process in self.processes:
            process.kill()
            process.wait()
        for name in self.NODES:
            if (found := node_id(name)):
                subprocess.run(["pw-cli", "destroy", found], check=False, stdout=subprocess.DEVNULL)


def speech(voices):
    return np.concatenate([decode(f"/usr/share/sounds/alsa/{voice}.wav") for voice in voices])


def energy_db(signal, start, end):
    part = signal[int(start * RATE):int(end * RATE)].astype(np.float64)
    return 10 * np.log10(np.sum(part ** 2) + 1e-20)


@pytest.mark.skipif(not HAS_ENGINE, reason="no RNNoise installed (the test command installs it)")
def test_voice_isolation_cancels_the_echo_of_what_the_machine_plays(tmp_path):
    """A far end played through the default output reaches the microphone 40 ms later: standard keeps
    the echo, voice isolation removes it (ERLE ≥ 20 dB after convergence) and keeps the near end's
    voice that follows; without the canceller, voice isolation alone leaves the echo (it is speech)."""
    far = speech(["Front_Center", "Rear_Left", "Side_Right", "Front_Left"])          # about 5.7 s
    near = np.concatenate([np.zeros(RATE * 13 // 2, np.float32), speech(["Rear_Center", "Side_Left"])])
    write_wav(tmp_path / "far.wav", 0.7 * far)
    write_wav(tmp_path / "near.wav", near, channels=2)   # FL and FR, as the room's ports
    room = Room()
    try:
        def listen(name, **environment):
            return subprocess.Popen([CLI, "listen", "pipewire-roommic", "--mode", name.split("+")[0], "--seconds", "9.5",
                                     "-o", str(tmp_path / f"{name}.wav"), "--json"],
                                    stdout=subprocess.PIPE, text=True, env={**os.environ, **environment})
        runs = {"standard": listen("standard"), "voice-isolation": listen("voice-isolation"),
                "voice-isolation+no-canceller": listen("voice-isolation+no-canceller",
                                                       OCELLUS_ECHO_CANCELLER_LIB=str(tmp_path / "missing.so"))}
        time.sleep(0.5)
        room.play_far_end(tmp_path / "far.wav")
        room.say_near(tmp_path / "near.wav")
        summaries = {name: json.loads(run.communicate(timeout=60)[0].strip().splitlines()[-1]) for name, run in runs.items()}
    finally:
        room.close()
    assert summaries["voice-isolation"]["echo_cancellation"] == {"canceller": "webrtc"}
    assert summaries["standard"]["echo_cancellation"] == {"canceller": "none"}
    unavailable = summaries["voice-isolation+no-canceller"]
    assert unavailable["mode"]["active"] == "voice_isolation" and unavailable["echo_cancellation"]["canceller"] == "none"
    assert "OCELLUS_ECHO_CANCELLER_LIB" in unavailable["echo_cancellation"]["reason"]
    assert all(summary["dropped"] == 0 for summary in summaries.values())
    heard = {name: read_wav(tmp_path / f"{name}.wav") for name in runs}
    # The far end plays from about 0.5 s to 6.2 s, the near end speaks from about 7 s.
    echo = {name: energy_db(signal, 2.5, 6.0) for name, signal in heard.items()}
    voice = {name: energy_db(signal, 7.2, 9.2) for name, signal in heard.items()}
    enhancement = echo["standard"] - echo["voice-isolation"]
    alone = echo["standard"] - echo["voice-isolation+no-canceller"]
    print(f"ERLE {enhancement:.1f} dB (voice isolation without the canceller: {alone:.1f} dB); "
          f"near end's voice {voice['voice-isolation'] - voice['standard']:+.1f} dB")
    assert enhancement >= 20, f"echo return loss enhancement {enhancement:.1f} dB"
    assert alone < 6, f"voice isolation alone removed {alone:.1f} dB of the echo: the test would not see the canceller"
    assert abs(voice["voice-isolation"] - voice["standard"]) <= 3, "the near end's voice kept its level"


def test_the_microphones_own_rate_and_channels(tmp_path):
    """A mono 16 kHz microphone: `listen` writes it as it is (checked by ffprobe and against the played
    sound), voice isolation at 48 kHz; a session asked for the microphone's own format delivers it."""
    spoken = speech(["Front_Center", "Front_Left", "Rear_Left"])
    source = tmp_path / "mono16k.wav"
    subprocess.run(["sox", "-t", "f32", "-r", str(RATE), "-c", "1", "-", "-r", "16000", "-c", "1", "-b", "16", str(source)],
                   input=spoken.tobytes(), check=True)
    microphone = VirtualMicrophone("mono16k", source)
    try:
        runs = {mode: subprocess.run([CLI, "listen", "pipewire-mono16k", "--mode", mode, "--seconds", "1.5",
                                      "-o", str(tmp_path / f"{mode}.wav"), "--json"], capture_output=True, text=True, timeout=30)
                for mode in ("standard", "voice-isolation")}
        heard = []
        with ocellus.Context("org.ocellus.test.python.ownformat") as ctx:
            session = ocellus.CaptureSession(ctx)
            session.set_audio_input(next(d for d in ctx.devices() if d.unique_id == "pipewire-mono16k"))
            output = ocellus.AudioDataOutput()
            output.set_callback(lambda samples, timestamp_ns: heard.append(samples.shape))
            session.add_audio_output(output)
            with pytest.raises(ocellus.InvalidArgument):
                session.set_audio_format(sample_rate=100)
            session.set_audio_format()
            session.start_running()
            time.sleep(0.3)
            session.stop_running()
            output.set_callback(None)
    finally:
        microphone.stop()
    summaries = {mode: json.loads(run.stdout.strip().splitlines()[-1]) for mode, run in runs.items()}
    assert (summaries["standard"]["sample_rate"], summaries["standard"]["channels"]) == (16000, 1)
    assert (summaries["voice-isolation"]["sample_rate"], summaries["voice-isolation"]["channels"]) == (RATE, 1)
    assert summaries["voice-isolation"]["mode"]["active"] == "voice_isolation" or not HAS_ENGINE
    info = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", str(tmp_path / "standard.wav")],
                                     capture_output=True, text=True, check=True).stdout)["streams"][0]
    assert (int(info["sample_rate"]), info["channels"]) == (16000, 1)
    # The file holds the played speech at 16 kHz, not another rate's samples: it matches the source.
    recorded = read_wav(tmp_path / "standard.wav")
    original = np.frombuffer(subprocess.run(["sox", str(source), "-t", "f32", "-"], capture_output=True, check=True).stdout,
                             dtype=np.float32)
    start = align(original, recorded)   # where the recording begins in the played file (< 0: before it)
    piece = recorded[max(0, -start):].astype(np.float64)
    part = original[max(0, start):][:len(piece)].astype(np.float64)
    piece = piece[:len(part)]
    assert len(part) > 8000, f"the recording overlaps the played sound: {len(part)} samples"
    correlation = float(np.dot(piece, part) / np.sqrt(np.dot(piece, piece) * np.dot(part, part)))
    assert correlation > 0.9, f"the recording is the microphone's sound: correlation {correlation:.2f}"
    assert heard and all(shape[1] == 1 for shape in heard), f"one channel: {heard[:3]}"


def recording_in_own_format(ctx, microphone, on_event=None):
    """A running session of the test bed's first camera and `microphone`, its sound in the
    microphone's own format, with a movie file output (not recording yet)."""
    session = ocellus.CaptureSession(ctx)
    if on_event:
        session.add_event_callback(on_event)
    session.set_input(next(d for d in ctx.devices() if d.unique_id == "usb-1d6b:0110-VCAM-0000"))
    session.set_audio_input(microphone)
    session.set_audio_format()
    movie = ocellus.MovieFileOutput()
    session.add_movie_file_output(movie)
    session.start_running()
    return session, movie


def test_a_recording_keeps_the_microphones_own_format(tmp_path):
    """A session set to the microphone's own format records its sound so (16 kHz mono AAC, ffprobe), and
    the sound is there (FFmpeg decodes it: not the silence of buffers the writer did not take)."""
    source = tmp_path / "mono16k.wav"
    subprocess.run(["sox", "-t", "f32", "-r", str(RATE), "-c", "1", "-", "-r", "16000", "-c", "1", "-b", "16", str(source)],
                   input=speech(["Front_Center", "Front_Left", "Rear_Left"]).tobytes(), check=True)
    microphone = VirtualMicrophone("mono16krec", source)
    path = tmp_path / "own.mp4"
    try:
        with ocellus.Context("org.ocellus.test.python.ownformatmovie") as ctx:
            session, movie = recording_in_own_format(ctx, next(d for d in ctx.devices() if d.unique_id == "pipewire-mono16krec"))
            done = movie.start_recording(str(path))
            time.sleep(2)
            movie.stop_recording()
            recorded = done.result(timeout=30)
            session.stop_running()
    finally:
        microphone.stop()
    sound = next(stream for stream in probe_streams(path) if stream["codec_type"] == "audio")
    assert (sound["codec_name"], int(sound["sample_rate"]), sound["channels"]) == ("aac", 16000, 1)
    decoded = np.frombuffer(subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-vn", "-f", "f32le", "-"],
                                           capture_output=True, check=True).stdout, dtype=np.float32)
    assert np.sqrt(np.mean(decoded.astype(np.float64) ** 2)) > 0.01, "the track carries the microphone's sound"
    assert recorded.dropped_audio_frames == 0


def test_a_recording_whose_microphone_changes_format_says_so(tmp_path, microphones):
    """The `microphone` device's route moves mid-recording to a microphone of another format (the session
    takes microphones' own): the track keeps its format (ffprobe) and carries silence meanwhile, the session
    says why once, and the summary counts the sound frames left out."""
    source = tmp_path / "mono16k.wav"
    subprocess.run(["sox", "-t", "f32", "-r", str(RATE), "-c", "1", "-", "-r", "16000", "-c", "1", "-b", "16", str(source)],
                   input=np.tile(speech(["Front_Center"]), 4).tobytes(), check=True)
    path = tmp_path / "moved.mp4"
    events, lock = [], threading.Lock()
    microphones.add("vmicstereo")   # 48 kHz stereo, and the route: the most recently plugged
    microphone = None
    try:
        with ocellus.Context("org.ocellus.test.python.movedformat") as ctx:
            def on_event(event, message):
                with lock:
                    events.append((event, message))
            session, movie = recording_in_own_format(ctx, ctx.default_microphone, on_event)
            done = movie.start_recording(str(path))
            time.sleep(1)
            microphone = VirtualMicrophone("mono16kroute", source)   # plugged: the route moves to it
            microphones.set_default("mono16kroute")
            time.sleep(1.5)
            movie.stop_recording()
            recorded = done.result(timeout=30)
            session.stop_running()
    finally:
        if microphone:
            microphone.stop()
    with lock:
        interrupted = [message for event, message in events if event == SessionEvent.AUDIO_INTERRUPTED]
    assert len(interrupted) == 1 and "16000 Hz" in interrupted[0] and "silence" in interrupted[0], events
    assert recorded.error is None and recorded.dropped_audio_frames >= 16000 // 2, recorded
    sound = next(stream for stream in probe_streams(path) if stream["codec_type"] == "audio")
    assert (int(sound["sample_rate"]), sound["channels"]) == (48000, 2), "the track keeps its format"
    assert abs(float(sound["duration"]) - recorded.duration) < 0.1, "silence stands for the sound left out"
