"""Worlds and instances from Python: running, reading particles as arrays, control, parameters,
stale handles, and arguments refused before they reach C."""

import numpy as np
import pytest

import spindrift
from spindrift import Result

from test_effects import SMALL


@pytest.fixture
def world(library):
    with spindrift.World(library) as w:
        yield w


def test_a_campfire_burns_and_its_particles_read_as_an_array(library, world, campfire_path):
    fire = world.spawn(library.add_file(campfire_path), position=(2, 0, 0))
    receipt = world.run(1.0)
    assert receipt.live_particles > 0 and receipt.instances == 1
    assert fire.playing and fire.alive and fire.state == "playing"
    particles = fire.particles()
    assert particles.dtype == spindrift.PARTICLE_DTYPE and particles.dtype.itemsize == 64
    assert len(particles) == fire.live_particles == receipt.live_particles
    assert particles.flags.owndata  # a copy the caller owns
    assert np.isfinite(particles["position"]).all()
    # The fire sits at x = 2: its particles are around there, not at the origin.
    assert abs(float(np.median(particles["position"][:, 0])) - 2.0) < 1.0
    assert ((particles["normalized_age"] >= 0) & (particles["normalized_age"] <= 1)).all()
    assert set(np.unique(particles["emitter_index"])) == set(range(len(fire.effect.emitters)))
    info = fire.info()
    assert info.steps > 0 and info.transform["position"] == (2.0, 0.0, 0.0)
    assert world.stats().instances_created == 1


def test_a_burst_adds_exactly_its_count(library, world):
    small = library.add_text("small.json", SMALL)
    instance = world.spawn(small)
    instance.set_parameter("rate", 0.0)
    world.update(1 / 60)
    assert instance.live_particles == 0
    instance.emit("burst", 25)
    world.update(1 / 60)
    particles = instance.particles()
    assert len(particles) == 25
    assert (particles["emitter_index"] == 1).all()
    with pytest.raises(spindrift.SpindriftError) as caught:
        instance.emit("nope", 1)
    assert caught.value.code == Result.UNKNOWN_EMITTER


def test_parameters_round_trip_and_are_range_checked(library, world):
    instance = world.spawn(library.add_text("small.json", SMALL))
    instance.set_parameter("rate", 250)
    assert instance.get_parameter("rate") == 250.0
    instance.set_parameter("wind", (1, -2, 3))
    assert instance.get_parameter("wind") == (1.0, -2.0, 3.0)
    instance.set_parameter("tint", (0.5, 0.25, 1))
    assert instance.get_parameter("tint") == (0.5, 0.25, 1.0, 1.0)
    with pytest.raises(spindrift.SpindriftError) as caught:
        instance.set_parameter("rate", 5000)
    assert caught.value.code == Result.INVALID_ARGUMENT
    assert "rate" in caught.value.message
    with pytest.raises(spindrift.SpindriftError) as caught:
        instance.set_parameter("missing", 1)
    assert caught.value.code == Result.UNKNOWN_PARAMETER


def test_the_same_seed_gives_the_same_particles(library, world):
    small = library.add_text("small.json", SMALL)
    a = world.spawn(small, seed=11)
    b = world.spawn(small, seed=11)
    c = world.spawn(small, seed=12)
    world.run(0.5)
    pa, pb, pc = a.particles(), b.particles(), c.particles()
    assert len(pa) > 0
    assert np.array_equal(pa["position"], pb["position"])
    assert not np.array_equal(pa["position"], pc["position"])


def test_a_destroyed_instance_is_stale(library, world):
    instance = world.spawn(library.add_text("small.json", SMALL))
    instance.destroy()
    assert not instance.alive
    with pytest.raises(spindrift.SpindriftError) as caught:
        instance.play()
    assert caught.value.code == Result.STALE_HANDLE
    assert "stale" in caught.value.message


def test_a_closed_world_refuses_calls(library):
    world = spindrift.World(library)
    instance = world.spawn(library.add_text("small.json", SMALL))
    world.close()
    world.close()  # twice is fine
    with pytest.raises(spindrift.SpindriftError) as caught:
        world.update(0.1)
    assert caught.value.code == Result.STALE_HANDLE
    with pytest.raises(spindrift.SpindriftError):
        instance.particles()


def test_events_arrive_as_an_array(library, world):
    text = SMALL.replace(
        '"update": [{"type": "gravity"},',
        '"events": {"birth": true, "max_per_step": 4096},\n   "update": [{"type": "gravity"},',
    )
    instance = world.spawn(library.add_text("events.json", text))
    receipt = world.update(0.25)
    events = world.events()
    assert len(events) == receipt.events > 0
    assert events.dtype == spindrift.EVENT_DTYPE
    assert (events["kind"] == 0).all()  # births
    assert (events["instance"] == instance.handle.id).all()
    view = world.events(copy=False)
    assert not view.flags.writeable and np.array_equal(view, events)


def test_bad_arguments_are_refused_before_c(library, world):
    small = library.add_text("small.json", SMALL)
    with pytest.raises(ValueError):
        world.spawn(small, position=(1, 2))
    with pytest.raises(TypeError):
        world.spawn(small, position=("a", 0, 0))
    with pytest.raises(ValueError):
        world.spawn(small, seed=-1)
    with pytest.raises(ValueError):
        world.spawn(small, seed=2**32)
    with pytest.raises(TypeError):
        world.spawn("small.json")
    with pytest.raises(ValueError):
        world.update(-1)
    with pytest.raises(ValueError):
        world.update(float("nan"))
    with pytest.raises(TypeError):
        world.update("0.1")
    with pytest.raises(ValueError):
        spindrift.World(library, backend="quantum")
    with pytest.raises(ValueError):
        spindrift.World(library, threads=0)
    instance = world.spawn(small)
    with pytest.raises(ValueError):
        instance.emit("burst", 0)
    with pytest.raises(ValueError):
        instance.emit("burst", 2**40)
    with pytest.raises(ValueError):
        instance.set_parameter("wind", (1, 2))
    # Values C checks itself come back as its error codes.
    with pytest.raises(spindrift.SpindriftError) as caught:
        world.spawn(small, position=(float("nan"), 0, 0))
    assert caught.value.code == Result.INVALID_ARGUMENT
    with pytest.raises(spindrift.SpindriftError) as caught:
        instance.set_time_scale(-3)
    assert caught.value.code == Result.INVALID_ARGUMENT


def test_an_effect_of_another_library_is_refused(library, world):
    with spindrift.Library() as other:
        effect = other.add_text("small.json", SMALL)
        with pytest.raises(ValueError):
            world.spawn(effect)
