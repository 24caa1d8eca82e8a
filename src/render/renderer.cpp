#include "render/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <variant>

#include "render/frame_lights.h"
#include "render/line_overlay_pass.h"
#include "render/particle_pass.h"
#include "render/raster_threshold.h"
#include "render/readback.h"
#include "render/record_cursor.h"
#include "render/renderer_state.h"
#include "render/shader/frame_globals.h"
#include "render/sky_ambient.h"
#include "render/sun_shadows.h"
#include "render/view_globals.h"
#include "runtime/draw_list.h"
#include "spindrift/effect_desc.h"
#include "vulkan/commands.h"
#include "vulkan/context.h"
#include "vulkan/device.h"
#include "vulkan/vk_error.h"

namespace spindrift::render {

namespace {

const std::vector<std::string> kNoMessages;

Diagnostic renderError(std::string where, std::string message) {
    return vk::vulkanSetupError(where, std::move(message));
}

bool checkResolution(const RendererConfig& config, const VkPhysicalDeviceLimits& limits,
                     std::vector<Diagnostic>& diagnostics) {
    uint32_t max_side = std::min({kMaxResolution, limits.maxImageDimension2D,
                                  limits.maxFramebufferWidth, limits.maxFramebufferHeight});
    if (config.width < kMinResolution || config.height < kMinResolution ||
        config.width > max_side || config.height > max_side) {
        diagnostics.push_back(renderError(
            "resolution", std::to_string(config.width) + "x" + std::to_string(config.height) +
                              " is out of range: each side must be in [" +
                              std::to_string(kMinResolution) + ", " + std::to_string(max_side) +
                              "]"));
        return false;
    }
    return true;
}

vk::OwnedQueryPool createTimestampPool(const vk::Device& device,
                                       std::vector<Diagnostic>& diagnostics) {
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = kFrameTimestamps;
    VkQueryPool pool = VK_NULL_HANDLE;
    if (!vk::check(vkCreateQueryPool(device.handle(), &info, nullptr, &pool), "vkCreateQueryPool",
                   diagnostics, "timestamps")) {
        return {};
    }
    return vk::OwnedQueryPool(device.handle(), pool);
}

// kNoTexture (none) or a texture of this renderer's store; an unknown or stale handle is refused.
bool checkTexture(const Renderer& r, TextureHandle texture, std::string& message) {
    if (texture == kNoTexture) return true;
    message = r.textures->problem(texture);
    return message.empty();
}

// A segment is drawable when its first point and the next both lie in the batch's points.
bool checkSegments(const StripBatch& b, std::string& message) {
    const uint64_t points = b.points.size();
    for (size_t k = 0; k < b.segments.size(); ++k) {
        if (points < 2 || b.segments[k] > points - 2) {
            message = "segment " + std::to_string(k) + " starts at point " +
                      std::to_string(b.segments[k]) + ", but the batch has " +
                      std::to_string(points) + " points (a segment needs its point and the next)";
            return false;
        }
    }
    return true;
}

// Why a batch's overrides cannot be drawn, or empty: every multiplier finite and >= 0.
std::string overridesProblem(const DrawOverrides& o) {
    const float values[5] = {o.tint.x, o.tint.y, o.tint.z, o.tint.w, o.size_scale};
    for (const float v : values) {
        if (!std::isfinite(v) || v < 0) return "tint and size_scale must be finite and >= 0";
    }
    return {};
}

// A batch the renderer cannot draw is an error naming the batch, never a crash or a silent skip.
// Why a batch's blend mode cannot be drawn, or empty: it must be known, and only a mesh can be
// opaque (depth written: a flat billboard or strip has no depth of its own to write).
std::string blendProblem(uint32_t blend, bool mesh) {
    if (blend >= kBlendCount) return "blend " + std::to_string(blend) + " is unknown";
    if (blend == kBlendOpaque && !mesh) return "blend opaque is only for mesh batches";
    return {};
}

// Why a distortion billboard batch cannot be drawn, or empty (the effect validator's rules:
// docs/effect-format.md, render.distortion): a strength in (0, kMaxDistortion], and no colour
// settings it would ignore (lit, a blend other than additive, an emissive share).
std::string distortionProblem(const BillboardParams& p) {
    if (!(p.distortion > 0.0f && p.distortion <= kMaxDistortion)) {
        return "distortion " + std::to_string(p.distortion) + " is outside (0, " +
               std::to_string(kMaxDistortion) + "]";
    }
    if ((p.render_flags & kRenderFlagLit) != 0u) return "a distortion batch cannot be lit";
    if (p.blend != kBlendAdditive || p.emissive_share != 0.0f) {
        return "a distortion batch draws no colour: its blend must be additive (the default) and "
               "its emissive share 0";
    }
    return {};
}

// Counts the DrawRecords of a billboard or mesh batch into totals: device records (one device
// batch, with a count address and no host records) or host records (within kMaxDrawRecords for
// the frame). False when a frame limit is passed: checking stops there.
template <typename Fail>
bool countRecords(const DeviceRecords& device, std::span<const DrawRecord> records, bool mesh,
                  bool through_oit, FrameTotals& totals, Fail& fail) {
    if (device.records != 0) {
        if (!records.empty()) fail("has both host records and device records");
        if (device.count == 0) fail("has device records but no count address");
        if (totals.device_batches == kMaxDeviceBatches) {
            fail("more than kMaxDeviceBatches (" + std::to_string(kMaxDeviceBatches) +
                 ") batches of device records in the frame");
            return false;
        }
        ++totals.device_batches;
        if (mesh) ++totals.device_mesh_batches;
        if (through_oit) ++totals.oit_device_batches;
        return true;
    }
    if (records.size() > kMaxDrawRecords - totals.records) {
        fail("more than kMaxDrawRecords (" + std::to_string(kMaxDrawRecords) +
             ") draw records in the frame");
        return false;
    }
    totals.records += records.size();
    if (mesh) totals.mesh_records += records.size();
    if (through_oit) totals.oit_records += records.size();
    return true;
}

bool checkBatches(const Renderer& r, std::span<const DrawBatch> batches, Transparency transparency,
                  FrameTotals& totals, std::vector<Diagnostic>& diagnostics) {
    totals = FrameTotals{};
    bool ok = true;
    for (size_t i = 0; i < batches.size(); ++i) {
        std::string where = "batch " + std::to_string(i);
        auto fail = [&](std::string message) {
            diagnostics.push_back(renderError(where, std::move(message)));
            ok = false;
        };
        std::string message;
        if (const BillboardBatch* b = std::get_if<BillboardBatch>(&batches[i])) {
            if (!checkTexture(r, b->texture, message)) fail(message);
            if (std::string why = overridesProblem(b->overrides); !why.empty())
                fail(std::move(why));
            if (std::string why = blendProblem(b->params.blend, false); !why.empty())
                fail(std::move(why));
            if (b->params.alignment >= kAlignCount) {
                fail("alignment " + std::to_string(b->params.alignment) + " is unknown");
            }
            if (b->params.flipbook_frames == 0 || b->params.flipbook_columns == 0 ||
                b->params.flipbook_rows == 0) {
                fail("flipbook frames, columns and rows must each be at least 1");
            }
            if (isDistortion(b->params)) {
                if (std::string why = distortionProblem(b->params); !why.empty())
                    fail(std::move(why));
                if (drawsAnything(*b)) ++totals.distortion_batches;
            }
            if (!countRecords(b->device, b->records, false,
                              drawsThroughOit(transparency, b->params.blend), totals, fail)) {
                return false;
            }
            continue;
        }
        if (const MeshBatch* m = std::get_if<MeshBatch>(&batches[i])) {
            if (std::string why = r.meshes->problem(m->mesh); !why.empty()) {
                fail(std::move(why));
                continue; // the draw would read its vertex count
            }
            if (!checkTexture(r, m->texture, message)) fail(message);
            if (std::string why = overridesProblem(m->overrides); !why.empty())
                fail(std::move(why));
            if (std::string why = blendProblem(m->params.blend, true); !why.empty())
                fail(std::move(why));
            if (!countRecords(m->device, m->records, true,
                              drawsThroughOit(transparency, m->params.blend), totals, fail)) {
                return false;
            }
            continue;
        }
        const StripBatch& b = std::get<StripBatch>(batches[i]);
        if (!checkTexture(r, b.texture, message)) fail(message);
        if (std::string why = overridesProblem(b.overrides); !why.empty()) fail(std::move(why));
        if (std::string why = blendProblem(b.params.blend, false); !why.empty())
            fail(std::move(why));
        if (b.device.points != 0) {
            if (!b.points.empty() || !b.segments.empty()) {
                fail("has both host points or segments and device strips");
            }
            if (b.device.count == 0 || b.device.point_counts == 0) {
                fail("has device strips but no count or point-count address");
            }
            if (b.device.points_per_strip < 2) {
                fail("has device strips of " + std::to_string(b.device.points_per_strip) +
                     " points per strip (at least 2)");
            }
            if (b.device.records != 0 && b.device.chunk_records != 0 &&
                b.device.first_in_chunk >= b.device.chunk_records) {
                fail("has device strip records whose first_in_chunk " +
                     std::to_string(b.device.first_in_chunk) + " is not below chunk_records " +
                     std::to_string(b.device.chunk_records));
            }
            if (!b.velocities.empty()) fail("has velocities but no host points");
            if (totals.device_batches == kMaxDeviceBatches) {
                fail("more than kMaxDeviceBatches (" + std::to_string(kMaxDeviceBatches) +
                     ") batches from the device in the frame");
                return false;
            }
            ++totals.device_batches;
            ++totals.device_strip_batches;
            if (drawsThroughOit(transparency, b.params.blend)) ++totals.oit_device_batches;
            continue;
        }
        if (!checkSegments(b, message)) fail(message);
        if (!b.velocities.empty() && b.velocities.size() != b.points.size()) {
            fail("has " + std::to_string(b.velocities.size()) + " velocities for " +
                 std::to_string(b.points.size()) + " points (one per point, or none)");
        }
        if (b.segments.empty()) continue;
        if (b.points.size() > kMaxStripPoints - totals.points) {
            fail("more than kMaxStripPoints (" + std::to_string(kMaxStripPoints) +
                 ") strip points in the frame");
            return false;
        }
        if (b.segments.size() > kMaxStripSegments - totals.segments) {
            fail("more than kMaxStripSegments (" + std::to_string(kMaxStripSegments) +
                 ") strip segments in the frame");
            return false;
        }
        totals.points += b.points.size();
        totals.segments += b.segments.size();
        if (drawsThroughOit(transparency, b.params.blend)) totals.oit_segments += b.segments.size();
    }
    return ok;
}

bool finite(const Float3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Why a view's motion-vector settings cannot be drawn, or empty (MotionVectorsDesc).
std::string motionProblem(const FrameView& view) {
    const MotionVectorsDesc& m = view.motion;
    if (!m.enabled) return {};
    if (!(std::isfinite(m.interval_s) && m.interval_s >= 0.0f &&
          m.interval_s <= kMaxMotionIntervalS)) {
        return "interval_s " + std::to_string(m.interval_s) + " is outside [0, " +
               std::to_string(kMaxMotionIntervalS) + "] or not finite";
    }
    if (!(std::isfinite(m.coverage_threshold) && m.coverage_threshold >= 0.0f &&
          m.coverage_threshold <= 1.0f)) {
        return "coverage_threshold " + std::to_string(m.coverage_threshold) +
               " is outside [0, 1] or not finite";
    }
    for (const float s : {m.output_scale.x, m.output_scale.y}) {
        if (!(std::isfinite(s) && std::abs(s) <= kMaxMotionOutputScale)) {
            return "output_scale " + std::to_string(s) + " is outside [-" +
                   std::to_string(kMaxMotionOutputScale) + ", " +
                   std::to_string(kMaxMotionOutputScale) + "] or not finite";
        }
    }
    if (!m.has_previous_camera) return {};
    const CameraPose& c = m.previous_camera;
    if (!finite(c.eye) || !finite(c.target) || !finite(c.up)) {
        return "previous_camera has a non-finite eye, target or up";
    }
    if (!(std::isfinite(m.previous_fov_deg) && m.previous_fov_deg >= 1.0f &&
          m.previous_fov_deg <= 179.0f)) {
        return "previous_fov_deg " + std::to_string(m.previous_fov_deg) +
               " is outside [1, 179] or not finite";
    }
    return {};
}

bool checkView(const FrameView& view, std::vector<Diagnostic>& diagnostics) {
    bool ok = std::isfinite(view.fov_deg) && view.fov_deg >= 1.0f && view.fov_deg <= 179.0f &&
              std::isfinite(view.near_m) && std::isfinite(view.far_m) && view.near_m > 0.0f &&
              view.far_m > view.near_m;
    if (view.transparency != Transparency::sorted &&
        view.transparency != Transparency::weighted_oit) {
        diagnostics.push_back(renderError(
            "view", "transparency " + std::to_string(static_cast<int>(view.transparency)) +
                        " is unknown (sorted or weighted_oit)"));
        return false;
    }
    if (std::string why = shadowProblem(view.shadows); !why.empty()) {
        diagnostics.push_back(renderError("view", std::move(why)));
        return false;
    }
    if (std::string why = postProblem(view); !why.empty()) {
        diagnostics.push_back(renderError("view", std::move(why)));
        return false;
    }
    if (std::string why = skyProblem(view.sky); !why.empty()) {
        diagnostics.push_back(renderError("view", "sky: " + why));
        return false;
    }
    for (size_t i = 0; i < view.lights.size(); ++i) {
        if (std::string why = lightProblem(view.lights[i]); !why.empty()) {
            diagnostics.push_back(renderError("view", "light " + std::to_string(i) + ": " + why));
            return false;
        }
    }
    if (std::string why = overlayProblem(view.overlay); !why.empty()) {
        diagnostics.push_back(renderError("view", std::move(why)));
        return false;
    }
    if (std::string why = motionProblem(view); !why.empty()) {
        diagnostics.push_back(renderError("view", "motion: " + why));
        return false;
    }
    if (view.raster != RasterPath::graphics && view.raster != RasterPath::compute &&
        view.raster != RasterPath::automatic) {
        diagnostics.push_back(
            renderError("view", "raster " + std::to_string(static_cast<int>(view.raster)) +
                                    " is unknown (graphics, compute or automatic)"));
        return false;
    }
    if (view.particle_resolution != ParticleResolution::full &&
        view.particle_resolution != ParticleResolution::half) {
        diagnostics.push_back(
            renderError("view", "particle_resolution " +
                                    std::to_string(static_cast<int>(view.particle_resolution)) +
                                    " is unknown (full or half)"));
        return false;
    }
    if (!ok) {
        diagnostics.push_back(renderError(
            "view", "fov_deg must be in [1, 179] and 0 < near_m < far_m, all finite (got fov " +
                        std::to_string(view.fov_deg) + ", near " + std::to_string(view.near_m) +
                        ", far " + std::to_string(view.far_m) + ")"));
    }
    return ok;
}

// The frame as a list of phases; the command buffer is recording.
// The draws of the batches that go to `output` (drawsThroughOit: the OIT targets, else the frame
// colour), in the order given, inside a rendering scope the caller began. Offsets into each
// pass's buffers advance over every batch, drawn here or not, as the passes' upload() placed
// them: only non-empty batches were copied.
// Which batches a recordParticleDraws call draws: the opaque meshes (first, in their own scope
// after the opaque pass, so that what they hide stays hidden and soft particles fade against
// them), the rest of the frame's, or those drawn through OIT.
// oit_emissive: after the OIT composite, the emissive share of the batches drawn through OIT
// that have one (emissiveShareDraw).
// distortion: the distortion billboards (isDistortion), last, over a copy of the frame; the other
// phases leave them out.
// motion_opaque, motion: the motion vectors of the batches that write them (writesMotion), into
// the motion target (render/motion_pass.h), after everything else: the opaque meshes first (as
// their colour, so a particle in front of one keeps its own motion), then the rest.
// half_res: the frame phase's billboards and strips that go into the half-resolution layer
// (drawsAtHalfRes), which the frame phase then leaves out.
enum class DrawPhase : uint8_t {
    opaque_meshes,
    frame,
    oit,
    oit_emissive,
    distortion,
    motion_opaque,
    motion,
    half_res
};

float emissiveShareOf(const DrawBatch& entry) {
    return std::visit([](const auto& b) { return b.params.emissive_share; }, entry);
}

uint32_t blendOf(const DrawBatch& entry) {
    return std::visit([](const auto& b) { return b.params.blend; }, entry);
}

// Whether a batch drawn through OIT has an emissive share to add after the composite.
bool hasOitEmissiveShare(const DrawBatch& entry, Transparency transparency) {
    return drawsThroughOit(transparency, blendOf(entry)) && emissiveShareOf(entry) > 0.0f;
}

// The second draw of a batch with an emissive share s under weighted OIT (docs/rendering.md,
// "Emissive"): the OIT targets took its alpha share (sdEmissiveAlphaShare); this copy, drawn
// with the sorted-mode premultiplied pipeline into the frame, has emissive x s and share 1, so
// sdEmissiveShare writes coverage 0 and the blend (ONE, ONE_MINUS_SRC_ALPHA) adds C s.
DrawBatch emissiveShareDraw(DrawBatch entry) {
    std::visit(
        [](auto& b) {
            b.params.emissive *= b.params.emissive_share;
            b.params.emissive_share = 1.0f;
        },
        entry);
    return entry;
}

bool drawsIn(DrawPhase phase, Transparency transparency, uint32_t blend) {
    switch (phase) {
    case DrawPhase::opaque_meshes:
        return blend == kBlendOpaque;
    case DrawPhase::frame:
        return blend != kBlendOpaque && !drawsThroughOit(transparency, blend);
    case DrawPhase::oit:
    case DrawPhase::oit_emissive:
        return drawsThroughOit(transparency, blend);
    case DrawPhase::distortion:
        return false; // only distortion billboards, which the caller picks by isDistortion
    case DrawPhase::motion_opaque:
        return blend == kBlendOpaque; // of the batches that write motion (writesMotion)
    case DrawPhase::motion:
        return blend != kBlendOpaque; // of the batches that write motion (writesMotion)
    case DrawPhase::half_res:
        return false; // the caller picks them by drawsAtHalfRes
    }
    return false;
}

// Whether batch `index` of the frame is drawn into the half-resolution layer: in a frame that
// draws one (Renderer::frame_half_res), the billboards and strips of the frame phase but the
// distortion billboards (they bend the finished frame) and those the compute rasteriser draws
// (it blends into the frame's own colour).
bool drawsAtHalfRes(const Renderer& r, size_t index, const DrawBatch& entry,
                    Transparency transparency) {
    if (!r.frame_half_res || std::holds_alternative<MeshBatch>(entry)) return false;
    if (!drawsIn(DrawPhase::frame, transparency, blendOf(entry))) return false;
    if (const BillboardBatch* b = std::get_if<BillboardBatch>(&entry)) {
        return !isDistortion(b->params) && !(r.raster && r.raster->draws(index));
    }
    return true;
}

void beginFrameScope(const FrameTargets& t, VkCommandBuffer cmd, bool linear_depth);

// Draws the batches of `phase` in the order given; the others only advance the offsets of their
// records, points and segments in the frame's shared buffers. A billboard batch the compute
// rasteriser draws (offscreen frames, FrameView::raster) is blended over the frame in its place,
// between two rendering scopes.
void recordParticleDraws(const Renderer& r, VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                         Transparency transparency, DrawPhase phase) {
    r.particle_bindings->bindFrame(cmd, r.slot, phase == DrawPhase::half_res);
    VkPipeline bound = VK_NULL_HANDLE;
    RecordCursor records(*r.draw_args, *r.billboards, r.slot);
    for (size_t index = 0; index < batches.size(); ++index) {
        const DrawBatch& entry = batches[index];
        const bool half_res = drawsAtHalfRes(r, index, entry, transparency);
        const bool motion_phase = phase == DrawPhase::motion || phase == DrawPhase::motion_opaque;
        if (const StripBatch* b = std::get_if<StripBatch>(&entry)) {
            if (motion_phase) {
                const bool draw_motion = drawsIn(phase, transparency, b->params.blend) &&
                                         writesMotion(b->params, r.motion_desc);
                StripSource source;
                if (records.nextStrip(*b, source) && draw_motion) {
                    r.strips->drawMotion(cmd, *r.textures, *b, r.slot, source, bound);
                }
                continue;
            }
            const bool draw_here =
                phase == DrawPhase::half_res
                    ? half_res
                    : drawsIn(phase, transparency, b->params.blend) &&
                          !(phase == DrawPhase::frame && half_res) &&
                          (phase != DrawPhase::oit_emissive || b->params.emissive_share > 0);
            // The emissive share's draw is a sorted-mode one (emissiveShareDraw).
            const StripBatch strip = phase == DrawPhase::oit_emissive
                                         ? std::get<StripBatch>(emissiveShareDraw(entry))
                                         : *b;
            const Transparency mode =
                phase == DrawPhase::oit_emissive ? Transparency::sorted : transparency;
            StripSource source;
            if (records.nextStrip(*b, source) && draw_here) {
                r.strips->draw(cmd, *r.textures, strip, mode, r.slot, source, bound, half_res);
            }
            continue;
        }
        // Billboards and meshes: DrawRecords from the device, or the host's in the draw-record
        // buffer (RecordCursor).
        const BillboardBatch* b = std::get_if<BillboardBatch>(&entry);
        RecordSource source;
        if (!records.next(entry, source)) continue;
        if (phase == DrawPhase::half_res) {
            if (half_res)
                r.billboards->draw(cmd, *r.textures, *b, transparency, source, bound, true);
            continue;
        }
        if (phase == DrawPhase::frame && half_res) continue;
        if (motion_phase) {
            if (b != nullptr) {
                if (phase == DrawPhase::motion && writesMotion(b->params, r.motion_desc)) {
                    r.billboards->drawMotion(cmd, *r.textures, *b, source, bound);
                }
                continue;
            }
            const MeshBatch& m = std::get<MeshBatch>(entry);
            if (drawsIn(phase, transparency, m.params.blend) &&
                writesMotion(m.params, r.motion_desc)) {
                r.mesh_pass->drawMotion(cmd, *r.meshes, *r.textures, m, source, bound);
            }
            continue;
        }
        const bool distortion = b != nullptr && isDistortion(b->params);
        if (distortion != (phase == DrawPhase::distortion)) continue;
        if (!distortion && !drawsIn(phase, transparency, blendOf(entry))) continue;
        if (phase == DrawPhase::oit_emissive) {
            if (emissiveShareOf(entry) <= 0.0f) continue;
            const DrawBatch share = emissiveShareDraw(entry);
            if (b != nullptr) {
                r.billboards->draw(cmd, *r.textures, std::get<BillboardBatch>(share),
                                   Transparency::sorted, source, bound);
            } else {
                r.mesh_pass->draw(cmd, *r.meshes, *r.textures, std::get<MeshBatch>(share),
                                  Transparency::sorted, source, bound);
            }
            continue;
        }
        if (b != nullptr && phase == DrawPhase::frame && r.raster && r.raster->draws(index)) {
            vkCmdEndRendering(cmd);
            r.raster->recordBlend(cmd, *r.textures, *r.targets, index, *b);
            // The scope just ended stored the depth attachment; the next one tests against it.
            vk::imageBarriers(cmd, {depthAttachmentAgain(*r.targets)});
            beginFrameScope(*r.targets, cmd, false);
            bound = VK_NULL_HANDLE;
            continue;
        }
        if (b != nullptr) {
            r.billboards->draw(cmd, *r.textures, *b, transparency, source, bound);
        } else {
            r.mesh_pass->draw(cmd, *r.meshes, *r.textures, std::get<MeshBatch>(entry), transparency,
                              source, bound);
        }
    }
}

// Begins a rendering scope that loads and stores the frame's colour (and, when `linear_depth`, the
// linear depth as the second colour attachment) and its depth.
void beginFrameScope(const FrameTargets& t, VkCommandBuffer cmd, bool linear_depth) {
    std::vector<VkRenderingAttachmentInfo> color(linear_depth ? 2 : 1);
    for (size_t i = 0; i < color.size(); ++i) {
        color[i].sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
        color[i].imageView = i == 0 ? t.color.view : t.linear_depth.view.get();
        color[i].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        color[i].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        color[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    }
    VkRenderingAttachmentInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    depth.imageView = t.depth.view;
    depth.imageLayout = depthAttachmentLayout(t.formats.depth);
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    vk::beginRendering(cmd, t.extent(), color, &depth);
}

bool hasOpaqueMeshes(std::span<const DrawBatch> batches) {
    for (const DrawBatch& entry : batches) {
        const MeshBatch* m = std::get_if<MeshBatch>(&entry);
        if (m != nullptr && m->params.blend == kBlendOpaque && drawsAnything(*m)) {
            return true;
        }
    }
    return false;
}

// The opaque meshes, right after the opaque pass and like it: colour, depth and the linear depth
// written, so they hide what is behind them and soft particles fade against them. The particle
// bindings' linear-depth texture is bound but not read by the opaque mesh pipelines.
void recordOpaqueMeshes(const Renderer& r, VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                        Transparency transparency) {
    const FrameTargets& t = *r.targets;
    vk::ImageBarrier linear_depth = colorAttachmentAgain(t);
    linear_depth.image = t.linear_depth.get();
    vk::imageBarriers(cmd, {colorAttachmentAgain(t), depthAttachmentAgain(t), linear_depth});
    beginFrameScope(t, cmd, true);
    recordParticleDraws(r, cmd, batches, transparency, DrawPhase::opaque_meshes);
    vkCmdEndRendering(cmd);
}

// The particle phase on the frame: every batch not drawn through OIT (all of them in sorted
// mode) but the opaque meshes, in one rendering scope on the frame's colour and depth (loaded;
// tested, not written).
void recordFrameParticles(const Renderer& r, VkCommandBuffer cmd,
                          std::span<const DrawBatch> batches, Transparency transparency) {
    beginFrameScope(*r.targets, cmd, false);
    recordParticleDraws(r, cmd, batches, transparency, DrawPhase::frame);
    vkCmdEndRendering(cmd);
}

// The OIT phases, after the frame's other particles: accumulate every batch drawn through OIT
// into the OIT targets (depth-tested against the opaque depth), then composite over the frame.
void recordOitParticles(const Renderer& r, VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                        Transparency transparency) {
    const FrameTargets& t = *r.targets;
    // The frame particle scope stored the depth attachment; this scope tests against it.
    vk::imageBarriers(cmd, {depthAttachmentAgain(t)});
    r.oit->beginAccumulation(cmd, t);
    recordParticleDraws(r, cmd, batches, transparency, DrawPhase::oit);
    vkCmdEndRendering(cmd);
    r.oit->composite(cmd, t);
    // The emissive shares, added after the composite: light, which covers nothing, so one layer
    // gives what sorted mode gives (docs/rendering.md, "Emissive").
    const bool any_share = std::any_of(batches.begin(), batches.end(), [&](const DrawBatch& b) {
        return hasOitEmissiveShare(b, transparency);
    });
    if (!any_share) return;
    vk::imageBarriers(cmd, {colorAttachmentAgain(t), depthAttachmentAgain(t)});
    beginFrameScope(t, cmd, false);
    recordParticleDraws(r, cmd, batches, transparency, DrawPhase::oit_emissive);
    vkCmdEndRendering(cmd);
}

// The half-resolution layer, after the frame phase (the linear depth readable): its depth from
// the frame's, the batches drawsAtHalfRes picks drawn into it with the half-resolution frame set,
// then its depth-aware upsample blended over the frame (docs/rendering.md, "Half-resolution
// particles").
void recordHalfResParticles(const Renderer& r, VkCommandBuffer cmd,
                            std::span<const DrawBatch> batches, Transparency transparency) {
    r.half_res->recordDownsample(cmd, r.near_m, r.far_m);
    r.half_res->beginParticles(cmd);
    recordParticleDraws(r, cmd, batches, transparency, DrawPhase::half_res);
    vkCmdEndRendering(cmd);
    r.half_res->composite(cmd, *r.targets);
}

bool recordFrame(const Renderer& r, VkCommandBuffer cmd, const FrameView& view,
                 std::span<const DrawBatch> batches, bool any_oit, float adapt_dt_s,
                 std::vector<Diagnostic>& diagnostics) {
    const FrameTargets& t = *r.targets;
    VkQueryPool queries = r.timestamps.get();
    if (queries != VK_NULL_HANDLE) {
        vkCmdResetQueryPool(cmd, queries, 0, kFrameTimestamps);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, queries, 0);
    }

    // Targets: previous contents are discarded each frame.
    vk::ImageBarrier color{t.color.image,
                           VK_IMAGE_ASPECT_COLOR_BIT,
                           VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                           VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_NONE,
                           VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                           VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
    vk::ImageBarrier linear_depth = color;
    linear_depth.image = t.linear_depth.get();
    linear_depth.src_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    vk::imageBarriers(cmd, {color, linear_depth, vk::depthAttachmentDiscarded(t.depth.image)});
    r.draw_args->record(cmd, batches, *r.meshes);
    // The compute rasteriser's pairs, sorted and ranged per tile, before anything reads them.
    if (r.raster && !r.raster->recordBinning(cmd, diagnostics)) return false;
    // The sun's shadow maps, before every receiver (the opaque pass on).
    r.shadows->record(
        cmd, view, batches, r.shadow_fit, r.local_shadow_fit,
        ShadowDrawContext{*r.textures, *r.meshes, *r.billboards, *r.draw_args, *r.strips, r.slot});

    r.opaque->record(cmd, t, view);
    recordParticlePhases(r, cmd, batches, view.transparency, any_oit);
    if (r.frame_scene_depth) {
        recordSceneDepthCopy(cmd, t, view.scene_depth == SceneDepthOutput::device_and_host,
                             r.scene_depth);
    }

    // HDR post (bloom, exposure, tone map) when the view asks for it; it leaves the colour
    // ready for the copy. Readback: colour to the host-visible buffer. The timestamps between
    // the phases (after everything before them) split the frame's GPU time into draw, post and
    // readback.
    if (queries != VK_NULL_HANDLE) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 1);
    }
    if (wantsPost(view)) {
        r.post->record(cmd, t, view, adapt_dt_s);
    } else {
        vk::imageBarriers(cmd, {vk::colorAttachmentToCopySource(t.color.image)});
    }
    // Over the finished colour (its GPU time counts as the post's).
    if (!view.overlay.empty()) r.overlay->record(cmd, t, view);
    if (queries != VK_NULL_HANDLE) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 2);
    }
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {t.width, t.height, 1};
    vkCmdCopyImageToBuffer(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           t.readback.get(), 1, &region);
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);

    if (queries != VK_NULL_HANDLE) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 3);
    }
    return true;
}

