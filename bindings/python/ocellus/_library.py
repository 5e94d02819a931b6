"""The loaded library: every function with its C types (`_native`), and statuses below zero
raised as exceptions (header sections "Version" and "Status codes and errors")."""

from typing import Optional

from . import _native
from .errors import error_for

def _check(status, function, arguments):
    if status < 0:
        raise error_for(status, _lib.oc_last_error_message().decode("utf-8", "replace"))
    return status


_lib = _native.declare(_native.load_library(), _check)


def _text(raw: Optional[bytes]) -> Optional[str]:
    return None if raw is None else raw.decode("utf-8", "replace")


def version() -> str:
    """The version of the loaded library."""
    return _text(_lib.oc_version())
