"""What every callback shares: an exception raised in one is reported through
`sys.unraisablehook` (it cannot propagate into C); registrations and closable handles."""

import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .context import Context



def _unraisable_hook_args_type():
    """CPython's UnraisableHookArgs, which its default hook insists on (it is not exported):
    taken from one unraisable exception reported to a hook of our own."""
    seen = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda args: seen.append(type(args))

    class _Raises:
        def __del__(self):
            raise RuntimeError

    try:
        _Raises()
    finally:
        sys.unraisablehook = previous
    return seen[0] if seen else None


_UnraisableHookArgs = _unraisable_hook_args_type()


def _report_callback_exception(callback):
    """Reports the exception being handled to sys.unraisablehook (whatever it is: CPython's
    default prints the traceback): it cannot propagate into C."""
    exc_type, exc, tb = sys.exc_info()
    fields = (exc_type, exc, tb, "Exception ignored in Ocellus callback", callback)
    sys.unraisablehook(_UnraisableHookArgs(fields) if _UnraisableHookArgs else
                       types.SimpleNamespace(exc_type=exc_type, exc_value=exc, exc_traceback=tb,
                                             err_msg=fields[3], object=callback))


class _Closable:
    """`close()` runs the object's finalizer once; usable as a context manager."""

    def close(self) -> None:
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Registration:
    """A registered callback; `remove()` (or leaving a `with` block) unregisters it and
    returns only after a call in flight has finished."""

    def __init__(self, context: "Context", callback_id: int, trampoline):
        self._context = context
        self._id = callback_id
        self._trampoline = trampoline  # keeps the C function pointer alive

    def remove(self) -> None:
        if self._id:
            callback_id, self._id = self._id, 0
            self._context._remove_callback(callback_id)
            self._context._registrations.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
