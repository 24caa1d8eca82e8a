// Particle textures: uploaded once, named by a typed, generation-checked handle (TextureHandle,
// render/resource_handle.h), each with its own descriptor sets (set kSetTexture), one per wrap
// mode, so a batch binds its texture with one call: billboards and strips clamp to the edge, meshes
// repeat (their UVs may tile).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "image/image.h"
#include "image/mip_chain.h"
#include "render/resource_handle.h"
#include "spindrift/diagnostic.h"
#include "vulkan/commands.h"
#include "vulkan/device.h"
#include "vulkan/image.h"
#include "vulkan/owned.h"

namespace spindrift::render {

class TextureStore {
public:
    // capacity: the most textures add() accepts. Also uploads a 1x1 white texture bound for
    // untextured batches (the shader draws the soft disc and does not sample it, but every
    // binding the pipeline declares must be valid).
    static std::unique_ptr<TextureStore> create(const vk::Device& device, vk::CommandRunner& runner,
                                                uint32_t capacity,
                                                std::vector<Diagnostic>& diagnostics);

    // Uploads image as R8G8B8A8_SRGB (the shader samples linear colour; TextureEncoding::data:
    // R8G8B8A8_UNORM, sampled as stored) with its full mipmap chain (buildMipChain,
    // image/mip_chain.h: built on the host, the same texels on every device), sampled
    // trilinearly. Returns the handle, or kNoTexture with an
    // error naming label when the image is malformed (empty, size not width*height*4, larger
    // than the device allows), the store is full, or a Vulkan call fails.
    TextureHandle add(const Image& image, const std::string& label,
                      std::vector<Diagnostic>& diagnostics,
                      TextureEncoding encoding = TextureEncoding::color);

    VkDescriptorSetLayout layout() const { return layout_.get(); }
    // The set of a valid handle for a wrap mode; the blank texture's for kNoTexture (and for a
    // handle valid() refuses, which renderFrame reports before anything is drawn).
    VkDescriptorSet set(TextureHandle handle, vk::Wrap wrap = vk::Wrap::clamp) const;
    // Whether handle names a texture of this store (kNoTexture does not).
    bool valid(TextureHandle handle) const { return slots_.valid(handle); }
    // Why handle names no texture of this store (HandleSlots::problem); empty when it names one.
    std::string problem(TextureHandle handle) const { return slots_.problem(handle); }
    uint32_t count() const { return slots_.count(); }

private:
    TextureStore(const vk::Device& device, vk::CommandRunner& runner)
        : device_(device), runner_(runner) {}
    // The sets of one texture, by wrap mode (vk::Wrap's order).
    struct Sets {
        VkDescriptorSet clamp = VK_NULL_HANDLE;
        VkDescriptorSet repeat = VK_NULL_HANDLE;
    };
    bool upload(const Image& image, const std::string& label, TextureEncoding encoding,
                vk::Image2D& texture, Sets& sets, std::vector<Diagnostic>& diagnostics);

    const vk::Device& device_;
    vk::CommandRunner& runner_;
    uint32_t capacity_ = 0;
    vk::OwnedSampler sampler_;        // clamped to the edge
    vk::OwnedSampler repeat_sampler_; // repeating
    vk::OwnedDescriptorSetLayout layout_;
    vk::OwnedDescriptorPool pool_;
    HandleSlots<TextureTag> slots_;
    std::vector<vk::Image2D> textures_; // at the handles' indices
    std::vector<Sets> sets_;            // likewise; freed with the pool
    vk::Image2D blank_;
    Sets blank_sets_;
};

} // namespace spindrift::render
