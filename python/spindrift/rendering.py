"""Offscreen rendering with Spindrift's Vulkan renderer: a world seen from a camera, or a frame of
a scene or effect file exactly as `spindrift render` draws it. Images are (height, width, 4)
uint8 NumPy arrays: rows top to bottom, RGBA, sRGB-encoded colour, alpha 255."""

import ctypes
from dataclasses import dataclass

import numpy as np

from . import _args, _native
from .errors import Result, SpindriftError, call_with_diagnostics, check

_lib = _native.lib

TRANSPARENCY = {"sorted": 0, "weighted_oit": 1}
LIGHT_TYPE = {"point": 0, "spot": 1}
TONEMAP = {"none": 0, "aces": 1, "agx": 2, "reinhard": 3}
EXPOSURE_MODE = {"manual": 0, "auto": 1}
# Camera fields given as names, with the names of their numbers.
_CHOICES = {"transparency": TRANSPARENCY, "tonemap": TONEMAP, "exposure_mode": EXPOSURE_MODE}
# Fields of the C camera that Camera has none of: its size, and those Camera.lights fills.
_C_ONLY_FIELDS = ("struct_size", "lights", "light_count", "shadowed_lights")


@dataclass
class Light:
    """A point or spot light (spindrift_light; a scene file's "lights" entry, docs/scene-format.md):
    colour x intensity, falling to nothing at range_m; a spot shines along direction, full within
    inner_deg of it, none past outer_deg. shadows: it casts shadows when the camera's shadows are
    on (docs/rendering.md "Shadows of local lights"; its bit of the C camera's shadowed_lights)."""

    type: str = "point"  # or "spot"
    position: tuple = (0, 1, 0)
    color: tuple = (1, 1, 1)
    intensity: float = 1  # [0, 1e6]
    range_m: float = 10  # (0, 1e4]
    direction: tuple = (0, -1, 0)  # spot
    inner_deg: float = 20  # spot: [0, 90)
    outer_deg: float = 30  # spot: (inner_deg, 90]
    shadows: bool = False

    def _to_c(self, what):
        c = _native.Light()
        c.type = _args.choice(self.type, LIGHT_TYPE, what + ".type")
        c.position = _args.vec3(self.position, what + ".position")
        c.color = _args.color(self.color, what + ".color")
        c.intensity = _args.real(self.intensity, what + ".intensity")
        c.range_m = _args.real(self.range_m, what + ".range_m")
        c.direction = _args.vec3(self.direction, what + ".direction")
        c.inner_deg = _args.real(self.inner_deg, what + ".inner_deg")
        c.outer_deg = _args.real(self.outer_deg, what + ".outer_deg")
        return c


@dataclass
class Motion:
    """Motion vectors for temporal anti-aliasing (spindrift_motion_options, docs/rendering.md
    "Motion vectors"): per pixel this frame's position minus the previous frame's, in pixels, x
    right, y down. previous_camera: the previous frame's Camera (its eye, target, up and
    fov_y_deg; None: the camera's motion is 0); particles move velocity x interval_s ([0, 1] s);
    a billboard writes where its coverage is at least coverage_threshold ([0, 1]); additive ones
    keep what is behind unless additive_writes."""

    previous_camera: object = None
    interval_s: float = 1 / 60
    coverage_threshold: float = 0.5
    additive_writes: bool = False

    def _to_c(self):
        c = _native.MotionOptions()
        check(_lib.spindrift_default_motion_options(ctypes.byref(c)))
        if self.previous_camera is not None:
            if not isinstance(self.previous_camera, Camera):
                raise TypeError(
                    "motion.previous_camera: expected a spindrift.Camera, got "
                    f"{type(self.previous_camera).__name__}"
                )
            p = self.previous_camera
            c.has_previous_camera = True
            c.previous_eye = _args.vec3(p.eye, "motion.previous_camera.eye")
            c.previous_target = _args.vec3(p.target, "motion.previous_camera.target")
            c.previous_up = _args.vec3(p.up, "motion.previous_camera.up")
            c.previous_fov_y_deg = _args.real(p.fov_y_deg, "motion.previous_camera.fov_y_deg")
        c.interval_s = _args.real(self.interval_s, "motion.interval_s")
        c.coverage_threshold = _args.real(self.coverage_threshold, "motion.coverage_threshold")
        c.additive_writes = _args.flag(self.additive_writes, "motion.additive_writes")
        return c


