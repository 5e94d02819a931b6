"""USB gadget cameras for the tests in the guest (Tests/gadget/job.sh): composite
gadgets declared in configfs — UVC functions with the formats a test asks for,
optionally a UAC2 microphone playing a known tone — bound to the patched
dummy_hcd's device controllers, so the guest's own uvcvideo and snd-usb-audio
drive them. Binding is a plug, unbinding a real USB disconnect.

Each dummy_hcd instance is one bus with one root port: gadget N plugs into
dummy_udc.N and appears on the host side as the device at platform/dummy_hcd.N.
"""

import os
import subprocess
import threading
import time
from dataclasses import dataclass, field
from math import pi, sin
from pathlib import Path

CONFIGFS = Path("/sys/kernel/config/usb_gadget")
GADGET_PROGRAM = os.environ.get("OCELLUS_UVC_GADGET", "uvc-gadget")
TONE_HZ = 1000
SAMPLE_RATE = 48000

# The UVC GUIDs of uncompressed formats: the fourcc, then the standard suffix.
GUID_SUFFIX = bytes.fromhex("00001000800000aa00389b71")
UNCOMPRESSED = {"YUYV": b"YUY2", "NV12": b"NV12", "GREY": b"Y800", "Z16": b"Z16 ", "Y8I": b"Y8I "}
BITS_PER_PIXEL = {"YUYV": 16, "NV12": 12, "GREY": 8, "Z16": 16, "Y8I": 16}   # Y8I: a left/right pair per pixel


@dataclass
class Format:
    pixel_format: str                      # YUYV, NV12, GREY, Z16, Y8I or MJPG
    sizes: list                            # [(width, height), ...], in descriptor order
    intervals: tuple = (333333, 666666, 1000000)   # 100 ns units: 30, 15, 10 fps


@dataclass
class Function:
    """One UVC function (one camera interface association)."""
    formats: list
    name: str = ""                         # the IAD's string (iFunction) where the kernel lets us set it
    max_packet: int | None = None          # bytes a microframe its streaming setting reserves (default: the gadget's)
    small_packet: int | None = None        # a second, smaller streaming setting (high speed; the test bed's f_uvc)
    asks: str = "largest"                  # the probe answer: the largest setting whatever the format, what
                                           # each format "needed", or what MJPEG needs ("needed-compressed")


