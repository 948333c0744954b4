// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/store.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

// Options are written as designated initializers naming only the fields a
// case sets; the rest keep their defaults on purpose.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tessera::apiserver {
namespace {

namespace json = boost::json;

const resource_info& pods() {
  return primary_resource(storage_kind::pod);
}
const resource_info& nodes() {
  return primary_resource(storage_kind::node);
}
const resource_info& core_events() {
  return *find_resource("", "v1", "events");
}
const resource_info& v1_events() {
  return *find_resource("events.k8s.io", "v1", "events");
}
const resource_info& leases() {
  return *find_resource("coordination.k8s.io", "v1", "leases");
}
const resource_info& priority_classes() {
  return *find_resource("scheduling.k8s.io", "v1", "priorityclasses");
}

std::string pod_json(const std::string& name,
                     const std::string& extra_spec = "",
                     const std::string& extra_meta = "") {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + "\""
         + extra_meta
         + R"(},"spec":{"containers":[{"name":"c","image":"busybox"}])"
         + extra_spec + "}}";
}

std::string node_json(const std::string& name) {
  return R"({"metadata":{"name":")" + name
         + R"("},"status":{"capacity":{"cpu":"4","memory":"32Gi","pods":"110"}}})";
}

json::value doc(const object_ptr& o) {
  return json::parse(o->json());
}

json::value at(const json::value& v,
               std::initializer_list<std::string_view> path) {
  const json::value* cur = &v;
  for (auto k : path) {
    if (!cur->is_object())
      return nullptr;
    auto* next = cur->as_object().if_contains(k);
    if (!next)
      return nullptr;
    cur = next;
  }
  return *cur;
}

std::vector<watch_event> drain(watcher& w) {
  std::vector<watch_event> out;
  w.poll(out);
  return out;
}

store_config quiet() {
  store_config c;
  c.seed = 42;
  return c;
}

// Every selectable field of each kind is read from its own place in the
// object: a value list out of step with the field table would answer a
// selector with another field's value.
TEST(StoredObject, ExtractsEverySelectableFieldOfEachKind) {
  struct kind_case {
    storage_kind storage;
    const char* json;
    std::vector<std::pair<std::string_view, std::string_view>> expected;
  };
  const std::vector<kind_case> cases = {
    {storage_kind::pod,
     R"({"kind":"Pod","apiVersion":"v1",
         "metadata":{"name":"p1","namespace":"ns1","labels":{"app":"web"}},
         "spec":{"nodeName":"n1","restartPolicy":"Never",
                 "schedulerName":"s1","serviceAccountName":"sa1",
                 "hostNetwork":true},
         "status":{"phase":"Running","podIP":"10.0.0.1",
                   "nominatedNodeName":"n2"}})",
     {{"metadata.name", "p1"},
      {"metadata.namespace", "ns1"},
      {"spec.nodeName", "n1"},
      {"spec.restartPolicy", "Never"},
      {"spec.schedulerName", "s1"},
      {"spec.serviceAccountName", "sa1"},
      {"spec.hostNetwork", "true"},
      {"status.phase", "Running"},
      {"status.podIP", "10.0.0.1"},
      {"status.nominatedNodeName", "n2"}}},
    {storage_kind::node,
     R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
         "spec":{"unschedulable":true}})",
     {{"metadata.name", "n1"},
      {"metadata.namespace", ""},
      {"spec.unschedulable", "true"}}},
    {storage_kind::namespace_,
     R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"ns1"},
         "status":{"phase":"Terminating"}})",
     {{"metadata.name", "ns1"},
      {"metadata.namespace", ""},
      {"status.phase", "Terminating"}}},
    {storage_kind::event,
     R"({"kind":"Event","apiVersion":"v1",
         "metadata":{"name":"e1","namespace":"ns1"},
         "involvedObject":{"kind":"Pod","namespace":"ns2","name":"p1",
                           "uid":"u1","apiVersion":"v1",
                           "resourceVersion":"7","fieldPath":"spec"},
         "reason":"Scheduled","reportingComponent":"rc",
         "source":{"component":"sc"},"type":"Normal"})",
     {{"metadata.name", "e1"},
      {"metadata.namespace", "ns1"},
      {"involvedObject.kind", "Pod"},
      {"involvedObject.namespace", "ns2"},
      {"involvedObject.name", "p1"},
      {"involvedObject.uid", "u1"},
      {"involvedObject.apiVersion", "v1"},
      {"involvedObject.resourceVersion", "7"},
      {"involvedObject.fieldPath", "spec"},
      {"reason", "Scheduled"},
      {"reportingComponent", "rc"},
      {"source", "sc"},
      {"type", "Normal"}}},
  };
  for (const auto& c : cases) {
    auto doc = json::parse(c.json);
    auto obj = stored_object::make(c.storage, doc);
    ASSERT_EQ(selectable_fields(c.storage).size(), c.expected.size());
    for (const auto& [path, value] : c.expected)
      EXPECT_EQ(obj->attrs().field(path), std::optional{value})
        << c.json << " " << path;
  }
}

TEST(Store, EveryWriteAddsOneToTheCounter) {
  store s{quiet()};
  auto start = s.resource_version();
  auto p = s.create(pods(), "default", pod_json("p1"));
  ASSERT_TRUE(p) << p.err().message;
  EXPECT_EQ((*p)->resource_version(), start + 1);
  EXPECT_EQ(s.resource_version(), start + 1);
  // A byte-identical update changes nothing.
  auto same
    = s.update(pods(), "default", "p1", (*p)->json(), subresource::main);
  ASSERT_TRUE(same) << same.err().message;
  EXPECT_EQ((*same)->resource_version(), start + 1);
  EXPECT_EQ(s.resource_version(), start + 1);
  // A real change adds exactly one.
  auto patched
    = s.patch(pods(), "default", "p1", patch_type::merge,
              R"({"metadata":{"labels":{"a":"b"}}})", subresource::main);
  ASSERT_TRUE(patched);
  EXPECT_EQ((*patched)->resource_version(), start + 2);
  // A list's RV is the counter even when no item carries it.
  ASSERT_TRUE(s.create(nodes(), "", node_json("n1")));
  auto l = s.list(pods(), "");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->resource_version, start + 3);
  ASSERT_EQ(l->items.size(), 1u);
  EXPECT_EQ(l->items[0]->resource_version(), start + 2);
}

