// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The JSON objects of testdata/protobuf/ against the protobuf schema
// (kube_core.proto): every field a fixture sets is in the schema and holds
// a value the conversion gives back unchanged, and every field of the
// schema is set, to something other than its zero, by some fixture. So a
// round trip over the fixtures exercises the whole schema.
#include "io/apiserver/kube_core.pb.h"
#include "io/apiserver/kube_wire.pb.h"

#include <boost/json.hpp>
#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
namespace pb = google::protobuf;

std::string fixture_path(const std::string& name) {
  const char* dir = std::getenv("TESSERA_SOURCE_DIR");
  return std::string{dir != nullptr ? dir : TESSERA_SOURCE_DIR_FALLBACK}
         + "/io/apiserver/testdata/protobuf/" + name;
}

struct fixture {
  std::string file;
  std::string kind;
  const pb::Descriptor* type;
};

const std::vector<fixture>& fixtures() {
  static const std::vector<fixture> all = {
    {"core_pod.json", "Pod", kube::Pod::descriptor()},
    {"core_node.json", "Node", kube::Node::descriptor()},
    {"core_persistentvolume.json", "PersistentVolume",
     kube::PersistentVolume::descriptor()},
    {"core_persistentvolumeclaim.json", "PersistentVolumeClaim",
     kube::PersistentVolumeClaim::descriptor()},
    {"core_replicationcontroller.json", "ReplicationController",
     kube::ReplicationController::descriptor()},
    {"core_event.json", "Event", kube::CoreEvent::descriptor()},
    {"core_service.json", "Service", kube::Service::descriptor()},
    {"core_namespace.json", "Namespace", kube::Namespace::descriptor()},
    {"core_configmap.json", "ConfigMap", kube::ConfigMap::descriptor()},
    {"core_secret.json", "Secret", kube::Secret::descriptor()},
    {"core_serviceaccount.json", "ServiceAccount",
     kube::ServiceAccount::descriptor()},
  };
  return all;
}

json::value load(const std::string& file) {
  std::ifstream in(fixture_path(file));
  if (!in) {
    ADD_FAILURE() << "cannot read " << fixture_path(file);
    return nullptr;
  }
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  auto v = json::parse(text.str(), ec);
  if (ec)
    ADD_FAILURE() << file << ": " << ec.message();
  return v;
}

/// The messages the conversion writes as one JSON value of their own.
bool special(const pb::Descriptor* d) {
  return d == kube::Time::descriptor() || d == kube::MicroTime::descriptor()
         || d == kube::Quantity::descriptor()
         || d == kube::IntOrString::descriptor();
}

bool keep_zero(const pb::FieldDescriptor* f) {
  return f->options().GetExtension(kube::keep_zero);
}

bool json_inline(const pb::FieldDescriptor* f) {
  return f->options().GetExtension(kube::json_inline);
}

/// "2026-01-02T03:04:05Z", with `fraction` digits after the seconds.
bool rfc3339(std::string_view s, std::size_t fraction) {
  const std::string_view shape
    = fraction == 0 ? "dddd-dd-ddTdd:dd:ddZ" : "dddd-dd-ddTdd:dd:dd.ddddddZ";
  if (s.size() != shape.size())
    return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (shape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(s[i]))
                        : s[i] != shape[i])
      return false;
  return true;
}

/// Walks a fixture along the schema: notes each JSON value that has no
/// field or a value the conversion would not give back, and each field set
/// to a value other than its zero.
struct schema_walk {
  std::vector<std::string> problems;
  std::set<const pb::FieldDescriptor*> set_fields;

  /// The field named `name` in JSON: one of `d`'s, or of a message `d`
  /// embeds (json_inline), whose fields go to `via`.
  static const pb::FieldDescriptor*
  find(const pb::Descriptor* d, const std::string& name,
       std::vector<const pb::FieldDescriptor*>& via) {
    for (int i = 0; i < d->field_count(); ++i) {
      const auto* f = d->field(i);
      if (json_inline(f)) {
        via.push_back(f);
        if (const auto* inner = find(f->message_type(), name, via))
          return inner;
        via.pop_back();
      } else if (f->name() == name) {
        return f;
      }
    }
    return nullptr;
  }

  void object(const json::object& o, const pb::Descriptor* d,
              const std::string& path, bool top = false) {
    for (const auto& kv : o) {
      const std::string key{kv.key()};
      if (top && (key == "kind" || key == "apiVersion"))
        continue;
      const std::string at = path + "." + key;
      std::vector<const pb::FieldDescriptor*> via;
      const auto* f = find(d, key, via);
      if (f == nullptr) {
        problems.push_back(at + ": no such field in " + d->name());
        continue;
      }
      if (field(kv.value(), f, at)) {
        set_fields.insert(f);
        set_fields.insert(via.begin(), via.end());
      }
    }
  }