def _default_camera():
    camera = _native.Camera()
    check(_lib.spindrift_default_camera(ctypes.byref(camera)))
    return camera


@dataclass
class Camera:
    """What a frame looks at and is lit by (spindrift_camera), and its HDR post: bloom, exposure
    and tone map, as a scene file's keys (docs/scene-format.md). Colours are linear RGB. Built with
    no arguments it is a scene file's default camera, lighting and post (read from the library):
    ACES tone map, bloom 0.05, manual exposure at 0 EV. tonemap="none", bloom_strength=0 and
    exposure_ev=0 draw without post."""

    eye: tuple = None
    target: tuple = None
    up: tuple = None
    fov_y_deg: float = None
    near_m: float = None
    far_m: float = None
    background: tuple = None
    ground: bool = None
    ground_height: float = None
    ground_size: float = None
    ground_color: tuple = None
    sun_direction: tuple = None
    sun_color: tuple = None
    sun_intensity: float = None
    ambient: tuple = None
    transparency: str = "sorted"  # or "weighted_oit"
    tonemap: str = None  # "none", "aces", "agx" or "reinhard"
    exposure_mode: str = None  # "manual" or "auto"
    exposure_ev: float = None  # manual: the exposure; auto: compensation. [-16, 16]
    exposure_min_ev: float = None  # auto: [-16, 16], below exposure_max_ev
    exposure_max_ev: float = None
    exposure_low_percent: float = None  # auto: [0, 100)
    exposure_high_percent: float = None  # auto: (low, 100]
    exposure_speed: float = None  # auto: adaptation per second, [0, 100]
    bloom_strength: float = None  # [0, 1]; 0: no bloom
    bloom_levels: int = None  # [1, 8]
    # Point and spot lights (Light), at most 64; the sky light (zenith, horizon and ground colours
    # x sky_intensity, [0, 1e4]); sun shadows (a scene file's "shadows": on by default).
    lights: tuple = ()
    sky_zenith: tuple = None
    sky_horizon: tuple = None
    sky_ground: tuple = None
    sky_intensity: float = None
    shadows: bool = None
    shadow_resolution: int = None  # [64, 4096] texels a side per cascade
    shadow_cascades: int = None  # [1, 4]
    shadow_max_distance_m: float = None  # (0, 1e4]
    shadow_bias_m: float = None  # [0, 1]
    shadow_opacity_resolution: int = None  # [64, 4096]

    def __post_init__(self):
        d = _default_camera()
        for name, _ in d._fields_:
            if name in _C_ONLY_FIELDS or getattr(self, name) is not None:
                continue
            value = getattr(d, name)
            if name in _CHOICES:
                value = {v: k for k, v in _CHOICES[name].items()}[value]
            elif isinstance(value, _native.Vec3):
                value = _args.vector_tuple(value)
            elif isinstance(value, _native.Color):
                value = _args.color_tuple(value)[:3]
            setattr(self, name, value)

    def _to_c(self):
        c = _default_camera()
        c.eye = _args.vec3(self.eye, "camera.eye")
        c.target = _args.vec3(self.target, "camera.target")
        c.up = _args.vec3(self.up, "camera.up")
        c.fov_y_deg = _args.real(self.fov_y_deg, "camera.fov_y_deg")
        c.near_m = _args.real(self.near_m, "camera.near_m")
        c.far_m = _args.real(self.far_m, "camera.far_m")
        c.background = _args.color(self.background, "camera.background")
        c.ground = _args.flag(self.ground, "camera.ground")
        c.ground_height = _args.real(self.ground_height, "camera.ground_height")
        c.ground_size = _args.real(self.ground_size, "camera.ground_size")
        c.ground_color = _args.color(self.ground_color, "camera.ground_color")
        c.sun_direction = _args.vec3(self.sun_direction, "camera.sun_direction")
        c.sun_color = _args.color(self.sun_color, "camera.sun_color")
        c.sun_intensity = _args.real(self.sun_intensity, "camera.sun_intensity")
        c.ambient = _args.color(self.ambient, "camera.ambient")
        c.transparency = _args.choice(self.transparency, TRANSPARENCY, "camera.transparency")
        c.tonemap = _args.choice(self.tonemap, TONEMAP, "camera.tonemap")
        c.exposure_mode = _args.choice(self.exposure_mode, EXPOSURE_MODE, "camera.exposure_mode")
        for name in (
            "exposure_ev",
            "exposure_min_ev",
            "exposure_max_ev",
            "exposure_low_percent",
            "exposure_high_percent",
            "exposure_speed",
            "bloom_strength",
        ):
            setattr(c, name, _args.real(getattr(self, name), "camera." + name))
        c.bloom_levels = _args.uint(self.bloom_levels, "camera.bloom_levels")
        lights = list(self.lights)
        if len(lights) > 64:
            raise ValueError(f"camera.lights: at most 64 lights, got {len(lights)}")
        for i, light in enumerate(lights):
            if not isinstance(light, Light):
                raise TypeError(f"camera.lights[{i}]: expected a Light, got {type(light).__name__}")
        array = (_native.Light * max(len(lights), 1))(
            *[light._to_c(f"camera.lights[{i}]") for i, light in enumerate(lights)]
        )
        c._lights_keepalive = array  # the C struct points into it for the call
        c.lights = ctypes.cast(array, ctypes.POINTER(_native.Light)) if lights else None
        c.light_count = len(lights)
        # spindrift_light's layout is frozen: whether a light casts is its bit of the camera's mask.
        c.shadowed_lights = sum(
            1 << i
            for i, light in enumerate(lights)
            if _args.flag(light.shadows, f"camera.lights[{i}].shadows")
        )
        for name in ("sky_zenith", "sky_horizon", "sky_ground"):
            setattr(c, name, _args.color(getattr(self, name), "camera." + name))
        for name in ("sky_intensity", "shadow_max_distance_m", "shadow_bias_m"):
            setattr(c, name, _args.real(getattr(self, name), "camera." + name))
        c.shadows = _args.flag(self.shadows, "camera.shadows")
        for name in ("shadow_resolution", "shadow_cascades", "shadow_opacity_resolution"):
            setattr(c, name, _args.uint(getattr(self, name), "camera." + name))
        return c


