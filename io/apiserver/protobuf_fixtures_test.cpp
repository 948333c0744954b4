// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The schema against testdata/protobuf/: one object per kind with a schema,
// together setting every field those kinds reach. Each must come back from
// the reply encoder and the body decoder exactly as written, with nothing
// dropped, so a field missing from the schema, a wrong field number pair
// (encoder and decoder disagree) or a zero Go would not write shows up.
#include "io/apiserver/kube_wire.pb.h"
#include "io/apiserver/protobuf_body.hpp"
#include "io/apiserver/protobuf_reply.hpp"

#include <boost/json.hpp>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
namespace pb = google::protobuf;

struct fixture {
  std::string file;
  std::string text;
  json::value value;
};

const std::vector<fixture>& fixtures() {
  static const std::vector<fixture> all = [] {
    const char* root = std::getenv("TESSERA_SOURCE_DIR");
    std::filesystem::path dir{root != nullptr ? root
                                              : TESSERA_SOURCE_DIR_FALLBACK};
    dir /= "io/apiserver/testdata/protobuf";
    std::vector<fixture> out;
    for (const auto& entry : std::filesystem::directory_iterator{dir}) {
      if (entry.path().extension() != ".json")
        continue;
      std::ifstream in{entry.path()};
      std::stringstream text;
      text << in.rdbuf();
      out.push_back({entry.path().filename().string(), text.str(),
                     json::parse(text.str())});
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.file < b.file; });
    return out;
  }();
  return all;
}

std::string text_at(const json::value& v, std::string_view key) {
  const auto* o = v.if_object();
  if (!o || !o->contains(key) || !o->at(key).is_string())
    return {};
  return std::string{o->at(key).as_string()};
}

/// Types whose JSON is not an object of their fields.
bool opaque(const pb::Descriptor* d) {
  return d == kube::Time::descriptor() || d == kube::MicroTime::descriptor()
         || d == kube::Quantity::descriptor()
         || d == kube::IntOrString::descriptor()
         || d == kube::FieldsV1::descriptor()
         || d->options().GetExtension(kube::json_array);
}

/// The message type a field leads to (a map's value type), or null.
const pb::Descriptor* leads_to(const pb::FieldDescriptor* f) {
  if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
    return nullptr;
  if (f->is_map()) {
    const auto* value = f->message_type()->map_value();
    return value->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE
             ? value->message_type()
             : nullptr;
  }
  return f->message_type();
}

void reachable(const pb::Descriptor* d, std::set<const pb::Descriptor*>& seen,
               std::set<const pb::FieldDescriptor*>& fields) {
  if (opaque(d) || !seen.insert(d).second)
    return;
  for (int i = 0; i < d->field_count(); ++i) {
    const auto* f = d->field(i);
    fields.insert(f);
    if (const auto* next = leads_to(f))
      reachable(next, seen, fields);
  }
}

/// Marks every field `m` holds, through nested messages and map values.
void collect_set(const pb::Message& m,
                 std::set<const pb::FieldDescriptor*>& set) {
  if (opaque(m.GetDescriptor()))
    return;
  const auto* d = m.GetDescriptor();
  const auto* r = m.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const auto* f = d->field(i);
    const bool message = f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
    if (f->is_repeated()) {
      int n = r->FieldSize(m, f);
      if (n > 0)
        set.insert(f);
      if (!message)
        continue;
      for (int k = 0; k < n; ++k) {
        const auto& item = r->GetRepeatedMessage(m, f, k);
        if (!f->is_map()) {
          collect_set(item, set);
          continue;
        }
        const auto* value = f->message_type()->map_value();
        if (value->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE)
          collect_set(item.GetReflection()->GetMessage(item, value), set);
      }
    } else if (r->HasField(m, f)) {
      set.insert(f);
      if (message)
        collect_set(r->GetMessage(m, f), set);
    }
  }
}

TEST(ProtobufFixtures, EveryKindWithASchemaHasOne) {
  std::set<std::string> covered;
  for (const auto& fx : fixtures())
    covered.insert(text_at(fx.value, "apiVersion") + " "
                   + text_at(fx.value, "kind"));
  for (const auto& k : protobuf_schema_kinds()) {
    std::string version
      = k.api_version.empty() ? "v1" : std::string{k.api_version};
    EXPECT_TRUE(covered.contains(version + " " + std::string{k.kind}))
      << "no fixture for " << version << " " << k.kind;
  }
}

TEST(ProtobufFixtures, EachComesBackExactlyWithNothingDropped) {
  ASSERT_FALSE(fixtures().empty());
  for (const auto& fx : fixtures()) {
    SCOPED_TRACE(fx.file);
    auto encoded = encode_protobuf_reply(fx.text);
    ASSERT_TRUE(encoded) << "no schema for its kind";
    for (const auto& path : encoded->dropped)
      ADD_FAILURE() << "not in the schema: " << path;
    auto back = protobuf_body_to_json(encoded->bytes);
    ASSERT_TRUE(back) << back.err().message;
    EXPECT_EQ(json::parse(*back), fx.value)
      << "decoded: " << *back << "\nwritten: " << fx.text;
  }
}

TEST(ProtobufFixtures, EveryFieldTheKindsReachIsSetBySomeFixture) {
  std::set<const pb::Descriptor*> seen;
  std::set<const pb::FieldDescriptor*> fields;
  for (const auto& k : protobuf_schema_kinds())
    reachable(protobuf_prototype(k.kind, k.api_version)->GetDescriptor(), seen,
              fields);
  std::set<const pb::FieldDescriptor*> set;
  for (const auto& fx : fixtures()) {
    auto encoded = encode_protobuf_reply(fx.text);
    ASSERT_TRUE(encoded) << fx.file;
    kube::Unknown u;
    ASSERT_TRUE(u.ParseFromString(encoded->bytes.substr(4)));
    std::unique_ptr<pb::Message> m{
      protobuf_prototype(u.typemeta().kind(), u.typemeta().apiversion())
        ->New()};
    ASSERT_TRUE(m->ParseFromString(u.raw())) << fx.file;
    collect_set(*m, set);
  }
  std::vector<std::string> unset;
  for (const auto* f : fields)
    if (!set.contains(f))
      unset.push_back(f->full_name());
  std::sort(unset.begin(), unset.end());
  EXPECT_TRUE(unset.empty()) << [&] {
    std::string all;
    for (const auto& name : unset)
      all += "\n  " + name;
    return "fields no fixture sets:" + all;
  }();
}

} // namespace
} // namespace tessera::apiserver
