// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Decoding throughput of the list and watch responses a scheduler reads at
// start-up and while running: a 5,000-node NodeList, a 10,000-pod PodList
// and single pod watch events. The JSON is generated in-process and shaped
// like a real API server's output (managedFields, status, default
// tolerations, a service-account volume), so that the decoder skips as much
// unknown data as it would in a real cluster.
#include "model/decode.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using tessera::model::decode_list_json;
using tessera::model::decode_options;
using tessera::model::decode_watch_event_json;
using tessera::model::object_kind;

constexpr int node_count = 5000;
constexpr int pod_count = 10000;

/// A small deterministic generator (xorshift).
class rng {
public:
  explicit rng(std::uint64_t seed) : state_(seed) {
  }
  std::uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  int below(int n) {
    return static_cast<int>(next() % static_cast<std::uint64_t>(n));
  }

private:
  std::uint64_t state_;
};

std::string uid(rng& r) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 36; ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23)
      out += '-';
    else
      out += hex[r.below(16)];
  }
  return out;
}

std::string node_name(int i) {
  return "node-" + std::to_string(100000 + i).substr(1);
}

const char* const zones[] = {"us-east-1a", "us-east-1b", "us-east-1c"};
const char* const instance_types[]
  = {"m5.2xlarge", "m5.4xlarge", "c5.4xlarge", "r5.2xlarge"};
const char* const apps[] = {"checkout", "cart",     "search", "catalog",
                            "payments", "frontend", "ads",    "recommend"};

std::string make_node(int i, rng& r) {
  const std::string name = node_name(i);
  const int type = r.below(4);
  std::string j = R"({"metadata":{"name":")" + name + R"(","uid":")" + uid(r)
                  + R"(","resourceVersion":")" + std::to_string(1000 + i)
                  + R"(","creationTimestamp":"2026-08-01T10:00:00Z",)";
  j += R"("labels":{"beta.kubernetes.io/arch":"amd64",)"
       R"("beta.kubernetes.io/os":"linux","kubernetes.io/arch":"amd64",)"
       R"("kubernetes.io/hostname":")"
       + name + R"(","kubernetes.io/os":"linux",)"
       + R"("node.kubernetes.io/instance-type":")" + instance_types[type]
       + R"(","topology.kubernetes.io/region":"us-east-1",)"
       + R"("topology.kubernetes.io/zone":")" + zones[i % 3] + R"("},)";
  j += R"("annotations":{"node.alpha.kubernetes.io/ttl":"0",)"
       R"("volumes.kubernetes.io/controller-managed-attach-detach":"true"},)";
  j += R"("managedFields":[{"manager":"kubelet","operation":"Update",)"
       R"("apiVersion":"v1","time":"2026-08-01T10:00:00Z",)"
       R"("fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{)"
       R"(".":{},"f:kubernetes.io/hostname":{}}},"f:status":{)"
       R"("f:conditions":{"k:{\"type\":\"Ready\"}":{".":{}}}}}}]},)";
  j += R"("spec":{"providerID":"aws:///us-east-1a/i-0123456789abcdef0")";
  if (i % 10 == 0)
    j += R"(,"taints":[{"key":"dedicated","value":"batch",)"
         R"("effect":"NoSchedule"}])";
  if (i % 97 == 0)
    j += R"(,"unschedulable":true)";
  j += R"(},"status":{)";
  const int cpus[] = {8, 16, 16, 8};
  const int mem_gi[] = {32, 64, 32, 64};
  const std::string cpu = std::to_string(cpus[type]);
  const std::string mem = std::to_string(mem_gi[type] * 1024 * 1024) + "Ki";
  j += R"("capacity":{"cpu":")" + cpu
       + R"(","ephemeral-storage":"104845292Ki",)"
       + R"("hugepages-1Gi":"0","hugepages-2Mi":"0","memory":")" + mem
       + R"(","pods":"110"},)";
  j += R"("allocatable":{"cpu":")" + std::to_string(cpus[type] * 1000 - 80)
       + R"(m","ephemeral-storage":"96625420948","hugepages-1Gi":"0",)"
       + R"("hugepages-2Mi":"0","memory":")"
       + std::to_string(mem_gi[type] * 1024 * 1024 - 500000)
       + R"(Ki","pods":"110"},)";
  j += R"("conditions":[)";
  const char* const types[]
    = {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"};
  for (int c = 0; c < 4; ++c) {
    j += std::string{c > 0 ? "," : ""} + R"({"type":")" + types[c]
         + R"(","status":")" + (c == 3 ? "True" : "False")
         + R"(","lastHeartbeatTime":"2026-08-07T05:54:51Z",)"
         + R"("lastTransitionTime":"2026-08-01T10:00:00Z",)"
         + R"("reason":"KubeletReady","message":"kubelet is posting ready status"})";
  }
  j += R"(],"addresses":[{"type":"InternalIP","address":"10.0.)"
       + std::to_string(i / 250) + "." + std::to_string(i % 250)
       + R"("},{"type":"Hostname","address":")" + name + R"("}],)";
  j += R"("daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},)";
  j += R"("nodeInfo":{"machineID":"ec2","systemUUID":"ec2","bootID":"b",)"
       R"("kernelVersion":"6.1.0","osImage":"Debian GNU/Linux 12",)"
       R"("containerRuntimeVersion":"containerd://1.7.2",)"
       R"("kubeletVersion":"v1.33.0","kubeProxyVersion":"v1.33.0",)"
       R"("operatingSystem":"linux","architecture":"amd64"},)";
  j += R"("images":[)";
  const int images = 8 + r.below(8);
  for (int k = 0; k < images; ++k) {
    const std::string app = apps[(i + k) % 8];
    j += std::string{k > 0 ? "," : ""}
         + R"({"names":["registry.example.com/shop/)" + app
         + R"(@sha256:0123456789abcdef0123456789abcdef0123456789abcdef01234567)"
         + std::to_string(k % 10) + R"(","registry.example.com/shop/)" + app
         + ":v" + std::to_string(k % 5) + R"("],"sizeBytes":)"
         + std::to_string(20000000 + r.below(500000000)) + "}";
  }
  j += "]}}";
  return j;
}

