"""The binding as PyPI would take it: the wheel built from pyproject.toml (pip's isolated build,
as a user's `pip install` does) carries the licence (an SPDX expression and its file) and the
README as its long description, and `twine check --strict` passes."""

import email.parser
import pathlib
import shutil
import subprocess
import sys
import zipfile

BINDING = pathlib.Path(__file__).resolve().parents[1]
LICENSE = BINDING.parents[1] / "LICENSE"


def test_the_wheel_carries_its_licence_and_readme_and_twine_passes_it(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(BINDING, source, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__"))
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(source)], check=True, timeout=600)
    [wheel] = dist.glob("ocellus_camera-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(archive.read(f"{info}/METADATA").decode())
        licence = archive.read(f"{info}/licenses/LICENSE").decode()
    assert metadata["License-Expression"] == "MIT" and metadata["License-File"] == "LICENSE"
    assert licence == LICENSE.read_text()
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().strip() == (BINDING / "README.md").read_text().strip()
    assert "ocellus/py.typed" in names, "typed for mypy (PEP 561)"
    tools = tmp_path / "twine"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(tools), "twine"], check=True, timeout=600)
    check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(wheel)], capture_output=True, text=True,
                           env={"PYTHONPATH": str(tools), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert check.returncode == 0 and "PASSED" in check.stdout, check.stdout + check.stderr
