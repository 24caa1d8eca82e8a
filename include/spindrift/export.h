/* SPINDRIFT_API marks what the Spindrift libraries export: the C API (spindrift.h) and the
 * public C++ runtime (runtime.h, draw_list.h, effect_json.h, scene_json.h, diagnostic.h).
 * Everything else is compiled with hidden visibility and stays inside the library.
 *
 * Hosts define nothing on ELF platforms. On Windows, define SPINDRIFT_STATIC when linking the
 * static library (no dllimport); the library's own build defines SPINDRIFT_BUILD. This header is
 * valid C99 and C++. */
#ifndef SPINDRIFT_EXPORT_H
#define SPINDRIFT_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(SPINDRIFT_STATIC)
#define SPINDRIFT_API
#elif defined(SPINDRIFT_BUILD)
#define SPINDRIFT_API __declspec(dllexport)
#else
#define SPINDRIFT_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define SPINDRIFT_API __attribute__((visibility("default")))
#else
#define SPINDRIFT_API
#endif

#endif /* SPINDRIFT_EXPORT_H */
