"""Draw lists: what a world draws for a view, batch by batch, with the particles and strip points
as NumPy arrays over the list's own memory (no copy)."""

import ctypes
from dataclasses import dataclass, field

import numpy as np

from . import _args, _native
from .arrays import PARTICLE_DTYPE, STRIP_POINT_DTYPE, borrowed
from .errors import Result, SpindriftError, check

_lib = _native.lib

KINDS = {0: "billboards", 1: "strips", 2: "meshes"}
BLENDS = {0: "additive", 1: "premultiplied", 2: "alpha", 3: "opaque"}
ALIGNMENTS = {0: "camera", 1: "velocity_stretch", 2: "axis", 3: "fixed"}
SORTS = {0: "none", 1: "back_to_front", 2: "front_to_back", 3: "oldest_first", 4: "newest_first"}


def _default_view():
    view = _native.DrawView()
    check(_lib.spindrift_default_draw_view(ctypes.byref(view)))
    return view


@dataclass
class DrawView:
    """Where a draw list is seen from (spindrift_draw_view): sorting measures from eye. The
    defaults are the C++ ones (DrawView.defaults() reads them from the library; a test checks
    they agree)."""

    eye: tuple = (0.0, 0.0, 0.0)
    forward: tuple = (0.0, 0.0, -1.0)
    up: tuple = (0.0, 1.0, 0.0)
    fov_y_deg: float = 45.0
    aspect: float = 16.0 / 9.0
    near_m: float = 0.05
    far_m: float = 500.0
    viewport_width: int = 1280
    viewport_height: int = 720
    order_independent: bool = False

    @classmethod
    def defaults(cls):
        """The C++ defaults, read from the library."""
        v = _default_view()
        return cls(_args.vector_tuple(v.eye), _args.vector_tuple(v.forward),
                   _args.vector_tuple(v.up), v.fov_y_deg, v.aspect, v.near_m, v.far_m,
                   v.viewport_width, v.viewport_height, v.order_independent)

    @classmethod
    def looking_at(cls, eye, target, up=(0, 1, 0), fov_y_deg=45.0, width=1280, height=720,
                   near_m=0.05, far_m=500.0):
        eye_v = np.array(_args.numbers_of(eye, 3, "eye"), dtype=np.float64)
        forward = np.array(_args.numbers_of(target, 3, "target"), dtype=np.float64) - eye_v
        length = float(np.linalg.norm(forward))
        if not length > 0:
            raise ValueError("target: expected a point away from eye")
        return cls(tuple(eye_v), tuple(forward / length), tuple(_args.numbers_of(up, 3, "up")),
                   fov_y_deg, width / height, near_m, far_m, width, height, False)

    def _to_c(self):
        v = _default_view()
        v.eye = _args.vec3(self.eye, "view.eye")
        v.forward = _args.vec3(self.forward, "view.forward")
        v.up = _args.vec3(self.up, "view.up")
        v.fov_y_deg = _args.real(self.fov_y_deg, "view.fov_y_deg")
        v.aspect = _args.real(self.aspect, "view.aspect")
        v.near_m = _args.real(self.near_m, "view.near_m")
        v.far_m = _args.real(self.far_m, "view.far_m")
        v.viewport_width = _args.uint(self.viewport_width, "view.viewport_width", minimum=1)
        v.viewport_height = _args.uint(self.viewport_height, "view.viewport_height", minimum=1)
        v.order_independent = _args.flag(self.order_independent, "view.order_independent")
        return v


@dataclass
class DrawBatch:
    """One drawn emitter of one instance (spindrift_draw_batch). particles (billboards, meshes;
    PARTICLE_DTYPE, in draw order), vertices (strips; STRIP_POINT_DTYPE) and segments (strips:
    per segment its first vertex, uint32) are read-only views of the list's memory: valid until
    the list is filled again or closed, or the world changes (an update, a control call, a spawn
    or destroy, a seek) or closes. Copy them (np.array(batch.particles)) to keep them longer."""

    kind: str
    blend: str
    sort: str
    sorted: bool
    lit: bool
    device_resident: bool
    flipbook_blend: bool
    instance: int
    effect: int
    emitter_index: int
    instance_distance_m: float
    alignment: str
    particle_count: int
    axis: tuple
    stretch_s: float
    flipbook_frames: int
    flipbook_columns: int
    flipbook_rows: int
    soft_fade_m: float
    mesh_scale: float
    mesh_tumble_rad_per_s: float
    emissive: float  # render.emissive: the colour's multiplier in an HDR frame
    emissive_share: float  # render.emissive_share: the part drawn additively, [0, 1]
    distortion: float  # billboards: render.distortion; above 0 it bends the image, no colour
    lit_per_particle: bool  # lit billboards: render.lighting per_particle
    particles: np.ndarray = field(repr=False)
    vertices: np.ndarray = field(repr=False)
    segments: np.ndarray = field(repr=False)