def _image_out(out, width, height):
    """out, checked to be a writable C-contiguous (height, width, 4) uint8 array, or a new one."""
    if out is None:
        return np.empty((height, width, 4), dtype=np.uint8)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out: expected a numpy.ndarray, got {type(out).__name__}")
    if out.dtype != np.uint8 or out.shape != (height, width, 4):
        raise ValueError(
            f"out: expected a ({height}, {width}, 4) uint8 array, got {out.shape} {out.dtype}"
        )
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out: expected a writable C-contiguous array")
    return out


def _world_camera(world, camera):
    """The C camera of a render of world (a spindrift.World) seen by camera (a Camera; None:
    Camera()); TypeError for anything else."""
    from .world import World

    if not isinstance(world, World):
        raise TypeError(f"world: expected a spindrift.World, got {type(world).__name__}")
    if camera is None:
        camera = Camera()
    elif not isinstance(camera, Camera):
        raise TypeError(f"camera: expected a spindrift.Camera, got {type(camera).__name__}")
    return camera._to_c()


def _device(device):
    if device is None:
        return None
    return _args.name(device, "device")


class Renderer:
    """An offscreen renderer (spindrift_renderer) of width x height pixels on a Vulkan device:
    None picks a discrete GPU, else an integrated one, else any (lavapipe); a number as a str
    is an index, anything else part of the device's name. validation: the Vulkan validation
    layer on, any message failing the render. Textures and meshes of the effects it draws are
    loaded once and kept for its life."""

    def __init__(self, width=1280, height=720, device=None, validation=False):
        config = _native.RendererConfig()
        check(_lib.spindrift_default_renderer_config(ctypes.byref(config)))
        config.width = _args.uint(width, "width")
        config.height = _args.uint(height, "height")
        self._device_bytes = _device(device)  # kept alive for the call
        config.device = self._device_bytes
        config.validation = _args.flag(validation, "validation")
        handle = _native.Renderer()
        check(_lib.spindrift_renderer_create(ctypes.byref(config), ctypes.byref(handle)))
        self._handle = handle
        self.width = config.width
        self.height = config.height

    @property
    def handle(self):
        if self._handle is None:
            raise SpindriftError(Result.STALE_HANDLE, "the renderer is closed")
        return self._handle

    def close(self):
        if self._handle is not None:
            check(_lib.spindrift_renderer_destroy(self._handle))
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if self._handle is not None:
                _lib.spindrift_renderer_destroy(self._handle)
        except Exception:
            pass

    @property
    def device_name(self):
        length = ctypes.c_size_t()
        check(_lib.spindrift_renderer_device_name(self.handle, None, 0, ctypes.byref(length)))
        buffer = ctypes.create_string_buffer(length.value + 1)
        check(_lib.spindrift_renderer_device_name(self.handle, buffer, len(buffer), None))
        return buffer.value.decode("utf-8", "replace")

    def render(self, world, camera=None, out=None):
        """Draws world's visible instances as camera (a Camera; None: Camera()) sees them and
        returns the image; out (optional) is a (height, width, 4) uint8 array written in place.
        Simulates nothing."""
        c_camera = _world_camera(world, camera)
        image = _image_out(out, self.width, self.height)
        check(
            _lib.spindrift_renderer_render_world(
                self.handle, world.handle, ctypes.byref(c_camera), image.ctypes.data, image.nbytes
            )
        )
        return image

    def render_with_motion(self, world, camera=None, motion=None):
        """render, and the frame's motion vectors (a Motion; None: Motion()): returns (image,
        motion), motion a (height, width, 2) float32 array of x, y in pixels (this frame minus the
        previous, y down)."""
        c_camera = _world_camera(world, camera)
        if motion is None:
            motion = Motion()
        elif not isinstance(motion, Motion):
            raise TypeError(f"motion: expected a spindrift.Motion, got {type(motion).__name__}")
        c_motion = motion._to_c()
        image = _image_out(None, self.width, self.height)
        xy = np.zeros((self.height, self.width, 2), dtype=np.float32)
        check(
            _lib.spindrift_renderer_render_world_motion(
                self.handle, world.handle, ctypes.byref(c_camera), ctypes.byref(c_motion),
                image.ctypes.data, image.nbytes, xy.ctypes.data, xy.nbytes
            )
        )
        return image, xy


