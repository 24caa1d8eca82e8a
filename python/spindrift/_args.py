"""Checks on what Python callers pass, made before anything reaches C: ctypes would silently
truncate an int too large for uint32, a str with a NUL would be cut short, and a sequence of the
wrong length would fill a struct partly. Each refusal is a TypeError or ValueError naming the
argument; values C checks itself (finite, in range) are left to it, so the rule lives in one
place."""

import math
import numbers
import os

from . import _native


def name(value, what):
    """A str (UTF-8, no NUL) as bytes."""
    if not isinstance(value, str):
        raise TypeError(f"{what}: expected a str, got {type(value).__name__}")
    if "\0" in value:
        raise ValueError(f"{what}: contains a NUL character")
    return value.encode("utf-8")


def path(value, what="path"):
    """A str or os.PathLike as file-system bytes."""
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{what}: expected a path (str or os.PathLike), got {type(value).__name__}")
    encoded = os.fsencode(value)
    if b"\0" in encoded:
        raise ValueError(f"{what}: contains a NUL byte")
    return encoded


def real(value, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what}: expected a number, got {type(value).__name__}")
    return float(value)


def finite(value, what):
    number = real(value, what)
    if not math.isfinite(number):
        raise ValueError(f"{what}: expected a finite number, got {number}")
    return number


def uint(value, what, maximum=2**32 - 1, minimum=0):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what}: expected an int, got {type(value).__name__}")
    number = int(value)
    if not minimum <= number <= maximum:
        raise ValueError(f"{what}: expected an int in [{minimum}, {maximum}], got {number}")
    return number


def flag(value, what):
    if not isinstance(value, (bool,)) and not (
        isinstance(value, numbers.Integral) and int(value) in (0, 1)
    ):
        raise TypeError(f"{what}: expected a bool, got {type(value).__name__}")
    return bool(value)


def numbers_of(value, count, what):
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{what}: expected {count} numbers, got {type(value).__name__}") from None
    if len(items) != count:
        raise ValueError(f"{what}: expected {count} numbers, got {len(items)}")
    return [real(item, f"{what}[{i}]") for i, item in enumerate(items)]


def vec3(value, what):
    return _native.Vec3(*numbers_of(value, 3, what))


def quat(value, what):
    return _native.Quat(*numbers_of(value, 4, what))


def color(value, what):
    """3 numbers (alpha 1) or 4."""
    try:
        count = len(value)
    except TypeError:
        raise TypeError(f"{what}: expected 3 or 4 numbers, got {type(value).__name__}") from None
    if count == 3:
        return _native.Color(*numbers_of(value, 3, what), 1.0)
    return _native.Color(*numbers_of(value, 4, what))


def choice(value, choices, what):
    """One of the names of choices (a dict name -> C value)."""
    if not isinstance(value, str) or value not in choices:
        names = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{what}: expected one of {names}, got {value!r}")
    return choices[value]


def vector_tuple(v):
    return (v.x, v.y, v.z)


def color_tuple(c):
    return (c.r, c.g, c.b, c.a)
