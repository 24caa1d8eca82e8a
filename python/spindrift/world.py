"""Worlds and their instances: the runtime a host drives frame by frame."""

import ctypes
import dataclasses

import numpy as np

from . import _args, _native
from .arrays import EVENT_DTYPE, PARTICLE_DTYPE, borrowed
from .errors import Result, SpindriftError, check

_lib = _native.lib

BACKENDS = {"cpu": 0, "gpu": 1, "auto": 2}
_BACKEND_NAMES = {0: "cpu", 1: "gpu", 2: "auto"}
#: World.run refuses more frames than this (a typo like run(1e9) would otherwise hang).
MAX_RUN_FRAMES = 1_000_000
STATES = {0: "idle", 1: "playing", 2: "paused", 3: "stopping", 4: "finished"}


def _record_type(struct_type, name):
    fields = [f for f, _ in struct_type._fields_ if f != "struct_size"]
    return dataclasses.make_dataclass(name, fields, frozen=True)


def _record(record_type, struct):
    values = {}
    for field in dataclasses.fields(record_type):
        value = getattr(struct, field.name)
        if isinstance(value, _native.Transform):
            value = {
                "position": _args.vector_tuple(value.position),
                "rotation": (value.rotation.x, value.rotation.y, value.rotation.z,
                             value.rotation.w),
                "scale": _args.vector_tuple(value.scale),
            }
        values[field.name] = value
    return record_type(**values)


#: What one World.update did (spindrift_update_receipt; counts of that update only).
UpdateReceipt = _record_type(_native.UpdateReceipt, "UpdateReceipt")
#: Totals since the world was made (spindrift_world_stats).
WorldStats = _record_type(_native.WorldStats, "WorldStats")
#: An instance's state (spindrift_instance_info); state is a number, Instance.state its name.
InstanceInfo = _record_type(_native.InstanceInfo, "InstanceInfo")


def _transform(position, rotation, scale):
    return _native.Transform(
        _args.vec3(position, "position"), _args.quat(rotation, "rotation"), _args.vec3(scale, "scale")
    )


