#include "render/texture_store.h"

#include <cstring>
#include <utility>

#include "image/mip_chain.h"
#include "render/shader/frame_globals.h"
#include "vulkan/buffer.h"
#include "vulkan/descriptors.h"
#include "vulkan/pipeline.h"

namespace spindrift::render {

namespace {

Diagnostic textureError(const std::string& label, std::string message) {
    Diagnostic d;
    d.severity = Severity::error;
    d.file = label;
    d.message = std::move(message);
    return d;
}

} // namespace

std::unique_ptr<TextureStore> TextureStore::create(const vk::Device& device,
                                                   vk::CommandRunner& runner, uint32_t capacity,
                                                   std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<TextureStore> store(new TextureStore(device, runner));
    store->capacity_ = capacity;
    VkDevice d = device.handle();

    store->sampler_ = vk::createSampler(device, vk::Filter::linear, diagnostics, vk::Wrap::clamp,
                                        vk::Mipmaps::linear);
    if (!store->sampler_) return nullptr;
    store->repeat_sampler_ = vk::createSampler(device, vk::Filter::linear, diagnostics,
                                               vk::Wrap::repeat, vk::Mipmaps::linear);
    if (!store->repeat_sampler_) return nullptr;

    VkDescriptorSetLayoutBinding binding{};
    binding.binding = kBindingTexture;
    binding.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.descriptorCount = 1;
    // Sampled by the fragment shaders and by the compute rasteriser (render/compute_raster.h).
    binding.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT | VK_SHADER_STAGE_COMPUTE_BIT;
    store->layout_ =
        vk::createDescriptorSetLayout(d, {binding}, "the texture set layout", diagnostics);
    if (!store->layout_) return nullptr;

    // Two sets (wrap modes) per texture and the blank one.
    store->pool_ =
        vk::createDescriptorPool(d, 2 * (capacity + 1), 0, 2 * (capacity + 1), diagnostics);
    if (!store->pool_) return nullptr;

    Image white;
    white.width = 1;
    white.height = 1;
    white.rgba8 = {255, 255, 255, 255};
    if (!store->upload(white, "(blank texture)", TextureEncoding::color, store->blank_,
                       store->blank_sets_, diagnostics)) {
        return nullptr;
    }
    return store;
}

TextureHandle TextureStore::add(const Image& image, const std::string& label,
                                std::vector<Diagnostic>& diagnostics, TextureEncoding encoding) {
    uint32_t max_side = device_.limits().maxImageDimension2D;
    if (image.width == 0 || image.height == 0) {
        diagnostics.push_back(textureError(label, "texture is empty (0 pixels)"));
        return kNoTexture;
    }
    if (image.width > max_side || image.height > max_side) {
        diagnostics.push_back(textureError(label, "texture is " + std::to_string(image.width) +
                                                      "x" + std::to_string(image.height) +
                                                      "; this device allows at most " +
                                                      std::to_string(max_side) + " pixels a side"));
        return kNoTexture;
    }
    if (image.rgba8.size() != size_t{image.width} * image.height * 4) {
        diagnostics.push_back(
            textureError(label, "texture data is " + std::to_string(image.rgba8.size()) +
                                    " bytes; expected width * height * 4 = " +
                                    std::to_string(size_t{image.width} * image.height * 4)));
        return kNoTexture;
    }
    if (slots_.count() >= capacity_) {
        diagnostics.push_back(textureError(label, "too many textures: the renderer holds at most " +
                                                      std::to_string(capacity_)));
        return kNoTexture;
    }
    vk::Image2D texture;
    Sets sets;
    if (!upload(image, label, encoding, texture, sets, diagnostics)) return kNoTexture;
    textures_.push_back(std::move(texture));
    sets_.push_back(sets);
    return slots_.add();
}

bool TextureStore::upload(const Image& image, const std::string& label, TextureEncoding encoding,
                          vk::Image2D& texture, Sets& sets, std::vector<Diagnostic>& diagnostics) {
    VkDevice d = device_.handle();
    std::string what = "texture " + label;
    std::vector<Image> chain = buildMipChain(image, encoding);
    auto levels = static_cast<uint32_t>(chain.size() + 1);
    const VkFormat format =
        encoding == TextureEncoding::color ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
    texture = vk::createImage2D(device_, format, {image.width, image.height},
                                VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, what,
                                diagnostics, levels);
    if (!texture) return false;
    // Every level in one staging buffer, one copy region each.
    std::vector<VkBufferImageCopy> regions;
    size_t bytes = 0;
    for (uint32_t level = 0; level < levels; ++level) {
        const Image& source = level == 0 ? image : chain[level - 1];
        VkBufferImageCopy region{};
        region.bufferOffset = bytes;
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
        region.imageExtent = {source.width, source.height, 1};
        regions.push_back(region);
        bytes += source.rgba8.size();
    }
    vk::Buffer staging = vk::createBuffer(device_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                          vk::MemoryUse::upload, what + " (staging)", diagnostics);
    if (!staging) return false;
    for (uint32_t level = 0; level < levels; ++level) {
        const Image& source = level == 0 ? image : chain[level - 1];
        std::memcpy(static_cast<uint8_t*>(staging.mapped) + regions[level].bufferOffset,
                    source.rgba8.data(), source.rgba8.size());
    }

    bool uploaded = runner_.run(
        what,
        [&](VkCommandBuffer cmd) {
            vk::ImageBarrier to_transfer;
            to_transfer.image = texture.get();
            to_transfer.old_layout = VK_IMAGE_LAYOUT_UNDEFINED;
            to_transfer.new_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            to_transfer.dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT;
            to_transfer.dst_access = VK_ACCESS_2_TRANSFER_WRITE_BIT;
            vk::imageBarriers(cmd, {to_transfer});

            vkCmdCopyBufferToImage(cmd, staging.get(), texture.get(),
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                   static_cast<uint32_t>(regions.size()), regions.data());

            vk::ImageBarrier to_shader;
            to_shader.image = texture.get();
            to_shader.old_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            to_shader.new_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
            to_shader.src_stage = VK_PIPELINE_STAGE_2_COPY_BIT;
            to_shader.src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT;
            to_shader.dst_stage =
                VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
            to_shader.dst_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
            vk::imageBarriers(cmd, {to_shader});
        },
        diagnostics);
    if (!uploaded) return false;

    for (auto [set, sampler] :
         {std::pair{&sets.clamp, sampler_.get()}, std::pair{&sets.repeat, repeat_sampler_.get()}}) {
        *set = vk::allocateDescriptorSet(d, pool_.get(), layout_.get(), diagnostics);
        if (*set == VK_NULL_HANDLE) return false;
        vk::writeCombinedImageSampler(d, *set, kBindingTexture, texture.view.get(), sampler,
                                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }
    return true;
}

VkDescriptorSet TextureStore::set(TextureHandle handle, vk::Wrap wrap) const {
    const Sets& sets = slots_.valid(handle) ? sets_[handle.index] : blank_sets_;
    return wrap == vk::Wrap::repeat ? sets.repeat : sets.clamp;
}

} // namespace spindrift::render
