// Embedding Spindrift in a game loop: one library, one world, a campfire that follows a moving
// object, a burst on demand, hot reload, and the particles a renderer would draw.
// Build: link spindrift_runtime. Run: embed_minimal path/to/campfire.json
#include <cstdio>
#include <vector>

#include "spindrift/runtime.h"

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "examples/effects/campfire.json";
    spindrift::EffectLibrary library;                   // every effect file, compiled once
    const spindrift::EffectId fire = library.add(path); // nothing read yet: lazy
    spindrift::World world(library);                    // CPU backend by default

    spindrift::InstanceDesc desc;
    desc.effect = fire;
    desc.transform.position = {4, 0, -2}; // it starts here, not at the origin
    desc.tint = {1.0f, 0.8f, 0.6f, 1.0f};
    spindrift::InstanceHandle campfire;
    if (world.create(desc, campfire) != spindrift::RuntimeError::none) {
        std::fprintf(stderr, "%s\n", world.lastErrorMessage().c_str());
        return 1;
    }

    std::vector<spindrift::Particle> particles;
    for (int frame = 0; frame < 120; ++frame) {
        library.pollChanges(); // hot reload: edited files switch at the next update
        spindrift::InstanceTransform t;
        t.position = {4.0f + 0.05f * static_cast<float>(frame), 0, -2};
        world.setTransform(campfire, t);
        if (frame == 60) world.emit(campfire, "embers", 20); // a gameplay burst
        const spindrift::WorldUpdateReceipt receipt = world.update(1.0 / 60.0);
        if (receipt.discarded_steps > 0) std::printf("frame %d dropped time\n", frame);
        world.readParticles(campfire, particles); // world space, tint applied: draw these
    }
    std::printf("%zu particles, %u instance(s)\n", particles.size(), world.instanceCount());

    world.stop(campfire); // no more births; the particles finish their lives
    for (int frame = 0; frame < 600 && !world.isFinished(campfire); ++frame)
        world.update(1.0 / 60.0);
    if (!world.isFinished(campfire)) return 1;
    world.destroy(campfire);
    // A stale handle is an error value, never a crash or another instance.
    return world.play(campfire) == spindrift::RuntimeError::stale_handle ? 0 : 1;
}
