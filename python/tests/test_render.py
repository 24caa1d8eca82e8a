"""Rendering from Python: a world seen from a camera, and stills of files compared byte for byte
with the command-line tool's PNG of the same frame (the package's done-when check)."""

import subprocess

import numpy as np
import pytest

import spindrift
from spindrift import Result

from conftest import EXAMPLES

WIDTH, HEIGHT = 96, 64


def cli_still(cli, source, output, *options):
    """`spindrift render SOURCE -o OUTPUT OPTIONS` at the test size; returns the PNG's pixels."""
    subprocess.run(
        [str(cli), "render", str(source), "-o", str(output), "--size", f"{WIDTH}x{HEIGHT}", "-q",
         *options],
        check=True,
    )
    return spindrift.read_png(output)


@pytest.mark.parametrize(
    "source, time",
    [
        (EXAMPLES / "effects" / "campfire.json", 1.5),  # textured billboards
        (EXAMPLES / "effects" / "campfire.json", None),  # the default still time
        (EXAMPLES / "effects" / "rockfall.json", 2.0),  # meshes
        (EXAMPLES / "effects" / "sword_trail.json", 1.0),  # ribbons
        (EXAMPLES / "scenes" / "campfire_night.json", 2.0),  # a scene file
    ],
)
def test_render_file_matches_the_cli_byte_for_byte(cli, tmp_path, source, time):
    options = [] if time is None else ["--time", str(time)]
    expected = cli_still(cli, source, tmp_path / "cli.png", *options)
    image, info = spindrift.render_file_with_info(source, time=time, width=WIDTH, height=HEIGHT)
    assert image.shape == (HEIGHT, WIDTH, 4) and image.dtype == np.uint8
    assert expected.shape == image.shape
    assert np.array_equal(image, expected), (
        f"{int((image != expected).any(axis=2).sum())} pixels differ from the CLI's"
    )
    assert info.is_scene == (source.parent.name == "scenes")
    if time is not None:
        assert info.time_s == pytest.approx(time)
    # Not a blank frame: the comparison would pass trivially on one.
    assert info.particles > 0
    assert len(np.unique(image.reshape(-1, 4), axis=0)) > 10
    # The Python PNG writer keeps the pixels.
    spindrift.write_png(tmp_path / "python.png", image)
    assert np.array_equal(spindrift.read_png(tmp_path / "python.png"), expected)


def test_another_frame_is_another_image(campfire_path):
    a = spindrift.render_file(campfire_path, time=0.5, width=WIDTH, height=HEIGHT)
    b = spindrift.render_file(campfire_path, time=2.5, width=WIDTH, height=HEIGHT)
    assert not np.array_equal(a, b)


def test_render_file_errors(tmp_path, campfire_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1, "emitters": [{"name": "a", "capacity": -1}]}')
    with pytest.raises(spindrift.EffectError) as caught:
        spindrift.render_file(broken, width=WIDTH, height=HEIGHT)
    assert caught.value.diagnostics and caught.value.diagnostics[0].file.endswith("broken.json")
    with pytest.raises(spindrift.SpindriftError) as caught:
        spindrift.render_file(campfire_path, time=-1, width=WIDTH, height=HEIGHT)
    assert caught.value.code == Result.INVALID_ARGUMENT
    with pytest.raises(ValueError):
        spindrift.render_file(campfire_path, width=WIDTH)
    with pytest.raises(ValueError):
        spindrift.render_file(campfire_path, backend="tpu")
    with pytest.raises(spindrift.SpindriftError) as caught:
        spindrift.render_file(campfire_path, width=4, height=4)
    assert caught.value.code == Result.INVALID_ARGUMENT


def test_a_world_renders_from_a_camera(library, campfire_path):
    camera = spindrift.Camera(eye=(0, 1, 4), target=(0, 0.6, 0), ground=False)
    assert camera.fov_y_deg == 45 and camera.transparency == "sorted"
    with spindrift.Renderer(WIDTH, HEIGHT) as renderer, spindrift.World(library) as world:
        assert renderer.device_name
        empty = renderer.render(world, camera)
        assert empty.shape == (HEIGHT, WIDTH, 4)
        assert (empty == empty[0, 0]).all()  # the background alone

        world.spawn(library.add_file(campfire_path))
        world.run(1.0)
        image = renderer.render(world, camera)
        assert (image != empty).any(axis=2).sum() > WIDTH * HEIGHT // 50
        assert (image[..., 3] == 255).all()
        out = np.zeros((HEIGHT, WIDTH, 4), dtype=np.uint8)
        assert renderer.render(world, camera, out=out) is out
        assert np.array_equal(out, image)

        with pytest.raises(ValueError):
            renderer.render(world, camera, out=np.zeros((HEIGHT, WIDTH, 3), dtype=np.uint8))
        with pytest.raises(ValueError):
            renderer.render(world, camera, out=np.zeros((WIDTH, HEIGHT, 4), dtype=np.uint8))
        with pytest.raises(ValueError):
            renderer.render(world, camera, out=np.zeros((HEIGHT, WIDTH * 2, 4), np.uint8)[:, ::2])
        with pytest.raises(TypeError):
            renderer.render(world, "camera")
        with pytest.raises(spindrift.SpindriftError) as caught:
            renderer.render(world, spindrift.Camera(fov_y_deg=0))
        assert caught.value.code == Result.INVALID_ARGUMENT
        assert "fov_y_deg" in caught.value.message
        with pytest.raises(ValueError):
            renderer.render(world, spindrift.Camera(transparency="sideways"))


