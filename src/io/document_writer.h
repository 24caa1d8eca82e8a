// The canonical form of a document's members, shared by the effect and scene writers: a key whose
// value equals its documented default is left out (required keys never are), so are a nested
// object equal to its default and an empty list; rows of numbers (curve keys, mesh points, path
// keys) stay on one line each. One text per document, so load -> save reproduces a canonical file
// byte for byte.
//
// A value is written by putValue(DocumentWriter&, const T&), found by argument-dependent lookup:
// the JSON scalars here, the authoring value types (Float3, ranges, curves, enums) in
// authoring/value_writer.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_writer.h"

namespace spindrift::json {

class DocumentWriter : public Writer {
public:
    template <typename T> void put(const T& value) { putValue(*this, value); }

    // A required member: always written.
    template <typename T> void req(std::string_view name, const T& value) {
        key(name);
        put(value);
    }
    // An optional member: left out when it equals its documented default.
    template <typename T> void opt(std::string_view name, const T& value, const T& default_value) {
        if (!(value == default_value)) req(name, value);
    }
    // A member whose value is an object; body() writes the object's members.
    template <typename Body> void objectMember(std::string_view name, Body body) {
        key(name);
        beginObject();
        body();
        endObject();
    }
    // A nested object, left out when it equals T{}; body(value, T{}) writes its members.
    template <typename T, typename Body>
    void object(std::string_view name, const T& value, Body body) {
        if (value == T{}) return;
        objectMember(name, [&] { body(value, T{}); });
    }
    // An array, left out when empty; each(item) writes one element.
    template <typename T, typename Each>
    void list(std::string_view name, const std::vector<T>& items, Each each) {
        if (items.empty()) return;
        key(name);
        beginArray();
        for (const T& item : items) each(item);
        endArray();
    }
    // An array of objects, left out when empty; body(item, T{}) writes each object's members.
    template <typename T, typename Body>
    void objectList(std::string_view name, const std::vector<T>& items, Body body) {
        list(name, items, [&](const T& item) {
            beginObject();
            body(item, T{});
            endObject();
        });
    }
    // An array of rows, each row_of(item) (a std::array<float, N>) on one line; always written.
    template <typename T, typename RowOf>
    void rows(std::string_view name, const std::vector<T>& items, RowOf row_of) {
        key(name);
        beginArray();
        for (const T& item : items) {
            const auto row = row_of(item);
            inlineArray(row.data(), row.size());
        }
        endArray();
    }
    // [10, 20] on one line like other pairs of numbers; one element per line when a float would
    // not print both as plain integer literals (the reader wants no exponent in an integer).
    void integerPair(uint32_t first, uint32_t second);
};

void putValue(DocumentWriter& out, float f);
void putValue(DocumentWriter& out, uint32_t u);
void putValue(DocumentWriter& out, bool b);
void putValue(DocumentWriter& out, const std::string& text);

} // namespace spindrift::json
