"""NumPy views of the C API's records: structured dtypes with the header's frozen layouts, and
read-only views of memory the library owns (no copy)."""

import ctypes

import numpy as np

from . import _native

#: spindrift_particle (64 bytes): a particle read back, or one of a billboard or mesh batch.
PARTICLE_DTYPE = np.dtype(
    [
        ("position", "<f4", (3,)),
        ("size_m", "<f4"),
        ("color", "<f4", (4,)),
        ("velocity_m_per_s", "<f4", (3,)),
        ("rotation_rad", "<f4"),
        ("normalized_age", "<f4"),
        ("flipbook_frame", "<f4"),
        ("emitter_index", "<u4"),
        ("key", "<u4"),
    ],
    align=True,
)

#: spindrift_strip_point (48 bytes): one point of a ribbon or beam polyline.
STRIP_POINT_DTYPE = np.dtype(
    [
        ("position", "<f4", (3,)),
        ("width_m", "<f4"),
        ("color", "<f4", (4,)),
        ("tangent", "<f4", (3,)),
        ("u", "<f4"),
    ],
    align=True,
)

#: spindrift_event (72 bytes): kind 0 birth, 1 death, 2 collision, 3 threshold.
EVENT_DTYPE = np.dtype(
    [
        ("kind", "<u4"),
        ("emitter_index", "<u4"),
        ("instance", "<u8"),
        ("step", "<u8"),
        ("particle_key", "<u4"),
        ("collision_op", "<u4"),
        ("position", "<f4", (3,)),
        ("velocity", "<f4", (3,)),
        ("normal", "<f4", (3,)),
        ("reserved", "<u4"),
    ],
    align=True,
)

# The dtypes must be the C layouts exactly; a mismatch would read garbage, so it stops the import.
for _dtype, _struct in (
    (PARTICLE_DTYPE, _native.Particle),
    (STRIP_POINT_DTYPE, _native.StripPoint),
    (EVENT_DTYPE, _native.Event),
):
    if _dtype.itemsize != ctypes.sizeof(_struct):
        raise ImportError(f"{_struct.__name__}: dtype of {_dtype.itemsize} bytes, C has "
                          f"{ctypes.sizeof(_struct)}")


def borrowed(address, count, dtype, owner):
    """A read-only array of count records of dtype at address, memory the library owns: no copy.
    The array keeps owner (the Python object whose C object holds the memory) alive, but the
    memory is only valid for as long as the C API says (see the caller's documentation)."""
    if count == 0 or not address:
        empty = np.empty(0, dtype=dtype)
        empty.flags.writeable = False
        return empty
    buffer = (ctypes.c_ubyte * (count * dtype.itemsize)).from_address(address)
    buffer._spindrift_owner = owner  # the array's base chain ends here: owner lives as long
    array = np.frombuffer(buffer, dtype=dtype, count=count)
    array.flags.writeable = False
    return array