  /// Checks a field's JSON; true when it is set to something other than
  /// its zero.
  bool field(const json::value& v, const pb::FieldDescriptor* f,
             const std::string& at) {
    if (f->is_map()) {
      const auto* o = v.if_object();
      if (o == nullptr || o->empty()) {
        problems.push_back(at + ": a map wants a non-empty object");
        return false;
      }
      const auto* value_f = f->message_type()->map_value();
      for (const auto& kv : *o)
        element(kv.value(), value_f, at + "." + std::string{kv.key()});
      return true;
    }
    if (f->is_repeated()) {
      const auto* a = v.if_array();
      if (a == nullptr || a->empty()) {
        problems.push_back(at + ": a list wants a non-empty array");
        return false;
      }
      for (std::size_t i = 0; i < a->size(); ++i)
        element((*a)[i], f, at + "[" + std::to_string(i) + "]");
      return true;
    }
    bool nonzero = element(v, f, at);
    if (!nonzero && f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE
        && !keep_zero(f))
      problems.push_back(at + ": a zero the conversion drops (" + f->name()
                         + " has no keep_zero)");
    return nonzero;
  }

  /// One value of type `f` (a list's element or a map's value); true when
  /// it is not its zero.
  bool element(const json::value& v, const pb::FieldDescriptor* f,
               const std::string& at) {
    switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_MESSAGE: {
      const auto* t = f->message_type();
      if (t == kube::Time::descriptor() || t == kube::MicroTime::descriptor()) {
        const auto* s = v.if_string();
        std::size_t fraction = t == kube::Time::descriptor() ? 0 : 6;
        if (s == nullptr || !rfc3339(*s, fraction))
          problems.push_back(at + ": not a " + t->name()
                             + " the conversion writes");
        return true;
      }
      if (t == kube::Quantity::descriptor()) {
        const auto* s = v.if_string();
        if (s == nullptr || s->empty())
          problems.push_back(at + ": a quantity wants a string");
        return true;
      }
      if (t == kube::IntOrString::descriptor()) {
        const auto* s = v.if_string();
        if (!v.is_int64() && (s == nullptr || s->empty()))
          problems.push_back(at + ": an int-or-string wants either");
        return true;
      }
      const auto* o = v.if_object();
      if (o == nullptr) {
        problems.push_back(at + ": " + t->name() + " wants an object");
        return false;
      }
      object(*o, t, at);
      return !o->empty();
    }
    case pb::FieldDescriptor::CPPTYPE_STRING: {
      const auto* s = v.if_string();
      if (s == nullptr) {
        problems.push_back(at + ": wants a string");
        return false;
      }
      return !s->empty();
    }
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      if (!v.is_bool()) {
        problems.push_back(at + ": wants true or false");
        return false;
      }
      return v.get_bool();
    case pb::FieldDescriptor::CPPTYPE_INT32:
    case pb::FieldDescriptor::CPPTYPE_INT64: {
      if (!v.is_int64()) {
        problems.push_back(at + ": wants an integer");
        return false;
      }
      const auto i = v.get_int64();
      if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_INT32
          && (i < std::numeric_limits<std::int32_t>::min()
              || i > std::numeric_limits<std::int32_t>::max()))
        problems.push_back(at + ": out of int32's range");
      return i != 0;
    }
    default:
      problems.push_back(at + ": a field type the schema does not use");
      return false;
    }
  }
};

/// Every field reachable from `d`, the special messages' own excepted.
void reachable(const pb::Descriptor* d, std::set<const pb::Descriptor*>& seen,
               std::vector<const pb::FieldDescriptor*>& out) {
  if (special(d) || !seen.insert(d).second)
    return;
  for (int i = 0; i < d->field_count(); ++i) {
    const auto* f = d->field(i);
    out.push_back(f);
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
      continue;
    const auto* t = f->message_type();
    if (f->is_map())
      t = t->map_value()->message_type();
    if (t != nullptr)
      reachable(t, seen, out);
  }
}

TEST(ProtobufFixtures, EveryValueHasASchemaFieldAndSurvivesTheConversion) {
  for (const auto& fx : fixtures()) {
    SCOPED_TRACE(fx.file);
    auto v = load(fx.file);
    const auto* o = v.if_object();
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->at("kind"), fx.kind.c_str());
    EXPECT_EQ(o->at("apiVersion"), "v1");
    schema_walk walk;
    walk.object(*o, fx.type, fx.kind, true);
    for (const auto& p : walk.problems)
      ADD_FAILURE() << p;
  }
}

TEST(ProtobufFixtures, EveryFieldOfTheSchemaIsSetBySomeFixture) {
  schema_walk walk;
  std::set<const pb::Descriptor*> seen;
  std::vector<const pb::FieldDescriptor*> fields;
  for (const auto& fx : fixtures()) {
    auto v = load(fx.file);
    if (const auto* o = v.if_object())
      walk.object(*o, fx.type, fx.kind, true);
    reachable(fx.type, seen, fields);
  }
  std::vector<std::string> unset;
  for (const auto* f : fields)
    if (!walk.set_fields.contains(f))
      unset.push_back(f->full_name());
  EXPECT_TRUE(unset.empty()) << [&] {
    std::string all;
    for (const auto& name : unset)
      all += "\n  " + name;
    return "fields no fixture sets:" + all;
  }();
}

} // namespace
} // namespace tessera::apiserver