std::string make_pod(int i, rng& r) {
  const std::string app = apps[i % 8];
  const std::string hash = "5d8f7c" + std::to_string(i % 50);
  const std::string name = app + "-" + hash + "-" + std::to_string(i);
  const std::string ns = "team-" + std::to_string(i % 20);
  const bool bound = i % 2 == 0;
  std::string j = R"({"metadata":{"name":")" + name + R"(","generateName":")"
                  + app + "-" + hash + R"(-","namespace":")" + ns
                  + R"(","uid":")" + uid(r) + R"(","resourceVersion":")"
                  + std::to_string(50000 + i)
                  + R"(","creationTimestamp":"2026-08-07T05:54:51Z",)";
  j += R"("labels":{"app":")" + app + R"(","pod-template-hash":")" + hash
       + R"(","tier":")" + (i % 3 == 0 ? "backend" : "frontend")
       + R"(","version":"v)" + std::to_string(i % 4) + R"("},)";
  j += R"("annotations":{"kubectl.kubernetes.io/restartedAt":)"
       R"("2026-08-07T05:00:00Z"},)";
  j += R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",)"
       R"("name":")"
       + app + "-" + hash + R"(","uid":")" + uid(r)
       + R"(","controller":true,"blockOwnerDeletion":true}],)";
  j += R"("managedFields":[{"manager":"kube-controller-manager",)"
       R"("operation":"Update","apiVersion":"v1",)"
       R"("time":"2026-08-07T05:54:51Z","fieldsType":"FieldsV1",)"
       R"("fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{)"
       R"(".":{},"f:app":{},"f:pod-template-hash":{}},"f:ownerReferences":{)"
       R"(".":{},"k:{\"uid\":\"x\"}":{}}},"f:spec":{"f:containers":{)"
       R"("k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:name":{},)"
       R"("f:resources":{".":{},"f:limits":{},"f:requests":{}}}}}}}]},)";
  j += R"("spec":{"volumes":[{"name":"kube-api-access-abcde","projected":{)"
       R"("sources":[{"serviceAccountToken":{"expirationSeconds":3607,)"
       R"("path":"token"}},{"configMap":{"name":"kube-root-ca.crt",)"
       R"("items":[{"key":"ca.crt","path":"ca.crt"}]}}],"defaultMode":420}})";
  if (i % 5 == 0)
    j += R"(,{"name":"data","persistentVolumeClaim":{"claimName":"data-)"
         + std::to_string(i) + R"("}})";
  j += R"(],"containers":[)";
  const int containers = 1 + (i % 4 == 0 ? 1 : 0);
  for (int c = 0; c < containers; ++c) {
    const std::string cname = c == 0 ? "app" : "sidecar";
    j += std::string{c > 0 ? "," : ""} + R"({"name":")" + cname
         + R"(","image":"registry.example.com/shop/)" + app + ":v"
         + std::to_string(i % 5) + R"(","ports":[{"name":"http",)"
         + R"("containerPort":8080,"protocol":"TCP"}],)"
         + R"("env":[{"name":"LOG_LEVEL","value":"info"},)"
         + R"({"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1",)"
         + R"("fieldPath":"metadata.name"}}}],)"
         + R"("resources":{"limits":{"cpu":")" + std::to_string(1 + r.below(2))
         + R"(","memory":")" + std::to_string(256 * (1 + r.below(4)))
         + R"(Mi"},)" + R"("requests":{"cpu":")"
         + std::to_string(100 * (1 + r.below(5))) + R"(m","memory":")"
         + std::to_string(128 * (1 + r.below(4))) + R"(Mi"}},)"
         + R"("volumeMounts":[{"name":"kube-api-access-abcde","readOnly":true,)"
         + R"("mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],)"
         + R"("terminationMessagePath":"/dev/termination-log",)"
         + R"("terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"})";
  }
  j += R"(],"restartPolicy":"Always","terminationGracePeriodSeconds":30,)"
       R"("dnsPolicy":"ClusterFirst","serviceAccountName":"default",)"
       R"("serviceAccount":"default",)";
  if (bound)
    j += R"("nodeName":")" + node_name(i % node_count) + R"(",)";
  j += R"("securityContext":{},"schedulerName":"default-scheduler",)";
  j += R"("tolerations":[{"key":"node.kubernetes.io/not-ready",)"
       R"("operator":"Exists","effect":"NoExecute","tolerationSeconds":300},)"
       R"({"key":"node.kubernetes.io/unreachable","operator":"Exists",)"
       R"("effect":"NoExecute","tolerationSeconds":300})";
  if (i % 10 == 0)
    j += R"(,{"key":"dedicated","operator":"Equal","value":"batch",)"
         R"("effect":"NoSchedule"})";
  j += "],";
  if (i % 7 == 0) {
    j += R"("affinity":{"nodeAffinity":{)"
         R"("requiredDuringSchedulingIgnoredDuringExecution":{)"
         R"("nodeSelectorTerms":[{"matchExpressions":[{)"
         R"("key":"topology.kubernetes.io/zone","operator":"In",)"
         R"("values":["us-east-1a","us-east-1b"]}]}]}},)"
         R"("podAntiAffinity":{)"
         R"("preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,)"
         R"("podAffinityTerm":{"labelSelector":{"matchLabels":{"app":")"
         + app + R"("}},"topologyKey":"kubernetes.io/hostname"}}]}},)";
  }
  if (i % 5 == 0) {
    j += R"("topologySpreadConstraints":[{"maxSkew":1,)"
         R"("topologyKey":"topology.kubernetes.io/zone",)"
         R"("whenUnsatisfiable":"ScheduleAnyway","labelSelector":{)"
         R"("matchLabels":{"app":")"
         + app + R"("}},"matchLabelKeys":["pod-template-hash"]}],)";
  }
  j += R"("priority":0,"enableServiceLinks":true,)"
       R"("preemptionPolicy":"PreemptLowerPriority"},)";
  if (bound) {
    j += R"("status":{"phase":"Running","conditions":[)"
         R"({"type":"Initialized","status":"True","lastProbeTime":null,)"
         R"("lastTransitionTime":"2026-08-07T05:54:52Z"},)"
         R"({"type":"Ready","status":"True","lastProbeTime":null,)"
         R"("lastTransitionTime":"2026-08-07T05:54:58Z"},)"
         R"({"type":"PodScheduled","status":"True","lastProbeTime":null,)"
         R"("lastTransitionTime":"2026-08-07T05:54:51Z"}],)"
         R"("hostIP":"10.0.1.7","podIP":"10.244.3.17",)"
         R"("podIPs":[{"ip":"10.244.3.17"}],)"
         R"("startTime":"2026-08-07T05:54:52Z","containerStatuses":[)"
         R"({"name":"app","state":{"running":{"startedAt":)"
         R"("2026-08-07T05:54:57Z"}},"lastState":{},"ready":true,)"
         R"("restartCount":0,"image":"registry.example.com/shop/app:v1",)"
         R"("imageID":"registry.example.com/shop/app@sha256:0123",)"
         R"("containerID":"containerd://0123456789abcdef","started":true}],)"
         R"("qosClass":"Burstable"}})";
  } else {
    j += R"("status":{"phase":"Pending","conditions":[{"type":"PodScheduled",)"
         R"("status":"False","lastProbeTime":null,)"
         R"("lastTransitionTime":"2026-08-07T05:54:51Z",)"
         R"("reason":"Unschedulable","message":"0/5000 nodes are available: )"
         R"(5000 Insufficient cpu."}],"qosClass":"Burstable"}})";
  }
  return j;
}

