"""The C API (include/spindrift/spindrift.h) through ctypes: finding libspindrift.so, the structs
as ctypes mirrors of the header's layouts, and every function's signature. Nothing here is
public; the rest of the package wraps it in Python objects."""

import ctypes
import ctypes.util
import os
from pathlib import Path

from ctypes import (
    POINTER,
    Structure,
    c_bool,
    c_char,
    c_char_p,
    c_double,
    c_float,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)

LIBRARY_ENV = "SPINDRIFT_LIBRARY"


def _candidates():
    """Where libspindrift.so may be, most specific first (docs/python.md, "Finding the library")."""
    here = Path(__file__).resolve().parent
    # Installed: <prefix>/lib/python3/dist-packages/spindrift, the library in <prefix>/lib (or
    # its multiarch folder, as GNUInstallDirs may put it).
    prefix_lib = here.parent.parent.parent
    folders = [prefix_lib]
    if prefix_lib.is_dir():
        folders += sorted(p for p in prefix_lib.glob("*-linux-gnu*") if p.is_dir())
    # The source tree: python/spindrift beside build/lib (the release preset's folder).
    folders.append(here.parent.parent / "build" / "lib")
    for folder in folders:
        exact = folder / "libspindrift.so"
        if exact.exists():
            yield str(exact)
        for versioned in sorted(folder.glob("libspindrift.so.*")):
            yield str(versioned)
    found = ctypes.util.find_library("spindrift")
    if found:
        yield found


def _load():
    explicit = os.environ.get(LIBRARY_ENV)
    if explicit:
        try:
            return ctypes.CDLL(explicit)
        except OSError as error:
            raise ImportError(f"{LIBRARY_ENV}={explicit}: cannot load it: {error}") from error
    tried = []
    for candidate in _candidates():
        try:
            return ctypes.CDLL(candidate)
        except OSError as error:
            tried.append(f"{candidate} ({error})")
    raise ImportError(
        "libspindrift.so not found: set "
        + LIBRARY_ENV
        + " to its path, install the package, or build it (cmake --build --preset release "
        "--target spindrift_shared)" + ("; tried " + ", ".join(tried) if tried else "")
    )


lib = _load()

# ------------------------------------------------------------------------------------------------
# Vocabulary and handles


class Vec3(Structure):
    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float)]


class Quat(Structure):
    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float), ("w", c_float)]


class Color(Structure):
    _fields_ = [("r", c_float), ("g", c_float), ("b", c_float), ("a", c_float)]


class Transform(Structure):
    _fields_ = [("position", Vec3), ("rotation", Quat), ("scale", Vec3)]


class Handle(Structure):
    _fields_ = [("id", c_uint64)]


# Every handle type of the header is a struct of one uint64: one ctypes type serves them all.
Library = World = DrawList = Diagnostics = Instance = Renderer = Handle

# ------------------------------------------------------------------------------------------------
# Structs (struct_size first)


class Diagnostic(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("severity", c_uint32),
        ("file", c_char_p),
        ("line", c_uint32),
        ("column", c_uint32),
        ("byte_offset", c_uint64),
        ("path", c_char_p),
        ("message", c_char_p),
    ]


class EffectInfo(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("compiled", c_bool),
        ("failed", c_bool),
        ("version", c_uint32),
        ("emitter_count", c_uint32),
        ("parameter_count", c_uint32),
        ("diagnostic_count", c_uint32),
    ]


MAX_NAME_BYTES = 64


class ParameterInfo(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("kind", c_uint32),
        ("name", c_char * (MAX_NAME_BYTES + 1)),
        ("default_value", Color),
        ("min", Color),
        ("max", Color),
    ]


class ReloadReport(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("files_checked", c_uint32),
        ("files_changed", c_uint32),
        ("files_reloaded", c_uint32),
        ("files_rejected", c_uint32),
    ]


