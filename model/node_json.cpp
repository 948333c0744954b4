// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Decoding of v1.Node.
#include "model/json_reader.hpp"
#include "model/pod.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>

namespace tessera::model::json_detail {

namespace {

taint read_taint(json_reader& r, const json_value& v) {
  static constexpr std::array<std::string_view, 3> effects
    = {"NoSchedule", "PreferNoSchedule", "NoExecute"};
  taint t;
  bool has_effect = false;
  for_each_field(r, get_object(r, v),
                 [&](std::string_view key, const json_value& x) {
                   if (key == "key") {
                     t.key = get_symbol(r, x);
                   } else if (key == "value") {
                     t.value = get_symbol(r, x);
                   } else if (key == "effect") {
                     (void)get_enum(r, x, effects);
                     t.effect = *parse_taint_effect(get_string(r, x));
                     has_effect = true;
                   }
                 });
  if (t.key.empty())
    fail_at(r, {"key"}, "required value");
  if (!has_effect)
    fail_at(r, {"effect"}, "required value");
  return t;
}

node_image read_image(json_reader& r, const json_value& v) {
  node_image image;
  for_each_field(
    r, get_object(r, v), [&](std::string_view key, const json_value& x) {
      if (key == "names") {
        const auto& a = get_array(r, x);
        image.names.reserve(a.size());
        for_each_element(r, a, [&](std::size_t, const json_value& e) {
          image.names.push_back(intern(normalize_image_name(get_string(r, e))));
        });
      } else if (key == "sizeBytes") {
        image.size_bytes = get_int64(r, x);
      }
    });
  return image;
}

node_condition read_condition(json_reader& r, const json_value& v) {
  node_condition c;
  for_each_field(r, get_object(r, v),
                 [&](std::string_view key, const json_value& x) {
                   if (key == "type")
                     c.type = get_symbol(r, x);
                   else if (key == "status")
                     c.status = get_symbol(r, x);
                 });
  return c;
}

} // namespace

node read_node(json_reader& r, const json_object& o,
               const decode_options& opts) {
  node n;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  n.name = intern(meta.name);
  n.uid = meta.uid;
  n.resource_version = meta.resource_version;
  n.creation_unix = meta.creation_unix;
  n.labels = std::move(meta.labels);
  with_member(r, o, "spec", [&](const json_value& x) {
    for_each_field(
      r, get_object(r, x), [&](std::string_view key, const json_value& y) {
        if (key == "taints") {
          const auto& a = get_array(r, y);
          n.taints.reserve(a.size());
          for_each_element(r, a, [&](std::size_t, const json_value& e) {
            n.taints.push_back(read_taint(r, e));
          });
        } else if (key == "unschedulable") {
          n.unschedulable = get_bool(r, y);
        }
      });
  });
  bool has_allocatable = false;
  with_member(r, o, "status", [&](const json_value& x) {
    for_each_field(
      r, get_object(r, x), [&](std::string_view key, const json_value& y) {
        if (key == "capacity") {
          n.capacity = read_resource_list(r, y);
        } else if (key == "allocatable") {
          n.allocatable = read_resource_list(r, y);
          has_allocatable = true;
        } else if (key == "images") {
          const auto& a = get_array(r, y);
          n.images.reserve(a.size());
          for_each_element(r, a, [&](std::size_t, const json_value& e) {
            n.images.push_back(read_image(r, e));
          });
        } else if (key == "conditions") {
          for_each_element(r, get_array(r, y),
                           [&](std::size_t, const json_value& e) {
                             n.conditions.push_back(read_condition(r, e));
                           });
        } else if (key == "declaredFeatures") {
          for_each_element(r, get_array(r, y),
                           [&](std::size_t, const json_value& e) {
                             n.declared_features.push_back(get_symbol(r, e));
                           });
        }
      });
  });
  if (!has_allocatable && opts.apply_defaults)
    n.allocatable = n.capacity;
  // Intern order, so that feature sets compare by merging.
  std::sort(n.declared_features.begin(), n.declared_features.end());
  n.declared_features.erase(
    std::unique(n.declared_features.begin(), n.declared_features.end()),
    n.declared_features.end());
  return n;
}

} // namespace tessera::model::json_detail