def test_the_camera_carries_the_post(library, campfire_path):
    camera = spindrift.Camera(eye=(0, 1, 4), target=(0, 0.6, 0), ground=False)
    assert camera.tonemap == "aces" and camera.exposure_mode == "manual"
    assert camera.bloom_strength == pytest.approx(0.05) and camera.bloom_levels == 6
    off = spindrift.Camera(
        eye=(0, 1, 4), target=(0, 0.6, 0), ground=False, tonemap="none", bloom_strength=0
    )
    with spindrift.Renderer(WIDTH, HEIGHT) as renderer, spindrift.World(library) as world:
        world.spawn(library.add_file(campfire_path))
        world.run(1.0)
        post = renderer.render(world, camera)
        plain = renderer.render(world, off)
        assert (post != plain).any(axis=2).sum() > WIDTH * HEIGHT // 50
        brighter = renderer.render(world, spindrift.Camera(**{**camera.__dict__, "exposure_ev": 2}))
        assert brighter[..., :3].astype(int).sum() > 1.1 * post[..., :3].astype(int).sum()
        with pytest.raises(ValueError):
            renderer.render(world, spindrift.Camera(tonemap="filmic"))
        with pytest.raises(spindrift.SpindriftError) as caught:
            renderer.render(world, spindrift.Camera(bloom_levels=9))
        assert caught.value.code == Result.INVALID_ARGUMENT
        assert "bloom_levels" in caught.value.message


def test_a_renderer_refuses_a_bad_size_or_device():
    with pytest.raises(spindrift.SpindriftError) as caught:
        spindrift.Renderer(4, 4)
    assert caught.value.code == Result.INVALID_ARGUMENT
    with pytest.raises(spindrift.SpindriftError) as caught:
        spindrift.Renderer(WIDTH, HEIGHT, device="no such device anywhere")
    assert caught.value.code == Result.BACKEND_UNAVAILABLE
    with pytest.raises(ValueError):
        spindrift.Renderer(-1, HEIGHT)


def test_png_round_trip(tmp_path):
    rng = np.random.default_rng(5)
    image = rng.integers(0, 256, size=(7, 5, 4), dtype=np.uint8)
    spindrift.write_png(tmp_path / "a.png", image)
    assert np.array_equal(spindrift.read_png(tmp_path / "a.png"), image)
    rgb = image[..., :3].copy()
    spindrift.write_png(tmp_path / "b.png", rgb)
    assert np.array_equal(spindrift.read_png(tmp_path / "b.png"), rgb)
    with pytest.raises(ValueError):
        spindrift.write_png(tmp_path / "c.png", image.astype(np.float32))
    (tmp_path / "d.png").write_bytes(b"not a png")
    with pytest.raises(ValueError):
        spindrift.read_png(tmp_path / "d.png")


def test_the_camera_carries_lights_sky_and_shadows(library, campfire_path):
    dark = dict(eye=(0, 3, 6), target=(0, 0, 0), sun_intensity=0, ambient=(0, 0, 0), shadows=False)
    with spindrift.Renderer(WIDTH, HEIGHT) as renderer, spindrift.World(library) as world:
        unlit = renderer.render(world, spindrift.Camera(**dark))
        # A point light over the ground and a sky each light it; no light leaves it black.
        lamp = spindrift.Light(position=(0, 1, 0), color=(1, 0.5, 0.2), intensity=8, range_m=6)
        lit = renderer.render(world, spindrift.Camera(**dark, lights=[lamp]))
        assert lit[..., 0].astype(int).sum() > unlit[..., 0].astype(int).sum() + WIDTH * HEIGHT
        sky = renderer.render(world, spindrift.Camera(**dark, sky_zenith=(0.2, 0.4, 1)))
        assert sky[..., 2].astype(int).sum() > unlit[..., 2].astype(int).sum() + WIDTH * HEIGHT
        # The campfire's smoke shades the sunlit ground through the opacity shadow map.
        world.spawn(library.add_file(campfire_path))
        world.run(2.0)
        sunny = dict(eye=(0, 3, 6), target=(0, 0.5, 0), sun_direction=(0.3, 1, 0.2))
        assert spindrift.Camera(**sunny).shadows  # a scene file's default
        shaded = renderer.render(world, spindrift.Camera(**sunny))
        bare = renderer.render(world, spindrift.Camera(**sunny, shadows=False))
        assert (shaded != bare).any(axis=2).sum() > 0
        assert shaded[..., :3].astype(int).sum() < bare[..., :3].astype(int).sum()
        with pytest.raises(spindrift.SpindriftError) as caught:
            renderer.render(world, spindrift.Camera(lights=[spindrift.Light(range_m=0)]))
        assert caught.value.code == Result.INVALID_ARGUMENT
        assert "lights[0]" in caught.value.message
        with pytest.raises(spindrift.SpindriftError) as caught:
            renderer.render(world, spindrift.Camera(shadow_cascades=9))
        assert "shadow" in caught.value.message
        with pytest.raises(ValueError):
            renderer.render(world, spindrift.Camera(lights=[spindrift.Light(type="area")]))
        with pytest.raises(TypeError):
            renderer.render(world, spindrift.Camera(lights=[{"position": (0, 1, 0)}]))
        with pytest.raises(ValueError):
            renderer.render(world, spindrift.Camera(lights=[lamp] * 65))