class WorldConfig(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("backend", c_uint32),
        ("threads", c_uint32),
        ("max_steps_per_frame", c_uint32),
        ("max_instances", c_uint32),
        ("recycled_per_effect", c_uint32),
        ("max_seek_steps", c_uint64),
        ("parallel_for", c_void_p),  # a function pointer; always NULL from Python
        ("parallel_for_user", c_void_p),
        ("seek_checkpoint_interval_steps", c_uint32),
        ("pad0", c_uint32),
        ("max_seek_checkpoint_bytes", c_uint64),
    ]


class UpdateReceipt(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("instances", c_uint32),
        ("instances_stepped", c_uint32),
        ("finished", c_uint32),
        ("steps", c_uint64),
        ("discarded_steps", c_uint64),
        ("discarded_s", c_double),
        ("live_particles", c_uint64),
        ("destroyed_on_finish", c_uint32),
        ("reloaded_kept", c_uint32),
        ("reloaded_restarted", c_uint32),
        ("reload_failures", c_uint32),
        ("frame_rejected", c_bool),
        ("events", c_uint64),
        ("events_dropped", c_uint64),
        ("events_latency_frames", c_uint32),
        ("attractors_active", c_uint32),
        ("attractors_dropped", c_uint32),
        ("instances_asleep", c_uint32),
        ("instances_culled", c_uint32),
        ("asleep_by_budget", c_uint32),
        ("instances_examined", c_uint32),
        ("instances_woken", c_uint32),
        ("fast_forward_steps", c_uint64),
        ("retained_instances", c_uint32),
        ("retained_particles", c_uint64),
    ]


class WorldStats(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("instance_count", c_uint32),
        ("updates", c_uint64),
        ("instances_created", c_uint64),
        ("instances_destroyed", c_uint64),
        ("instances_recycled", c_uint64),
        ("stale_handle_uses", c_uint64),
        ("rejected_frames", c_uint64),
        ("discarded_steps", c_uint64),
        ("rejected_path_transforms", c_uint64),
        ("instances_retained", c_uint64),
    ]


class InstanceDesc(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("effect", c_uint32),
        ("transform", Transform),
        ("flags", c_uint32),
        ("time_scale", c_float),
        ("tint", Color),
        ("size_scale", c_float),
        ("spawn_rate_scale", c_float),
        ("override_seed", c_bool),
        ("seed", c_uint32),
    ]


class InstanceInfo(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("state", c_uint32),
        ("effect", c_uint32),
        ("effect_version", c_uint32),
        ("backend", c_uint32),
        ("time_s", c_double),
        ("steps", c_uint64),
        ("live_particles", c_uint64),
        ("discarded_steps", c_uint64),
        ("restarts_by_reload", c_uint32),
        ("transform", Transform),
        ("asleep", c_bool),
        ("culled", c_bool),
        ("important", c_bool),
        ("birth_fade", c_float),
    ]


class Particle(Structure):
    _fields_ = [
        ("position", Vec3),
        ("size_m", c_float),
        ("color", Color),
        ("velocity_m_per_s", Vec3),
        ("rotation_rad", c_float),
        ("normalized_age", c_float),
        ("flipbook_frame", c_float),
        ("emitter_index", c_uint32),
        ("key", c_uint32),
    ]


class StripPoint(Structure):
    _fields_ = [
        ("position", Vec3),
        ("width_m", c_float),
        ("color", Color),
        ("tangent", Vec3),
        ("u", c_float),
    ]


class Event(Structure):
    _fields_ = [
        ("kind", c_uint32),
        ("emitter_index", c_uint32),
        ("instance", Handle),
        ("step", c_uint64),
        ("particle_key", c_uint32),
        ("collision_op", c_uint32),
        ("position", Vec3),
        ("velocity", Vec3),
        ("normal", Vec3),
        ("reserved", c_uint32),
    ]