// As kube-apiserver: 10,000 operations in one JSON patch at most (413 past
// it), and its copies may add 3 MiB in all (422).
TEST(Store, JsonPatchesHaveUpstreamsBounds) {
  store s{quiet()};
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p1")));
  auto tests = [](std::size_t n) {
    std::string ops = "[";
    for (std::size_t i = 0; i < n; ++i)
      ops += std::string{i ? "," : ""}
             + R"({"op":"test","path":"/metadata/name","value":"p1"})";
    return ops + "]";
  };
  auto at_bound = s.patch(pods(), "default", "p1", patch_type::json_patch,
                          tests(10000), subresource::main);
  EXPECT_TRUE(at_bound) << at_bound.err().message;
  auto past = s.patch(pods(), "default", "p1", patch_type::json_patch,
                      tests(10001), subresource::main);
  ASSERT_FALSE(past);
  EXPECT_EQ(past.err().code, 413);
  EXPECT_EQ(past.err().reason, "RequestEntityTooLarge");
  EXPECT_EQ(past.err().message,
            "Request entity too large: The allowed maximum operations in a "
            "JSON patch is 10000, got 10001");
  std::string doubling = "[";
  for (int i = 0; i < 13; ++i)
    doubling += std::string{i ? "," : ""}
                + R"({"op":"copy","from":"","path":"/c)" + std::to_string(i)
                + R"("})";
  doubling += "]";
  auto copies = s.patch(pods(), "default", "p1", patch_type::json_patch,
                        doubling, subresource::main);
  ASSERT_FALSE(copies);
  EXPECT_EQ(copies.err().code, 422);
  EXPECT_NE(copies.err().message.find("Unable to complete the copy"),
            std::string::npos)
    << copies.err().message;
}

/// `v` with every object's keys in reverse order (same content).
json::value reversed_keys(const json::value& v) {
  if (const auto* o = v.if_object()) {
    std::vector<const json::key_value_pair*> kvs;
    for (const auto& kv : *o)
      kvs.push_back(&kv);
    json::object out;
    for (auto it = kvs.rbegin(); it != kvs.rend(); ++it)
      out[(*it)->key()] = reversed_keys((*it)->value());
    return out;
  }
  if (const auto* a = v.if_array()) {
    json::array out;
    for (const auto& x : *a)
      out.push_back(reversed_keys(x));
    return out;
  }
  return v;
}

TEST(Store, UnchangedContentInAnyKeyOrderIsNoWrite) {
  store s{quiet()};
  auto p = s.create(pods(), "default",
                    pod_json("p1", "", R"(,"labels":{"a":"1","b":"2"})"));
  ASSERT_TRUE(p) << p.err().message;
  const auto rv = s.resource_version();
  auto shuffled = json::serialize(reversed_keys(doc(*p)));
  ASSERT_NE(shuffled, (*p)->json());
  auto same = s.update(pods(), "default", "p1", shuffled, subresource::main);
  ASSERT_TRUE(same) << same.err().message;
  EXPECT_EQ(s.resource_version(), rv) << "same content, other key order";
  EXPECT_EQ(s.stats().noop_writes, 1u);
  // A change of one character, deep inside and in the other order, is a
  // write.
  auto changed = reversed_keys(doc(*p));
  changed.as_object()["metadata"].as_object()["labels"].as_object()["b"] = "3";
  auto r = s.update(pods(), "default", "p1", json::serialize(changed),
                    subresource::main);
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(s.resource_version(), rv + 1);
  EXPECT_EQ(at(doc(*r), {"metadata", "labels", "b"}), "3");
  // So is a label that only moves from one key to another.
  auto moved = s.patch(pods(), "default", "p1", patch_type::merge,
                       R"({"metadata":{"labels":{"a":null,"c":"1"}}})",
                       subresource::main);
  ASSERT_TRUE(moved) << moved.err().message;
  EXPECT_EQ(s.resource_version(), rv + 2);
}

TEST(Store, CreateGetErrorsHaveUpstreamMessages) {
  store s{quiet()};
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p1")));
  struct test_case {
    std::string name;
    api_status status;
    int code;
    std::string reason;
    std::string message;
  };
  std::vector<test_case> cases;
  auto err = [](auto r) { return r.has_value() ? api_status{} : r.err(); };
  cases.push_back({"duplicate create",
                   err(s.create(pods(), "default", pod_json("p1"))), 409,
                   "AlreadyExists", R"(pods "p1" already exists)"});
  cases.push_back({"missing get", err(s.get(pods(), "default", "x")), 404,
                   "NotFound", R"(pods "x" not found)"});
  cases.push_back({"missing lease",
                   err(s.get(leases(), "kube-system", "kube-scheduler")), 404,
                   "NotFound",
                   R"(leases.coordination.k8s.io "kube-scheduler" not found)"});
  cases.push_back({"missing namespace",
                   err(s.create(pods(), "nope", pod_json("p2"))), 404,
                   "NotFound", R"(namespaces "nope" not found)"});
  cases.push_back(
    {"resourceVersion on create",
     err(s.create(pods(), "default",
                  pod_json("p3", "", R"(,"resourceVersion":"5")"))),
     500, "InternalError",
     "Internal error occurred: resourceVersion should not be set on objects "
     "to be created"});
  cases.push_back({"no containers",
                   err(s.create(pods(), "default",
                                R"({"metadata":{"name":"p4"},"spec":{}})")),
                   422, "Invalid",
                   R"(Pod "p4" is invalid: spec.containers: Required value)"});
  cases.push_back({"malformed JSON",
                   err(s.create(pods(), "default", "{\"metadata\":")), 400,
                   "BadRequest", ""});
  cases.push_back({"bad label selector",
                   err(s.list(pods(), "", {.label_selector = "a in (b"})), 400,
                   "BadRequest", ""});
  cases.push_back({"unsupported field selector",
                   err(s.list(pods(), "", {.field_selector = "spec.foo=bar"})),
                   400, "BadRequest", "field label not supported: spec.foo"});
  cases.push_back(
    {"resourceVersionMatch without resourceVersion",
     err(s.list(pods(), "", {.resource_version_match = "NotOlderThan"})), 422,
     "Invalid",
     R"(ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided)"});
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.status.code, tc.code);
    EXPECT_EQ(tc.status.reason, tc.reason);
    if (!tc.message.empty()) {
      EXPECT_EQ(tc.status.message, tc.message);
    }
  }
}

