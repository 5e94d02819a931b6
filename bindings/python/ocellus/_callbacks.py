"""What every callback shares: an exception raised in one is reported through
`sys.unraisablehook` (it cannot propagate into C); registrations and closable handles."""

import ctypes
import sys
import threading
import types
from concurrent.futures import Future
from typing import Any, Callable, Dict, Optional, Protocol, Set, TypeVar

from . import _native


class _CallbackOwner(Protocol):
    """What callbacks are registered with: it keeps the registrations and removes one by ID."""
    _registrations: Set["Registration"]

    def _remove_callback(self, callback_id: int) -> None: ...


def _unraisable_hook_args_type() -> Optional[type]:
    """CPython's UnraisableHookArgs, which its default hook insists on (it is not exported):
    taken from one unraisable exception reported to a hook of our own."""
    seen: list[type] = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda args: seen.append(type(args))

    class _Raises:
        def __del__(self) -> None:
            raise RuntimeError

    try:
        _Raises()
    finally:
        sys.unraisablehook = previous
    return seen[0] if seen else None


_UnraisableHookArgs = _unraisable_hook_args_type()


def _report_callback_exception(callback: object) -> None:
    """Reports the exception being handled to sys.unraisablehook (whatever it is: CPython's
    default prints the traceback): it cannot propagate into C."""
    exc_type, exc, tb = sys.exc_info()
    fields = (exc_type, exc, tb, "Exception ignored in Ocellus callback", callback)
    sys.unraisablehook(_UnraisableHookArgs(fields) if _UnraisableHookArgs else
                       types.SimpleNamespace(exc_type=exc_type, exc_value=exc, exc_traceback=tb,
                                             err_msg=fields[3], object=callback))


_ClosableT = TypeVar("_ClosableT", bound="_Closable")


class _Closable:
    """`close()` runs the object's finalizer once; usable as a context manager."""

    _finalizer: Callable[[], Any]

    def close(self) -> None:
        self._finalizer()

    def __enter__(self: _ClosableT) -> _ClosableT:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def c_callback(c_type: Any, callback: Callable[..., Any], convert: Callable[..., Any]) -> Any:
    """The C function pointer the library calls for `callback`: `callback(*convert(*arguments))`
    with the C arguments but the trailing user data (`convert` returning None skips the call:
    an event this binding does not know yet). An exception is reported, never propagated into
    C. The caller keeps the result alive while the library may call it."""

    def trampoline(*arguments: Any) -> None:
        try:
            converted = convert(*arguments[:-1])
            if converted is not None:
                callback(*converted)
        except BaseException:  # noqa: B036 - nothing may unwind into C
            _report_callback_exception(callback)

    return c_type(trampoline)


def register(owner: _CallbackOwner, handle: Optional[int], add: Callable[..., Any], c_type: Any, callback: Callable[..., Any],
             convert: Callable[..., Any], *leading: Any) -> "Registration":
    """Registers `callback` with the C function `add` (`add(handle, *leading, function, user_data,
    &id)`) and keeps the registration in `owner`, which removes it (`owner._remove_callback`)."""
    function = c_callback(c_type, callback, convert)
    callback_id = _native.c_callback_id()
    add(handle, *leading, function, None, ctypes.byref(callback_id))
    registration = Registration(owner, callback_id.value, function)
    owner._registrations.add(registration)
    return registration


def unregister(owner: _CallbackOwner, registration: "Registration | int") -> None:
    """Removes `owner`'s callback named by a `Registration` or the ID it converts to (an unknown
    ID: the library's NotFound)."""
    callback_id = int(registration)
    known = next((each for each in owner._registrations if each.callback_id == callback_id), None)
    if known:
        known.remove()
    else:
        owner._remove_callback(callback_id)


class Registration:
    """A registered callback — of a context, a capture session or a rotation coordinator;
    `remove()` (or leaving a `with` block) unregisters it and returns only after a call in
    flight has finished. `int(registration)` is the library's callback ID."""

    def __init__(self, owner: _CallbackOwner, callback_id: int, function: Any):
        self._owner = owner
        self.callback_id = callback_id
        self._function = function  # keeps the C function pointer alive
        self._registered = True

    def remove(self) -> None:
        """Unregisters the callback; a call in flight finishes first. Idempotent."""
        if self._registered:
            self._registered = False
            self._owner._remove_callback(self.callback_id)
            self._owner._registrations.discard(self)

    def __index__(self) -> int:
        return self.callback_id

    __int__ = __index__

    def __enter__(self) -> "Registration":
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


class _Requests:
    """Futures of requests answered by a C callback, keyed by the token passed as its user data.
    The C callback closes over this object only (never the output), and the output's finalizer
    keeps the callback alive until destroy has answered every request."""

    def __init__(self) -> None:
        self._futures: Dict[int, "Future[Any]"] = {}
        self._lock, self._next = threading.Lock(), 0

    def call(self, function: Callable[..., Any], *arguments: Any) -> "Future[Any]":
        """`function(*arguments, token)`; the returned future is dropped if the call raises."""
        future: "Future[Any]" = Future()
        with self._lock:
            self._next += 1
            token = self._next
            self._futures[token] = future
        try:
            function(*arguments, token)
        except BaseException:
            self.take(token)
            raise
        return future

    def take(self, token: int) -> "Optional[Future[Any]]":
        with self._lock:
            return self._futures.pop(token, None)
