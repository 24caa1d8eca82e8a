// A Vulkan host that owns its instance, device, queue and images, headless (no window), and lets
// Spindrift draw an effect's particles into its own frame (docs/host-vulkan.md):
//
//   each frame: the host clears its colour and depth and "draws" an opaque block (a cleared
//   rectangle at a depth in front of the fire, so it hides part of it); Spindrift records the
//   particles into the same command buffer, depth-tested against the host's depth; the host
//   submits, signalling the semaphore Spindrift asked for.
//
// Usage (from the repository root): vulkan_host [effect.json] [out.png]
// Defaults: examples/effects/campfire.json, and vulkan_host.png in the system's temporary folder.
// With VK_LAYER_KHRONOS_validation installed, validation is on and any message fails the run.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include <spindrift/runtime.h>
#include <spindrift/vulkan_renderer.h>

#include "png_writer.h"

namespace {

constexpr uint32_t kWidth = 640;
constexpr uint32_t kHeight = 360;
constexpr int kFrames = 90; // 1.5 s at 60 Hz
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

std::vector<std::string> g_messages; // validation warnings and errors

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    g_messages.push_back(data != nullptr && data->pMessage != nullptr ? data->pMessage : "?");
    std::fprintf(stderr, "vulkan: %s\n", g_messages.back().c_str());
    return VK_FALSE;
}

bool ok(VkResult result, const char* what) {
    if (result == VK_SUCCESS) return true;
    std::fprintf(stderr, "vulkan_host: %s failed (VkResult %d)\n", what, static_cast<int>(result));
    return false;
}

bool hasLayer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const VkLayerProperties& l : layers) {
        if (std::strcmp(l.layerName, name) == 0) return true;
    }
    return false;
}

// Everything the host owns. Destroyed in reverse, after Spindrift's renderer and world.
struct Host {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    uint32_t family = UINT32_MAX;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkImage images[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE}; // colour, depth
    VkImageView views[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkDeviceMemory memory[3] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkBuffer readback = VK_NULL_HANDLE;
    void* mapped = nullptr;

    ~Host() {
        if (device != VK_NULL_HANDLE) {
            vkDeviceWaitIdle(device);
            vkDestroyBuffer(device, readback, nullptr);
            for (VkImageView v : views) vkDestroyImageView(device, v, nullptr);
            for (VkImage i : images) vkDestroyImage(device, i, nullptr);
            for (VkDeviceMemory m : memory) vkFreeMemory(device, m, nullptr);
            vkDestroyFence(device, fence, nullptr);
            vkDestroyCommandPool(device, pool, nullptr);
            vkDestroyDevice(device, nullptr);
        }
        if (messenger != VK_NULL_HANDLE) {
            auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
            if (destroy != nullptr) destroy(instance, messenger, nullptr);
        }
        if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
    }
};

bool createInstance(Host& h) {
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const bool validation = hasLayer(layer);
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "spindrift vulkan_host";
    app.apiVersion = VK_API_VERSION_1_3; // Spindrift needs 1.3
    VkDebugUtilsMessengerCreateInfoEXT messenger{};
    messenger.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    messenger.pfnUserCallback = onMessage;
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    if (validation) {
        info.pNext = &messenger;
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = &layer;
        info.enabledExtensionCount = 1;
        info.ppEnabledExtensionNames = &extension;
    }
    if (!ok(vkCreateInstance(&info, nullptr, &h.instance), "vkCreateInstance")) return false;
    if (validation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(h.instance, "vkCreateDebugUtilsMessengerEXT"));
        if (create == nullptr ||
            !ok(create(h.instance, &messenger, nullptr, &h.messenger), "messenger")) {
            return false;
        }
    }
    std::printf("vulkan_host: validation %s\n", validation ? "on" : "off (layer not installed)");
    return true;
}