TEST(Store, PodCreateRunsAdmission) {
  store s{quiet()};
  ASSERT_TRUE(s.create(
    priority_classes(), "",
    R"({"metadata":{"name":"high"},"value":1000,"preemptionPolicy":"Never"})"));
  auto p = s.create(
    pods(), "default",
    R"({"metadata":{"name":"p1"},"spec":{"priorityClassName":"high","containers":[{"name":"c","image":"busybox:1.36","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]},"status":{"phase":"Running","podIP":"1.2.3.4"}})");
  ASSERT_TRUE(p) << p.err().message;
  auto d = doc(*p);
  EXPECT_EQ(at(d, {"status"}),
            json::parse(R"({"phase":"Pending","qosClass":"Guaranteed"})"));
  EXPECT_EQ(at(d, {"spec", "schedulerName"}), "default-scheduler");
  EXPECT_EQ(at(d, {"spec", "priority"}), 1000);
  EXPECT_EQ(at(d, {"spec", "preemptionPolicy"}), "Never");
  EXPECT_EQ(at(d, {"spec", "terminationGracePeriodSeconds"}), 30);
  auto c = d.at("spec").at("containers").at(0);
  EXPECT_EQ(at(c, {"resources", "requests"}),
            json::parse(R"({"cpu":"1","memory":"1Gi"})"));
  EXPECT_EQ(at(c, {"imagePullPolicy"}), "IfNotPresent");
  auto tolerations = d.at("spec").at("tolerations").as_array();
  ASSERT_EQ(tolerations.size(), 2u);
  EXPECT_EQ(at(tolerations[0], {"key"}), "node.kubernetes.io/not-ready");
  EXPECT_EQ(at(tolerations[1], {"tolerationSeconds"}), 300);
  EXPECT_FALSE((*p)->uid().empty());

  auto unknown = s.create(pods(), "default",
                          pod_json("p2", R"(,"priorityClassName":"nope")"));
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.err().code, 403);
  EXPECT_EQ(
    unknown.err().message,
    R"(pods "p2" is forbidden: no PriorityClass with name nope was found)");
  auto mismatch
    = s.create(pods(), "default", pod_json("p3", R"(,"priority":7)"));
  ASSERT_FALSE(mismatch);
  EXPECT_EQ(mismatch.err().code, 403);
  auto system = s.create(
    pods(), "kube-system",
    pod_json("p4", R"(,"priorityClassName":"system-node-critical")"));
  ASSERT_TRUE(system) << system.err().message;
  EXPECT_EQ(at(doc(*system), {"spec", "priority"}), 2000001000);
  // generateName yields distinct names.
  std::set<std::string> names;
  for (int i = 0; i < 20; ++i) {
    auto g = s.create(
      pods(), "default",
      R"({"metadata":{"generateName":"web-"},"spec":{"containers":[{"name":"c","image":"i"}]}})");
    ASSERT_TRUE(g) << g.err().message;
    EXPECT_EQ((*g)->name().rfind("web-", 0), 0u);
    EXPECT_EQ((*g)->name().size(), 9u);
    names.insert(std::string{(*g)->name()});
  }
  EXPECT_EQ(names.size(), 20u);
}

TEST(Store, NodeAllocatableDefaultsToCapacity) {
  store s{quiet()};
  auto n = s.create(nodes(), "", node_json("n1"));
  ASSERT_TRUE(n);
  EXPECT_EQ(at(doc(*n), {"status", "allocatable"}),
            at(doc(*n), {"status", "capacity"}));
  // Numbers in resource lists come back as quantity strings.
  auto numeric = s.create(
    nodes(), "",
    R"({"metadata":{"name":"n2"},"status":{"capacity":{"cpu":8,"pods":110}}})");
  ASSERT_TRUE(numeric);
  EXPECT_EQ(at(doc(*numeric), {"status", "allocatable", "cpu"}), "8");
  EXPECT_EQ(at(doc(*numeric), {"status", "capacity", "pods"}), "110");
}

TEST(Store, ClaimsWithoutAClassGetTheDefaultOne) {
  store s{quiet()};
  const auto& classes = primary_resource(storage_kind::storage_class);
  const auto& claims = primary_resource(storage_kind::persistent_volume_claim);
  auto claim = [&](const std::string& name, const std::string& cls) {
    auto c = s.create(claims, "default",
                      R"({"metadata":{"name":")" + name + R"("},"spec":{)" + cls
                        + R"("accessModes":["ReadWriteOnce"],"resources":)"
                          R"({"requests":{"storage":"1Gi"}}}})");
    EXPECT_TRUE(c) << c.err().message;
    return c ? at(doc(*c), {"spec", "storageClassName"}) : json::value{};
  };
  EXPECT_TRUE(claim("before", "").is_null()) << "no default class yet";
  ASSERT_TRUE(s.create(classes, "",
                       R"({"metadata":{"name":"plain"},"provisioner":"p"})"));
  ASSERT_TRUE(s.create(
    classes, "",
    R"({"metadata":{"name":"standard","annotations":{"storageclass.kubernetes.io/is-default-class":"true"}},"provisioner":"p"})"));
  struct test_case {
    std::string name;
    std::string cls;
    json::value want;
  };
  for (const auto& tc : std::vector<test_case>{
         {"none named", "", "standard"},
         {"one named", R"("storageClassName":"plain",)", "plain"},
         {"explicitly none", R"("storageClassName":"",)", ""},
       }) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(claim("c" + std::to_string(tc.name.size()), tc.cls), tc.want);
  }
}

TEST(Store, StorageObjectsGetTheApiServersDefaultsAndStartPending) {
  store s{quiet()};
  auto pv = s.create(primary_resource(storage_kind::persistent_volume), "",
                     R"({"metadata":{"name":"v"},"spec":{"hostPath":{}},)"
                     R"("status":{"phase":"Bound"}})");
  ASSERT_TRUE(pv);
  EXPECT_EQ(at(doc(*pv), {"spec", "persistentVolumeReclaimPolicy"}), "Retain");
  EXPECT_EQ(at(doc(*pv), {"spec", "volumeMode"}), "Filesystem");
  EXPECT_EQ(at(doc(*pv), {"status"}), json::parse(R"({"phase":"Pending"})"))
    << "a create's status is reset";
  const auto& claims = primary_resource(storage_kind::persistent_volume_claim);
  auto pvc = s.create(claims, "default",
                      R"({"metadata":{"name":"c"},"spec":{},)"
                      R"("status":{"phase":"Lost"}})");
  ASSERT_TRUE(pvc);
  EXPECT_EQ(at(doc(*pvc), {"spec", "volumeMode"}), "Filesystem");
  EXPECT_EQ(at(doc(*pvc), {"status", "phase"}), "Pending");
  // Status written later stays: only a create resets it.
  auto bound = s.patch(claims, "default", "c", patch_type::merge,
                       R"({"status":{"phase":"Bound"}})", subresource::status);
  ASSERT_TRUE(bound);
  auto relabelled
    = s.patch(claims, "default", "c", patch_type::merge,
              R"({"metadata":{"labels":{"a":"b"}}})", subresource::main);
  ASSERT_TRUE(relabelled);
  EXPECT_EQ(at(doc(*relabelled), {"status", "phase"}), "Bound");
  auto sc = s.create(primary_resource(storage_kind::storage_class), "",
                     R"({"metadata":{"name":"s"},"provisioner":"p"})");
  ASSERT_TRUE(sc);
  EXPECT_EQ(at(doc(*sc), {"reclaimPolicy"}), "Delete");
  EXPECT_EQ(at(doc(*sc), {"volumeBindingMode"}), "Immediate");
  auto driver = s.create(primary_resource(storage_kind::csi_driver), "",
                         R"({"metadata":{"name":"d"},"spec":{}})");
  ASSERT_TRUE(driver);
  EXPECT_EQ(at(doc(*driver), {"spec", "attachRequired"}), true);
  EXPECT_EQ(at(doc(*driver), {"spec", "storageCapacity"}), false);
}

