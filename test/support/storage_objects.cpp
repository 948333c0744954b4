// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/support/storage_objects.hpp"

#include "io/apiserver/resources.hpp"
#include "model/json_access.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <cstdlib>

namespace tessera::test {

namespace json = boost::json;

namespace {

const apiserver::resource_info& pvs() {
  return apiserver::primary_resource(
    apiserver::storage_kind::persistent_volume);
}
const apiserver::resource_info& pods() {
  return apiserver::primary_resource(apiserver::storage_kind::pod);
}
const apiserver::resource_info& pvcs() {
  return apiserver::primary_resource(
    apiserver::storage_kind::persistent_volume_claim);
}

std::string claim_json(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
    "metadata":{"name":")"
         + name + R"("},
    "spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"],
            "resources":{"requests":{"storage":"1Gi"}}}})";
}

void must(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "storage_objects: %s failed\n", what);
    std::abort();
  }
}

template <class T>
std::shared_ptr<const T> model_of(const apiserver::store& st,
                                  const apiserver::resource_info& r,
                                  std::string_view ns, std::string_view name) {
  auto o = st.get(r, ns, name);
  must(bool(o), "get");
  auto m = (*o)->to_model();
  must(bool(m), "decode");
  return std::get<std::shared_ptr<const T>>(*m);
}

json::value doc_of(const apiserver::store& st,
                   const apiserver::resource_info& r, std::string_view ns,
                   std::string_view name) {
  auto o = st.get(r, ns, name);
  return o ? json::parse((*o)->json()) : json::value{};
}

} // namespace

storage_objects::storage_objects(apiserver::store& st) : st_(st) {
  must(bool(st_.create(pvs(), "",
                       R"({"apiVersion":"v1","kind":"PersistentVolume",
            "metadata":{"name":"pv1"},
            "spec":{"capacity":{"storage":"1Gi"},
                    "accessModes":["ReadWriteOnce"],
                    "storageClassName":"local","local":{"path":"/mnt"}}})")),
       "create pv1");
  for (const char* name : {"static", "dynamic"})
    must(bool(st_.create(pvcs(), "default", claim_json(name))), "create claim");
  must(bool(st_.create(
         pods(), "default",
         R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},
            "spec":{"containers":[{"name":"c","image":"busybox"}],
                    "volumes":[
                      {"name":"a","persistentVolumeClaim":{"claimName":"static"}},
                      {"name":"b","persistentVolumeClaim":
                        {"claimName":"dynamic"}}]}})")),
       "create pod");
}

model::pod_ptr storage_objects::pod() const {
  return model_of<model::pod>(st_, pods(), "default", "web");
}

void storage_objects::remove_pod() {
  apiserver::delete_options now;
  now.grace_period_seconds = 0;
  must(bool(st_.remove(pods(), "default", "web", now)), "delete pod");
}

model::volume_binding_plan_ptr storage_objects::static_plan() const {
  auto p = std::make_shared<model::volume_binding_plan>();
  p->bindings.push_back(
    {model_of<model::persistent_volume_claim>(st_, pvcs(), "default", "static"),
     model_of<model::persistent_volume>(st_, pvs(), "", "pv1")});
  return p;
}

model::volume_binding_plan_ptr storage_objects::provision_plan() const {
  auto p = std::make_shared<model::volume_binding_plan>();
  p->provisions.push_back(model_of<model::persistent_volume_claim>(
    st_, pvcs(), "default", "dynamic"));
  return p;
}

void storage_objects::complete(const std::string& claim,
                               const std::string& volume) {
  json::object main{
    {"metadata",
     json::object{{"annotations",
                   json::object{{"pv.kubernetes.io/bind-completed", "yes"}}}}},
    {"spec", json::object{{"volumeName", volume}}}};
  must(bool(st_.patch(pvcs(), "default", claim, apiserver::patch_type::merge,
                      json::serialize(main), apiserver::subresource::main)),
       "complete claim");
  must(bool(st_.patch(pvcs(), "default", claim, apiserver::patch_type::merge,
                      R"({"status":{"phase":"Bound"}})",
                      apiserver::subresource::status)),
       "complete claim status");
}

void storage_objects::remove_claim(const std::string& claim) {
  must(bool(st_.remove(pvcs(), "default", claim)), "delete claim");
}

std::string storage_objects::claim_ref() const {
  auto doc = doc_of(st_, pvs(), "", "pv1");
  const auto* ref
    = model::object_at(model::object_at(doc.if_object(), "spec"), "claimRef");
  if (ref == nullptr)
    return {};
  return std::string{model::string_at(ref, "namespace")} + "/"
         + std::string{model::string_at(ref, "name")} + "/"
         + std::string{model::string_at(ref, "uid")};
}

std::string storage_objects::claim_annotation(const std::string& claim,
                                              const std::string& key) const {
  auto doc = doc_of(st_, pvcs(), "default", claim);
  const auto* ann = model::object_at(
    model::object_at(doc.if_object(), "metadata"), "annotations");
  return std::string{model::string_at(ann, key)};
}

std::future<error> bind_volumes(actors::cluster_sink& sink,
                                const model::pod_ptr& pod,
                                const model::volume_binding_plan_ptr& plan,
                                std::chrono::milliseconds timeout) {
  auto done = std::make_shared<std::promise<error>>();
  auto f = done->get_future();
  sink.bind_volumes(pod, model::symbol{"n1"}, plan, timeout,
                    [done](error e) { done->set_value(std::move(e)); });
  return f;
}

} // namespace tessera::test
