"""Effects from Python: validation with diagnostics as objects, the library, parameters."""

import pytest

import spindrift
from spindrift import Result

BROKEN = """{"version": 1, "name": "broken",
 "emitters": [{"name": "a", "capacity": 16,
   "spawn": {"rate_per_s": -5}}]}
"""

SMALL = """{"version": 1, "name": "small", "seed": 3,
 "bounds": {"center": [0, 1, 0], "half_extents": [2, 2, 2]},
 "parameters": [
  {"name": "rate", "type": "float", "default": 100, "range": [0, 1000]},
  {"name": "wind", "type": "float3", "default": [0, 0, 0], "range": [-10, 10]},
  {"name": "tint", "type": "color", "default": [1, 1, 1, 1], "range": [0, [4, 4, 4, 1]]}],
 "emitters": [
  {"name": "main", "capacity": 4096, "spawn": {"rate_per_s": {"param": "rate"}},
   "init": {"lifetime_s": [2, 2], "speed": [1, 2], "velocity": [0, 2, 0],
            "color": {"param": "tint"}},
   "update": [{"type": "gravity"}, {"type": "force", "acceleration": {"param": "wind"}}]},
  {"name": "burst", "capacity": 4096, "spawn": {"rate_per_s": 0},
   "init": {"lifetime_s": [100, 100], "speed": [0, 0]}}]}
"""


def test_version_and_library_path():
    assert spindrift.version.count(".") == 2
    assert "libspindrift" in spindrift.library_path


def test_a_valid_file_has_no_errors(campfire_path):
    diagnostics = spindrift.validate_file(campfire_path)
    assert not any(d.is_error for d in diagnostics)


def test_an_invalid_text_raises_with_diagnostics_as_objects():
    with pytest.raises(spindrift.EffectError) as caught:
        spindrift.validate_text(BROKEN, "broken.json")
    error = caught.value
    assert error.code == Result.EFFECT_FAILED
    assert "broken.json" in error.message
    rate = [d for d in error.diagnostics if d.path == "$.emitters[0].spawn.rate_per_s"]
    assert len(rate) == 1
    found = rate[0]
    assert found.is_error and found.severity == "error"
    assert found.file == "broken.json"
    assert found.line == 3 and found.column > 1
    assert str(found).startswith(f"broken.json:3:{found.column}: error: $.emitters[0]")


def test_a_missing_file_is_an_effect_error(tmp_path):
    with pytest.raises(spindrift.EffectError) as caught:
        spindrift.validate_file(tmp_path / "nothing.json")
    assert caught.value.diagnostics


def test_library_effects_emitters_and_parameters(library, campfire_path):
    fire = library.add_file(campfire_path)
    assert library.add_file(str(campfire_path)) is fire
    assert fire.emitters == ["flames", "smoke", "embers", "firelight", "halo"]
    info = fire.info()
    assert info.compiled and not info.failed and info.version == 1
    assert info.emitter_count == len(fire.emitters)
    assert fire.emitter_texture(0).endswith(".png")
    with pytest.raises(spindrift.SpindriftError) as caught:
        fire.emitter_texture(99)
    assert caught.value.code == Result.INDEX_OUT_OF_RANGE

    small = library.add_text("small.json", SMALL)
    assert small.emitters == ["main", "burst"]
    parameters = small.parameters
    assert list(parameters) == ["rate", "wind", "tint"]
    assert parameters["rate"].kind == "float" and parameters["rate"].default == (100.0,)
    assert parameters["wind"].minimum == (-10.0, -10.0, -10.0)
    assert parameters["tint"].maximum == (4.0, 4.0, 4.0, 1.0)


def test_a_broken_text_fails_to_compile_with_its_diagnostics(library):
    broken = library.add_text("broken.json", BROKEN)
    with pytest.raises(spindrift.EffectError) as caught:
        broken.compile()
    assert any(d.path == "$.emitters[0].spawn.rate_per_s" for d in caught.value.diagnostics)
    assert broken.info().failed


def test_a_library_in_use_refuses_to_close(library):
    world = spindrift.World(library)
    with pytest.raises(spindrift.SpindriftError) as caught:
        library.close()
    assert caught.value.code == Result.IN_USE
    world.close()
    library.close()
    assert library.closed
    with pytest.raises(spindrift.SpindriftError):
        library.add_text("x.json", SMALL)


def test_arguments_are_checked_before_c(library):
    with pytest.raises(TypeError):
        library.add_file(42)
    with pytest.raises(ValueError):
        library.add_file("bad\0name.json")
    with pytest.raises(TypeError):
        library.add_text("x.json", 3.5)
    with pytest.raises(TypeError):
        spindrift.validate_text(None)