class World:
    """A world playing effects of a library (spindrift_world). Close it (or use `with`) before
    the library; an open world keeps its Library object alive.

    backend: "cpu" (deterministic, every feature), "gpu" (Vulkan compute) or "auto". threads:
    the world's own worker threads, the calling thread included (results do not depend on it)."""

    def __init__(self, library, backend="cpu", threads=1, max_instances=None,
                 max_steps_per_frame=None):
        from .effects import Library

        if not isinstance(library, Library):
            raise TypeError(f"library: expected a spindrift.Library, got {type(library).__name__}")
        config = _native.WorldConfig()
        check(_lib.spindrift_default_world_config(ctypes.byref(config)))
        config.backend = _args.choice(backend, BACKENDS, "backend")
        config.threads = _args.uint(threads, "threads", minimum=1, maximum=1024)
        if max_instances is not None:
            config.max_instances = _args.uint(max_instances, "max_instances", minimum=1)
        if max_steps_per_frame is not None:
            config.max_steps_per_frame = _args.uint(max_steps_per_frame, "max_steps_per_frame")
        handle = _native.World()
        check(_lib.spindrift_world_create(library.handle, ctypes.byref(config), ctypes.byref(handle)))
        self.library = library
        self._handle = handle

    @property
    def handle(self):
        if self._handle is None:
            raise SpindriftError(Result.STALE_HANDLE, "the world is closed")
        return self._handle

    @property
    def closed(self):
        return self._handle is None

    def close(self):
        """Destroys the world and its instances (their Instance objects go stale)."""
        if self._handle is not None:
            check(_lib.spindrift_world_destroy(self._handle))
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if self._handle is not None:
                _lib.spindrift_world_destroy(self._handle)
        except Exception:
            pass

    def spawn(self, effect, position=(0, 0, 0), rotation=(0, 0, 0, 1), scale=(1, 1, 1), *,
              play=True, destroy_on_finish=False, important=False, time_scale=1.0,
              tint=(1, 1, 1, 1), size_scale=1.0, spawn_rate_scale=1.0, seed=None):
        """Creates an instance of effect (an Effect of this world's library) and returns it.
        rotation is a quaternion (x, y, z, w); seed replaces the effect's seed."""
        from .effects import Effect

        if not isinstance(effect, Effect):
            raise TypeError(f"effect: expected a spindrift.Effect, got {type(effect).__name__}")
        if effect.library is not self.library:
            raise ValueError("effect: it belongs to another library than this world's")
        desc = _native.InstanceDesc()
        check(_lib.spindrift_default_instance_desc(ctypes.byref(desc)))
        desc.effect = effect.id
        desc.transform = _transform(position, rotation, scale)
        desc.flags = (
            (1 if _args.flag(play, "play") else 0)
            | (2 if _args.flag(destroy_on_finish, "destroy_on_finish") else 0)
            | (4 if _args.flag(important, "important") else 0)
        )
        desc.time_scale = _args.real(time_scale, "time_scale")
        desc.tint = _args.color(tint, "tint")
        desc.size_scale = _args.real(size_scale, "size_scale")
        desc.spawn_rate_scale = _args.real(spawn_rate_scale, "spawn_rate_scale")
        if seed is not None:
            desc.override_seed = True
            desc.seed = _args.uint(seed, "seed")
        handle = _native.Instance()
        check(_lib.spindrift_instance_create(self.handle, ctypes.byref(desc), ctypes.byref(handle)))
        return Instance(self, effect, handle)

    def update(self, dt):
        """Advances every playing instance by dt seconds (x its time scale) in whole fixed
        steps; returns the UpdateReceipt. A negative or non-finite dt is refused (ValueError)
        before anything runs."""
        dt = _args.finite(dt, "dt")
        if dt < 0:
            raise ValueError(f"dt: expected seconds >= 0, got {dt}")
        receipt = _native.sized(_native.UpdateReceipt)
        check(_lib.spindrift_world_update(self.handle, dt, ctypes.byref(receipt)))
        return _record(UpdateReceipt, receipt)

    def run(self, seconds, dt=1.0 / 60.0):
        """Updates for seconds in frames of dt (the last one shorter); returns the last receipt."""
        seconds = _args.finite(seconds, "seconds")
        dt = _args.finite(dt, "dt")
        if dt <= 0:
            raise ValueError(f"dt: expected seconds > 0, got {dt}")
        if seconds < 0:
            raise ValueError(f"seconds: expected >= 0, got {seconds}")
        frames = int(np.ceil(seconds / dt - 1e-9)) if seconds > 0 else 0
        if frames > MAX_RUN_FRAMES:
            raise ValueError(
                f"run: {frames} frames of {dt} s; at most {MAX_RUN_FRAMES} (call update for more)"
            )
        receipt = None
        done = 0.0
        for _ in range(frames):
            step = min(dt, seconds - done)
            receipt = self.update(step)
            done += step
        return receipt

    def stats(self):
        out = _native.sized(_native.WorldStats)
        check(_lib.spindrift_world_stats_get(self.handle, ctypes.byref(out)))
        return _record(WorldStats, out)

    def set_camera_position(self, position):
        """Where the camera is: which host attractors act, what sleeps by distance."""
        value = _args.vec3(position, "position")
        check(_lib.spindrift_world_set_camera_position(self.handle, ctypes.byref(value)))

    def events(self, copy=True):
        """The last update's gameplay events as an EVENT_DTYPE array. copy=False gives a
        read-only view of the world's own memory, valid until the next update or close."""
        pointer = ctypes.c_void_p()
        count = ctypes.c_uint32()
        check(
            _lib.spindrift_world_events(
                self.handle, _native.EVENT_SIZE, ctypes.byref(pointer), ctypes.byref(count)
            )
        )
        view = borrowed(pointer.value, count.value, EVENT_DTYPE, self)
        return view.copy() if copy else view

    def draw_list(self, view=None):
        """The visible instances in draw order for view (a DrawView; None: the defaults) as a new
        DrawList (see its lifetime rules)."""
        from .drawing import DrawList

        draw_list = DrawList()
        try:
            draw_list.fill(self, view)
        except BaseException:
            draw_list.close()
            raise
        return draw_list


