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


def test_it_builds_offline_with_the_setuptools_the_system_ships(tmp_path):
    """What docs/python.md tells a Debian user: a venv seeing the system's packages, built with
    the system's setuptools (Debian 12: 66, which reads only the older licence form), no index."""
    source = tmp_path / "source"
    shutil.copytree(BINDING, source, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    built = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-build-isolation", "--no-index", str(source)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    shown = subprocess.run([str(venv / "bin" / "pip"), "show", "ocellus-camera"], capture_output=True, text=True, check=True).stdout
    assert "License: MIT" in shown or "License-Expression: MIT" in shown, shown