TEST(Store, StaleUpdatesConflict) {
  store s{quiet()};
  auto p = s.create(pods(), "default", pod_json("p1"));
  ASSERT_TRUE(p);
  auto d = doc(*p);
  d.as_object()["metadata"].as_object()["resourceVersion"] = "1";
  auto stale
    = s.update(pods(), "default", "p1", json::serialize(d), subresource::main);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.err().code, 409);
  EXPECT_EQ(
    stale.err().message,
    R"(Operation cannot be fulfilled on pods "p1": the object has been modified; please apply your changes to the latest version and try again)");
  auto lease = s.create(
    leases(), "kube-system",
    R"({"metadata":{"name":"kube-scheduler"},"spec":{"holderIdentity":"a"}})");
  ASSERT_TRUE(lease);
  auto no_rv = s.update(
    leases(), "kube-system", "kube-scheduler",
    R"({"metadata":{"name":"kube-scheduler"},"spec":{"holderIdentity":"b"}})",
    subresource::main);
  ASSERT_FALSE(no_rv);
  EXPECT_EQ(no_rv.err().code, 422);
  auto ld = doc(*lease);
  ld.as_object()["spec"].as_object()["holderIdentity"] = "b";
  auto renewed = s.update(leases(), "kube-system", "kube-scheduler",
                          json::serialize(ld), subresource::main);
  ASSERT_TRUE(renewed) << renewed.err().message;
  auto again = s.update(leases(), "kube-system", "kube-scheduler",
                        json::serialize(ld), subresource::main);
  ASSERT_FALSE(again);
  EXPECT_EQ(
    again.err().message,
    R"(Operation cannot be fulfilled on leases.coordination.k8s.io "kube-scheduler": the object has been modified; please apply your changes to the latest version and try again)");
}

TEST(Store, BindingSemantics) {
  store s{quiet()};
  auto p = s.create(pods(), "default", pod_json("p1"));
  ASSERT_TRUE(p);
  auto w = s.watch(pods(), "",
                   {.resource_version = std::to_string(s.resource_version())});
  ASSERT_TRUE(w);
  auto bound
    = s.bind({.ns = "default", .name = "p1", .node = "n1", .uid = (*p)->uid()});
  ASSERT_TRUE(bound) << bound.err().message;
  auto d = doc(*bound);
  EXPECT_EQ(at(d, {"spec", "nodeName"}), "n1");
  auto cond = d.at("status").at("conditions").at(0);
  EXPECT_EQ(at(cond, {"type"}), "PodScheduled");
  EXPECT_EQ(at(cond, {"status"}), "True");
  auto events = drain(**w);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, event_type::modified);
  EXPECT_EQ(events[0].object, *bound);

  struct test_case {
    std::string name;
    binding b;
    int code;
    std::string message;
  };
  ASSERT_TRUE(
    s.create(pods(), "default",
             pod_json("gated", R"(,"schedulingGates":[{"name":"g"}])")));
  auto other = s.create(pods(), "default", pod_json("p2"));
  ASSERT_TRUE(other);
  std::vector<test_case> cases = {
    {"already bound",
     {.ns = "default", .name = "p1", .node = "n2"},
     409,
     R"(Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "n1")"},
    {"missing pod",
     {.ns = "default", .name = "gone", .node = "n1"},
     404,
     R"(pods "gone" not found)"},
    {"gated pod",
     {.ns = "default", .name = "gated", .node = "n1"},
     409,
     R"(Operation cannot be fulfilled on pods/binding "gated": pod gated has non-empty .spec.schedulingGates)"},
    {"uid mismatch",
     {.ns = "default", .name = "p2", .node = "n1", .uid = "other"},
     409,
     "Operation cannot be fulfilled on pods \"p2\": StorageError: invalid "
     "object, Code: 4, Key: /registry/pods/default/p2, ResourceVersion: 0, "
     "AdditionalErrorMsg: Precondition failed: UID in precondition: other, "
     "UID in object meta: "
       + (*other)->uid()},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = s.bind(tc.b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.err().code, tc.code);
    EXPECT_EQ(r.err().message, tc.message);
  }
  // A node that does not exist is not checked.
  EXPECT_TRUE(s.bind({.ns = "default", .name = "p2", .node = "nowhere"}));
  // A deleting pod cannot be bound.
  ASSERT_TRUE(
    s.create(pods(), "default", pod_json("p3", R"(,"nodeName":"n1")")));
  ASSERT_TRUE(s.remove(pods(), "default", "p3"));
  auto deleting = s.bind({.ns = "default", .name = "p3", .node = "n1"});
  ASSERT_FALSE(deleting);
  EXPECT_NE(deleting.err().message.find("is being deleted"), std::string::npos);
}

// pods/resize (in-place resize): only the containers' resources change;
// anything else the write carries is the stored pod's.
TEST(Store, ResizeTouchesOnlyContainerResources) {
  store s{quiet()};
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p1")));
  auto r = s.patch(
    pods(), "default", "p1", patch_type::strategic,
    R"({"metadata":{"labels":{"sneaky":"yes"}},"spec":{"nodeName":"n9",)"
    R"("containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}})",
    subresource::resize);
  ASSERT_TRUE(r) << r.err().message;
  auto d = doc(*r);
  EXPECT_EQ(
    at(d.at("spec").at("containers").at(0), {"resources", "requests", "cpu"}),
    "2");
  EXPECT_EQ(at(d, {"spec", "nodeName"}), nullptr);
  EXPECT_EQ(at(d, {"metadata", "labels", "sneaky"}), nullptr);
  // The main resource refuses the same resource change.
  auto main
    = s.patch(pods(), "default", "p1", patch_type::strategic,
              R"({"spec":{"containers":[{"name":"c","resources":{"requests":)"
              R"({"cpu":"3"}}}]}})",
              subresource::main);
  EXPECT_FALSE(main);
}

