// The writing walk over a field table (field_table.h): each field in table order, a required key
// always, an optional one only when it differs from the default (io/document_writer.h). A codec's
// writeCodec overload (found by argument-dependent lookup) replaces the ordinary write of a field.
#pragma once

#include "authoring/field_table.h"
#include "authoring/value_writer.h"

namespace spindrift {

template <HasFields T>
void writeFields(json::DocumentWriter& out, const T& value, const T& default_value);

// The ordinary write: a nested object left out when default, a list of objects left out when
// empty (a required one always written), a value by its putValue.
template <typename F, typename T, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const T& value, const T& default_value,
                const O&, PlainCodec) {
    if constexpr (ObjectList<T>) {
        using Element = typename IsVector<T>::Element;
        auto body = [&](const Element& item, const Element& d) { writeFields(out, item, d); };
        if (f.required()) {
            out.key(f.key);
            out.beginArray();
            for (const Element& item : value) {
                out.beginObject();
                body(item, Element{});
                out.endObject();
            }
            out.endArray();
        } else {
            out.objectList(f.key, value, body);
        }
    } else if constexpr (HasFields<T>) {
        out.object(f.key, value, [&](const T& v, const T& d) { writeFields(out, v, d); });
    } else if (f.required()) {
        out.req(f.key, value);
    } else {
        out.opt(f.key, value, default_value);
    }
}

template <typename F, typename O>
void writeOneField(json::DocumentWriter& out, const F& f, const O& object, const O& defaults) {
    writeCodec(out, f, object.*f.member, defaults.*f.member, object, typename F::CodecType{});
}

template <HasFields T>
void writeFields(json::DocumentWriter& out, const T& value, const T& default_value) {
    forEachField(fieldsOf(FieldsOf<T>{}),
                 [&](const auto& f) { writeOneField(out, f, value, default_value); });
}

// A document: one object, its fields in table order.
template <HasFields Doc> std::string saveDocument(const Doc& document) {
    json::DocumentWriter out;
    out.beginObject();
    writeFields(out, document, Doc{});
    out.endObject();
    return out.text();
}

} // namespace spindrift
