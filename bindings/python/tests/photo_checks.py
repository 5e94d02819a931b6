"""Checks of photo files shared by the suites."""

import json
import subprocess


def assert_valid_exif(path, width, height):
    """exiftool's own validation passes (no warnings), and the pixel dimensions EXIF requires are the JPEG's."""
    checked = subprocess.run(["exiftool", "-validate", "-warning", "-a", "-j", "-ExifImageWidth", "-ExifImageHeight", str(path)],
                             capture_output=True, text=True, check=True)
    tags = json.loads(checked.stdout)[0]
    assert tags["Validate"] == "OK", tags
    assert (tags["ExifImageWidth"], tags["ExifImageHeight"]) == (width, height), tags