TEST(Store, StatusPatchTouchesOnlyStatus) {
  store s{quiet()};
  auto p = s.create(pods(), "default", pod_json("p1"));
  ASSERT_TRUE(p);
  auto before = s.resource_version();
  auto r = s.patch(
    pods(), "default", "p1", patch_type::strategic,
    R"({"spec":{"nodeName":"sneaky"},"status":{"nominatedNodeName":"n3","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/3 nodes are available","lastProbeTime":null,"lastTransitionTime":"2026-08-07T05:54:51Z"}]}})",
    subresource::status);
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(s.resource_version(), before + 1);
  auto d = doc(*r);
  EXPECT_EQ(at(d, {"spec", "nodeName"}), nullptr);
  EXPECT_EQ(at(d, {"status", "nominatedNodeName"}), "n3");
  EXPECT_EQ(at(d, {"status", "phase"}), "Pending");
  EXPECT_EQ(at(d.at("status").at("conditions").at(0), {"reason"}),
            "Unschedulable");
  // metadata.uid is a precondition: the pod's own UID passes, another one
  // (a pod deleted and created again under the name) is a 409.
  EXPECT_TRUE(s.patch(pods(), "default", "p1", patch_type::strategic,
                      R"({"metadata":{"uid":")" + (*p)->uid()
                        + R"("},"status":{"nominatedNodeName":"n4"}})",
                      subresource::status));
  before = s.resource_version();
  for (auto sub : {subresource::status, subresource::main}) {
    auto stale = s.patch(
      pods(), "default", "p1", patch_type::strategic,
      R"({"metadata":{"uid":"an-earlier-pod"},"status":{"nominatedNodeName":"n5"}})",
      sub);
    ASSERT_FALSE(stale);
    EXPECT_EQ(stale.err().code, 409);
    EXPECT_NE(stale.err().message.find("Precondition failed: UID in "
                                       "precondition: an-earlier-pod"),
              std::string::npos)
      << stale.err().message;
  }
  EXPECT_EQ(s.resource_version(), before);
  auto cleared
    = s.patch(pods(), "default", "p1", patch_type::strategic,
              R"({"status":{"nominatedNodeName":null}})", subresource::status);
  ASSERT_TRUE(cleared);
  EXPECT_EQ(at(doc(*cleared), {"status", "nominatedNodeName"}), nullptr);
  // The main resource ignores status and refuses nodeName changes.
  auto spec_change
    = s.patch(pods(), "default", "p1", patch_type::merge,
              R"({"spec":{"nodeName":"n1"}})", subresource::main);
  ASSERT_FALSE(spec_change);
  EXPECT_EQ(spec_change.err().code, 422);
  auto status_ignored
    = s.patch(pods(), "default", "p1", patch_type::merge,
              R"({"status":{"phase":"Failed"}})", subresource::main);
  ASSERT_TRUE(status_ignored);
  EXPECT_EQ(at(doc(*status_ignored), {"status", "phase"}), "Pending");
}

TEST(Store, PodDeletion) {
  store s{quiet()};
  ASSERT_TRUE(s.create(pods(), "default", pod_json("unbound")));
  ASSERT_TRUE(
    s.create(pods(), "default", pod_json("bound", R"(,"nodeName":"n1")")));
  auto w = s.watch(pods(), "",
                   {.resource_version = std::to_string(s.resource_version())});
  ASSERT_TRUE(w);
  auto gone = s.remove(pods(), "default", "unbound");
  ASSERT_TRUE(gone);
  EXPECT_TRUE(gone->removed);
  EXPECT_EQ(gone->object->resource_version(), s.resource_version());
  auto graceful = s.remove(pods(), "default", "bound");
  ASSERT_TRUE(graceful);
  EXPECT_FALSE(graceful->removed);
  auto gd = doc(graceful->object);
  EXPECT_EQ(at(gd, {"metadata", "deletionGracePeriodSeconds"}), 30);
  EXPECT_TRUE(at(gd, {"metadata", "deletionTimestamp"}).is_string());
  EXPECT_TRUE(s.get(pods(), "default", "bound"));
  auto now = s.remove(pods(), "default", "bound", {.grace_period_seconds = 0});
  ASSERT_TRUE(now);
  EXPECT_TRUE(now->removed);
  auto events = drain(**w);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].type, event_type::deleted);
  EXPECT_EQ(events[0].object->name(), "unbound");
  EXPECT_EQ(events[1].type, event_type::modified);
  EXPECT_EQ(events[2].type, event_type::deleted);
  // DELETED carries the last state, with the deletion's RV.
  EXPECT_TRUE(
    at(doc(events[2].object), {"metadata", "deletionTimestamp"}).is_string());
  EXPECT_EQ(events[2].object->resource_version(), s.resource_version());
  auto pre = s.create(pods(), "default", pod_json("pre"));
  ASSERT_TRUE(pre);
  auto wrong = s.remove(pods(), "default", "pre", {.precondition_uid = "x"});
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.err().code, 409);
}

TEST(Store, WatchFromResourceVersionDeliversExactlyTheLaterEvents) {
  store s{quiet()};
  std::vector<std::uint64_t> rvs;
  for (int i = 0; i < 5; ++i) {
    auto p = s.create(pods(), "default", pod_json("p" + std::to_string(i)));
    ASSERT_TRUE(p);
    rvs.push_back((*p)->resource_version());
  }
  ASSERT_TRUE(s.create(nodes(), "", node_json("n1"))); // another kind
  auto w = s.watch(pods(), "", {.resource_version = std::to_string(rvs[1])});
  ASSERT_TRUE(w);
  ASSERT_TRUE(s.patch(pods(), "default", "p0", patch_type::merge,
                      R"({"metadata":{"labels":{"x":"y"}}})",
                      subresource::main));
  auto events = drain(**w);
  ASSERT_EQ(events.size(), 4u);
  std::uint64_t last = rvs[1];
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(events[i].type, event_type::added);
    EXPECT_EQ(events[i].object->resource_version(), rvs[i + 2]);
  }
  for (const auto& e : events) {
    EXPECT_GT(e.object->resource_version(), last);
    last = e.object->resource_version();
  }
  EXPECT_EQ(events[3].type, event_type::modified);
  // RV unset and "0": ADDED for every object, then changes.
  for (auto rv :
       {std::optional<std::string>{}, std::optional<std::string>{"0"}}) {
    auto all = s.watch(pods(), "default", {.resource_version = rv});
    ASSERT_TRUE(all);
    auto initial = drain(**all);
    ASSERT_EQ(initial.size(), 5u);
    for (const auto& e : initial)
      EXPECT_EQ(e.type, event_type::added);
  }
}

