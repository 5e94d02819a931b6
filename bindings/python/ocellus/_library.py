"""The loaded library: every function with its C types (`_native`, generated from the header),
and statuses below zero raised as exceptions (header sections "Version" and "Status codes and
errors")."""

import ctypes
import ctypes.util
import os
from typing import Any, Callable, Iterator, List, Optional, Sequence

from . import _native
from .errors import error_for

_SONAME = "libocellus.so.0"


def _candidates() -> Iterator[str]:
    env = os.environ.get("OCELLUS_LIBRARY")
    if env:
        yield env
    yield os.path.join(os.path.dirname(os.path.abspath(__file__)), _SONAME)
    yield _SONAME
    found = ctypes.util.find_library("ocellus")
    if found:
        yield found


def _load() -> ctypes.CDLL:
    """Loads libocellus: $OCELLUS_LIBRARY, then a copy beside this package, then the SONAME."""
    tried: List[str] = []
    for candidate in _candidates():
        if os.sep in candidate and not os.path.exists(candidate):
            tried.append(f"{candidate} (no such file)")
            continue
        try:
            return ctypes.CDLL(candidate)
        except OSError as error:
            tried.append(f"{candidate} ({error})")
    raise ImportError("cannot load the Ocellus library (install libocellus0, or set OCELLUS_LIBRARY to the path of "
                      "libocellus.so.0); tried: " + "; ".join(tried))


def _declare(lib: ctypes.CDLL, errcheck_status: Callable[..., int]) -> ctypes.CDLL:
    """Sets argtypes/restype for every C function; status-returning ones raise on failure."""
    for name, (argtypes, restype) in _native.FUNCTIONS.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = restype
        if restype is _native.c_status:
            function.errcheck = errcheck_status
    return lib


def _check(status: int, function: Any, arguments: Sequence[Any]) -> int:
    if status < 0:
        raise error_for(status, _lib.oc_last_error_message().decode("utf-8", "replace"))
    return status


#: The C functions, typed for ctypes (what they return is C's, hence Any).
_lib: Any = _declare(_load(), _check)


def _text(raw: Optional[bytes]) -> Optional[str]:
    """A C string the library may leave NULL."""
    return None if raw is None else raw.decode("utf-8", "replace")


def _string(raw: Optional[bytes]) -> str:
    """A C string the library always gives (a name, an ID, a message)."""
    return "" if raw is None else raw.decode("utf-8", "replace")


def version() -> str:
    """The version of the loaded library."""
    return _string(_lib.oc_version())