class DrawView(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("eye", Vec3),
        ("forward", Vec3),
        ("up", Vec3),
        ("fov_y_deg", c_float),
        ("aspect", c_float),
        ("near_m", c_float),
        ("far_m", c_float),
        ("viewport_width", c_uint32),
        ("viewport_height", c_uint32),
        ("order_independent", c_bool),
    ]


class DrawBatch(Structure):
    _fields_ = [
        ("kind", c_uint32),
        ("blend", c_uint32),
        ("sort", c_uint32),
        ("sorted", c_bool),
        ("lit", c_bool),
        ("device_resident", c_bool),
        ("flipbook_blend", c_bool),
        ("instance", Handle),
        ("effect", c_uint32),
        ("emitter_index", c_uint32),
        ("instance_distance_m", c_float),
        ("alignment", c_uint32),
        ("particles", c_void_p),
        ("particle_length", c_uint64),
        ("vertices", c_void_p),
        ("vertex_length", c_uint64),
        ("segments", c_void_p),
        ("segment_length", c_uint64),
        ("particle_count", c_uint64),
        ("device_max_count", c_uint32),
        ("axis", Vec3),
        ("stretch_s", c_float),
        ("flipbook_frames", c_uint32),
        ("flipbook_columns", c_uint32),
        ("flipbook_rows", c_uint32),
        ("soft_fade_m", c_float),
        ("mesh_scale", c_float),
        ("mesh_tumble_rad_per_s", c_float),
        ("emissive", c_float),
        ("emissive_share", c_float),
        ("distortion", c_float),
        ("lit_per_particle", c_bool),
    ]


class DrawListStats(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("instances_drawn", c_uint32),
        ("device_batches", c_uint32),
        ("particles", c_uint64),
        ("strip_segments", c_uint64),
        ("sorted_particles", c_uint64),
        ("sort_skipped_particles", c_uint64),
        ("order_emitters", c_uint32),
        ("order_batches", c_uint32),
        ("sorted_strip_segments", c_uint64),
        ("order_exact_batches", c_uint64),
        ("order_coarsened_items", c_uint64),
    ]


class RendererConfig(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("width", c_uint32),
        ("height", c_uint32),
        ("device", c_char_p),
        ("validation", c_bool),
    ]


class Light(Structure):
    _fields_ = [
        ("type", c_uint32),
        ("position", Vec3),
        ("color", Color),
        ("intensity", c_float),
        ("range_m", c_float),
        ("direction", Vec3),
        ("inner_deg", c_float),
        ("outer_deg", c_float),
    ]


class Camera(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("eye", Vec3),
        ("target", Vec3),
        ("up", Vec3),
        ("fov_y_deg", c_float),
        ("near_m", c_float),
        ("far_m", c_float),
        ("background", Color),
        ("ground", c_bool),
        ("ground_height", c_float),
        ("ground_size", c_float),
        ("ground_color", Color),
        ("sun_direction", Vec3),
        ("sun_color", Color),
        ("sun_intensity", c_float),
        ("ambient", Color),
        ("transparency", c_uint32),
        ("tonemap", c_uint32),
        ("exposure_mode", c_uint32),
        ("exposure_ev", c_float),
        ("exposure_min_ev", c_float),
        ("exposure_max_ev", c_float),
        ("exposure_low_percent", c_float),
        ("exposure_high_percent", c_float),
        ("exposure_speed", c_float),
        ("bloom_strength", c_float),
        ("bloom_levels", c_uint32),
        ("lights", POINTER(Light)),
        ("light_count", c_uint32),
        ("sky_zenith", Color),
        ("sky_horizon", Color),
        ("sky_ground", Color),
        ("sky_intensity", c_float),
        ("shadows", c_bool),
        ("shadow_resolution", c_uint32),
        ("shadow_cascades", c_uint32),
        ("shadow_max_distance_m", c_float),
        ("shadow_bias_m", c_float),
        ("shadow_opacity_resolution", c_uint32),
        ("shadowed_lights", c_uint64),
    ]


