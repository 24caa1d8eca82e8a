"""Draw lists from Python: batches whose particles and strip points are NumPy views of the
list's memory, in draw order, holding every drawn particle."""

import dataclasses

import numpy as np
import pytest

import spindrift

from test_effects import SMALL


def test_the_view_defaults_are_the_libraries():
    ours = spindrift.DrawView()
    theirs = spindrift.DrawView.defaults()
    for field in dataclasses.fields(ours):
        # The library's values are float32: equal to ours once rounded.
        assert np.allclose(getattr(ours, field.name), getattr(theirs, field.name), rtol=1e-6), (
            field.name
        )


def test_a_draw_list_holds_every_live_particle_without_copying(library, campfire_path):
    with spindrift.World(library) as world:
        fire = world.spawn(library.add_file(campfire_path))
        world.run(1.0)
        view = spindrift.DrawView.looking_at(eye=(0, 1.5, 5), target=(0, 1, 0))
        with world.draw_list(view) as draw_list:
            assert len(draw_list) >= 1
            billboards = [b for b in draw_list if b.kind == "billboards"]
            drawn = sum(len(b.particles) for b in billboards)
            assert drawn == fire.live_particles == draw_list.stats()["particles"]
            for batch in billboards:
                assert batch.instance == fire.handle.id and batch.effect == fire.effect.id
                assert batch.particles.dtype == spindrift.PARTICLE_DTYPE
                assert batch.emissive == 1 and batch.emissive_share == 0  # the campfire's
                assert not batch.particles.flags.writeable
                assert not batch.particles.flags.owndata  # a view of the list's memory
                assert np.isfinite(batch.particles["position"]).all()
                if batch.sorted and batch.sort == "back_to_front" and len(batch.particles) > 1:
                    eye = np.array([0, 1.5, 5], dtype=np.float32)
                    distance = np.linalg.norm(batch.particles["position"] - eye, axis=1)
                    assert (np.diff(distance) <= 1e-4).all()
            # The same particles as read back, in another order.
            keys = np.sort(np.concatenate([b.particles["key"] for b in billboards]))
            assert np.array_equal(keys, np.sort(fire.particles()["key"]))


def test_a_hidden_instance_is_not_drawn(library):
    with spindrift.World(library) as world:
        instance = world.spawn(library.add_text("small.json", SMALL))
        world.run(0.5)
        instance.set_visible(False)
        with world.draw_list() as draw_list:
            assert len(draw_list) == 0


def test_a_bad_view_is_refused(library):
    with spindrift.World(library) as world:
        view = spindrift.DrawView(fov_y_deg=0)
        with pytest.raises(spindrift.SpindriftError) as caught:
            world.draw_list(view)
        assert caught.value.code == spindrift.Result.INVALID_ARGUMENT
        with pytest.raises(TypeError):
            world.draw_list("front")
        with pytest.raises(ValueError):
            world.draw_list(spindrift.DrawView(eye=(0, 0)))