TEST(Store, WatchFromCompactedVersionIsGone) {
  auto cfg = quiet();
  cfg.history_size = 3;
  store s{cfg};
  for (int i = 0; i < 10; ++i)
    ASSERT_TRUE(s.create(pods(), "default", pod_json("p" + std::to_string(i))));
  auto oldest_ok = s.compacted_resource_version();
  EXPECT_EQ(oldest_ok, s.resource_version() - 3);
  auto ok
    = s.watch(pods(), "", {.resource_version = std::to_string(oldest_ok)});
  ASSERT_TRUE(ok);
  EXPECT_EQ(drain(**ok).size(), 3u);
  auto old
    = s.watch(pods(), "", {.resource_version = std::to_string(oldest_ok - 1)});
  ASSERT_TRUE(old);
  auto events = drain(**old);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, event_type::error);
  EXPECT_TRUE((*old)->ended());
  auto st = doc(events[0].object);
  EXPECT_EQ(at(st, {"code"}), 410);
  EXPECT_EQ(at(st, {"reason"}), "Expired");
  EXPECT_EQ(
    at(st, {"message"}),
    json::value("too old resource version: " + std::to_string(oldest_ok - 1)
                + " (" + std::to_string(oldest_ok) + ")"));
  auto too_new
    = s.watch(pods(), "",
              {.resource_version = std::to_string(s.resource_version() + 10)});
  ASSERT_FALSE(too_new);
  EXPECT_EQ(too_new.err().code, 504);
}

TEST(Store, SelectorTransitions) {
  store s{quiet()};
  ASSERT_TRUE(
    s.create(pods(), "default", pod_json("p1", R"(,"nodeName":"n1")")));
  auto phase_watch
    = s.watch(pods(), "",
              {.field_selector = "status.phase!=Succeeded,status.phase!=Failed",
               .resource_version = std::to_string(s.resource_version())});
  auto node_watch
    = s.watch(pods(), "",
              {.field_selector = "spec.nodeName=n2",
               .resource_version = std::to_string(s.resource_version())});
  ASSERT_TRUE(phase_watch);
  ASSERT_TRUE(node_watch);
  auto before = s.get(pods(), "default", "p1");
  auto done
    = s.patch(pods(), "default", "p1", patch_type::merge,
              R"({"status":{"phase":"Succeeded"}})", subresource::status);
  ASSERT_TRUE(done);
  auto events = drain(**phase_watch);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, event_type::deleted);
  // Old content, new resourceVersion.
  EXPECT_EQ(at(doc(events[0].object), {"status", "phase"}), "Pending");
  EXPECT_EQ(events[0].object->resource_version(), (*done)->resource_version());
  EXPECT_TRUE(drain(**node_watch).empty());
  // Start matching: a pod bound to n2 appears as ADDED.
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p2")));
  ASSERT_TRUE(s.bind({.ns = "default", .name = "p2", .node = "n2"}));
  auto added = drain(**node_watch);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].type, event_type::added);
  EXPECT_EQ(added[0].object->name(), "p2");
}

TEST(Store, BookmarksComeOnlyAfterEverythingWasPolled) {
  store s{quiet()};
  auto w = s.watch(pods(), "",
                   {.resource_version = std::to_string(s.resource_version()),
                    .allow_bookmarks = true});
  ASSERT_TRUE(w);
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p1")));
  ASSERT_TRUE(s.create(nodes(), "", node_json("n1")));
  EXPECT_FALSE((*w)->bookmark()) << "events are pending";
  auto events = drain(**w);
  ASSERT_EQ(events.size(), 1u);
  auto bm = (*w)->bookmark();
  ASSERT_TRUE(bm);
  EXPECT_EQ(bm->type, event_type::bookmark);
  EXPECT_EQ(bm->object->resource_version(), s.resource_version());
  EXPECT_GE(bm->object->resource_version(),
            events[0].object->resource_version());
  EXPECT_EQ(at(doc(bm->object), {"kind"}), "Pod");
}

TEST(Store, BusyPollLeavesTheWakeUpDisarmedUntilNothingIsPending) {
  store s{quiet()};
  auto w = s.watch(pods(), "",
                   {.resource_version = std::to_string(s.resource_version())});
  ASSERT_TRUE(w);
  int wakes = 0;
  (*w)->set_notify([&] { ++wakes; });
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p1")));
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p2")));
  EXPECT_EQ(wakes, 1) << "one wake-up until the consumer polls";
  std::vector<watch_event> got;
  EXPECT_EQ((*w)->poll_busy(got, 10), 2u);
  // The consumer promised to come back: writes meanwhile wake nobody.
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p3")));
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ((*w)->poll_busy(got, 10), 1u);
  // A poll that finds nothing re-arms it.
  EXPECT_EQ((*w)->poll_busy(got, 10), 0u);
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p4")));
  EXPECT_EQ(wakes, 2);
  // The plain poll re-arms even when it returns events.
  EXPECT_EQ((*w)->poll(got), 1u);
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p5")));
  EXPECT_EQ(wakes, 3);
  ASSERT_EQ(got.size(), 4u);
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i].object->name(), "p" + std::to_string(i + 1));
}

TEST(Store, WatchListSendsStateThenEndMarker) {
  store s{quiet()};
  ASSERT_TRUE(s.create(pods(), "default", pod_json("a")));
  ASSERT_TRUE(s.create(pods(), "default", pod_json("b")));
  auto w = s.watch(pods(), "",
                   {.resource_version_match = "NotOlderThan",
                    .send_initial_events = true,
                    .allow_bookmarks = true});
  ASSERT_TRUE(w) << w.err().message;
  ASSERT_TRUE(s.create(pods(), "default", pod_json("c")));
  auto events = drain(**w);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].type, event_type::added);
  EXPECT_EQ(events[1].type, event_type::added);
  EXPECT_EQ(events[2].type, event_type::bookmark);
  EXPECT_EQ(at(doc(events[2].object),
               {"metadata", "annotations", "k8s.io/initial-events-end"}),
            "true");
  EXPECT_EQ(events[2].object->resource_version(),
            events[3].object->resource_version() - 1);
  EXPECT_EQ(events[3].object->name(), "c");
  auto missing_match = s.watch(pods(), "", {.send_initial_events = true});
  ASSERT_FALSE(missing_match);
  EXPECT_EQ(missing_match.err().code, 422);

  auto cfg = quiet();
  cfg.refuse_watch_list = true;
  store refusing{cfg};
  auto refused = refusing.watch(pods(), "",
                                {.resource_version_match = "NotOlderThan",
                                 .send_initial_events = true,
                                 .allow_bookmarks = true});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, 422);
  EXPECT_EQ(
    refused.err().message,
    R"(ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled)");
}