class MotionOptions(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("has_previous_camera", c_bool),
        ("previous_eye", Vec3),
        ("previous_target", Vec3),
        ("previous_up", Vec3),
        ("previous_fov_y_deg", c_float),
        ("interval_s", c_float),
        ("coverage_threshold", c_float),
        ("additive_writes", c_bool),
    ]


class FileRenderOptions(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("time_set", c_bool),
        ("time_s", c_double),
        ("width", c_uint32),
        ("height", c_uint32),
        ("device", c_char_p),
        ("validation", c_bool),
        ("backend", c_uint32),
    ]


class FileRenderInfo(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("width", c_uint32),
        ("height", c_uint32),
        ("time_s", c_double),
        ("particles", c_uint64),
        ("is_scene", c_bool),
    ]


def sized(struct_type):
    """A zeroed struct with struct_size set."""
    value = struct_type()
    value.struct_size = ctypes.sizeof(struct_type)
    return value


# ------------------------------------------------------------------------------------------------
# Functions: name -> argument types (every one returns spindrift_result unless listed in _RESTYPE)

P = POINTER
_SIGNATURES = {
    "spindrift_version": [],
    "spindrift_version_string": [],
    "spindrift_result_name": [c_uint32],
    "spindrift_last_error_message": [],
    "spindrift_diagnostics_count": [Diagnostics, P(c_uint32)],
    "spindrift_diagnostics_get": [Diagnostics, c_uint32, P(Diagnostic)],
    "spindrift_diagnostics_destroy": [Diagnostics],
    "spindrift_validate_file": [c_char_p, P(Diagnostics)],
    "spindrift_validate_text": [c_char_p, c_size_t, c_char_p, P(Diagnostics)],
    "spindrift_library_create": [P(Library)],
    "spindrift_library_destroy": [Library],
    "spindrift_library_add_file": [Library, c_char_p, P(c_uint32)],
    "spindrift_library_add_text": [Library, c_char_p, c_char_p, c_size_t, P(c_uint32)],
    "spindrift_library_compile": [Library, c_uint32],
    "spindrift_library_effect_info": [Library, c_uint32, P(EffectInfo)],
    "spindrift_library_emitter_name": [Library, c_uint32, c_uint32, c_char_p, c_size_t,
                                       P(c_size_t)],
    "spindrift_library_emitter_texture": [Library, c_uint32, c_uint32, c_char_p, c_size_t,
                                          P(c_size_t)],
    "spindrift_library_emitter_mesh": [Library, c_uint32, c_uint32, c_char_p, c_size_t,
                                       P(c_size_t)],
    "spindrift_library_parameter_info": [Library, c_uint32, c_uint32, P(ParameterInfo)],
    "spindrift_library_effect_diagnostics": [Library, c_uint32, P(Diagnostics)],
    "spindrift_library_poll_changes": [Library, P(ReloadReport), P(Diagnostics)],
    "spindrift_default_world_config": [P(WorldConfig)],
    "spindrift_world_create": [Library, P(WorldConfig), P(World)],
    "spindrift_world_destroy": [World],
    "spindrift_world_update": [World, c_double, P(UpdateReceipt)],
    "spindrift_world_stats_get": [World, P(WorldStats)],
    "spindrift_default_instance_desc": [P(InstanceDesc)],
    "spindrift_instance_create": [World, P(InstanceDesc), P(Instance)],
    "spindrift_instance_destroy": [World, Instance],
    "spindrift_instance_play": [World, Instance],
    "spindrift_instance_pause": [World, Instance],
    "spindrift_instance_resume": [World, Instance],
    "spindrift_instance_stop": [World, Instance],
    "spindrift_instance_clear": [World, Instance],
    "spindrift_instance_restart": [World, Instance],
    "spindrift_instance_emit": [World, Instance, c_char_p, c_uint32],
    "spindrift_instance_set_transform": [World, Instance, P(Transform), c_bool],
    "spindrift_instance_set_time_scale": [World, Instance, c_float],
    "spindrift_instance_seek": [World, Instance, c_double],
    "spindrift_instance_advance_to": [World, Instance, c_double],
    "spindrift_instance_set_visible": [World, Instance, c_bool],
    "spindrift_instance_is_alive": [World, Instance, P(c_bool)],
    "spindrift_instance_is_playing": [World, Instance, P(c_bool)],
    "spindrift_instance_is_finished": [World, Instance, P(c_bool)],
    "spindrift_instance_info_get": [World, Instance, P(InstanceInfo)],
    "spindrift_instance_read_particles": [World, Instance, c_void_p, c_uint32, P(c_uint32)],
    "spindrift_instance_set_tint": [World, Instance, P(Color)],
    "spindrift_instance_set_size_scale": [World, Instance, c_float],
    "spindrift_instance_set_spawn_rate_scale": [World, Instance, c_float],
    "spindrift_instance_set_seed": [World, Instance, c_uint32],
    "spindrift_instance_set_emitter_enabled": [World, Instance, c_char_p, c_bool],
    "spindrift_instance_set_parameter_float": [World, Instance, c_char_p, c_float],
    "spindrift_instance_set_parameter_float3": [World, Instance, c_char_p, P(Vec3)],
    "spindrift_instance_set_parameter_color": [World, Instance, c_char_p, P(Color)],
    "spindrift_instance_get_parameter_float": [World, Instance, c_char_p, P(c_float)],
    "spindrift_instance_get_parameter_float3": [World, Instance, c_char_p, P(Vec3)],
    "spindrift_instance_get_parameter_color": [World, Instance, c_char_p, P(Color)],
    "spindrift_world_events": [World, c_uint32, P(c_void_p), P(c_uint32)],
    "spindrift_world_event_emitter_name": [World, c_uint32, c_char_p, c_size_t, P(c_size_t)],
    "spindrift_world_set_camera_position": [World, P(Vec3)],
    "spindrift_default_draw_view": [P(DrawView)],
    "spindrift_draw_list_create": [P(DrawList)],
    "spindrift_draw_list_destroy": [DrawList],
    "spindrift_world_draw_list": [World, P(DrawView), DrawList],
    "spindrift_draw_list_batches": [DrawList, c_uint32, P(c_void_p), P(c_uint32)],
    "spindrift_draw_list_stats_get": [DrawList, P(DrawListStats)],
    "spindrift_default_renderer_config": [P(RendererConfig)],
    "spindrift_renderer_create": [P(RendererConfig), P(Renderer)],
    "spindrift_renderer_destroy": [Renderer],
    "spindrift_renderer_device_name": [Renderer, c_char_p, c_size_t, P(c_size_t)],
    "spindrift_default_camera": [P(Camera)],
    "spindrift_renderer_render_world": [Renderer, World, P(Camera), c_void_p, c_size_t],
    "spindrift_default_motion_options": [P(MotionOptions)],
    "spindrift_renderer_render_world_motion": [Renderer, World, P(Camera), P(MotionOptions),
                                               c_void_p, c_size_t, c_void_p, c_size_t],
    "spindrift_default_file_render_options": [P(FileRenderOptions)],
    "spindrift_render_file": [c_char_p, P(FileRenderOptions), c_void_p, c_size_t,
                              P(FileRenderInfo), P(Diagnostics)],
}
_RESTYPE = {
    "spindrift_version": c_uint32,
    "spindrift_version_string": c_char_p,
    "spindrift_result_name": c_char_p,
    "spindrift_last_error_message": c_char_p,
}

for _name, _args in _SIGNATURES.items():
    _function = getattr(lib, _name)
    _function.argtypes = _args
    _function.restype = _RESTYPE.get(_name, c_uint32)

EVENT_SIZE = ctypes.sizeof(Event)
DRAW_BATCH_SIZE = ctypes.sizeof(DrawBatch)
uint8_pointer = P(c_uint8)