// The first Vulkan 1.3 device (a discrete GPU preferred) with a graphics + compute queue.
bool pickDevice(Host& h) {
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(h.instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(h.instance, &count, devices.data());
    for (int pass = 0; pass < 2 && h.physical == VK_NULL_HANDLE; ++pass) {
        for (VkPhysicalDevice d : devices) {
            VkPhysicalDeviceProperties p{};
            vkGetPhysicalDeviceProperties(d, &p);
            if (p.apiVersion < VK_API_VERSION_1_3) continue;
            if (pass == 0 && p.deviceType != VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) continue;
            uint32_t families = 0;
            vkGetPhysicalDeviceQueueFamilyProperties(d, &families, nullptr);
            std::vector<VkQueueFamilyProperties> props(families);
            vkGetPhysicalDeviceQueueFamilyProperties(d, &families, props.data());
            const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
            for (uint32_t i = 0; i < families; ++i) {
                if ((props[i].queueFlags & needed) == needed) {
                    h.physical = d;
                    h.family = i;
                    std::printf("vulkan_host: device %s\n", p.deviceName);
                    break;
                }
            }
            if (h.physical != VK_NULL_HANDLE) break;
        }
    }
    if (h.physical == VK_NULL_HANDLE) {
        std::fprintf(stderr, "vulkan_host: no Vulkan 1.3 device with graphics and compute\n");
        return false;
    }
    return true;
}

uint32_t memoryType(const Host& h, uint32_t bits, VkMemoryPropertyFlags wanted) {
    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(h.physical, &memory);
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if ((bits & (1u << i)) != 0 && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) {
            return i;
        }
    }
    return 0;
}