TEST(Store, PaginationIsConsistentUnderWrites) {
  store s{quiet()};
  for (int i = 0; i < 25; ++i)
    ASSERT_TRUE(
      s.create(pods(), "default", pod_json("p" + std::to_string(100 + i))));
  std::set<std::string> seen;
  list_options opts{.limit = 7};
  auto first = s.list(pods(), "default", opts);
  ASSERT_TRUE(first);
  auto snapshot_rv = first->resource_version;
  EXPECT_EQ(first->remaining_item_count, 18);
  for (const auto& o : first->items)
    EXPECT_TRUE(seen.insert(std::string{o->name()}).second);
  std::string token = first->continue_token;
  int pages = 1;
  while (!token.empty()) {
    // Concurrent writes must not show up in later pages.
    ASSERT_TRUE(
      s.create(pods(), "default", pod_json("new" + std::to_string(pages))));
    ASSERT_TRUE(s.remove(pods(), "default", "p" + std::to_string(100 + pages)));
    auto page
      = s.list(pods(), "default", {.limit = 7, .continue_token = token});
    ASSERT_TRUE(page) << page.err().message;
    EXPECT_EQ(page->resource_version, snapshot_rv);
    for (const auto& o : page->items)
      EXPECT_TRUE(seen.insert(std::string{o->name()}).second) << o->name();
    token = page->continue_token;
    ++pages;
  }
  EXPECT_EQ(pages, 4);
  EXPECT_EQ(seen.size(), 25u);
  auto bad = s.list(pods(), "default", {.limit = 7, .continue_token = "!!"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().code, 400);
  // resourceVersion=0 ignores limit, as the watch cache does.
  auto all = s.list(pods(), "default", {.limit = 7, .resource_version = "0"});
  ASSERT_TRUE(all);
  EXPECT_TRUE(all->continue_token.empty());
  EXPECT_EQ(all->items.size(), 25u);
  // An exact list at an old RV sees the old state.
  auto exact = s.list(pods(), "default",
                      {.resource_version = std::to_string(snapshot_rv),
                       .resource_version_match = "Exact"});
  ASSERT_TRUE(exact) << exact.err().message;
  EXPECT_EQ(exact->items.size(), 25u);
  EXPECT_EQ(exact->resource_version, snapshot_rv);
}

TEST(Store, EventsAreReadableThroughBothApis) {
  store s{quiet()};
  auto created = s.create(
    v1_events(), "default",
    R"({"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"p1.17"},"eventTime":"2026-08-07T05:54:51.123456Z","reportingController":"default-scheduler","reportingInstance":"default-scheduler-h","action":"Scheduling","reason":"FailedScheduling","regarding":{"kind":"Pod","namespace":"default","name":"p1","uid":"u1","apiVersion":"v1"},"note":"0/3 nodes are available","type":"Warning"})");
  ASSERT_TRUE(created) << created.err().message;
  EXPECT_EQ(at(doc(*created), {"apiVersion"}), "events.k8s.io/v1");
  EXPECT_EQ(at(doc(*created), {"regarding", "name"}), "p1");
  auto core
    = s.list(core_events(), "default",
             {.field_selector = "involvedObject.uid=u1,involvedObject.name=p1,"
                                "involvedObject.namespace=default"});
  ASSERT_TRUE(core) << core.err().message;
  ASSERT_EQ(core->items.size(), 1u);
  auto d = doc(core->items[0]);
  EXPECT_EQ(at(d, {"apiVersion"}), "v1");
  EXPECT_EQ(at(d, {"message"}), "0/3 nodes are available");
  EXPECT_EQ(at(d, {"reportingComponent"}), "default-scheduler");
  EXPECT_EQ(at(d, {"involvedObject", "kind"}), "Pod");
  // A series patch through events.k8s.io lands in the shared storage.
  auto patched = s.patch(
    v1_events(), "default", "p1.17", patch_type::strategic,
    R"({"series":{"count":2,"lastObservedTime":"2026-08-07T05:55:51.000000Z"}})",
    subresource::main);
  ASSERT_TRUE(patched) << patched.err().message;
  auto again = s.get(core_events(), "default", "p1.17");
  ASSERT_TRUE(again);
  EXPECT_EQ(at(doc(*again), {"series", "count"}), 2);
}

TEST(Store, SlowWatcherIsDroppedWithoutStallingOthers) {
  store s{quiet()};
  auto slow = s.watch(pods(), "",
                      {.resource_version = std::to_string(s.resource_version()),
                       .queue_limit = 5});
  auto fast = s.watch(
    pods(), "", {.resource_version = std::to_string(s.resource_version())});
  ASSERT_TRUE(slow);
  ASSERT_TRUE(fast);
  std::size_t fast_seen = 0;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(s.create(pods(), "default", pod_json("p" + std::to_string(i))));
    fast_seen += drain(**fast).size();
  }
  EXPECT_EQ(fast_seen, 20u);
  EXPECT_TRUE((*slow)->ended());
  auto events = drain(**slow);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, event_type::error);
  EXPECT_EQ(at(doc(events[0].object), {"code"}), 500);
  EXPECT_EQ(s.stats().watchers_dropped, 1u);
}

TEST(Store, RestartedStoreNeverReusesResourceVersions) {
  std::uint64_t last = 0;
  {
    store first{store_config{}};
    ASSERT_TRUE(first.create(pods(), "default", pod_json("p1")));
    last = first.resource_version();
  }
  store second{store_config{}};
  EXPECT_GT(second.compacted_resource_version(), last);
  auto w = second.watch(pods(), "", {.resource_version = std::to_string(last)});
  ASSERT_TRUE(w);
  auto events = drain(**w);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, event_type::error) << "an old RV is 410";
}