class DrawList:
    """A draw list and its storage (spindrift_draw_list), reused fill after fill."""

    def __init__(self):
        handle = _native.DrawList()
        check(_lib.spindrift_draw_list_create(ctypes.byref(handle)))
        self._handle = handle
        self.batches = []

    @property
    def handle(self):
        if self._handle is None:
            raise SpindriftError(Result.STALE_HANDLE, "the draw list is closed")
        return self._handle

    def close(self):
        """Frees the list: the arrays of its batches must not be read after this."""
        if self._handle is not None:
            self.batches = []
            check(_lib.spindrift_draw_list_destroy(self._handle))
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if self._handle is not None:
                _lib.spindrift_draw_list_destroy(self._handle)
        except Exception:
            pass

    def __len__(self):
        return len(self.batches)

    def __iter__(self):
        return iter(self.batches)

    def fill(self, world, view=None):
        """Fills the list with world's visible instances in draw order for view (a DrawView;
        None: DrawView.defaults()). Simulates nothing. The arrays of the previous fill's batches
        are invalid from here on."""
        from .world import World

        if not isinstance(world, World):
            raise TypeError(f"world: expected a spindrift.World, got {type(world).__name__}")
        if view is None:
            c_view = _default_view()
        elif isinstance(view, DrawView):
            c_view = view._to_c()
        else:
            raise TypeError(f"view: expected a spindrift.DrawView, got {type(view).__name__}")
        self.batches = []
        check(_lib.spindrift_world_draw_list(world.handle, ctypes.byref(c_view), self.handle))
        pointer = ctypes.c_void_p()
        count = ctypes.c_uint32()
        check(
            _lib.spindrift_draw_list_batches(
                self.handle, _native.DRAW_BATCH_SIZE, ctypes.byref(pointer), ctypes.byref(count)
            )
        )
        records = (
            (_native.DrawBatch * count.value).from_address(pointer.value) if count.value else []
        )
        self.batches = [self._batch(b) for b in records]
        return self

    def _batch(self, b):
        return DrawBatch(
            kind=KINDS.get(b.kind, str(b.kind)),
            blend=BLENDS.get(b.blend, str(b.blend)),
            sort=SORTS.get(b.sort, str(b.sort)),
            sorted=b.sorted,
            lit=b.lit,
            device_resident=b.device_resident,
            flipbook_blend=b.flipbook_blend,
            instance=b.instance.id,
            effect=b.effect,
            emitter_index=b.emitter_index,
            instance_distance_m=b.instance_distance_m,
            alignment=ALIGNMENTS.get(b.alignment, str(b.alignment)),
            particle_count=b.particle_count,
            axis=_args.vector_tuple(b.axis),
            stretch_s=b.stretch_s,
            flipbook_frames=b.flipbook_frames,
            flipbook_columns=b.flipbook_columns,
            flipbook_rows=b.flipbook_rows,
            soft_fade_m=b.soft_fade_m,
            mesh_scale=b.mesh_scale,
            mesh_tumble_rad_per_s=b.mesh_tumble_rad_per_s,
            emissive=b.emissive,
            emissive_share=b.emissive_share,
            distortion=b.distortion,
            lit_per_particle=b.lit_per_particle,
            particles=borrowed(b.particles, b.particle_length, PARTICLE_DTYPE, self),
            vertices=borrowed(b.vertices, b.vertex_length, STRIP_POINT_DTYPE, self),
            segments=borrowed(b.segments, b.segment_length, np.dtype("<u4"), self),
        )

    def stats(self):
        """(instances_drawn, device_batches, particles, strip_segments, sorted_particles,
        sort_skipped_particles, order_emitters, order_batches, sorted_strip_segments,
        order_exact_batches, order_coarsened_items) as a dict."""
        out = _native.sized(_native.DrawListStats)
        check(_lib.spindrift_draw_list_stats_get(self.handle, ctypes.byref(out)))
        return {name: getattr(out, name) for name, _ in out._fields_ if name != "struct_size"}
