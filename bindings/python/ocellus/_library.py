"""The loaded library: every function with its C types (`_native`), and statuses below zero
raised as exceptions (header sections "Version" and "Status codes and errors")."""

from typing import Any, Optional, Sequence

from . import _native
from .errors import error_for


def _check(status: int, function: Any, arguments: Sequence[Any]) -> int:
    if status < 0:
        raise error_for(status, _lib.oc_last_error_message().decode("utf-8", "replace"))
    return status


#: The C functions, typed for ctypes by `_native.declare` (what they return is C's, hence Any).
_lib: Any = _native.declare(_native.load_library(), _check)


def _text(raw: Optional[bytes]) -> Optional[str]:
    """A C string the library may leave NULL."""
    return None if raw is None else raw.decode("utf-8", "replace")


def _string(raw: Optional[bytes]) -> str:
    """A C string the library always gives (a name, an ID, a message)."""
    return "" if raw is None else raw.decode("utf-8", "replace")


def version() -> str:
    """The version of the loaded library."""
    return _string(_lib.oc_version())
