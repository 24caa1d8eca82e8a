"""Spindrift from Python: effects, worlds, particles and draw lists as NumPy arrays, and
offscreen renders, over the C API of libspindrift.so (include/spindrift/spindrift.h) through
ctypes. docs/python.md is the tour.

    import spindrift
    with spindrift.Library() as library, spindrift.World(library) as world:
        fire = world.spawn(library.add_file("examples/effects/campfire.json"))
        world.run(1.0)
        print(fire.live_particles, fire.particles()["position"].mean(axis=0))
        spindrift.write_png("fire.png", spindrift.Renderer(320, 180).render(world))
"""

from . import _native
from .arrays import EVENT_DTYPE, PARTICLE_DTYPE, STRIP_POINT_DTYPE
from .drawing import DrawBatch, DrawList, DrawView
from .effects import Effect, EffectInfo, Library, Parameter, ReloadReport
from .effects import validate_file, validate_text
from .errors import Diagnostic, EffectError, Result, SpindriftError, last_error_message
from .png import encode_png, read_png, write_png
from .rendering import (
    Camera,
    FileRenderInfo,
    Light,
    Motion,
    Renderer,
    render_file,
    render_file_with_info,
)
from .world import Instance, InstanceInfo, UpdateReceipt, World, WorldStats

#: The library's version ("major.minor.patch").
version = _native.lib.spindrift_version_string().decode("ascii")
#: The path of the libspindrift.so in use.
library_path = _native.lib._name

__all__ = [
    "Camera",
    "Light",
    "Motion",
    "Diagnostic",
    "DrawBatch",
    "DrawList",
    "DrawView",
    "EVENT_DTYPE",
    "Effect",
    "EffectError",
    "EffectInfo",
    "FileRenderInfo",
    "Instance",
    "InstanceInfo",
    "Library",
    "PARTICLE_DTYPE",
    "Parameter",
    "ReloadReport",
    "Renderer",
    "Result",
    "STRIP_POINT_DTYPE",
    "SpindriftError",
    "UpdateReceipt",
    "World",
    "WorldStats",
    "encode_png",
    "last_error_message",
    "library_path",
    "read_png",
    "render_file",
    "render_file_with_info",
    "validate_file",
    "validate_text",
    "version",
    "write_png",
]