class Instance:
    """One instance of a world (a generation-checked handle): after destroy, or after its world
    closes, every call raises SpindriftError (STALE_HANDLE)."""

    def __init__(self, world, effect, handle):
        self.world = world
        self.effect = effect
        self._handle = handle

    def __repr__(self):
        return f"Instance(0x{self._handle.id:016x}, effect={self.effect.id})"

    @property
    def handle(self):
        return self._handle

    def _call(self, name, *args):
        check(getattr(_lib, name)(self.world.handle, self._handle, *args))

    def _query(self, name):
        out = ctypes.c_bool()
        self._call(name, ctypes.byref(out))
        return out.value

    # Control (spindrift/runtime.h has each one's exact effect).
    def play(self):
        self._call("spindrift_instance_play")

    def pause(self):
        self._call("spindrift_instance_pause")

    def resume(self):
        self._call("spindrift_instance_resume")

    def stop(self):
        self._call("spindrift_instance_stop")

    def clear(self):
        self._call("spindrift_instance_clear")

    def restart(self):
        self._call("spindrift_instance_restart")

    def destroy(self):
        self._call("spindrift_instance_destroy")

    def emit(self, emitter, count):
        """count particles (1..2^24) on the named emitter in the next step."""
        self._call(
            "spindrift_instance_emit", _args.name(emitter, "emitter"),
            _args.uint(count, "count", minimum=1, maximum=1 << 24),
        )

    def set_transform(self, position=(0, 0, 0), rotation=(0, 0, 0, 1), scale=(1, 1, 1),
                      teleport=False):
        value = _transform(position, rotation, scale)
        self._call("spindrift_instance_set_transform", ctypes.byref(value),
                   _args.flag(teleport, "teleport"))

    def seek(self, time_s):
        self._call("spindrift_instance_seek", _args.real(time_s, "time_s"))

    def advance_to(self, time_s):
        self._call("spindrift_instance_advance_to", _args.real(time_s, "time_s"))

    def set_visible(self, visible):
        self._call("spindrift_instance_set_visible", _args.flag(visible, "visible"))

    def set_time_scale(self, scale):
        self._call("spindrift_instance_set_time_scale", _args.real(scale, "scale"))

    def set_tint(self, tint):
        value = _args.color(tint, "tint")
        self._call("spindrift_instance_set_tint", ctypes.byref(value))

    def set_size_scale(self, scale):
        self._call("spindrift_instance_set_size_scale", _args.real(scale, "scale"))

    def set_spawn_rate_scale(self, scale):
        self._call("spindrift_instance_set_spawn_rate_scale", _args.real(scale, "scale"))

    def set_seed(self, seed):
        self._call("spindrift_instance_set_seed", _args.uint(seed, "seed"))

    def set_emitter_enabled(self, emitter, enabled):
        self._call("spindrift_instance_set_emitter_enabled", _args.name(emitter, "emitter"),
                   _args.flag(enabled, "enabled"))

    @property
    def alive(self):
        """False once destroyed (also for a stale handle)."""
        return self._query("spindrift_instance_is_alive")

    @property
    def playing(self):
        return self._query("spindrift_instance_is_playing")

    @property
    def finished(self):
        return self._query("spindrift_instance_is_finished")

    def info(self):
        out = _native.sized(_native.InstanceInfo)
        self._call("spindrift_instance_info_get", ctypes.byref(out))
        return _record(InstanceInfo, out)

    @property
    def state(self):
        return STATES.get(self.info().state, "unknown")

    @property
    def live_particles(self):
        return self.info().live_particles

    def particles(self):
        """Every live particle in world space, overrides applied, as a new PARTICLE_DTYPE array
        (a copy: the C API copies them out, straight into the array's memory)."""
        for _ in range(4):  # the count cannot change between the calls; retried all the same
            count = ctypes.c_uint32()
            self._call("spindrift_instance_read_particles", None, 0, ctypes.byref(count))
            out = np.empty(count.value, dtype=PARTICLE_DTYPE)
            result = _lib.spindrift_instance_read_particles(
                self.world.handle, self._handle, out.ctypes.data if count.value else None,
                count.value, ctypes.byref(count),
            )
            if result != Result.BUFFER_TOO_SMALL:
                check(result)
                return out if count.value == len(out) else out[: count.value].copy()
        check(result)

    # User parameters: the kind comes from the effect's declaration.
    def set_parameter(self, name, value):
        """Sets a user parameter: a number for a float, 3 numbers for a float3, 3 or 4 for a
        colour. Out of range: SpindriftError (INVALID_ARGUMENT), never clamped."""
        kind = self._parameter_kind(name)
        encoded = _args.name(name, "name")
        if kind == "float":
            self._call("spindrift_instance_set_parameter_float", encoded, _args.real(value, "value"))
        elif kind == "float3":
            v = _args.vec3(value, "value")
            self._call("spindrift_instance_set_parameter_float3", encoded, ctypes.byref(v))
        else:
            c = _args.color(value, "value")
            self._call("spindrift_instance_set_parameter_color", encoded, ctypes.byref(c))

    def get_parameter(self, name):
        """A float, or a tuple of 3 (float3) or 4 (colour)."""
        kind = self._parameter_kind(name)
        encoded = _args.name(name, "name")
        if kind == "float":
            out = ctypes.c_float()
            self._call("spindrift_instance_get_parameter_float", encoded, ctypes.byref(out))
            return out.value
        if kind == "float3":
            v = _native.Vec3()
            self._call("spindrift_instance_get_parameter_float3", encoded, ctypes.byref(v))
            return _args.vector_tuple(v)
        c = _native.Color()
        self._call("spindrift_instance_get_parameter_color", encoded, ctypes.byref(c))
        return _args.color_tuple(c)

    def _parameter_kind(self, name):
        _args.name(name, "name")
        parameter = self.effect.parameters.get(name)
        # An unknown name goes to C as a float, which refuses it listing the names there are.
        return parameter.kind if parameter is not None else "float"