std::string make_list(const char* kind, int n, std::string (*item)(int, rng&)) {
  rng r{0x9E3779B97F4A7C15ull};
  std::string j
    = R"({"kind":")" + std::string{kind}
      + R"(","apiVersion":"v1","metadata":{"resourceVersion":"987654"},"items":[)";
  for (int i = 0; i < n; ++i) {
    if (i > 0)
      j += ',';
    j += item(i, r);
  }
  j += "]}";
  return j;
}

const std::string& node_list() {
  static const std::string json = make_list("NodeList", node_count, make_node);
  return json;
}

const std::string& pod_list() {
  static const std::string json = make_list("PodList", pod_count, make_pod);
  return json;
}

void run_list(benchmark::State& state, const std::string& json,
              std::size_t expected_items) {
  decode_options options;
  options.apply_defaults = false; // objects from an API server
  for (auto _ : state) {
    auto list = decode_list_json(json, std::nullopt, options);
    if (!list || list->items.size() != expected_items
        || !list->skipped.empty()) {
      state.SkipWithError(!list ? list.err().message.c_str()
                          : !list->skipped.empty()
                            ? list->skipped.front().message.c_str()
                            : "wrong item count");
      break;
    }
    benchmark::DoNotOptimize(list->items.data());
  }
  state.SetItemsProcessed(state.iterations()
                          * static_cast<std::int64_t>(expected_items));
  state.SetBytesProcessed(state.iterations()
                          * static_cast<std::int64_t>(json.size()));
  state.counters["item_bytes"]
    = static_cast<double>(json.size()) / static_cast<double>(expected_items);
}

void BM_DecodeNodeList(benchmark::State& state) {
  run_list(state, node_list(), node_count);
}
BENCHMARK(BM_DecodeNodeList)->Unit(benchmark::kMillisecond);

void BM_DecodePodList(benchmark::State& state) {
  run_list(state, pod_list(), pod_count);
}
BENCHMARK(BM_DecodePodList)->Unit(benchmark::kMillisecond);

/// One pod per watch event line, as a running scheduler sees them.
void BM_DecodePodWatchEvent(benchmark::State& state) {
  std::vector<std::string> lines;
  rng r{42};
  for (int i = 0; i < 256; ++i)
    lines.push_back(R"({"type":"MODIFIED","object":)" + make_pod(i, r) + "}");
  decode_options options;
  options.apply_defaults = false;
  std::size_t i = 0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    const std::string& line = lines[i++ % lines.size()];
    auto ev = decode_watch_event_json(line, object_kind::pod, options);
    if (!ev) {
      state.SkipWithError(ev.err().message.c_str());
      break;
    }
    bytes += static_cast<std::int64_t>(line.size());
    benchmark::DoNotOptimize(ev->obj);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_DecodePodWatchEvent)->Unit(benchmark::kMicrosecond);

} // namespace