@dataclass
class Gadget:
    name: str
    serial: str | None = "CAM0001"        # None: no iSerialNumber at all
    product: str = "Gadget Webcam"
    manufacturer: str = "Ocellus Testbed"
    vendor_id: int = 0x1d6b
    product_id: int = 0x0104
    functions: list = field(default_factory=lambda: [Function([
        Format("YUYV", [(640, 480), (320, 240)]), Format("MJPG", [(640, 480), (320, 240)])])])
    audio: bool = False                    # a UAC2 microphone in the same device
    max_packet: int = 3072                 # high speed, 3 x 1024 bytes per microframe
    pacing: bool = True
    shared_clock: bool = False             # functions stamped from one clock, as a depth camera's sensors
    scene: Path | None = None              # a scene file (write_scene) filmed instead of the bars

    def __post_init__(self):
        self.root = CONFIGFS / self.name
        self.processes = []
        self.udc = None
        self.control_log = Path(os.environ.get("TMPDIR", "/tmp")) / f"{self.name}-controls.log"
        self._tone_stop = None
        if not self.root.exists():
            self._declare()

    # ---- configfs ------------------------------------------------------------
    def _declare(self):
        root = self.root
        root.mkdir()
        write(root / "idVendor", f"0x{self.vendor_id:04x}")
        write(root / "idProduct", f"0x{self.product_id:04x}")
        write(root / "bcdDevice", "0x0100")
        write(root / "bcdUSB", "0x0200")
        # Miscellaneous class with interface associations, as real webcams report.
        write(root / "bDeviceClass", "0xEF")
        write(root / "bDeviceSubClass", "0x02")
        write(root / "bDeviceProtocol", "0x01")
        strings = root / "strings/0x409"
        strings.mkdir(parents=True)
        write(strings / "manufacturer", self.manufacturer)
        write(strings / "product", self.product)
        if self.serial is not None:
            write(strings / "serialnumber", self.serial)
        config = root / "configs/c.1"
        (config / "strings/0x409").mkdir(parents=True)
        write(config / "strings/0x409/configuration", "Camera")
        write(config / "MaxPower", "500")
        for index, function in enumerate(self.functions):
            directory = root / f"functions/uvc.{index}"
            directory.mkdir()
            self._declare_uvc(directory, function)
            (config / f"uvc.{index}").symlink_to(directory)
        if self.audio:
            directory = root / "functions/uac2.0"
            directory.mkdir()
            write(directory / "c_chmask", "0")        # no speaker
            write(directory / "p_chmask", "1")        # a mono microphone
            write(directory / "p_srate", str(SAMPLE_RATE))
            write(directory / "p_ssize", "2")         # S16_LE
            (config / "uac2.0").symlink_to(directory)

    def _declare_uvc(self, directory, function):
        if function.name and (directory / "function_name").exists():
            write(directory / "function_name", function.name)
        header = directory / "control/header/h"
        header.mkdir()
        for speed in ("fs", "ss"):
            (directory / f"control/class/{speed}/h").symlink_to(header)
        streaming = directory / "streaming"
        links = []
        for number, fmt in enumerate(function.formats):
            kind = "mjpeg" if fmt.pixel_format == "MJPG" else "uncompressed"
            fmt_dir = streaming / kind / f"f{number}"
            fmt_dir.mkdir()
            if kind == "uncompressed":
                (fmt_dir / "guidFormat").write_bytes(UNCOMPRESSED[fmt.pixel_format] + GUID_SUFFIX)
                write(fmt_dir / "bBitsPerPixel", str(BITS_PER_PIXEL[fmt.pixel_format]))
            for width, height in fmt.sizes:
                frame = fmt_dir / f"{width}x{height}"
                frame.mkdir()
                size = width * height * BITS_PER_PIXEL.get(fmt.pixel_format, 16) // 8
                write(frame / "wWidth", str(width))
                write(frame / "wHeight", str(height))
                write(frame / "dwMaxVideoFrameBufferSize", str(size))
                write(frame / "dwMinBitRate", str(size * 8 * 10))
                write(frame / "dwMaxBitRate", str(size * 8 * 30))
                write(frame / "dwDefaultFrameInterval", str(fmt.intervals[0]))
                write(frame / "dwFrameInterval", "\n".join(str(i) for i in fmt.intervals) + "\n")
            links.append(fmt_dir)
        header = streaming / "header/h"
        header.mkdir()
        for fmt_dir in links:    # the link order is the format index
            (header / fmt_dir.name).symlink_to(fmt_dir)
        for speed in ("fs", "hs", "ss"):
            (streaming / f"class/{speed}/h").symlink_to(header)
        write(directory / "streaming_maxpacket", str(function.max_packet or self.max_packet))
        if function.small_packet:
            write(directory / "streaming_small_maxpacket", str(function.small_packet))

    # ---- plugging --------------------------------------------------------------
    def plug(self, bus=0, wait=True):
        """Binds to dummy_udc.BUS and starts the userspace half of each UVC function."""
        assert self.udc is None, "already plugged"
        self.udc = f"dummy_udc.{bus}"
        self.control_log.unlink(missing_ok=True)   # this plug's requests only
        self.bus = bus
        write(self.root / "UDC", self.udc)
        nodes = gadget_side_nodes(self.udc)
        assert len(nodes) == len(self.functions), f"gadget nodes {nodes} for {len(self.functions)} functions"
        for index, node in enumerate(nodes):
            args = [GADGET_PROGRAM, "-l", str(self.control_log)]
            if not self.pacing:
                args.append("-P")
            if self.shared_clock:
                args.append("-c")
            args += {"largest": [], "needed": ["-n"], "needed-compressed": ["-m"]}[self.functions[index].asks]
            if self.scene:
                args += ["-s", str(self.scene)]
            args += [str(self.root / f"functions/uvc.{index}"), node]
            self.processes.append(subprocess.Popen(args, stderr=subprocess.PIPE, text=True))
        if self.audio:
            self._start_tone()
        if wait:
            try:
                self.wait_for_host_nodes()
            except AssertionError:
                self.unplug()   # else the device controller stays bound, and every later plug fails (EBUSY)
                raise
        return self

    def unplug(self, wait=True):
        """A USB disconnect: the device controller lets go of the bus."""
        if self.udc is None:
            return
        write(self.root / "UDC", "\n")   # an empty write would not reach the kernel
        self.udc = None
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.finished = self.processes
        self.processes = []
        if self._tone_stop:
            self._tone_stop.set()
            self._tone_stop = None
        if wait:
            deadline = time.monotonic() + 10
            while self.host_device_path() and time.monotonic() < deadline:
                time.sleep(0.02)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.unplug()

    # ---- the host side ------------------------------------------------------------
    def host_device_path(self):
        """The sysfs directory of the USB device the host sees, or None."""
        for device in Path(f"/sys/devices/platform/dummy_hcd.{self.bus}").glob("usb*/*-1"):
            if (device / "idVendor").exists():
                return device
        return None

    def host_video_nodes(self):
        """The host's /dev/videoN of this device, capture and metadata, in minor order."""
        device = self.host_device_path()
        if not device:
            return []
        nodes = sorted(device.glob("*:*/video4linux/video*"), key=lambda p: int(p.name[5:]))
        return ["/dev/" + node.name for node in nodes]

    def wait_for_host_nodes(self, timeout=20):
        deadline = time.monotonic() + timeout
        wanted = 2 * len(self.functions)     # a capture and a metadata node per function
        while time.monotonic() < deadline:
            nodes = self.host_video_nodes()
            if len(nodes) >= wanted and all(os.access(node, os.R_OK) for node in nodes):
                if not self.audio or sound_card_of(self.host_device_path()):
                    return nodes
            time.sleep(0.05)
        errors = "".join(p.stderr.read1(4096) if hasattr(p.stderr, "read1") else "" for p in self.processes)
        raise AssertionError(f"{self.name}: the host did not enumerate the gadget ({self.host_video_nodes()}) {errors}")

    @property
    def bus_port(self):
        """The USB port path as the kernel names it (1-1, 2-1, …)."""
        return self.host_device_path().name

    def controls_logged(self):
        return self.control_log.read_text().splitlines() if self.control_log.exists() else []

    # ---- the microphone -------------------------------------------------------------
    def _start_tone(self):
        """Plays TONE_HZ into the gadget side's playback card: what the host's microphone hears.
        The gadget's card refuses writes (EIO) while the host is not capturing, so the player
        is restarted until the test stops it."""
        card = gadget_side_sound_card(self.udc)
        stop = threading.Event()
        period = [int(12000 * sin(2 * pi * TONE_HZ * n / SAMPLE_RATE)) for n in range(SAMPLE_RATE // TONE_HZ)]
        chunk = b"".join(v.to_bytes(2, "little", signed=True) for v in period) * 20   # 20 ms

        def play():
            while not stop.is_set():
                player = subprocess.Popen(["aplay", "-q", "-D", f"hw:{card}", "-t", "raw", "-f", "S16_LE", "-c", "1",
                                           "-r", str(SAMPLE_RATE), "--buffer-time=100000"],
                                          stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
                try:
                    while not stop.is_set() and player.poll() is None:
                        player.stdin.write(chunk)
                        player.stdin.flush()
                except (BrokenPipeError, ValueError, OSError):
                    pass
                finally:
                    player.kill()
                    player.wait()
                stop.wait(0.05)
        threading.Thread(target=play, daemon=True).start()
        self._tone_stop = stop


def write(path, text):
    Path(path).write_text(text)


def gadget_side_nodes(udc, timeout=10):
    """The gadget's own V4L2 output nodes (one per UVC function, in function order)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        nodes = [p for p in Path("/sys/class/video4linux").iterdir()
                 if f"/{udc}/" in str(p.resolve())]
        if nodes:
            time.sleep(0.1)   # functions bind one after the other
            nodes = [p for p in Path("/sys/class/video4linux").iterdir() if f"/{udc}/" in str(p.resolve())]
            return ["/dev/" + p.name for p in sorted(nodes, key=lambda p: int(p.name[5:]))]
        time.sleep(0.02)
    return []


def gadget_side_sound_card(udc, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for card in Path("/sys/class/sound").glob("card*"):
            if f"/{udc}/" in str(card.resolve()):
                return int(card.name[4:])
        time.sleep(0.02)
    raise AssertionError(f"no gadget-side sound card on {udc}")


def sound_card_of(device):
    """The host's ALSA card number of a USB device, or None."""
    for card in device.glob("*:*/sound/card*"):
        return int(card.name[4:])
    return None


# ---- the test pattern (testbed/usb-gadget/uvc-gadget.c) --------------------------
BAR_YUV = [(235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
           (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128)]
STAMP_BITS = 16


def stamp_of(luma_rows, width):
    """The frame number stamped in the top rows of a luma plane (rows of bytes)."""
    value = 0
    for bit in range(STAMP_BITS):
        x = bit * 8 + 4
        value = (value << 1) | (luma_rows[4][x] > 128)
    return value


def depth_stamp_of(depth_rows):
    """The stamp in the top rows of a Z16 depth map (4000 = 1, 0 = 0)."""
    value = 0
    for bit in range(STAMP_BITS):
        value = (value << 1) | (int(depth_rows[4][bit * 8 + 4]) > 2000)
    return value


def depth_at(x, y):
    """The gadget's depth ramp in millimetres (outside the stamp)."""
    return 500 + 4 * x + y


def expected_yuyv(width, height, number):
    out = bytearray(width * height * 2)
    for y in range(height):
        for x in range(0, width, 2):
            bar = BAR_YUV[x * 8 // width]
            i = (y * width + x) * 2
            out[i:i + 4] = bytes((luma(x, y, width, number), bar[1], luma(x + 1, y, width, number), bar[2]))
    return bytes(out)


def luma(x, y, width, number):
    if y < 8 and x // 8 < STAMP_BITS:
        return 235 if (number >> (STAMP_BITS - 1 - x // 8)) & 1 else 16
    return BAR_YUV[x * 8 // width][0]


def write_scene(path, radiance, subject_focus, background_focus, focus_per_pixel=None):
    """A scene file for uvc-gadget -s (testbed/usb-gadget/scene.h): `radiance` a 2-D float array
    (1.0: a mid-grey card in the light the default exposure expects), the focus distances of the
    subject and of the background (where the camera's own autofocus settles), and the lens's depth
    of field as focus units per pixel of blur radius (the gadget's 15 when None). Writing it again
    while the camera streams changes what it films (half a second later at most)."""
    import numpy as np
    radiance = np.ascontiguousarray(radiance, dtype="<f4")
    height, width = radiance.shape
    # Whole or not at all: a camera filming this scene reads it again when it is replaced.
    written = Path(f"{path}.new")
    with open(written, "wb") as scene:
        lens = "" if focus_per_pixel is None else f" {focus_per_pixel}"
        scene.write(f"OCSCENE {width} {height} {subject_focus} {background_focus}{lens}\n".encode())
        scene.write(radiance.tobytes())
    written.replace(path)
    return Path(path)
