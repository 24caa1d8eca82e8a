"""Bad input from Python never crashes the process: every public entry point given values of the
wrong type, size or range answers with TypeError or ValueError (checked in Python) or a
SpindriftError carrying the C error code, and closed objects refuse further use."""

import itertools
import math

import numpy as np
import pytest

import spindrift

from test_effects import SMALL

BAD_VALUES = [None, "x", b"\0", -1, 2**64, math.nan, math.inf, (), (1, 2), (1, 2, 3, 4, 5),
              ("a", "b", "c"), object(), np.zeros((2, 2)), [math.nan] * 3, True]
EXPECTED = (TypeError, ValueError, spindrift.SpindriftError)


def calls(library, world, instance, renderer):
    """Every entry point taking a value, as (name, function of one value)."""
    return [
        ("Library.add_file", library.add_file),
        ("Library.add_text", lambda v: library.add_text(v, SMALL)),
        ("Library.add_text(text)", lambda v: library.add_text("t.json", v)),
        ("validate_file", spindrift.validate_file),
        ("validate_text", spindrift.validate_text),
        ("World.update", world.update),
        ("World.run", world.run),
        ("World.spawn(position)", lambda v: world.spawn(instance.effect, position=v)),
        ("World.spawn(rotation)", lambda v: world.spawn(instance.effect, rotation=v)),
        ("World.spawn(tint)", lambda v: world.spawn(instance.effect, tint=v)),
        ("World.spawn(seed)", lambda v: world.spawn(instance.effect, seed=v)),
        ("World.spawn(time_scale)", lambda v: world.spawn(instance.effect, time_scale=v)),
        ("World.set_camera_position", world.set_camera_position),
        ("World.draw_list", world.draw_list),
        ("Instance.emit", lambda v: instance.emit("burst", v)),
        ("Instance.emit(name)", lambda v: instance.emit(v, 1)),
        ("Instance.seek", instance.seek),
        ("Instance.advance_to", instance.advance_to),
        ("Instance.set_transform", lambda v: instance.set_transform(position=v)),
        ("Instance.set_tint", instance.set_tint),
        ("Instance.set_size_scale", instance.set_size_scale),
        ("Instance.set_seed", instance.set_seed),
        ("Instance.set_parameter(rate)", lambda v: instance.set_parameter("rate", v)),
        ("Instance.set_parameter(wind)", lambda v: instance.set_parameter("wind", v)),
        ("Instance.set_parameter(name)", lambda v: instance.set_parameter(v, 1.0)),
        ("Renderer.render(camera)", lambda v: renderer.render(world, v)),
        ("Renderer.render(out)", lambda v: renderer.render(world, out=v)),
        ("Camera.eye", lambda v: renderer.render(world, spindrift.Camera(eye=v))),
        ("Camera.fov_y_deg", lambda v: renderer.render(world, spindrift.Camera(fov_y_deg=v))),
        ("render_file", lambda v: spindrift.render_file(v, width=32, height=32)),
        ("render_file(time)", lambda v: spindrift.render_file("x.json", time=v)),
        ("Renderer(width)", lambda v: spindrift.Renderer(v, 32)),
        ("write_png", lambda v: spindrift.write_png("/nonexistent-folder/x.png", v)),
    ]


def test_bad_values_are_refused_everywhere(library):
    with spindrift.World(library) as world, spindrift.Renderer(32, 32) as renderer:
        instance = world.spawn(library.add_text("small.json", SMALL))
        world.run(0.1)
        for (name, call), value in itertools.product(
            calls(library, world, instance, renderer), BAD_VALUES
        ):
            try:
                call(value)
            except EXPECTED:
                pass
            except OSError:
                assert name == "write_png", f"{name}({value!r})"
        # The world still works afterwards.
        assert world.update(1 / 60).instances >= 1


def test_closed_objects_refuse_use(library):
    renderer = spindrift.Renderer(32, 32)
    renderer.close()
    renderer.close()
    world = spindrift.World(library)
    with pytest.raises(spindrift.SpindriftError) as caught:
        renderer.render(world)
    assert caught.value.code == spindrift.Result.STALE_HANDLE
    with pytest.raises(spindrift.SpindriftError):
        renderer.device_name
    draw_list = world.draw_list()
    draw_list.close()
    with pytest.raises(spindrift.SpindriftError):
        draw_list.fill(world)
    world.close()


def test_hot_reload_of_text(library):
    effect = library.add_text("live.json", SMALL)
    effect.compile()
    assert library.poll_changes().files_reloaded == 0
    assert library.add_text("live.json", SMALL.replace('"default": 100', '"default": 50')) is effect
    report = library.poll_changes()
    assert report.files_reloaded == 1 and report.files_rejected == 0
    assert effect.info().version == 2
    assert effect.parameters["rate"].default == (50.0,)
    library.add_text("live.json", SMALL.replace('"capacity": 4096', '"capacity": -4', 1))
    report = library.poll_changes()
    assert report.files_rejected == 1
    assert any(d.is_error for d in report.diagnostics)
    assert effect.info().version == 2  # the previous version stays in use
