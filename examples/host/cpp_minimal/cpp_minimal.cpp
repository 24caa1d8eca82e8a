// A minimal C++ host: load an effect, spawn an instance, update frames and read the draw list a
// renderer would draw. Run from the repository root: cpp_minimal [effect.json]
// Exits 0 only when the draw list had particles to draw.
#include <cstdint>
#include <cstdio>

#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "examples/effects/campfire.json";

    spindrift::EffectLibrary library; // every effect file, compiled once, on first use
    const spindrift::EffectId effect = library.add(path);
    spindrift::World world(library); // CPU backend, one thread: the defaults

    spindrift::InstanceDesc desc;
    desc.effect = effect;
    desc.transform.position = {0, 0, -4};
    spindrift::InstanceHandle instance;
    if (world.create(desc, instance) != spindrift::RuntimeError::none) {
        std::fprintf(stderr, "cpp_minimal: %s\n", world.lastErrorMessage().c_str());
        return 1;
    }

    // A camera at the origin looking down -Z at the instance; keep the list: its storage is
    // reused from frame to frame.
    spindrift::DrawView view;
    spindrift::DrawList list;
    uint64_t most_drawn = 0;
    for (int frame = 0; frame < 90; ++frame) {
        world.update(1.0 / 60.0);
        if (world.drawList(view, list) != spindrift::RuntimeError::none) {
            std::fprintf(stderr, "cpp_minimal: %s\n", world.lastErrorMessage().c_str());
            return 1;
        }
        uint64_t drawn = 0;
        for (const spindrift::DrawBatch& batch : list.batches()) drawn += batch.particle_count;
        if (drawn > most_drawn) most_drawn = drawn;
    }

    std::printf("cpp_minimal: %s: %zu batches, %llu particles drawn in the last frame "
                "(most in a frame: %llu), %u instance(s)\n",
                path, list.batches().size(),
                static_cast<unsigned long long>(list.stats().particles),
                static_cast<unsigned long long>(most_drawn), world.instanceCount());
    if (list.stats().particles == 0) {
        std::fprintf(stderr, "cpp_minimal: nothing was drawn\n");
        return 1;
    }
    return 0;
}