@dataclass(frozen=True)
class FileRenderInfo:
    width: int
    height: int
    time_s: float  # the scene time drawn
    particles: int  # drawn
    is_scene: bool  # read as a scene (else an effect in its default scene)
    diagnostics: list  # the scene's and effects' findings (warnings)


def _file_options(time, width, height, device, validation, backend):
    from .world import BACKENDS

    options = _native.FileRenderOptions()
    check(_lib.spindrift_default_file_render_options(ctypes.byref(options)))
    if time is not None:
        options.time_set = True
        options.time_s = _args.real(time, "time")
    if (width is None) != (height is None):
        raise ValueError("width and height: give both or neither")
    if width is not None:
        options.width = _args.uint(width, "width", minimum=1)
        options.height = _args.uint(height, "height", minimum=1)
    device_bytes = _device(device)
    options.device = device_bytes
    options.validation = _args.flag(validation, "validation")
    options.backend = _args.choice(backend, BACKENDS, "backend")
    return options, device_bytes


def render_file_with_info(path, time=None, width=None, height=None, device=None,
                          validation=False, backend="cpu"):
    """render_file, also returning a FileRenderInfo: (image, info)."""
    encoded = _args.path(path)
    options, device_bytes = _file_options(time, width, height, device, validation, backend)
    info = _native.sized(_native.FileRenderInfo)
    # The size first (the file is read, nothing compiled or drawn), then the frame.
    call_with_diagnostics(
        _lib.spindrift_render_file, encoded, ctypes.byref(options), None, 0, ctypes.byref(info)
    )
    image = np.empty((info.height, info.width, 4), dtype=np.uint8)
    found = call_with_diagnostics(
        _lib.spindrift_render_file, encoded, ctypes.byref(options), image.ctypes.data,
        image.nbytes, ctypes.byref(info),
    )
    del device_bytes
    return image, FileRenderInfo(
        info.width, info.height, info.time_s, info.particles, info.is_scene, found
    )


def render_file(path, time=None, width=None, height=None, device=None, validation=False,
                backend="cpu"):
    """One frame of a scene file, or of an effect file in the scene the command-line tool frames
    it in, as `spindrift render PATH [--time T] [--size WxH] [--backend B]` draws it: the same
    device and options give the tool's PNG pixels byte for byte. time None: the default still
    (when the effects look developed). Returns the (height, width, 4) uint8 image. A file that
    does not load raises EffectError with its diagnostics."""
    return render_file_with_info(path, time, width, height, device, validation, backend)[0]
