#include "hostvk/test_host.h"

#include <cstring>

#include "render/readback.h"
#include "vulkan/keep_libraries.h"

namespace spindrift::test {

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT type,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                         void* user) {
    const bool error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
    const bool validation = (type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) != 0;
    if (error || validation) {
        static_cast<std::vector<std::string>*>(user)->push_back(
            data != nullptr && data->pMessage != nullptr ? data->pMessage : "(no message)");
    }
    return VK_FALSE;
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

uint32_t memoryType(VkPhysicalDevice physical, uint32_t bits, VkMemoryPropertyFlags wanted) {
    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if ((bits & (1u << i)) != 0 && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) {
            return i;
        }
    }
    return UINT32_MAX;
}

uint32_t bytesPerPixel(VkFormat format) {
    return format == VK_FORMAT_R16G16B16A16_SFLOAT ? 8u : 4u;
}

void barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
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
    VkDependencyInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
    info.imageMemoryBarrierCount = 1;
    info.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &info);
}

} // namespace

std::unique_ptr<TestHost> TestHost::create(std::string& why) {
    const char* layer = "VK_LAYER_KHRONOS_validation";
    if (!hasLayer(layer)) {
        why = "no validation layer";
        return nullptr;
    }
    std::unique_ptr<TestHost> h(new TestHost());
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "spindrift host test";
    app.apiVersion = VK_API_VERSION_1_3;
    VkDebugUtilsMessengerCreateInfoEXT messenger{};
    messenger.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = onMessage;
    messenger.pUserData = &h->messages_;
    // Synchronization validation too: the host frame's barriers are what these tests check.
    VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{};
    features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
    features.pNext = &messenger;
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                                VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pNext = &features;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = &layer;
    info.enabledExtensionCount = 2;
    info.ppEnabledExtensionNames = extensions;
    // The driver and the validation layer this instance loads stay mapped until exit, as
    // Spindrift's own instances keep theirs (vulkan/keep_libraries.h): LeakSanitizer can then
    // name the layer's leftovers, which tests/lsan.supp suppresses, and the driver is loaded once.
    const std::vector<std::string> before = vk::loadedLibraries();
    const VkResult created = vkCreateInstance(&info, nullptr, &h->instance_);
    vk::keepLibrariesLoadedSince(before);
    if (created != VK_SUCCESS) {
        why = "vkCreateInstance failed";
        return nullptr;
    }
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(h->instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (create_messenger == nullptr ||
        create_messenger(h->instance_, &messenger, nullptr, &h->messenger_) != VK_SUCCESS) {
        why = "no debug messenger";
        return nullptr;
    }

    uint32_t count = 0;
    vkEnumeratePhysicalDevices(h->instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(h->instance_, &count, devices.data());
    for (VkPhysicalDevice d : devices) {
        VkPhysicalDeviceProperties p{};
        vkGetPhysicalDeviceProperties(d, &p);
        if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && p.apiVersion >= VK_API_VERSION_1_3) {
            h->physical_ = d;
        }
    }
    if (h->physical_ == VK_NULL_HANDLE) {
        why = "no lavapipe (Vulkan 1.3 CPU device)";
        return nullptr;
    }
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical_, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical_, &families, props.data());
    for (uint32_t i = 0; i < families; ++i) {
        if ((props[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
            (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) {
            h->family_ = i;
            break;
        }
    }
    h->queue_info_.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    h->queue_info_.queueFamilyIndex = h->family_;
    h->queue_info_.queueCount = 1;
    h->queue_info_.pQueuePriorities = &h->priority_;
    h->features13_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    h->features13_.dynamicRendering = VK_TRUE;
    h->features13_.synchronization2 = VK_TRUE;
    h->features12_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    h->features12_.pNext = &h->features13_;
    h->features12_.bufferDeviceAddress = VK_TRUE;
    h->features12_.timelineSemaphore = VK_TRUE;
    h->create_info_.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    h->create_info_.pNext = &h->features12_;
    h->create_info_.queueCreateInfoCount = 1;
    h->create_info_.pQueueCreateInfos = &h->queue_info_;
    if (vkCreateDevice(h->physical_, &h->create_info_, nullptr, &h->device_) != VK_SUCCESS) {
        why = "vkCreateDevice failed";
        return nullptr;
    }
    vkGetDeviceQueue(h->device_, h->family_, 0, &h->queue_);
    VkCommandPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = h->family_;
    vkCreateCommandPool(h->device_, &pool, nullptr, &h->pool_);
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = h->pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = kFramesInFlight;
    vkAllocateCommandBuffers(h->device_, &alloc, h->cmds_);
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    for (VkFence& f : h->fences_) vkCreateFence(h->device_, &fence, nullptr, &f);
    return h;
}

VulkanDevice TestHost::device() const {
    return {instance_, VK_API_VERSION_1_3, physical_, device_, &create_info_, family_, queue_};
}

void TestHost::destroyImages() {
    if (device_ == VK_NULL_HANDLE) return;
    vkDestroyImageView(device_, color_view_, nullptr);
    vkDestroyImageView(device_, depth_view_, nullptr);
    vkDestroyImageView(device_, motion_view_, nullptr);
    vkDestroyImage(device_, color_, nullptr);
    vkDestroyImage(device_, depth_, nullptr);
    vkDestroyImage(device_, motion_, nullptr);
    vkDestroyBuffer(device_, readback_, nullptr);
    vkFreeMemory(device_, color_memory_, nullptr);
    vkFreeMemory(device_, depth_memory_, nullptr);
    vkFreeMemory(device_, motion_memory_, nullptr);
    vkFreeMemory(device_, readback_memory_, nullptr);
    color_view_ = depth_view_ = motion_view_ = VK_NULL_HANDLE;
    color_ = depth_ = motion_ = VK_NULL_HANDLE;
    readback_ = VK_NULL_HANDLE;
    color_memory_ = depth_memory_ = motion_memory_ = readback_memory_ = VK_NULL_HANDLE;
    motion_format_ = VK_FORMAT_UNDEFINED;
    mapped_ = nullptr;
}

TestHost::~TestHost() {
    if (device_ != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(device_);
        destroyImages();
        for (VkFence f : fences_) vkDestroyFence(device_, f, nullptr);
        vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (messenger_ != VK_NULL_HANDLE) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy != nullptr) destroy(instance_, messenger_, nullptr);
    }
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

bool TestHost::createImage(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                           VkImage& out, VkDeviceMemory& memory, VkImageView& view) {
    VkImageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {width_, height_, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    if (vkCreateImage(device_, &info, nullptr, &out) != VK_SUCCESS) return false;
    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(device_, out, &req);
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex =
        memoryType(physical_, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (vkAllocateMemory(device_, &alloc, nullptr, &memory) != VK_SUCCESS) return false;
    vkBindImageMemory(device_, out, memory, 0);
    VkImageViewCreateInfo v{};
    v.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    v.image = out;
    v.viewType = VK_IMAGE_VIEW_TYPE_2D;
    v.format = format;
    v.subresourceRange = {aspect, 0, 1, 0, 1};
    return vkCreateImageView(device_, &v, nullptr, &view) == VK_SUCCESS;
}

bool TestHost::makeImages(VkFormat color, VkFormat depth, uint32_t width, uint32_t height) {
    destroyImages();
    width_ = width;
    height_ = height;
    bytes_per_pixel_ = bytesPerPixel(color);
    depth_format_ = depth;
    if (!createImage(color,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                     VK_IMAGE_ASPECT_COLOR_BIT, color_, color_memory_, color_view_)) {
        return false;
    }
    if (!createImage(depth,
                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                     VK_IMAGE_ASPECT_DEPTH_BIT, depth_, depth_memory_, depth_view_)) {
        return false;
    }
    return createReadback(VkDeviceSize{frameBytes()} * kFramesInFlight, readback_,
                          readback_memory_) &&
           vkMapMemory(device_, readback_memory_, 0, VK_WHOLE_SIZE, 0, &mapped_) == VK_SUCCESS;
}

bool TestHost::createReadback(VkDeviceSize bytes, VkBuffer& buffer, VkDeviceMemory& memory) {
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = bytes;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (vkCreateBuffer(device_, &info, nullptr, &buffer) != VK_SUCCESS) return false;
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device_, buffer, &req);
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex =
        memoryType(physical_, req.memoryTypeBits,
                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    return vkAllocateMemory(device_, &alloc, nullptr, &memory) == VK_SUCCESS &&
           vkBindBufferMemory(device_, buffer, memory, 0) == VK_SUCCESS;
}

bool TestHost::makeMotionImage(VkFormat format) {
    motion_format_ = format;
    return createImage(format,
                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                           VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                       VK_IMAGE_ASPECT_COLOR_BIT, motion_, motion_memory_, motion_view_);
}

VkCommandBuffer TestHost::beginScene(const float clear[4], float wall_depth, uint32_t frame) {
    VkCommandBuffer cmd = cmds_[frame];
    vkResetCommandBuffer(cmd, 0);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    barrier(cmd, color_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    barrier(cmd, depth_, depthAspects(), VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkClearColorValue color{};
    std::memcpy(color.float32, clear, sizeof(color.float32));
    VkImageSubresourceRange color_range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, color_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1,
                         &color_range);
    VkClearDepthStencilValue far_depth{1.0f, kStencil};
    VkImageSubresourceRange depth_range{depthAspects(), 0, 1, 0, 1};
    vkCmdClearDepthStencilImage(cmd, depth_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far_depth, 1,
                                &depth_range);
    barrier(cmd, color_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    barrier(cmd, depth_, depthAspects(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, depthLayout());
    if (motion_ != VK_NULL_HANDLE) {
        // The host scene's own motion: kMotionClear everywhere.
        barrier(cmd, motion_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        VkClearColorValue motion{};
        motion.float32[0] = kMotionClear[0];
        motion.float32[1] = kMotionClear[1];
        vkCmdClearColorImage(cmd, motion_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &motion, 1,
                             &color_range);
        barrier(cmd, motion_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    }
    if (wall_depth < 1.0f) {
        // The wall: the left half of the depth, as an opaque draw would leave it.
        VkRenderingAttachmentInfo depth{};
        depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
        depth.imageView = depth_view_;
        depth.imageLayout = depthLayout();
        depth.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        VkRenderingInfo rendering{};
        rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO;
        rendering.renderArea = {{0, 0}, {width_, height_}};
        rendering.layerCount = 1;
        rendering.pDepthAttachment = &depth;
        vkCmdBeginRendering(cmd, &rendering);
        VkClearAttachment attachment{};
        attachment.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
        attachment.clearValue.depthStencil = {wall_depth, 0};
        VkClearRect rect{{{0, 0}, {width_ / 2, height_}}, 0, 1};
        vkCmdClearAttachments(cmd, 1, &attachment, 1, &rect);
        vkCmdEndRendering(cmd);
    }
    return cmd;
}

bool TestHost::submit(uint32_t frame, VkSemaphore signal, uint64_t value, VkSemaphore gate,
                      uint64_t gate_value) {
    VkCommandBuffer cmd = cmds_[frame];
    VkBufferImageCopy region{};
    region.bufferOffset = VkDeviceSize{frameBytes()} * frame;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {width_, height_, 1};
    vkCmdCopyImageToBuffer(cmd, color_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_, 1,
                           &region);
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
    vkCmdPipelineBarrier2(cmd, &dep);
    if (vkEndCommandBuffer(cmd) != VK_SUCCESS) return false;
    VkCommandBufferSubmitInfo buffer{};
    buffer.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO;
    buffer.commandBuffer = cmd;
    VkSemaphoreSubmitInfo signal_info{};
    signal_info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;
    signal_info.semaphore = signal;
    signal_info.value = value;
    signal_info.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSubmitInfo2 submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &buffer;
    submit.signalSemaphoreInfoCount = signal != VK_NULL_HANDLE ? 1 : 0;
    submit.pSignalSemaphoreInfos = &signal_info;
    VkSemaphoreSubmitInfo gate_info{};
    gate_info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;
    gate_info.semaphore = gate;
    gate_info.value = gate_value;
    gate_info.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    submit.waitSemaphoreInfoCount = gate != VK_NULL_HANDLE ? 1 : 0;
    submit.pWaitSemaphoreInfos = &gate_info;
    return vkQueueSubmit2(queue_, 1, &submit, fences_[frame]) == VK_SUCCESS;
}

bool TestHost::wait(uint32_t frame) {
    const bool ok = vkWaitForFences(device_, 1, &fences_[frame], VK_TRUE, UINT64_MAX) == VK_SUCCESS;
    vkResetFences(device_, 1, &fences_[frame]);
    return ok;
}

bool TestHost::submitAndRead(VkSemaphore signal, uint64_t value) {
    return submit(0, signal, value) && wait(0);
}

} // namespace spindrift::test

namespace spindrift::test {

bool TestHost::readStencil(std::vector<uint8_t>& out) {
    if (!hasStencil()) return false;
    return readImage(depth_, depthAspects(), VK_IMAGE_ASPECT_STENCIL_BIT, depthLayout(),
                     VkDeviceSize{width_} * height_, out);
}

bool TestHost::readMotion(std::vector<float>& xy) {
    if (motion_ == VK_NULL_HANDLE) return false;
    const bool half = motion_format_ == VK_FORMAT_R16G16_SFLOAT;
    const VkDeviceSize bytes = VkDeviceSize{width_} * height_ * (half ? 4 : 8);
    std::vector<uint8_t> raw;
    if (!readImage(motion_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_COLOR_BIT,
                   motion().final_layout, bytes, raw)) {
        return false;
    }
    xy.resize(size_t{width_} * height_ * 2);
    for (size_t i = 0; i < xy.size(); ++i) {
        if (half) {
            uint16_t bits = 0;
            std::memcpy(&bits, &raw[i * 2], 2);
            xy[i] = render::halfToFloat(bits);
        } else {
            std::memcpy(&xy[i], &raw[i * 4], 4);
        }
    }
    return true;
}

bool TestHost::readImage(VkImage image, VkImageAspectFlags aspects, VkImageAspectFlags copy_aspect,
                         VkImageLayout layout, VkDeviceSize bytes, std::vector<uint8_t>& out) {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    bool ok = createReadback(bytes, buffer, memory);
    if (ok) {
        VkCommandBuffer cmd = cmds_[0];
        vkResetCommandBuffer(cmd, 0);
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkBeginCommandBuffer(cmd, &begin);
        barrier(cmd, image, aspects, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        VkBufferImageCopy region{};
        region.imageSubresource = {copy_aspect, 0, 0, 1};
        region.imageExtent = {width_, height_, 1};
        vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1,
                               &region);
        barrier(cmd, image, aspects, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, layout);
        ok = vkEndCommandBuffer(cmd) == VK_SUCCESS;
        VkCommandBufferSubmitInfo buffer_info{};
        buffer_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO;
        buffer_info.commandBuffer = cmd;
        VkSubmitInfo2 submit{};
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2;
        submit.commandBufferInfoCount = 1;
        submit.pCommandBufferInfos = &buffer_info;
        ok = ok && vkQueueSubmit2(queue_, 1, &submit, fences_[0]) == VK_SUCCESS && wait(0);
        void* mapped = nullptr;
        ok = ok && vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped) == VK_SUCCESS;
        if (ok) {
            const auto* p = static_cast<const uint8_t*>(mapped);
            out.assign(p, p + bytes);
            vkUnmapMemory(device_, memory);
        }
    }
    vkDestroyBuffer(device_, buffer, nullptr);
    vkFreeMemory(device_, memory, nullptr);
    return ok;
}

} // namespace spindrift::test