bool createImages(Host& h) {
    const VkFormat formats[2] = {kColorFormat, kDepthFormat};
    // The depth is SAMPLED too: Spindrift's soft particles read it.
    const VkImageUsageFlags usages[2] = {
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
            VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
            VK_IMAGE_USAGE_TRANSFER_DST_BIT};
    const VkImageAspectFlags aspects[2] = {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT};
    for (int i = 0; i < 2; ++i) {
        VkImageCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
        info.imageType = VK_IMAGE_TYPE_2D;
        info.format = formats[i];
        info.extent = {kWidth, kHeight, 1};
        info.mipLevels = 1;
        info.arrayLayers = 1;
        info.samples = VK_SAMPLE_COUNT_1_BIT;
        info.tiling = VK_IMAGE_TILING_OPTIMAL;
        info.usage = usages[i];
        if (!ok(vkCreateImage(h.device, &info, nullptr, &h.images[i]), "vkCreateImage")) {
            return false;
        }
        VkMemoryRequirements req{};
        vkGetImageMemoryRequirements(h.device, h.images[i], &req);
        VkMemoryAllocateInfo alloc{};
        alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        alloc.allocationSize = req.size;
        alloc.memoryTypeIndex =
            memoryType(h, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        if (!ok(vkAllocateMemory(h.device, &alloc, nullptr, &h.memory[i]), "vkAllocateMemory")) {
            return false;
        }
        vkBindImageMemory(h.device, h.images[i], h.memory[i], 0);
        VkImageViewCreateInfo view{};
        view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
        view.image = h.images[i];
        view.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view.format = formats[i];
        view.subresourceRange = {aspects[i], 0, 1, 0, 1};
        if (!ok(vkCreateImageView(h.device, &view, nullptr, &h.views[i]), "vkCreateImageView")) {
            return false;
        }
    }
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = VkDeviceSize{kWidth} * kHeight * 4;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (!ok(vkCreateBuffer(h.device, &info, nullptr, &h.readback), "vkCreateBuffer")) return false;
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(h.device, h.readback, &req);
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex =
        memoryType(h, req.memoryTypeBits,
                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (!ok(vkAllocateMemory(h.device, &alloc, nullptr, &h.memory[2]), "vkAllocateMemory")) {
        return false;
    }
    vkBindBufferMemory(h.device, h.readback, h.memory[2], 0);
    return ok(vkMapMemory(h.device, h.memory[2], 0, VK_WHOLE_SIZE, 0, &h.mapped), "vkMapMemory");
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                  VkImageLayout to) {
    VkImageMemoryBarrier2 b{};
    b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2;
    b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {aspect, 0, 1, 0, 1};
    VkDependencyInfo dep{};
    dep.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
    dep.imageMemoryBarrierCount = 1;
    dep.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dep);
}

// The host's opaque scene: a night-blue clear, depth 1, and a grey block over the lower right
// at `block_depth` (in front of the fire), written as an opaque draw would write it.
void recordScene(const Host& h, float block_depth) {
    imageBarrier(h.cmd, h.images[0], VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    imageBarrier(h.cmd, h.images[1], VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
    VkRenderingAttachmentInfo color{};
    color.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    color.imageView = h.views[0];
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{0.01f, 0.012f, 0.03f, 1.0f}};
    VkRenderingAttachmentInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    depth.imageView = h.views[1];
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = {1.0f, 0};
    VkRenderingInfo rendering{};
    rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO;
    rendering.renderArea = {{0, 0}, {kWidth, kHeight}};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    rendering.pDepthAttachment = &depth;
    vkCmdBeginRendering(h.cmd, &rendering);
    VkClearAttachment block[2]{};
    block[0].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    block[0].colorAttachment = 0;
    block[0].clearValue.color = {{0.08f, 0.08f, 0.09f, 1.0f}};
    block[1].aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
    block[1].clearValue.depthStencil = {block_depth, 0};
    VkClearRect rect{{{static_cast<int32_t>(kWidth * 55 / 100), static_cast<int32_t>(kHeight / 2)},
                      {kWidth * 45 / 100, kHeight / 2}},
                     0,
                     1};
    vkCmdClearAttachments(h.cmd, 2, block, 1, &rect);
    vkCmdEndRendering(h.cmd);
}

// The depth of the point `metres` along the view direction, with Spindrift's projection.
float depthAt(const spindrift::DrawView& view, float metres) {
    float m[16];
    spindrift::vulkanClipFromWorld(view, kWidth, kHeight, m);
    const float length =
        std::sqrt(view.forward.x * view.forward.x + view.forward.y * view.forward.y +
                  view.forward.z * view.forward.z);
    const float p[4] = {view.eye.x + view.forward.x / length * metres,
                        view.eye.y + view.forward.y / length * metres,
                        view.eye.z + view.forward.z / length * metres, 1.0f};
    float clip[4] = {0, 0, 0, 0};
    for (int row = 0; row < 4; ++row) {
        for (int c = 0; c < 4; ++c) clip[row] += m[c * 4 + row] * p[c];
    }
    return clip[2] / clip[3];
}

void printDiagnostics(const std::vector<spindrift::Diagnostic>& diagnostics) {
    for (const spindrift::Diagnostic& d : diagnostics) {
        std::fprintf(stderr, "spindrift: %s\n", d.message.c_str());
    }
}

} // namespace

int main(int argc, char** argv) {
    const std::string effect_path = argc > 1 ? argv[1] : "examples/effects/campfire.json";
    const std::string out_path =
        argc > 2 ? argv[2] : (std::filesystem::temp_directory_path() / "vulkan_host.png").string();

    Host h;
    if (!createInstance(h) || !pickDevice(h)) return 1;
    // The features Spindrift needs, enabled at device creation (docs/host-vulkan.md).
    VkPhysicalDeviceVulkan13Features features13{};
    features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    features13.dynamicRendering = VK_TRUE;
    features13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12{};
    features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    features12.pNext = &features13;
    features12.bufferDeviceAddress = VK_TRUE;
    features12.timelineSemaphore = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{};
    queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue_info.queueFamilyIndex = h.family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkDeviceCreateInfo device_info{};
    device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    device_info.pNext = &features12;
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    if (!ok(vkCreateDevice(h.physical, &device_info, nullptr, &h.device), "vkCreateDevice")) {
        return 1;
    }
    vkGetDeviceQueue(h.device, h.family, 0, &h.queue);
    VkCommandPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = h.family;
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    if (!ok(vkCreateCommandPool(h.device, &pool, nullptr, &h.pool), "vkCreateCommandPool")) {
        return 1;
    }
    alloc.commandPool = h.pool;
    if (!ok(vkAllocateCommandBuffers(h.device, &alloc, &h.cmd), "vkAllocateCommandBuffers") ||
        !ok(vkCreateFence(h.device, &fence, nullptr, &h.fence), "vkCreateFence") ||
        !createImages(h)) {
        return 1;
    }

    std::vector<spindrift::Diagnostic> diagnostics;
    spindrift::VulkanRendererConfig config;
    config.device = {h.instance,   VK_API_VERSION_1_3, h.physical, h.device,
                     &device_info, h.family,           h.queue};
    config.color_format = kColorFormat;
    config.depth_format = kDepthFormat;
    int status = 0;
    {
        std::unique_ptr<spindrift::VulkanRenderer> particles =
            spindrift::VulkanRenderer::create(config, diagnostics);
        if (!particles) {
            printDiagnostics(diagnostics);
            return 1;
        }
        spindrift::EffectLibrary library;
        const spindrift::EffectId effect = library.add(effect_path);
        spindrift::WorldConfig world_config;
        world_config.backend = spindrift::SimulationBackend::automatic;
        spindrift::World world(library, world_config);
        particles->useFor(world); // GPU instances, if any, on this device and queue
        spindrift::InstanceDesc desc;
        desc.effect = effect;
        spindrift::InstanceHandle instance;
        if (world.create(desc, instance) != spindrift::RuntimeError::none) {
            spindrift::EffectInfo info;
            if (library.info(effect, info)) printDiagnostics(info.diagnostics);
            std::fprintf(stderr, "vulkan_host: cannot create an instance of %s\n",
                         effect_path.c_str());
            return 1;
        }

        spindrift::DrawView view;
        view.eye = {0.0f, 1.2f, 4.0f};
        view.forward = {0.0f, -0.15f, -1.0f};
        view.viewport_width = kWidth;
        view.viewport_height = kHeight;
        view.aspect = static_cast<float>(kWidth) / kHeight;
        const float block_depth = depthAt(view, 2.5f); // 1.5 m in front of the fire
        spindrift::DrawList list;
        for (int frame = 0; frame < kFrames && status == 0; ++frame) {
            world.update(1.0 / 60.0);
            world.drawList(view, list);
            vkResetCommandBuffer(h.cmd, 0);
            VkCommandBufferBeginInfo begin{};
            begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
            begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
            vkBeginCommandBuffer(h.cmd, &begin);
            recordScene(h, block_depth);

            spindrift::VulkanFrame target;
            target.command_buffer = h.cmd;
            target.extent = {kWidth, kHeight};
            target.color = {h.images[0], h.views[0], VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
            target.depth = {h.images[1], h.views[1], VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                            VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL};
            target.view = view;
            spindrift::VulkanFrameResult result;
            if (!particles->record(target, list, library, result, diagnostics)) {
                printDiagnostics(diagnostics);
                status = 1;
            }
            // The host's own work after Spindrift's: here, copying the frame out.
            VkBufferImageCopy region{};
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.imageExtent = {kWidth, kHeight, 1};
            if (status == 0) {
                vkCmdCopyImageToBuffer(h.cmd, h.images[0], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                       h.readback, 1, &region);
            }
            VkMemoryBarrier2 to_host{};
            to_host.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2;
            to_host.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
            to_host.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
            to_host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
            to_host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
            VkDependencyInfo dep{};
            dep.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
            dep.memoryBarrierCount = 1;
            dep.pMemoryBarriers = &to_host;
            vkCmdPipelineBarrier2(h.cmd, &dep);
            if (!ok(vkEndCommandBuffer(h.cmd), "vkEndCommandBuffer")) status = 1;
            if (status != 0) break;

            // Submit, signalling what Spindrift asked for.
            VkCommandBufferSubmitInfo buffer{};
            buffer.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO;
            buffer.commandBuffer = h.cmd;
            VkSemaphoreSubmitInfo signal{};
            signal.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;
            signal.semaphore = result.signal_semaphore;
            signal.value = result.signal_value;
            signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
            VkSubmitInfo2 submit{};
            submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2;
            submit.commandBufferInfoCount = 1;
            submit.pCommandBufferInfos = &buffer;
            submit.signalSemaphoreInfoCount = 1;
            submit.pSignalSemaphoreInfos = &signal;
            if (!ok(vkQueueSubmit2(h.queue, 1, &submit, h.fence), "vkQueueSubmit2") ||
                !ok(vkWaitForFences(h.device, 1, &h.fence, VK_TRUE, UINT64_MAX), "fence") ||
                !ok(vkResetFences(h.device, 1, &h.fence), "vkResetFences")) {
                status = 1;
            }
        }
        // Nothing of Spindrift's may still run when its objects go: the world (its GPU
        // instances) first, then the renderer.
        vkQueueWaitIdle(h.queue);
    }
    if (status != 0) return status;

    // R8G8B8A8_SRGB bytes are already what a PNG holds.
    const auto* bytes = static_cast<const uint8_t*>(h.mapped);
    std::vector<uint8_t> rgba(bytes, bytes + size_t{kWidth} * kHeight * 4);
    size_t lit = 0;
    for (size_t i = 0; i < rgba.size(); i += 4) lit += rgba[i] > 60 ? 1 : 0;
    std::string error;
    if (!writePngAtomically(out_path, rgba, kWidth, kHeight, error)) {
        std::fprintf(stderr, "vulkan_host: %s\n", error.c_str());
        return 1;
    }
    std::printf("vulkan_host: wrote %s (%ux%u, %zu bright pixels)\n", out_path.c_str(), kWidth,
                kHeight, lit);
    if (lit == 0) {
        std::fprintf(stderr, "vulkan_host: no particle reached the image\n");
        return 1;
    }
    if (!g_messages.empty()) {
        std::fprintf(stderr, "vulkan_host: %zu validation messages\n", g_messages.size());
        return 1;
    }
    return 0;
}
