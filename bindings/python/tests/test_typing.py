"""The package as its users' tools see it: `mypy --strict` passes on the package itself, on the
README's example (examples/first_frame.py) and on a user's script written against the public
API — a call returning Any or an Optional passed where a value is needed would fail here — and
every public name has a docstring (what pydoc and editors show)."""

import enum
import inspect
import pathlib
import subprocess
import sys

import pytest

import ocellus

BINDING = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = BINDING.parents[1] / "examples" / "first_frame.py"

USER_SCRIPT = '''
from typing import List, Optional

import numpy as np
from numpy.typing import NDArray

import ocellus


def first_picture() -> NDArray[np.uint8]:
    with ocellus.open_camera("GRAY8") as camera:
        return camera.read()


def frame_sizes(app_id: str) -> List[int]:
    with ocellus.Context(app_id) as ctx:
        camera: Optional[ocellus.Device] = ctx.system_preferred_camera
        if camera is None:
            return []
        session: ocellus.CaptureSession = ctx.capture_session()
        output = ocellus.VideoDataOutput("NV12", 640, 480)
        session.set_input(camera)
        session.add_output(output)
        with session.running():
            frame = output.read(timeout=5.0)
            width: int = frame.width
            return [width, frame.image.shape[0], len(ctx.devices())]
'''


def test_mypy_strict_passes_on_the_package_the_readme_example_and_a_users_script(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed (the test command installs it)")
    script = tmp_path / "user_script.py"
    script.write_text(USER_SCRIPT)
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                             str(BINDING / "ocellus"), str(EXAMPLE), str(script)],
                            capture_output=True, text=True, env={"MYPYPATH": str(BINDING), "PATH": "/usr/bin:/bin"}, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_public_name_has_a_docstring():
    missing = []
    for name in ocellus.__all__:
        value = getattr(ocellus, name)
        if not (value.__doc__ or "").strip():
            missing.append(name)
        if not inspect.isclass(value) or issubclass(value, (enum.Enum, BaseException)):
            continue
        for attribute, member in vars(value).items():
            if attribute.startswith("_"):
                continue
            function = member.fget if isinstance(member, property) else member
            if callable(function) and not (function.__doc__ or "").strip():
                missing.append(f"{name}.{attribute}")
    assert not missing, f"{len(missing)} public names without a docstring: {missing}"
