"""Effects: validation without a library, and the effect library worlds play from."""

import ctypes
from dataclasses import dataclass

from . import _args, _native
from .errors import call_with_diagnostics, check, last_error_message, take_diagnostics
from .errors import Result, SpindriftError

_lib = _native.lib


def validate_file(path):
    """Loads, validates and compiles the effect file at path (.sfx: cooked; else JSON) without
    registering it. Returns its diagnostics (warnings only: it is valid); raises EffectError
    carrying them when it has errors."""
    return call_with_diagnostics(_lib.spindrift_validate_file, _args.path(path))


def validate_text(text, file_name="<memory>"):
    """The same for JSON text in memory; file_name is what the diagnostics call the file."""
    if not isinstance(text, (str, bytes)):
        raise TypeError(f"text: expected a str, got {type(text).__name__}")
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    return call_with_diagnostics(
        _lib.spindrift_validate_text, data, len(data), _args.name(file_name, "file_name")
    )


PARAMETER_KINDS = {0: "float", 1: "float3", 2: "color"}
_WIDTH = {"float": 1, "float3": 3, "color": 4}


@dataclass(frozen=True)
class Parameter:
    """A user parameter: kind "float", "float3" or "color"; default, minimum and maximum as
    tuples of the kind's width."""

    name: str
    kind: str
    default: tuple
    minimum: tuple
    maximum: tuple


@dataclass(frozen=True)
class EffectInfo:
    compiled: bool
    failed: bool
    version: int
    emitter_count: int
    parameter_count: int
    diagnostic_count: int


@dataclass(frozen=True)
class ReloadReport:
    files_checked: int
    files_changed: int
    files_reloaded: int
    files_rejected: int
    diagnostics: list


def _string_out(function, *args):
    """A string the C API copies into a caller buffer: asks for its length, then copies it."""
    length = ctypes.c_size_t()
    check(function(*args, None, 0, ctypes.byref(length)))
    buffer = ctypes.create_string_buffer(length.value + 1)
    check(function(*args, buffer, len(buffer), ctypes.byref(length)))
    return buffer.value.decode("utf-8", "replace")


class Library:
    """An effect library (spindrift_library): effects registered by file or by text, compiled on
    first use, hot-reloaded by poll_changes. Close it (or use `with`) after every World made
    with it; a World keeps its library alive while it is open."""

    def __init__(self):
        handle = _native.Library()
        check(_lib.spindrift_library_create(ctypes.byref(handle)))
        self._handle = handle
        self._effects = {}

    @property
    def handle(self):
        if self._handle is None:
            raise SpindriftError(Result.STALE_HANDLE, "the library is closed")
        return self._handle

    @property
    def closed(self):
        return self._handle is None

    def close(self):
        """Destroys the library; SpindriftError (IN_USE) while a world made with it is open."""
        if self._handle is not None:
            check(_lib.spindrift_library_destroy(self._handle))
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if self._handle is not None:
                _lib.spindrift_library_destroy(self._handle)
        except Exception:
            pass

    def _effect(self, effect_id):
        effect = self._effects.get(effect_id)
        if effect is None:
            effect = self._effects[effect_id] = Effect(self, effect_id)
        return effect

    def add_file(self, path):
        """Registers the effect file (read and compiled on first use, or by Effect.compile) and
        returns its Effect; the same path again gives the same Effect."""
        effect_id = ctypes.c_uint32()
        check(_lib.spindrift_library_add_file(self.handle, _args.path(path), ctypes.byref(effect_id)))
        return self._effect(effect_id.value)

    def add_text(self, name, text):
        """Registers JSON text (copied) under name, against whose folder its textures and meshes
        resolve. New text under the same name replaces the old one at the next poll_changes."""
        if not isinstance(text, (str, bytes)):
            raise TypeError(f"text: expected a str, got {type(text).__name__}")
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        effect_id = ctypes.c_uint32()
        check(
            _lib.spindrift_library_add_text(
                self.handle, _args.name(name, "name"), data, len(data), ctypes.byref(effect_id)
            )
        )
        return self._effect(effect_id.value)

    def poll_changes(self):
        """Hot reload: recompiles every compiled effect whose file (or text) changed."""
        report = _native.sized(_native.ReloadReport)
        handle = _native.Diagnostics()
        result = _lib.spindrift_library_poll_changes(
            self.handle, ctypes.byref(report), ctypes.byref(handle)
        )
        message = last_error_message()
        found = take_diagnostics(handle)
        check(result, found, message)
        return ReloadReport(
            report.files_checked,
            report.files_changed,
            report.files_reloaded,
            report.files_rejected,
            found,
        )


class Effect:
    """One effect of a library (an id in it)."""

    def __init__(self, library, effect_id):
        self.library = library
        self.id = effect_id

    def __repr__(self):
        return f"Effect(id={self.id})"

    def compile(self):
        """Loads and compiles it now; EffectError (with every diagnostic) when it does not."""
        result = _lib.spindrift_library_compile(self.library.handle, self.id)
        if result != Result.OK:
            message = last_error_message()
            check(result, self.diagnostics(), message)
        return self

    def info(self):
        out = _native.sized(_native.EffectInfo)
        check(_lib.spindrift_library_effect_info(self.library.handle, self.id, ctypes.byref(out)))
        return EffectInfo(
            out.compiled,
            out.failed,
            out.version,
            out.emitter_count,
            out.parameter_count,
            out.diagnostic_count,
        )

    def diagnostics(self):
        """The diagnostics of its last compile or reload."""
        handle = _native.Diagnostics()
        check(
            _lib.spindrift_library_effect_diagnostics(
                self.library.handle, self.id, ctypes.byref(handle)
            )
        )
        return take_diagnostics(handle)

    @property
    def emitters(self):
        """Emitter names in compiled order (compiles the effect if it is not yet)."""
        count = self.compile().info().emitter_count
        return [
            _string_out(_lib.spindrift_library_emitter_name, self.library.handle, self.id, i)
            for i in range(count)
        ]

    def emitter_texture(self, index):
        """The emitter's texture file, resolved against the effect's folder ("" for none)."""
        index = _args.uint(index, "index")
        return _string_out(_lib.spindrift_library_emitter_texture, self.library.handle, self.id, index)

    def emitter_mesh(self, index):
        index = _args.uint(index, "index")
        return _string_out(_lib.spindrift_library_emitter_mesh, self.library.handle, self.id, index)

    @property
    def parameters(self):
        """The user parameters in authored order, by name (of the current version: read anew
        each time, so a reload that changes them shows)."""
        count = self.compile().info().parameter_count
        found = {}
        for index in range(count):
            p = _native.sized(_native.ParameterInfo)
            check(
                _lib.spindrift_library_parameter_info(
                    self.library.handle, self.id, index, ctypes.byref(p)
                )
            )
            kind = PARAMETER_KINDS.get(p.kind, "float")
            width = _WIDTH[kind]
            name = p.name.decode("utf-8", "replace")
            found[name] = Parameter(
                name,
                kind,
                _args.color_tuple(p.default_value)[:width],
                _args.color_tuple(p.min)[:width],
                _args.color_tuple(p.max)[:width],
            )
        return found