TEST(Store, EventsAreARing) {
  auto cfg = quiet();
  cfg.event_limit = 3;
  store s{cfg};
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(s.create(
      core_events(), "default",
      R"({"metadata":{"name":"e)" + std::to_string(i)
        + R"("},"involvedObject":{"kind":"Pod","name":"p"},"reason":"R","message":"m"})"));
  auto l = s.list(core_events(), "default");
  ASSERT_TRUE(l);
  ASSERT_EQ(l->items.size(), 3u);
  EXPECT_EQ(l->items[0]->name(), "e2");
}

TEST(Store, RecordsPodTimings) {
  store s{quiet()};
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p1")));
  ASSERT_TRUE(s.bind({.ns = "default", .name = "p1", .node = "n1"}));
  ASSERT_TRUE(s.patch(pods(), "default", "p1", patch_type::merge,
                      R"({"status":{"phase":"Running"}})",
                      subresource::status));
  auto t = s.timing("default", "p1");
  ASSERT_TRUE(t);
  ASSERT_TRUE(t->created && t->bound && t->running);
  EXPECT_LE(*t->created, *t->bound);
  EXPECT_LE(*t->bound, *t->running);
  EXPECT_EQ(s.timings().size(), 1u);
  s.clear_timings();
  EXPECT_FALSE(s.timing("default", "p1"));
}

// Pods are decoded for each reader and not kept (the reader holds its
// copy); other kinds are decoded once and shared.
TEST(Store, DecodesPodsPerReadAndOtherKindsOnce) {
  store s{quiet()};
  auto p = s.create(pods(), "default", pod_json("p1"));
  ASSERT_TRUE(p);
  auto m = (*p)->to_model();
  ASSERT_TRUE(m) << m.err().message;
  ASSERT_EQ(model::kind_of(*m), model::object_kind::pod);
  std::weak_ptr<const model::pod> pod = std::get<model::pod_ptr>(*m);
  EXPECT_EQ(pod.lock()->name, "p1");
  m = (*p)->to_model();
  ASSERT_TRUE(m);
  EXPECT_TRUE(pod.expired()) << "the store kept a decoded pod";
  EXPECT_EQ(std::get<model::pod_ptr>(*m)->name, "p1");
  auto n = s.create(nodes(), "", R"({"metadata":{"name":"n1"}})");
  ASSERT_TRUE(n);
  auto node = (*n)->to_model();
  ASSERT_TRUE(node) << node.err().message;
  auto node_again = (*n)->to_model();
  ASSERT_TRUE(node_again);
  EXPECT_EQ(std::get<model::node_ptr>(*node_again),
            std::get<model::node_ptr>(*node))
    << "decoded once, shared";
  auto lease = s.create(leases(), "default", R"({"metadata":{"name":"l"}})");
  ASSERT_TRUE(lease);
  EXPECT_FALSE((*lease)->to_model());
}

/// Polls `cond` until true or ~5 s passed.
template <class F> bool eventually(F cond) {
  for (int i = 0; i < 500; ++i) {
    if (cond())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(Kwok, FakeNodesRunPods) {
  store s{quiet()};
  kwok_controller kwok{s, {}};
  // A fake node created without status gets initialized.
  ASSERT_TRUE(s.create(
    nodes(), "",
    R"({"metadata":{"name":"fake1","annotations":{"kwok.x-k8s.io/node":"fake"}},"spec":{"podCIDR":"10.9.0.0/24"}})"));
  ASSERT_TRUE(eventually([&] {
    auto n = s.get(nodes(), "", "fake1");
    return n && at(doc(*n), {"status", "conditions"}).is_array();
  }));
  auto n = s.get(nodes(), "", "fake1");
  EXPECT_EQ(at(doc(*n), {"status", "allocatable", "cpu"}), "32");
  // A bound pod turns Running with an IP from the node's CIDR.
  ASSERT_TRUE(s.create(pods(), "default", pod_json("p1")));
  ASSERT_TRUE(s.bind({.ns = "default", .name = "p1", .node = "fake1"}));
  ASSERT_TRUE(eventually([&] {
    auto p = s.get(pods(), "default", "p1");
    return p && at(doc(*p), {"status", "phase"}) == "Running";
  }));
  auto p = s.get(pods(), "default", "p1");
  auto ip = at(doc(*p), {"status", "podIP"});
  ASSERT_TRUE(ip.is_string());
  EXPECT_EQ(std::string{ip.as_string()}.rfind("10.9.0.", 0), 0u);
  // A Job pod completes.
  ASSERT_TRUE(s.create(
    pods(), "default",
    pod_json(
      "job", "",
      R"(,"ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":"j","uid":"u"}])")));
  ASSERT_TRUE(s.bind({.ns = "default", .name = "job", .node = "fake1"}));
  ASSERT_TRUE(eventually([&] {
    auto j = s.get(pods(), "default", "job");
    return j && at(doc(*j), {"status", "phase"}) == "Succeeded";
  }));
  // A graceful delete completes at once.
  auto d = s.remove(pods(), "default", "p1");
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->removed);
  ASSERT_TRUE(eventually([&] { return !s.get(pods(), "default", "p1"); }));
  // Pods on a node that is not fake stay Pending.
  ASSERT_TRUE(s.create(nodes(), "", node_json("real")));
  ASSERT_TRUE(
    s.create(pods(), "default", pod_json("p2", R"(,"nodeName":"real")")));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(at(doc(*s.get(pods(), "default", "p2")), {"status", "phase"}),
            "Pending");
}

TEST(Kwok, GeneratedNodesLookLikeKwokctl) {
  store s{quiet()};
  ASSERT_FALSE(create_fake_nodes(s, 3, {.taint = true, .zones = 2}));
  auto l = s.list(nodes(), "");
  ASSERT_TRUE(l);
  ASSERT_EQ(l->items.size(), 3u);
  auto d = doc(l->items[2]);
  EXPECT_EQ(l->items[2]->name(), "node-000002");
  EXPECT_EQ(at(d, {"metadata", "annotations", "kwok.x-k8s.io/node"}), "fake");
  EXPECT_EQ(at(d, {"metadata", "labels", "topology.kubernetes.io/zone"}),
            "zone-0");
  EXPECT_EQ(at(d, {"spec", "podCIDR"}), "10.0.2.0/24");
  EXPECT_EQ(at(d, {"status", "allocatable", "cpu"}), "4");
  EXPECT_EQ(at(d, {"status", "allocatable", "memory"}), "32Gi");
  EXPECT_EQ(at(d.at("spec").at("taints").at(0), {"key"}), "kwok.x-k8s.io/node");
  EXPECT_EQ(at(d.at("status").at("addresses").at(0), {"address"}), "192.0.2.3");
}

} // namespace
} // namespace tessera::apiserver
