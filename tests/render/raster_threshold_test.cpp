// RasterPath::automatic's threshold per device (render/raster_threshold.h): a CPU device never
// picks the compute rasteriser on its own, a compute part (H100, H200) picks it from 2^16
// particles, any other GPU from kDefaultComputeRasterThreshold.
#include <gtest/gtest.h>

#include "render/raster_threshold.h"

namespace spindrift::render {
namespace {

DeviceInfo device(std::string name, std::string type) {
    DeviceInfo d;
    d.name = std::move(name);
    d.type = std::move(type);
    return d;
}

TEST(RasterThreshold, ACpuDeviceNeverChoosesTheComputeRasteriser) {
    EXPECT_EQ(deviceComputeRasterThreshold(device("llvmpipe (LLVM 15.0.6, 256 bits)", "cpu")),
              kCpuComputeRasterThreshold);
    EXPECT_EQ(kCpuComputeRasterThreshold, UINT64_MAX);
}

TEST(RasterThreshold, ComputePartsChooseItFromFarFewerParticles) {
    for (const char* name : {"NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA GH200 480GB",
                             "NVIDIA A100-SXM4-40GB", "nvidia h800"}) {
        EXPECT_TRUE(isComputePart(name)) << name;
        EXPECT_EQ(deviceComputeRasterThreshold(device(name, "discrete")),
                  kComputePartRasterThreshold)
            << name;
    }
    EXPECT_LT(kComputePartRasterThreshold, kDefaultComputeRasterThreshold);
}

TEST(RasterThreshold, OtherGpusKeepTheDefault) {
    for (const auto& [name, type] : {std::pair{"NVIDIA GeForce RTX 4090", "discrete"},
                                     std::pair{"AMD Radeon RX 7900 XTX", "discrete"},
                                     std::pair{"Intel(R) UHD Graphics 770", "integrated"},
                                     std::pair{"Virtio-GPU Venus", "virtual"}}) {
        EXPECT_FALSE(isComputePart(name)) << name;
        EXPECT_EQ(deviceComputeRasterThreshold(device(name, type)), kDefaultComputeRasterThreshold)
            << name;
    }
}

} // namespace
} // namespace spindrift::render
