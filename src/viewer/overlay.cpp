#include "viewer/overlay.h"

#include <algorithm>

#include <imgui.h>

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>

#include "vulkan/vk_error.h"

namespace spindrift::viewer {

std::unique_ptr<Overlay> Overlay::create(Window& window, const PresentDevice& device,
                                         Presenter& presenter,
                                         std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<Overlay> overlay(new Overlay());
    overlay->device_ = device.device();
    // The font atlas and the ImGui draw data use a few descriptor sets; this is ImGui's own
    // example's size, ample for one font.
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16}};
    VkDescriptorPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    pool.maxSets = 16;
    pool.poolSizeCount = 1;
    pool.pPoolSizes = sizes;
    if (!vk::check(vkCreateDescriptorPool(device.device(), &pool, nullptr, &overlay->pool_),
                   "vkCreateDescriptorPool", diagnostics, "the overlay"))
        return nullptr;

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // the viewer writes no file the user did not ask for
    io.LogFilename = nullptr;
    ImGui::StyleColorsDark();
    overlay->glfw_ready_ = ImGui_ImplGlfw_InitForVulkan(window.handle(), true);

    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = device.instance();
    info.PhysicalDevice = device.physical();
    info.Device = device.device();
    info.QueueFamily = device.queueFamily();
    info.Queue = device.queue();
    info.DescriptorPool = overlay->pool_;
    info.Subpass = 0;
    info.MinImageCount = std::max(presenter.minImageCount(), 2u);
    info.ImageCount = std::max(presenter.imageCount(), info.MinImageCount);
    info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    overlay->vulkan_ready_ = ImGui_ImplVulkan_Init(&info, presenter.overlayPass());
    if (!overlay->glfw_ready_ || !overlay->vulkan_ready_) {
        diagnostics.push_back(
            vk::vulkanSetupError("ImGui_ImplVulkan_Init", "the overlay could not start"));
        return nullptr;
    }
    bool font_ok = true;
    if (!presenter.runOnce(
            [&](VkCommandBuffer cmd) { font_ok = ImGui_ImplVulkan_CreateFontsTexture(cmd); },
            diagnostics))
        return nullptr;
    ImGui_ImplVulkan_DestroyFontUploadObjects();
    if (!font_ok) {
        diagnostics.push_back(vk::vulkanSetupError("ImGui_ImplVulkan_CreateFontsTexture",
                                                   "the overlay's font did not upload"));
        return nullptr;
    }
    return overlay;
}

Overlay::~Overlay() {
    if (device_ != VK_NULL_HANDLE) vkDeviceWaitIdle(device_);
    if (vulkan_ready_) ImGui_ImplVulkan_Shutdown();
    if (glfw_ready_) ImGui_ImplGlfw_Shutdown();
    if (ImGui::GetCurrentContext() != nullptr) ImGui::DestroyContext();
    if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(device_, pool_, nullptr);
}

void Overlay::beginFrame(const Presenter& presenter) {
    ImGui_ImplVulkan_SetMinImageCount(std::max(presenter.minImageCount(), 2u));
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void Overlay::endFrame() {
    ImGui::Render();
}

void Overlay::record(VkCommandBuffer commands) const {
    if (hidden_) return;
    ImDrawData* data = ImGui::GetDrawData();
    if (data != nullptr) ImGui_ImplVulkan_RenderDrawData(data, commands);
}

} // namespace spindrift::viewer