// The drawing batches drawsAtHalfRes sends to the half-resolution layer (FrameStats).
uint32_t countHalfResBatches(const Renderer& r, std::span<const DrawBatch> batches,
                             Transparency transparency) {
    uint32_t count = 0;
    for (size_t i = 0; i < batches.size(); ++i) {
        const bool draws = std::visit([](const auto& b) { return drawsAnything(b); }, batches[i]);
        if (draws && drawsAtHalfRes(r, i, batches[i], transparency)) ++count;
    }
    return count;
}

bool anyDrawnByCompute(const FrameView& view, std::span<const DrawBatch> batches) {
    for (const DrawBatch& entry : batches) {
        const BillboardBatch* b = std::get_if<BillboardBatch>(&entry);
        if (b != nullptr && drawsByCompute(view, *b)) return true;
    }
    return false;
}

// The frame's GPU times from its timestamps; all 0 when they are not available.
void readGpuTimes(const Renderer& r, FrameStats& stats, std::vector<Diagnostic>& diagnostics) {
    if (!r.timestamps) return;
    uint64_t ticks[kFrameTimestamps] = {};
    if (!vk::check(vkGetQueryPoolResults(r.device->handle(), r.timestamps.get(), 0,
                                         kFrameTimestamps, sizeof(ticks), ticks, sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults", diagnostics, "frame timestamps")) {
        return;
    }
    for (uint32_t i = 1; i < kFrameTimestamps; ++i) {
        if (ticks[i] < ticks[i - 1]) return;
    }
    const double ms = r.device->support().timestamp_period_ns * 1.0e-6;
    stats.gpu_ms = static_cast<double>(ticks[3] - ticks[0]) * ms;
    stats.gpu_post_ms = static_cast<double>(ticks[2] - ticks[1]) * ms;
    stats.gpu_readback_ms = static_cast<double>(ticks[3] - ticks[2]) * ms;
}

} // namespace

void recordParticlePhases(const Renderer& r, VkCommandBuffer cmd,
                          std::span<const DrawBatch> batches, Transparency transparency,
                          bool any_oit) {
    const FrameTargets& t = *r.targets;
    if (hasOpaqueMeshes(batches)) recordOpaqueMeshes(r, cmd, batches, transparency);

    // Opaque -> particles: blending reads the opaque colour, depth testing its depth, the soft
    // fade samples its linear depth.
    const vk::ImageBarrier color_rw = colorAttachmentAgain(t);
    const vk::ImageBarrier depth_read = depthAttachmentAgain(t);
    vk::ImageBarrier depth_sampled{t.linear_depth.get(),
                                   VK_IMAGE_ASPECT_COLOR_BIT,
                                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                   VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                   VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                   VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    vk::imageBarriers(cmd, {color_rw, depth_read, depth_sampled});

    recordFrameParticles(r, cmd, batches, transparency);
    // A frame with nothing for the layer records none of it.
    if (r.half_res != nullptr && r.frame_half_res &&
        countHalfResBatches(r, batches, transparency) > 0) {
        recordHalfResParticles(r, cmd, batches, transparency);
    }
    if (any_oit) recordOitParticles(r, cmd, batches, transparency);
    if (r.distortion != nullptr && r.frame_distortion) {
        // Every scope before stored the colour and depth; the copy reads the colour, the
        // distortion scope loads both (docs/rendering.md, "Distortion").
        r.distortion->record(cmd, t);
        vk::imageBarriers(cmd, {depthAttachmentAgain(t)});
        beginFrameScope(t, cmd, false);
        recordParticleDraws(r, cmd, batches, transparency, DrawPhase::distortion);
        vkCmdEndRendering(cmd);
    }
    if (r.motion != nullptr && r.frame_motion) {
        // Every scope before stored the depth; the linear depth is readable (above).
        r.motion->recordCameraAndBeginParticles(cmd, *r.particle_bindings, r.slot, t);
        recordMotionDraws(r, cmd, batches, transparency);
        r.motion->recordReadback(cmd);
    }
}

void recordMotionDraws(const Renderer& r, VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                       Transparency transparency) {
    if (hasOpaqueMeshes(batches)) {
        recordParticleDraws(r, cmd, batches, transparency, DrawPhase::motion_opaque);
    }
    recordParticleDraws(r, cmd, batches, transparency, DrawPhase::motion);
    vkCmdEndRendering(cmd);
}

bool createParticlePasses(Renderer& r, std::vector<Diagnostic>& diagnostics) {
    r.textures = TextureStore::create(*r.device, *r.runner, kMaxTextures, diagnostics);
    if (!r.textures) return false;
    r.meshes = std::make_unique<MeshStore>(*r.device, kMaxMeshes);
    r.shadows = ShadowPass::create(*r.device, *r.runner, *r.textures,
                                   static_cast<uint32_t>(r.targets->globals.size()), diagnostics);
    if (!r.shadows) return false;
    r.particle_bindings = ParticleBindings::create(*r.device, *r.targets, *r.textures, diagnostics);
    if (!r.particle_bindings) return false;
    r.particle_bindings->bindShadows(r.shadows->maps());
    r.billboards = BillboardPass::create(*r.device, *r.particle_bindings, diagnostics);
    if (!r.billboards) return false;
    r.draw_args = DeviceDrawArgs::create(*r.device, diagnostics);
    if (!r.draw_args) return false;
    r.strips = StripPass::create(*r.device, *r.particle_bindings, diagnostics);
    if (!r.strips) return false;
    r.mesh_pass = MeshPass::create(*r.device, *r.particle_bindings, diagnostics);
    return r.mesh_pass != nullptr;
}

// Fits the frame's sun and local-light shadows, makes their maps the view's size (the receivers'
// sets written again when they are replaced; a host frame has waited for its recorded frames
// first: recordHostFrame) and the caster pipelines, and writes the light views' globals (r.slot's)
// and the receivers' share of the camera's.
static bool prepareShadows(Renderer& r, const FrameView& view, std::span<const DrawBatch> batches,
                           FrameGlobals& globals, std::vector<Diagnostic>& diagnostics) {
    const FrameTargets& t = *r.targets;
    r.shadow_fit = fitSunShadows(view, t.width, t.height, batches);
    const SunShadowFit& fit = r.shadow_fit;
    r.local_shadow_fit = fitLocalShadows(view, batches);
    const LocalShadowFit& local = r.local_shadow_fit;
    globals.shadows = fit.shadows;
    globals.local_shadows = local.shadows;
    if (fit.cascades == 0 && local.count == 0) return true;
    bool replaced = false;
    if (!r.shadows->ensureSize(view.shadows.resolution, view.shadows.opacity_resolution,
                               !r.host_frame, replaced, diagnostics)) {
        return false;
    }
    if (replaced) {
        const ShadowMaps maps = r.shadows->maps();
        if (r.opaque) r.opaque->bindShadows(*r.device, maps);
        r.particle_bindings->bindShadows(maps);
        if (r.raster) r.raster->bindShadows(maps);
    }
    if (!r.shadows->preparePipelines(batches, diagnostics)) return false;
    r.shadows->upload(r.slot, globals, fit, local);
    return true;
}

bool prepareFrame(Renderer& renderer, const FrameView& view, std::span<const DrawBatch> batches,
                  FrameTotals& totals, bool& any_oit, std::vector<Diagnostic>& diagnostics) {
    if (!checkView(view, diagnostics)) return false;
    if (!checkBatches(renderer, batches, view.transparency, totals, diagnostics)) return false;
    any_oit = totals.oit_records + totals.oit_segments + totals.oit_device_batches > 0;
    const FrameTargets& t = *renderer.targets;
    // Distortion reads a copy of the frame's colour: the renderer's own frame, or a host frame
    // whose colour image allows the copy (recordHostFrame made the copy image; otherwise
    // FrameStats::distortion_not_drawn counts them).
    renderer.frame_distortion =
        totals.distortion_batches > 0 && (!renderer.host_frame || renderer.host_color_copyable);
    if (renderer.frame_distortion && !renderer.distortion && !renderer.host_frame) {
        renderer.distortion = DistortionCopy::create(*renderer.device, t.width, t.height,
                                                     t.formats.color, diagnostics);
        if (!renderer.distortion) return false;
        renderer.particle_bindings->bindSceneColor(renderer.distortion->view());
    }
    // Motion vectors: into the renderer's own target (MotionPass), or a host frame's motion image
    // (its caller, recordHostFrame, asks only when the host passed one).
    renderer.frame_motion = view.motion.enabled;
    renderer.motion_desc = view.motion;
    totals.motion_batches = 0;
    if (renderer.frame_motion) {
        if (!renderer.host_frame && !renderer.motion) {
            renderer.motion = MotionPass::create(*renderer.device, *renderer.particle_bindings,
                                                 t.width, t.height, diagnostics);
            if (!renderer.motion) return false;
        }
        for (const DrawBatch& entry : batches) {
            const bool writes = std::visit(
                [&](const auto& b) {
                    return drawsAnything(b) && writesMotion(b.params, view.motion);
                },
                entry);
            if (!writes) continue;
            ++totals.motion_batches;
            if (std::holds_alternative<StripBatch>(entry)) ++totals.motion_strip_batches;
            if (std::holds_alternative<MeshBatch>(entry)) ++totals.motion_mesh_batches;
        }
        if (!renderer.billboards->prepareMotionPipelines(batches, view.motion, diagnostics) ||
            !renderer.strips->prepareMotionPipelines(batches, view.motion, diagnostics) ||
            !renderer.mesh_pass->prepareMotionPipelines(batches, view.motion, diagnostics)) {
            return false;
        }
    }
    // Half-resolution particles (a host frame's layer is made by recordHostFrame, which first
    // lets its frames in flight finish: its sets are bound in every slot).
    renderer.frame_half_res = view.particle_resolution == ParticleResolution::half;
    renderer.near_m = view.near_m;
    renderer.far_m = view.far_m;
    if (renderer.frame_half_res) {
        if (!renderer.half_res && !renderer.host_frame) {
            renderer.half_res = HalfResPass::create(*renderer.device, t, diagnostics);
            if (!renderer.half_res) return false;
            renderer.particle_bindings->bindHalfResDepth(renderer.half_res->linearDepthView());
        }
        if (!renderer.billboards->preparePipelines(batches, view.transparency, diagnostics, true) ||
            !renderer.strips->preparePipelines(batches, view.transparency, diagnostics, true)) {
            return false;
        }
    }
    if (any_oit && !renderer.oit) {
        renderer.oit =
            OitPass::create(*renderer.device, t.width, t.height, t.formats.color, diagnostics);
        if (!renderer.oit) return false;
    }
    if (!renderer.billboards->preparePipelines(batches, view.transparency, diagnostics)) {
        return false;
    }
    if (!renderer.strips->preparePipelines(batches, view.transparency, diagnostics)) return false;
    if (!renderer.mesh_pass->preparePipelines(batches, view.transparency, diagnostics)) {
        return false;
    }
    // The sorted-mode pipelines of the emissive shares drawn after the OIT composite, one batch
    // at a time (no allocation per frame).
    for (const DrawBatch& b : batches) {
        if (!hasOitEmissiveShare(b, view.transparency)) continue;
        const DrawBatch share[1] = {emissiveShareDraw(b)};
        if (!renderer.billboards->preparePipelines(share, Transparency::sorted, diagnostics) ||
            !renderer.strips->preparePipelines(share, Transparency::sorted, diagnostics) ||
            !renderer.mesh_pass->preparePipelines(share, Transparency::sorted, diagnostics)) {
            return false;
        }
    }
    const uint32_t slot = renderer.slot;
    if (!renderer.billboards->upload(slot, batches, totals.records, diagnostics)) return false;
    if (!renderer.strips->upload(slot, batches, totals.points, totals.segments,
                                 renderer.frame_motion, diagnostics)) {
        return false;
    }
    FrameGlobals globals = viewGlobals(view, t.width, t.height);
    if (!prepareShadows(renderer, view, batches, globals, diagnostics)) return false;
    // Depth-buffer collision's depth: the buffers now, the camera that will have seen it.
    SceneDepthCopy& depth = renderer.scene_depth.copy;
    depth = SceneDepthCopy{};
    renderer.frame_scene_depth = view.scene_depth != SceneDepthOutput::none;
    if (renderer.frame_scene_depth) {
        // A host frame's copy stays on the device (recordHostFrame refuses a host copy).
        const bool host = view.scene_depth == SceneDepthOutput::device_and_host;
        const SceneDepthGrowth growth =
            renderer.host_frame ? SceneDepthGrowth::keep : SceneDepthGrowth::exact;
        if (!prepareSceneDepth(*renderer.device, t, host, growth, renderer.scene_depth,
                               diagnostics)) {
            return false;
        }
        depth.device_address = renderer.scene_depth.device.address;
        depth.host = host ? static_cast<const float*>(renderer.scene_depth.host.mapped) : nullptr;
        depth.width = t.width;
        depth.height = t.height;
        depth.eye = {globals.eye.x, globals.eye.y, globals.eye.z};
        depth.forward = {globals.camera_forward.x, globals.camera_forward.y,
                         globals.camera_forward.z};
        depth.up = {globals.camera_up.x, globals.camera_up.y, globals.camera_up.z};
        depth.fov_deg = view.fov_deg;
        depth.near_m = view.near_m;
    }
    std::memcpy(t.globals[slot].mapped, &globals, sizeof(globals));
    return true;
}

FrameStats frameStats(const Renderer& r, const FrameTotals& totals,
                      std::span<const DrawBatch> batches, const FrameView& view) {
    FrameStats stats;
    if (r.frame_motion) {
        stats.motion_batches = totals.motion_batches;
        stats.motion_strip_batches = totals.motion_strip_batches;
        stats.motion_mesh_batches = totals.motion_mesh_batches;
    }
    stats.shadow_cascades = r.shadow_fit.cascades;
    stats.shadow_opacity_batches = r.shadow_fit.opacity ? r.shadow_fit.opacity_batches : 0;
    stats.shadow_opacity_device = r.shadow_fit.opacity_device ? 1u : 0u;
    stats.shadow_cutout_batches = r.shadow_fit.cutout_batches;
    stats.local_shadows = r.local_shadow_fit.lights;
    stats.local_shadows_dropped = r.local_shadow_fit.dropped;
    stats.local_shadow_opacity_batches = r.local_shadow_fit.opacity_batches;
    stats.particles_drawn = totals.records - totals.mesh_records;
    stats.mesh_particles = totals.mesh_records;
    stats.device_batches =
        totals.device_batches - totals.device_strip_batches - totals.device_mesh_batches;
    stats.device_mesh_batches = totals.device_mesh_batches;
    stats.device_strip_batches = totals.device_strip_batches;
    stats.strip_segments = totals.segments;
    stats.oit_records = totals.oit_records;
    stats.oit_segments = totals.oit_segments;
    stats.batches = static_cast<uint32_t>(batches.size());
    // Distortion batches are drawn where the frame can copy its colour (a host frame only when
    // the host's image allows it), else counted as left out.
    stats.distortion_batches = r.frame_distortion ? totals.distortion_batches : 0u;
    stats.distortion_not_drawn = r.frame_distortion ? 0u : totals.distortion_batches;
    stats.half_res_batches = countHalfResBatches(r, batches, view.transparency);
    const LightCounts light_counts = frameLightCounts(view.lights);
    stats.lights_drawn = light_counts.drawn;
    stats.lights_dropped = light_counts.dropped;
    return stats;
}

DeviceInfo deviceInfo(const vk::PhysicalDevice& d) {
    DeviceInfo info;
    info.index = d.index;
    info.name = d.name;
    info.type = d.type;
    info.driver = d.driver;
    info.api_version = d.api_version;
    return info;
}

std::span<const DrawRecord> hostRecords(const DrawBatch& batch) {
    if (const BillboardBatch* b = std::get_if<BillboardBatch>(&batch)) return b->records;
    if (const MeshBatch* m = std::get_if<MeshBatch>(&batch)) return m->records;
    return {};
}

bool drawsThroughOit(Transparency transparency, uint32_t blend) {
    // The draw list's rule: what a host compositing order-independently leaves unsorted.
    return blendsOrderIndependently(transparency == Transparency::weighted_oit, blend);
}

std::vector<DeviceInfo> listDevices(std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<vk::Instance> instance = vk::Instance::create(false, diagnostics);
    if (!instance) return {};
    std::vector<DeviceInfo> out;
    for (const vk::PhysicalDevice& d :
         vk::enumeratePhysicalDevices(instance->handle(), diagnostics)) {
        out.push_back(deviceInfo(d));
    }
    return out;
}

void destroyRenderer(Renderer* renderer) {
    delete renderer;
}

RendererPtr createRenderer(const RendererConfig& config, std::vector<Diagnostic>& diagnostics) {
    if (config.width < kMinResolution || config.height < kMinResolution ||
        config.width > kMaxResolution || config.height > kMaxResolution) {
        VkPhysicalDeviceLimits unlimited{};
        unlimited.maxImageDimension2D = kMaxResolution;
        unlimited.maxFramebufferWidth = kMaxResolution;
        unlimited.maxFramebufferHeight = kMaxResolution;
        checkResolution(config, unlimited, diagnostics);
        return nullptr;
    }
    RendererPtr r(new Renderer());
    r->config = config;
    r->vulkan = vk::createContext(config.device, config.validation, diagnostics);
    if (!r->vulkan) return nullptr;
    r->device_info = deviceInfo(r->vulkan->physical);
    r->raster_threshold = deviceComputeRasterThreshold(r->device_info);
    r->device = r->vulkan->device.get();
    if (!checkResolution(config, r->device->limits(), diagnostics)) return nullptr;
    r->runner = vk::CommandRunner::create(*r->device, diagnostics);
    if (!r->runner) return nullptr;
    r->targets = createFrameTargets(*r->device, config.width, config.height, diagnostics);
    if (!r->targets) return nullptr;
    r->opaque = OpaquePass::create(*r->device, *r->targets, diagnostics);
    if (!r->opaque) return nullptr;
    if (!createParticlePasses(*r, diagnostics)) return nullptr;
    r->opaque->bindShadows(*r->device, r->shadows->maps());
    if (r->device->support().timestamps) {
        r->timestamps = createTimestampPool(*r->device, diagnostics);
        if (!r->timestamps) return nullptr;
    }
    return r;
}

std::shared_ptr<vk::Context> rendererContext(const Renderer& renderer) {
    return renderer.vulkan;
}

const DeviceInfo& rendererDevice(const Renderer& renderer) {
    return renderer.device_info;
}

const std::vector<std::string>& validationMessages(const Renderer& renderer) {
    return renderer.vulkan ? renderer.vulkan->instance->messages().messages() : kNoMessages;
}

MeshHandle addMesh(Renderer& renderer, std::span<const MeshVertex> vertices,
                   const std::string& label, std::vector<Diagnostic>& diagnostics) {
    return renderer.meshes->add(vertices, label, diagnostics);
}

TextureHandle addTexture(Renderer& renderer, const Image& image, const std::string& label,
                         std::vector<Diagnostic>& diagnostics, TextureEncoding encoding) {
    return renderer.textures->add(image, label, diagnostics, encoding);
}

const SceneDepthCopy& lastSceneDepth(const Renderer& renderer) {
    return renderer.scene_depth.copy;
}

bool renderFrame(Renderer& renderer, const FrameView& view, std::span<const DrawBatch> batches,
                 Image& out, FrameStats& stats, std::vector<Diagnostic>& diagnostics) {
    return renderFrame(renderer, view, batches, out, nullptr, stats, diagnostics);
}

bool renderFrame(Renderer& renderer, const FrameView& asked, std::span<const DrawBatch> batches,
                 Image& out, MotionImage* motion, FrameStats& stats,
                 std::vector<Diagnostic>& diagnostics) {
    stats = FrameStats{};
    // automatic's threshold: the view's, or the device's (kDeviceComputeRasterThreshold).
    FrameView view = asked;
    if (view.compute_raster_threshold == kDeviceComputeRasterThreshold) {
        view.compute_raster_threshold = renderer.raster_threshold;
    }
    if (view.motion.enabled && motion == nullptr) {
        diagnostics.push_back(renderError(
            "view", "motion: the view asks for motion vectors but renderFrame was given no "
                    "MotionImage to hold them"));
        return false;
    }
    if (renderer.host_frame) {
        diagnostics.push_back(renderError(
            "renderFrame", "this renderer draws into the host's frame (recordHostFrame); it has "
                           "no offscreen frame to render and read back"));
        return false;
    }
    FrameTotals totals;
    bool any_oit = false;
    if (!prepareFrame(renderer, view, batches, totals, any_oit, diagnostics)) return false;

    const FrameTargets& t = *renderer.targets;
    const bool post = wantsPost(view);
    if (post && !renderer.post) {
        renderer.post = PostPass::create(*renderer.device, t, diagnostics);
        if (!renderer.post) return false;
    }
    if (!view.overlay.empty()) {
        if (!renderer.overlay) {
            renderer.overlay = LineOverlayPass::create(*renderer.device, t, diagnostics);
            if (!renderer.overlay) return false;
        }
        if (!renderer.overlay->upload(view.overlay, diagnostics)) return false;
    }
    const float adapt_dt_s = adaptationStep(renderer.has_previous_frame && view.continues_previous,
                                            renderer.previous_time_s, view.time_s);
    // The compute rasteriser bins its batches in a submission of its own first (the pair count
    // sizes the sort); its stats join the frame's below.
    FrameStats raster_stats;
    if (!renderer.raster && anyDrawnByCompute(view, batches)) {
        renderer.raster =
            ComputeRaster::create(*renderer.device, t, *renderer.textures, diagnostics);
        if (!renderer.raster) return false;
        renderer.raster->bindShadows(renderer.shadows->maps());
    }
    if (renderer.raster &&
        !renderer.raster->prepare(*renderer.runner, view, batches, *renderer.billboards,
                                  renderer.slot, raster_stats, diagnostics)) {
        return false;
    }
    VkCommandBuffer cmd = renderer.runner->begin(diagnostics);
    if (cmd == VK_NULL_HANDLE) return false;
    if (!recordFrame(renderer, cmd, view, batches, any_oit, adapt_dt_s, diagnostics)) {
        vkEndCommandBuffer(cmd);
        return false;
    }
    if (!renderer.runner->submitAndWait("frame", diagnostics)) return false;
    if (renderer.raster && !renderer.raster->checkFinished(diagnostics)) return false;
    renderer.has_previous_frame = true;
    renderer.previous_time_s = view.time_s;
    renderer.scene_depth.copy.valid = renderer.frame_scene_depth;

    const auto* pixels = static_cast<const uint16_t*>(t.readback.mapped);
    convertHalfRgbaToSrgb8(std::span(pixels, size_t{t.width} * t.height * 4), t.width, t.height,
                           out);
    stats = frameStats(renderer, totals, batches, view);
    if (renderer.frame_motion) renderer.motion->read(*motion);
    readGpuTimes(renderer, stats, diagnostics);
    stats.raster_batches = raster_stats.raster_batches;
    stats.raster_pairs = raster_stats.raster_pairs;
    stats.raster_fallbacks = raster_stats.raster_fallbacks;
    stats.gpu_raster_bin_ms = raster_stats.gpu_raster_bin_ms;
    if (stats.gpu_ms > 0) stats.gpu_ms += stats.gpu_raster_bin_ms;
    if (post) stats.exposure = renderer.post->exposureUsed();
    stats.overlay_lines = static_cast<uint32_t>(view.overlay.size());
    return true;
}

} // namespace spindrift::render
