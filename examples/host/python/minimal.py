"""A minimal Python host (docs/python.md): loads the campfire, runs it for a second, prints its
particle counts, reads its draw list and renders a still PNG.

Run from the repository root:
    /usr/bin/python3 examples/host/python/minimal.py [OUTPUT.png]
with the package importable (installed: PYTHONPATH=<prefix>/lib/python3/dist-packages; from a
build: PYTHONPATH=python, the library found in build/lib or through SPINDRIFT_LIBRARY). Without
an output path the PNG goes to a temporary folder."""

import os
import sys
import tempfile

import numpy as np

import spindrift


def main(argv):
    output = argv[1] if len(argv) > 1 else os.path.join(tempfile.mkdtemp(), "campfire.png")
    with spindrift.Library() as library:
        try:
            fire_effect = library.add_file("examples/effects/campfire.json").compile()
        except spindrift.EffectError as error:
            for diagnostic in error.diagnostics:
                print(diagnostic, file=sys.stderr)
            return 1
        with spindrift.World(library) as world:
            fire = world.spawn(fire_effect)
            receipt = world.run(1.0)  # 60 frames of 1/60 s
            particles = fire.particles()  # a NumPy structured array (a copy)
            print(f"{receipt.live_particles} live particles after 1 s")
            for index, name in enumerate(fire_effect.emitters):
                count = int(np.count_nonzero(particles["emitter_index"] == index))
                print(f"  {name}: {count}")

            camera = spindrift.Camera(eye=(0, 1.2, 4.5), target=(0, 0.8, 0))
            view = spindrift.DrawView.looking_at(camera.eye, camera.target, width=640, height=360)
            with world.draw_list(view) as draw_list:  # views of the list's memory
                for batch in draw_list:
                    print(f"  batch {fire_effect.emitters[batch.emitter_index]}: {batch.kind}, "
                          f"{batch.blend}, {len(batch.particles)} particles")

            with spindrift.Renderer(640, 360) as renderer:
                image = renderer.render(world, camera)  # (360, 640, 4) uint8
                device = renderer.device_name
            spindrift.write_png(output, image)
            print(f"wrote {output} ({image.shape[1]}x{image.shape[0]}, on {device})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
