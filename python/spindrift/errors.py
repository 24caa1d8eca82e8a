"""Errors and diagnostics: every failed C call becomes a SpindriftError carrying the C error code
and the library's last-error message; effect findings are Diagnostic objects."""

import ctypes
import enum
from dataclasses import dataclass

from . import _native


class Result(enum.IntEnum):
    """spindrift_result (include/spindrift/spindrift.h); numbering frozen."""

    OK = 0
    NULL_HANDLE = 1
    INVALID_HANDLE = 2
    STALE_HANDLE = 3
    NULL_POINTER = 4
    STRUCT_SIZE = 5
    INVALID_ARGUMENT = 6
    UNKNOWN_EFFECT = 7
    EFFECT_FAILED = 8
    UNKNOWN_EMITTER = 9
    UNKNOWN_PARAMETER = 10
    UNSUPPORTED = 11
    NOT_RUNNING = 12
    CAPACITY_EXCEEDED = 13
    BACKEND_UNAVAILABLE = 14
    OUT_OF_MEMORY = 15
    BUFFER_TOO_SMALL = 16
    INDEX_OUT_OF_RANGE = 17
    IN_USE = 18
    INTERNAL = 19


class SpindriftError(Exception):
    """A C API call failed. code: the Result; message: spindrift_last_error_message() (the call's
    name and what was wrong); diagnostics: the findings behind it, when the call gave any."""

    def __init__(self, code, message, diagnostics=()):
        try:
            self.code = Result(code)
        except ValueError:  # a newer library's code
            self.code = code
        self.message = message
        self.diagnostics = list(diagnostics)
        super().__init__(f"{self.name}: {message}")

    @property
    def name(self):
        return _native.lib.spindrift_result_name(int(self.code)).decode("utf-8", "replace")


class EffectError(SpindriftError):
    """An effect or scene that does not load, validate or compile (Result.EFFECT_FAILED);
    diagnostics lists every finding."""


def last_error_message():
    """This thread's last-error message ("" after a call that succeeded)."""
    return _native.lib.spindrift_last_error_message().decode("utf-8", "replace")


def check(result, diagnostics=(), message=None):
    """Raises for a result other than OK, with the message of the call that just returned (or
    message, read before later calls replaced it)."""
    if result == Result.OK:
        return
    if message is None:
        message = last_error_message()
    kind = EffectError if result == Result.EFFECT_FAILED else SpindriftError
    raise kind(result, message, diagnostics)


@dataclass(frozen=True)
class Diagnostic:
    """One finding about an effect or scene file. line and column are 1-based (0: the input has
    no text positions, a cooked file; byte_offset names the place). path is the JSON path
    ("$.emitters[2].spawn.rate_per_s"), "" when the finding has none."""

    severity: str  # "error" or "warning"
    file: str
    line: int
    column: int
    byte_offset: int
    path: str
    message: str

    @property
    def is_error(self):
        return self.severity == "error"

    def __str__(self):
        where = self.file
        if self.line:
            where += f":{self.line}:{self.column}"
        path = f"{self.path}: " if self.path else ""
        return f"{where}: {self.severity}: {path}{self.message}"


def _text(value):
    return value.decode("utf-8", "replace") if value else ""


def take_diagnostics(handle):
    """The diagnostics of a C list as Python objects (copied), then the list destroyed."""
    if handle.id == 0:
        return []
    try:
        count = ctypes.c_uint32()
        check(_native.lib.spindrift_diagnostics_count(handle, ctypes.byref(count)))
        found = []
        for index in range(count.value):
            d = _native.sized(_native.Diagnostic)
            check(_native.lib.spindrift_diagnostics_get(handle, index, ctypes.byref(d)))
            found.append(
                Diagnostic(
                    severity="error" if d.severity == 0 else "warning",
                    file=_text(d.file),
                    line=d.line,
                    column=d.column,
                    byte_offset=d.byte_offset,
                    path=_text(d.path),
                    message=_text(d.message),
                )
            )
        return found
    finally:
        _native.lib.spindrift_diagnostics_destroy(handle)


def call_with_diagnostics(function, *args):
    """Calls a C function whose last argument is a spindrift_diagnostics* and returns the
    findings; raises (with them) when it fails."""
    handle = _native.Diagnostics()
    result = function(*args, ctypes.byref(handle))
    message = last_error_message()  # before the list's own calls replace it
    found = take_diagnostics(handle)
    check(result, found, message)
    return found