def test_a_light_with_shadows_casts_them(library):
    # The rockfall's rocks (opaque meshes) on the ground, a spot low to their right, no sun: the
    # spot's shadows darken the ground behind the rocks (docs/rendering.md "Shadows of local
    # lights"), and only a light that has them casts.
    view = dict(
        eye=(0, 4, 5),
        target=(0, 0, 0),
        sun_intensity=0,
        ambient=(0.02, 0.02, 0.02),
        tonemap="none",
        bloom_strength=0,
    )
    spot = dict(
        type="spot",
        position=(3, 1, 0),
        direction=(-1, -0.3, 0),
        intensity=40,
        range_m=15,
        inner_deg=40,
        outer_deg=60,
    )
    unlit = spindrift.Light(intensity=0, shadows=True)  # no intensity: draws no map

    def frame(lights, **options):
        return renderer.render(world, spindrift.Camera(**view, **options, lights=lights))

    assert not spindrift.Light().shadows
    with spindrift.Renderer(WIDTH, HEIGHT) as renderer, spindrift.World(library) as world:
        world.spawn(library.add_file(EXAMPLES / "effects" / "rockfall.json"))
        world.run(1.5)  # fallen, lying on the ground
        plain = frame([unlit, spindrift.Light(**spot)])
        shadowed = frame([unlit, spindrift.Light(**spot, shadows=True)])
        assert (plain != shadowed).any(axis=2).sum() > WIDTH * HEIGHT // 50
        assert shadowed[..., :3].astype(int).sum() < 0.98 * plain[..., :3].astype(int).sum()
        # The frame without the spot's shadows is the same with another light's (the mask's bits
        # are the lights' own) and without any light's.
        assert np.array_equal(plain, frame([spindrift.Light(intensity=0), spindrift.Light(**spot)]))
        # The camera's shadows off: no light casts.
        assert np.array_equal(
            frame([spindrift.Light(**spot, shadows=True)], shadows=False),
            frame([spindrift.Light(**spot)], shadows=False),
        )
        with pytest.raises(TypeError) as caught:
            renderer.render(world, spindrift.Camera(lights=[spindrift.Light(shadows="yes")]))
        assert "camera.lights[0].shadows" in str(caught.value)


def test_motion_vectors_come_with_the_colour(library, campfire_path):
    camera = spindrift.Camera(eye=(0, 1, 4), target=(0, 0.6, 0), ground=True)
    # The previous frame's camera 0.1 m to the left: what stands still moved left on screen.
    previous = spindrift.Camera(eye=(-0.1, 1, 4), target=(-0.1, 0.6, 0))
    with spindrift.Renderer(WIDTH, HEIGHT) as renderer, spindrift.World(library) as world:
        world.spawn(library.add_file(campfire_path))
        world.run(1.0)
        plain = renderer.render(world, camera)
        image, motion = renderer.render_with_motion(world, camera, spindrift.Motion(previous))
        assert np.array_equal(image, plain)  # the colour is the same frame
        assert motion.shape == (HEIGHT, WIDTH, 2) and motion.dtype == np.float32
        # The ground's bottom row, about 4 m away: moved left by a few pixels, not at all in y
        # beyond rounding (the camera moved sideways).
        assert (motion[-1, :, 0] < -0.5).all()
        assert np.abs(motion[-1, :, 1]).max() < 0.05
        # Without a previous camera the background adds nothing.
        _, still = renderer.render_with_motion(world, camera, spindrift.Motion())
        assert (still[-1] == 0).all()
        with pytest.raises(spindrift.SpindriftError) as caught:
            renderer.render_with_motion(world, camera, spindrift.Motion(interval_s=float("nan")))
        assert caught.value.code == Result.INVALID_ARGUMENT
        assert "interval_s" in caught.value.message
        with pytest.raises(spindrift.SpindriftError) as caught:
            renderer.render_with_motion(world, camera, spindrift.Motion(coverage_threshold=2))
        assert "coverage_threshold" in caught.value.message
        with pytest.raises(TypeError):
            renderer.render_with_motion(world, camera, spindrift.Motion(previous_camera="left"))
