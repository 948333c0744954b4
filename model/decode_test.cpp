// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/decode.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::model {
namespace {

// --- rendering decoded objects ----------------------------------------------
//
// Decoded objects are compared through a line-per-item text that names every
// field with a non-default value, so a table can state exactly what a JSON
// document decodes to and a failure shows the difference in words.

std::string quoted_if_empty(std::string_view s) {
  return s.empty() ? std::string{"\"\""} : std::string{s};
}

std::string render(const label_set& labels) {
  std::vector<std::string> pairs;
  for (const auto& l : labels)
    pairs.push_back(std::string{l.key.view()} + "="
                    + std::string{l.value.view()});
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const auto& p : pairs)
    out += (out.empty() ? "" : " ") + p;
  return out;
}

std::string render(const label_selector& s) {
  if (s.is_nothing())
    return "<none>";
  if (s.is_everything())
    return "<all>";
  return s.to_string();
}

std::string render(const std::vector<symbol>& symbols) {
  std::string out;
  for (auto s : symbols)
    out += (out.empty() ? "" : ",") + std::string{s.view()};
  return out;
}

std::string render(const std::vector<std::string>& texts) {
  std::string out;
  for (const auto& s : texts)
    out += (out.empty() ? "" : ",") + s;
  return out;
}

std::string render(const resource_list& r) {
  return test::describe(r);
}

std::string render(const node_selector_requirement& r, bool field) {
  static constexpr std::string_view ops[]
    = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
  std::string out = field ? "field " : "";
  out += r.key.view();
  out += ' ';
  out += ops[static_cast<int>(r.oper)];
  if (r.oper == node_selector_requirement::op::gt
      || r.oper == node_selector_requirement::op::lt) {
    out += ' ' + std::to_string(r.number);
  } else if (!r.values.empty()) {
    out += " (";
    for (std::size_t i = 0; i < r.values.size(); ++i)
      out += (i > 0 ? "," : "") + std::string{r.values[i].view()};
    out += ')';
  }
  return out;
}

std::string render(const node_selector_term& t) {
  std::string out;
  for (const auto& r : t.match_expressions)
    out += (out.empty() ? "" : " && ") + render(r, false);
  for (const auto& r : t.match_fields)
    out += (out.empty() ? "" : " && ") + render(r, true);
  return out.empty() ? "<empty>" : out;
}

std::string render(const pod_affinity_term& t) {
  std::string out = "selector=" + render(t.selector);
  out += " topologyKey=" + std::string{t.topology_key.view()};
  if (!t.namespaces.empty())
    out += " namespaces=" + render(t.namespaces);
  if (t.namespace_selector)
    out += " nsSelector=" + render(*t.namespace_selector);
  if (!t.match_label_keys.empty())
    out += " matchLabelKeys=" + render(t.match_label_keys);
  if (!t.mismatch_label_keys.empty())
    out += " mismatchLabelKeys=" + render(t.mismatch_label_keys);
  return out;
}

void render_pod_affinity(std::vector<std::string>& lines, std::string_view name,
                         const pod_affinity& a) {
  for (const auto& t : a.required)
    lines.push_back(std::string{name} + " required: " + render(t));
  for (const auto& w : a.preferred)
    lines.push_back(std::string{name} + " preferred " + std::to_string(w.weight)
                    + ": " + render(w.term));
}

std::string render(const toleration& t) {
  std::string out = "toleration " + quoted_if_empty(t.key.view());
  if (t.oper == toleration::op::exists)
    out += " Exists";
  else
    out += " Equal " + quoted_if_empty(t.value.view());
  out += " effect=";
  out += t.effect ? std::string{to_string(*t.effect)} : std::string{"*"};
  if (t.toleration_seconds)
    out += " seconds=" + std::to_string(*t.toleration_seconds);
  return out;
}

std::string render(const topology_spread_constraint& c) {
  using tsc = topology_spread_constraint;
  auto policy = [](tsc::inclusion_policy p) {
    return p == tsc::inclusion_policy::honor ? "Honor" : "Ignore";
  };
  std::string out = "spread " + std::string{c.topology_key.view()};
  out += " maxSkew=" + std::to_string(c.max_skew);
  out += c.action == tsc::when_unsatisfiable::do_not_schedule
           ? " DoNotSchedule"
           : " ScheduleAnyway";
  out += " selector=" + render(c.selector);
  out += " minDomains=" + std::to_string(c.min_domains);
  if (c.min_domains_set)
    out += " explicit";
  out += std::string{" nodeAffinityPolicy="} + policy(c.node_affinity_policy);
  out += std::string{" nodeTaintsPolicy="} + policy(c.node_taints_policy);
  if (!c.match_label_keys.empty())
    out += " matchLabelKeys=" + render(c.match_label_keys);
  return out;
}

std::string render(std::string_view what, const container& c) {
  std::string out = std::string{what} + " " + c.name;
  if (!c.image.empty())
    out += " image=" + c.image;
  out += " requests=" + render(c.requests);
  if (c.has_cpu_request)
    out += " has-cpu";
  if (c.has_memory_request)
    out += " has-memory";
  if (!c.host_ports.empty()) {
    out += " ports=";
    for (std::size_t i = 0; i < c.host_ports.size(); ++i) {
      const auto& p = c.host_ports[i];
      out += (i > 0 ? "," : "") + std::string{p.protocol.view()} + "/"
             + std::string{p.ip.view()} + ":" + std::to_string(p.port);
    }
  }
  if (c.restartable)
    out += " restartable";
  return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines)
    out += l + "\n";
  return out;
}

std::string render(const pod& p) {
  std::vector<std::string> lines;
  std::string head = "pod " + std::string{p.ns.view()} + "/" + p.name;
  if (!p.uid.empty())
    head += " uid=" + p.uid;
  if (!p.resource_version.empty())
    head += " rv=" + p.resource_version;
  if (p.creation_unix != 0)
    head += " created=" + std::to_string(p.creation_unix);
  if (p.generation != 0)
    head += " generation=" + std::to_string(p.generation);
  if (p.deleting)
    head += " deleting";
  lines.push_back(head);
  if (!p.labels.empty())
    lines.push_back("labels " + render(p.labels));
  for (const auto& o : p.owners)
    lines.push_back("owner " + o.kind + "/" + o.name + " uid=" + o.uid
                    + (o.controller ? " controller" : ""));
  if (!p.scheduler_name.empty())
    lines.push_back("scheduler " + std::string{p.scheduler_name.view()});
  if (!p.priority_class_name.empty())
    lines.push_back("priorityClass " + p.priority_class_name);
  if (p.priority != 0)
    lines.push_back("priority " + std::to_string(p.priority));
  if (p.preemption == preemption_policy::never)
    lines.push_back("preemption Never");
  if (!p.node_name.empty())
    lines.push_back("node " + std::string{p.node_name.view()});
  if (!p.scheduling_gates.empty())
    lines.push_back("gates " + render(p.scheduling_gates));
  if (!p.node_selector.empty())
    lines.push_back("nodeSelector " + render(p.node_selector));
  if (const auto& na = p.affinity->node) {
    if (na->required) {
      std::string terms;
      for (const auto& t : na->required->terms)
        terms += (terms.empty() ? "" : " | ") + render(t);
      lines.push_back("nodeAffinity required: " + terms);
    }
    for (const auto& pt : na->preferred)
      lines.push_back("nodeAffinity preferred " + std::to_string(pt.weight)
                      + ": " + render(pt.preference));
  }
  if (p.affinity->pod)
    render_pod_affinity(lines, "podAffinity", *p.affinity->pod);
  if (p.affinity->pod_anti)
    render_pod_affinity(lines, "podAntiAffinity", *p.affinity->pod_anti);
  for (const auto& t : p.tolerations)
    lines.push_back(render(t));
  for (const auto& c : p.topology_spread_constraints)
    lines.push_back(render(c));
  for (const auto& c : p.init_containers)
    lines.push_back(render("init", c));
  for (const auto& c : p.containers)
    lines.push_back(render("container", c));
  for (const auto& v : p.volumes)
    lines.push_back("volume " + v.name
                    + (v.type.empty() ? "" : " type=" + v.type)
                    + (v.claim_name.empty() ? "" : " claim=" + v.claim_name));
  if (!(*p.overhead == resource_list{}))
    lines.push_back("overhead " + render(*p.overhead));
  if (p.pod_level_requests)
    lines.push_back("podRequests " + render(*p.pod_level_requests));
  if (p.phase != pod_phase::pending)
    lines.push_back("phase " + std::string{to_string(p.phase)});
  if (!p.nominated_node_name.empty())
    lines.push_back("nominated " + std::string{p.nominated_node_name.view()});
  if (p.start_unix)
    lines.push_back("started " + std::to_string(*p.start_unix));
  if (const auto& c = p.scheduled_condition)
    lines.push_back("scheduled status=" + c->status + " reason=" + c->reason
                    + " message=\"" + c->message + "\"");
  lines.push_back("requests " + render(p.requests));
  return join_lines(lines);
}

std::string render(const node& n) {
  std::vector<std::string> lines;
  std::string head = "node " + std::string{n.name.view()};
  if (!n.uid.empty())
    head += " uid=" + n.uid;
  if (!n.resource_version.empty())
    head += " rv=" + n.resource_version;
  if (n.creation_unix != 0)
    head += " created=" + std::to_string(n.creation_unix);
  lines.push_back(head);
  if (!n.labels.empty())
    lines.push_back("labels " + render(n.labels));
  for (const auto& t : n.taints)
    lines.push_back("taint " + std::string{t.key.view()} + "="
                    + std::string{t.value.view()} + ":"
                    + std::string{to_string(t.effect)});
  if (n.unschedulable)
    lines.push_back("unschedulable");
  lines.push_back("capacity " + render(n.capacity));
  lines.push_back("allocatable " + render(n.allocatable));
  for (const auto& i : n.images)
    lines.push_back("image " + render(i.names)
                    + " size=" + std::to_string(i.size_bytes));
  for (const auto& c : n.conditions)
    lines.push_back("condition " + std::string{c.type.view()} + "="
                    + std::string{c.status.view()});
  if (!n.declared_features.empty()) {
    std::vector<std::string> features;
    for (auto f : n.declared_features)
      features.emplace_back(f.view());
    std::sort(features.begin(), features.end());
    std::string line = "declared";
    for (const auto& f : features)
      line += " " + f;
    lines.push_back(line);
  }
  return join_lines(lines);
}

std::string render(const int_or_percent& v) {
  return std::to_string(v.value) + (v.percent ? "%" : "");
}

std::string render(const object& o) {
  struct visitor {
    std::string operator()(const pod_ptr& p) const {
      return render(*p);
    }
    std::string operator()(const node_ptr& n) const {
      return render(*n);
    }
    std::string operator()(const namespace_ptr& ns) const {
      std::string out = "namespace " + std::string{ns->name.view()};
      if (!ns->uid.empty())
        out += " uid=" + ns->uid;
      if (!ns->resource_version.empty())
        out += " rv=" + ns->resource_version;
      if (ns->terminating)
        out += " terminating";
      out += "\n";
      if (!ns->labels.empty())
        out += "labels " + render(ns->labels) + "\n";
      return out;
    }
    std::string operator()(const priority_class_ptr& pc) const {
      std::string out = "priorityclass " + pc->name;
      if (!pc->resource_version.empty())
        out += " rv=" + pc->resource_version;
      out += " value=" + std::to_string(pc->value);
      if (pc->global_default)
        out += " globalDefault";
      if (pc->preemption == preemption_policy::never)
        out += " preemption=Never";
      return out + "\n";
    }
    std::string operator()(const disruption_budget_ptr& b) const {
      std::string out = "pdb " + std::string{b->ns.view()} + "/" + b->name;
      if (!b->uid.empty())
        out += " uid=" + b->uid;
      if (!b->resource_version.empty())
        out += " rv=" + b->resource_version;
      out += " selector=" + render(b->selector);
      if (b->min_available)
        out += " minAvailable=" + render(*b->min_available);
      if (b->max_unavailable)
        out += " maxUnavailable=" + render(*b->max_unavailable);
      if (b->disruptions_allowed)
        out += " disruptionsAllowed=" + std::to_string(*b->disruptions_allowed);
      if (!b->disrupted_pods.empty())
        out += " disruptedPods=" + render(b->disrupted_pods);
      return out + "\n";
    }
    std::string operator()(const workload_ptr& w) const {
      std::string out = std::string{to_string(kind_of(w->kind))} + " "
                        + std::string{w->ns.view()} + "/" + w->name;
      if (!w->resource_version.empty())
        out += " rv=" + w->resource_version;
      if (w->kind == workload_kind::service
          || w->kind == workload_kind::replication_controller)
        out += " selector=" + render(w->selector_map);
      else
        out += " selector=" + render(w->selector);
      return out + "\n";
    }
  };
  return std::visit(
    [](const auto& x) -> std::string {
      if constexpr (requires { visitor{}(x); })
        return visitor{}(x);
      else // storage objects have their own tests
        return "storage\n";
    },
    o);
}

/// "Pod default/web", "Node n1", ...: an object's kind and key.
std::string name_of(const object& o) {
  struct visitor {
    std::string operator()(const pod_ptr& p) const {
      return "Pod " + p->key();
    }
    std::string operator()(const node_ptr& n) const {
      return "Node " + std::string{n->name.view()};
    }
    std::string operator()(const namespace_ptr& ns) const {
      return "Namespace " + std::string{ns->name.view()};
    }
    std::string operator()(const priority_class_ptr& pc) const {
      return "PriorityClass " + pc->name;
    }
    std::string operator()(const disruption_budget_ptr& b) const {
      return "PodDisruptionBudget " + std::string{b->ns.view()} + "/" + b->name;
    }
    std::string operator()(const workload_ptr& w) const {
      return std::string{to_string(kind_of(w->kind))} + " "
             + std::string{w->ns.view()} + "/" + w->name;
    }
  };
  return std::visit(
    [](const auto& x) -> std::string {
      if constexpr (requires { visitor{}(x); })
        return visitor{}(x);
      else
        return "storage";
    },
    o);
}

std::vector<std::string> names_of(const std::vector<object>& objects) {
  std::vector<std::string> out;
  for (const auto& o : objects)
    out.push_back(name_of(o));
  return out;
}

std::vector<std::string> messages_of(const std::vector<error>& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors)
    out.push_back(e.message);
  return out;
}

decode_options with_defaults(bool on) {
  decode_options o;
  o.apply_defaults = on;
  return o;
}

// --- pods --------------------------------------------------------------------

struct object_case {
  std::string name;
  std::string json;
  bool defaults = true;
  std::string want;
};

TEST(DecodePod, DecodesEveryField) {
  const std::vector<object_case> cases = {
    {"minimal, defaults applied",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"}})", true,
     "pod default/web\n"
     "scheduler default-scheduler\n"
     "requests {}\n"},
    {"minimal, no defaults",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"}})", false,
     "pod default/web\n"
     "requests {}\n"},
    {"nulls read as absent fields",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web",
         "creationTimestamp":null,"labels":null},
         "spec":{"containers":null,"nodeName":null},"status":{}})",
     false,
     "pod default/web\n"
     "requests {}\n"},
    {"metadata",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1",
         "namespace":"shop","uid":"u-1","resourceVersion":"42",
         "creationTimestamp":"2026-08-07T07:54:51.123+02:00","generation":3,
         "labels":{"app":"web","app.kubernetes.io/name":"shop"},
         "annotations":{"note":"ignored"},
         "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",
           "name":"web-abc","uid":"rs-1","controller":true},
           {"kind":"Foo","name":"f","uid":"f-1"}],
         "deletionTimestamp":"2026-08-07T06:00:00Z"}})",
     true,
     "pod shop/web-1 uid=u-1 rv=42 created=1786082091 generation=3 deleting\n"
     "labels app.kubernetes.io/name=shop app=web\n"
     "owner ReplicaSet/web-abc uid=rs-1 controller\n"
     "owner Foo/f uid=f-1\n"
     "scheduler default-scheduler\n"
     "requests {}\n"},
    {"scheduling fields",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",
         "namespace":"ns1"},"spec":{"schedulerName":"my-scheduler",
         "priorityClassName":"high","priority":1000,
         "preemptionPolicy":"Never","nodeName":"n1",
         "schedulingGates":[{"name":"a"},{"name":"b"}],
         "nodeSelector":{"disk":"ssd","zone":"z1"},
         "restartPolicy":"Always","unknownField":{"x":[1,2]}}})",
     true,
     "pod ns1/p\n"
     "scheduler my-scheduler\n"
     "priorityClass high\n"
     "priority 1000\n"
     "preemption Never\n"
     "node n1\n"
     "gates a,b\n"
     "nodeSelector disk=ssd zone=z1\n"
     "requests {}\n"},
    {"containers, limits copied into missing requests",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"containers":[
          {"name":"app","image":"nginx:1.25","resources":{
            "requests":{"cpu":"250m","memory":"64Mi","example.com/gpu":"1",
                        "storage":"1Gi"},
            "limits":{"cpu":"1","memory":"128Mi","ephemeral-storage":"2Gi"}},
           "ports":[{"containerPort":8080},
                    {"containerPort":80,"hostPort":8080},
                    {"containerPort":53,"hostPort":53,"hostIP":"10.0.0.1",
                     "protocol":"UDP"}]},
          {"name":"side","image":"busybox",
           "resources":{"limits":{"cpu":2,"memory":0.5}}}]}})",
     true,
     "pod default/p\n"
     "scheduler default-scheduler\n"
     "container app image=nginx:1.25 requests=cpu=250m memory=67108864 "
     "ephemeral-storage=2147483648 example.com/gpu=1 has-cpu has-memory "
     "ports=TCP/0.0.0.0:8080,UDP/10.0.0.1:53\n"
     "container side image=busybox requests=cpu=2000m memory=1 has-cpu "
     "has-memory\n"
     "requests cpu=2250m memory=67108865 ephemeral-storage=2147483648 "
     "example.com/gpu=1\n"},
    {"containers, limits left alone without defaults",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"containers":[
          {"name":"app","resources":{"requests":{"cpu":"250m"},
            "limits":{"cpu":"1","memory":"128Mi"}}},
          {"name":"side","resources":{"limits":{"cpu":2}}}]}})",
     false,
     "pod default/p\n"
     "container app requests=cpu=250m has-cpu\n"
     "container side requests={}\n"
     "requests cpu=250m\n"},
    {"explicit zero requests count as present",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"containers":[{"name":"c","resources":{
           "requests":{"cpu":"0","memory":0}}}]}})",
     true,
     "pod default/p\n"
     "scheduler default-scheduler\n"
     "container c requests={} has-cpu has-memory\n"
     "requests {}\n"},
    {"init containers and a sidecar",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"initContainers":[
           {"name":"init","image":"busybox",
            "resources":{"requests":{"cpu":"2"}}},
           {"name":"proxy","image":"envoy","restartPolicy":"Always",
            "resources":{"requests":{"cpu":"100m"}},
            "ports":[{"containerPort":15001,"hostPort":15001}]}],
          "containers":[{"name":"app","image":"app",
            "resources":{"requests":{"cpu":"500m"}}}]}})",
     true,
     "pod default/p\n"
     "scheduler default-scheduler\n"
     "init init image=busybox requests=cpu=2000m has-cpu\n"
     "init proxy image=envoy requests=cpu=100m has-cpu "
     "ports=TCP/0.0.0.0:15001 restartable\n"
     "container app image=app requests=cpu=500m has-cpu\n"
     "requests cpu=2000m\n"},
    {"restartPolicy Always makes no sidecar of a regular container",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"containers":[{"name":"c","restartPolicy":"Always"}]}})",
     false,
     "pod default/p\n"
     "container c requests={}\n"
     "requests {}\n"},
    {"host network: container ports become host ports",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"hostNetwork":true,"containers":[{"name":"c",
           "ports":[{"containerPort":9100},
                    {"containerPort":9200,"hostPort":9201}]}]}})",
     true,
     "pod default/p\n"
     "scheduler default-scheduler\n"
     "container c requests={} ports=TCP/0.0.0.0:9100,TCP/0.0.0.0:9201\n"
     "requests {}\n"},
    {"host network without defaults",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"hostNetwork":true,"containers":[{"name":"c",
           "ports":[{"containerPort":9100}]}]}})",
     false,
     "pod default/p\n"
     "container c requests={}\n"
     "requests {}\n"},
    {"volumes",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"volumes":[
           {"name":"data","persistentVolumeClaim":{"claimName":"pvc-1",
                                                    "readOnly":true}},
           {"name":"tmp","emptyDir":{}},
           {"name":"cfg","configMap":{"name":"x"}},
           {"name":"bare"}]}})",
     true,
     "pod default/p\n"
     "scheduler default-scheduler\n"
     "volume data type=persistentVolumeClaim claim=pvc-1\n"
     "volume tmp type=emptyDir\n"
     "volume cfg type=configMap\n"
     "volume bare type=emptyDir\n"
     "requests {}\n"},
    {"volume without a source, no defaults",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"volumes":[{"name":"bare","hostPath":null}]}})",
     false,
     "pod default/p\n"
     "volume bare\n"
     "requests {}\n"},
    {"overhead and pod-level requests",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"overhead":{"cpu":"100m","memory":"10Mi"},
          "resources":{"requests":{"cpu":"1","memory":"1Gi"}},
          "containers":[{"name":"c",
            "resources":{"requests":{"cpu":"200m"}}}]}})",
     false,
     "pod default/p\n"
     "container c requests=cpu=200m has-cpu\n"
     "overhead cpu=100m memory=10485760\n"
     "podRequests cpu=1000m memory=1073741824\n"
     "requests cpu=1100m memory=1084227584\n"},
    {"pod-level limits default the pod-level requests",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"resources":{"limits":{"cpu":"2","memory":"1Gi"}},
          "containers":[{"name":"c",
            "resources":{"requests":{"cpu":"500m"}}}]}})",
     true,
     "pod default/p\n"
     "scheduler default-scheduler\n"
     "container c requests=cpu=500m has-cpu\n"
     "podRequests cpu=500m memory=1073741824\n"
     "requests cpu=500m memory=1073741824\n"},
    {"pod-level limits without defaults",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"resources":{"limits":{"cpu":"2","memory":"1Gi"}},
          "containers":[{"name":"c",
            "resources":{"requests":{"cpu":"500m"}}}]}})",
     false,
     "pod default/p\n"
     "container c requests=cpu=500m has-cpu\n"
     "requests cpu=500m\n"},
    {"status",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "status":{"phase":"Running","nominatedNodeName":"n2",
          "startTime":"2026-08-07T05:54:51Z","qosClass":"BestEffort",
          "conditions":[{"type":"Ready","status":"True"},
           {"type":"PodScheduled","status":"False","reason":"Unschedulable",
            "message":"0/3 nodes are available",
            "lastTransitionTime":"2026-08-07T05:54:51Z"}]}})",
     false,
     "pod default/p\n"
     "phase Running\n"
     "nominated n2\n"
     "started 1786082091\n"
     "scheduled status=False reason=Unschedulable "
     "message=\"0/3 nodes are available\"\n"
     "requests {}\n"},
    {"tolerations",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"tolerations":[
           {"key":"gpu","operator":"Equal","value":"true",
            "effect":"NoSchedule"},
           {"key":"node.kubernetes.io/not-ready","operator":"Exists",
            "effect":"NoExecute","tolerationSeconds":300},
           {"operator":"Exists"},
           {"key":"k","value":"v","operator":"","effect":""}]}})",
     false,
     "pod default/p\n"
     "toleration gpu Equal true effect=NoSchedule\n"
     "toleration node.kubernetes.io/not-ready Exists effect=NoExecute "
     "seconds=300\n"
     "toleration \"\" Exists effect=*\n"
     "toleration k Equal v effect=*\n"
     "requests {}\n"},
    {"node affinity",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
         "spec":{"affinity":{"nodeAffinity":{
          "requiredDuringSchedulingIgnoredDuringExecution":{
           "nodeSelectorTerms":[
            {"matchExpressions":[
              {"key":"zone","operator":"In","values":["a","b"]},
              {"key":"gpu","operator":"Exists"}]},
            {"matchFields":[{"key":"metadata.name","operator":"NotIn",
                             "values":["n9"]}]},
            {"matchExpressions":[{"key":"cores","operator":"Gt",
                                  "values":["8"]}]},
            {}]},
          "preferredDuringSchedulingIgnoredDuringExecution":[
           {"weight":20,"preference":{"matchExpressions":[
             {"key":"disk","operator":"NotIn","values":["hdd"]},
             {"key":"mem","operator":"Lt","values":["-3"]}]}}]}}}})",
     false,
     "pod default/p\n"
     "nodeAffinity required: zone In (a,b) && gpu Exists | "
     "field metadata.name NotIn (n9) | cores Gt 8 | <empty>\n"
     "nodeAffinity preferred 20: disk NotIn (hdd) && mem Lt -3\n"
     "requests {}\n"},
    {"pod affinity merges matchLabelKeys and mismatchLabelKeys",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",
         "labels":{"app":"web","version":"v2","tenant":"t1"}},
         "spec":{"affinity":{
          "podAffinity":{
           "requiredDuringSchedulingIgnoredDuringExecution":[
            {"labelSelector":{"matchLabels":{"app":"web"}},
             "topologyKey":"topology.kubernetes.io/zone",
             "matchLabelKeys":["version","missing"],
             "namespaces":["a","b"]}],
           "preferredDuringSchedulingIgnoredDuringExecution":[
            {"weight":50,"podAffinityTerm":{
              "labelSelector":{"matchExpressions":[{"key":"tier",
                "operator":"In","values":["db","cache","db"]}]},
              "topologyKey":"kubernetes.io/hostname",
              "namespaceSelector":{}}}]},
          "podAntiAffinity":{
           "requiredDuringSchedulingIgnoredDuringExecution":[
            {"labelSelector":{},"topologyKey":"kubernetes.io/hostname",
             "mismatchLabelKeys":["tenant"]},
            {"topologyKey":"kubernetes.io/hostname",
             "matchLabelKeys":["app"]}]}}}})",
     false,
     "pod default/p\n"
     "labels app=web tenant=t1 version=v2\n"
     "podAffinity required: selector=app=web,version=v2 "
     "topologyKey=topology.kubernetes.io/zone namespaces=a,b "
     "matchLabelKeys=version,missing\n"
     "podAffinity preferred 50: selector=tier in (cache,db) "
     "topologyKey=kubernetes.io/hostname nsSelector=<all>\n"
     "podAntiAffinity required: selector=tenant!=t1 "
     "topologyKey=kubernetes.io/hostname mismatchLabelKeys=tenant\n"
     "podAntiAffinity required: selector=<none> "
     "topologyKey=kubernetes.io/hostname matchLabelKeys=app\n"
     "requests {}\n"},
    {"selectors an API server already merged are not merged twice",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",
         "labels":{"app":"web","version":"v2"}},
         "spec":{"affinity":{"podAntiAffinity":{
           "requiredDuringSchedulingIgnoredDuringExecution":[
            {"labelSelector":{"matchLabels":{"app":"web"},
              "matchExpressions":[{"key":"version","operator":"In",
                                   "values":["v2"]}]},
             "topologyKey":"kubernetes.io/hostname",
             "matchLabelKeys":["version"]}]}},
          "topologySpreadConstraints":[{"maxSkew":1,
            "topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
            "labelSelector":{"matchLabels":{"app":"web","version":"v2"}},
            "matchLabelKeys":["version"]}]}})",
     false,
     "pod default/p\n"
     "labels app=web version=v2\n"
     "podAntiAffinity required: selector=app=web,version=v2 "
     "topologyKey=kubernetes.io/hostname matchLabelKeys=version\n"
     "spread zone maxSkew=1 DoNotSchedule selector=app=web,version=v2 "
     "minDomains=1 nodeAffinityPolicy=Honor nodeTaintsPolicy=Ignore "
     "matchLabelKeys=version\n"
     "requests {}\n"},
    {"topology spread constraints with defaults and matchLabelKeys",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",
         "labels":{"app":"web","pod-template-hash":"abc"}},
         "spec":{"topologySpreadConstraints":[
          {"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",
           "whenUnsatisfiable":"DoNotSchedule",
           "labelSelector":{"matchLabels":{"app":"web"}},
           "matchLabelKeys":["pod-template-hash"]},
          {"maxSkew":2,"topologyKey":"kubernetes.io/hostname",
           "whenUnsatisfiable":"DoNotSchedule","minDomains":3,
           "nodeAffinityPolicy":"Ignore","nodeTaintsPolicy":"Honor"},
          {"maxSkew":1,"topologyKey":"kubernetes.io/hostname",
           "whenUnsatisfiable":"ScheduleAnyway","labelSelector":{},
           "matchLabelKeys":["app","absent"]}]}})",
     false,
     "pod default/p\n"
     "labels app=web pod-template-hash=abc\n"
     "spread topology.kubernetes.io/zone maxSkew=1 DoNotSchedule "
     "selector=app=web,pod-template-hash=abc minDomains=1 "
     "nodeAffinityPolicy=Honor nodeTaintsPolicy=Ignore "
     "matchLabelKeys=pod-template-hash\n"
     "spread kubernetes.io/hostname maxSkew=2 DoNotSchedule "
     "selector=<none> minDomains=3 explicit nodeAffinityPolicy=Ignore "
     "nodeTaintsPolicy=Honor\n"
     "spread kubernetes.io/hostname maxSkew=1 ScheduleAnyway "
     "selector=app=web minDomains=1 nodeAffinityPolicy=Honor "
     "nodeTaintsPolicy=Ignore matchLabelKeys=app,absent\n"
     "requests {}\n"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_pod_json(tc.json, with_defaults(tc.defaults));
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(render(*got), tc.want);
  }
}

TEST(DecodePod, DerivesWhatCompleteComputes) {
  // The decoder hands back completed pods: the same value a builder makes.
  auto got = decode_pod_json(
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web",
        "namespace":"shop","uid":"u1"},"spec":{"containers":[
        {"name":"main","image":"nginx",
         "resources":{"requests":{"cpu":"100m","memory":"200Mi"}},
         "ports":[{"containerPort":80,"hostPort":8080}]}],
        "nodeName":"n1"}})");
  ASSERT_TRUE(got) << got.err().message;
  const pod want = test::make_pod("web")
                     .ns("shop")
                     .uid("u1")
                     .cpu("100m")
                     .memory("200Mi")
                     .image("nginx")
                     .host_port(8080)
                     .node("n1")
                     .build_value();
  EXPECT_EQ(render(*got), render(want));
  EXPECT_TRUE(*got == want);
  ASSERT_EQ(got->images.size(), 1u);
  EXPECT_EQ(got->images[0].view(), "nginx:latest");
  ASSERT_EQ(got->host_ports.size(), 1u);
  EXPECT_EQ(got->host_ports[0].port, 8080);
}

TEST(DecodePod, DecodesWhatDeclaredFeatureRulesRead) {
  struct test_case {
    std::string name;
    std::string spec;
    bool host_network;
    bool host_users;
    std::vector<bool> restarts_all;
    std::vector<bool> init_restarts_all;
  };
  const std::vector<test_case> cases = {
    {"defaults", R"({"containers":[{"name":"c"}]})", false, true, {false}, {}},
    {"host network in its own user namespace",
     R"({"hostNetwork":true,"hostUsers":false,"containers":[{"name":"c"}]})",
     true,
     false,
     {false},
     {}},
    {"restart rules",
     R"({"containers":[{"name":"a","restartPolicy":"Never",
         "restartPolicyRules":[{"action":"Restart",
           "exitCodes":{"operator":"In","values":[1]}}]},
        {"name":"b","restartPolicy":"Never",
         "restartPolicyRules":[{"action":"Restart",
           "exitCodes":{"operator":"In","values":[1]}},
          {"action":"RestartAllContainers",
           "exitCodes":{"operator":"In","values":[42]}}]}],
        "initContainers":[{"name":"i","restartPolicy":"Always",
         "restartPolicyRules":[{"action":"RestartAllContainers",
           "exitCodes":{"operator":"In","values":[88]}}]}]})",
     false,
     true,
     {false, true},
     {true}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_pod_json(
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":)"
      + tc.spec + "}");
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(got->host_network, tc.host_network);
    EXPECT_EQ(got->host_users, tc.host_users);
    std::vector<bool> restarts_all;
    for (const auto& c : got->containers)
      restarts_all.push_back(c.restarts_all_containers);
    EXPECT_EQ(restarts_all, tc.restarts_all);
    std::vector<bool> init_restarts_all;
    for (const auto& c : got->init_containers)
      init_restarts_all.push_back(c.restarts_all_containers);
    EXPECT_EQ(init_restarts_all, tc.init_restarts_all);
  }
}

TEST(DecodePod, GeneratesNamesFromGenerateNameWithDefaults) {
  const std::string json
    = R"({"apiVersion":"v1","kind":"Pod","metadata":{"generateName":"job-"}})";
  auto first = decode_pod_json(json);
  auto second = decode_pod_json(json);
  ASSERT_TRUE(first) << first.err().message;
  ASSERT_TRUE(second) << second.err().message;
  for (const std::string& name : {first->name, second->name}) {
    ASSERT_EQ(name.size(), 9u) << name;
    EXPECT_EQ(name.substr(0, 4), "job-");
    EXPECT_EQ(name.find_first_not_of("bcdfghjklmnpqrstvwxz2456789", 4),
              std::string::npos)
      << name;
  }
  EXPECT_NE(first->name, second->name);

  auto without_defaults = decode_pod_json(json, with_defaults(false));
  ASSERT_FALSE(without_defaults);
  EXPECT_EQ(without_defaults.err().message, "metadata.name: required value");
}

// --- nodes and the other kinds ----------------------------------------------

TEST(DecodeObject, DecodesNodesNamespacesPriorityClassesAndBudgets) {
  const std::vector<object_case> cases = {
    {"node with every field",
     R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1",
         "uid":"node-uid","resourceVersion":"7",
         "creationTimestamp":"2026-08-07T05:54:51Z",
         "labels":{"kubernetes.io/hostname":"n1",
                   "topology.kubernetes.io/zone":"z1"}},
         "spec":{"taints":[
           {"key":"dedicated","value":"gpu","effect":"NoSchedule"},
           {"key":"node.kubernetes.io/unreachable","effect":"NoExecute",
            "timeAdded":"2026-08-07T05:54:51Z"}],
          "unschedulable":true,"podCIDR":"10.0.0.0/24"},
         "status":{
          "capacity":{"cpu":"8","memory":"32Gi","pods":"110",
                      "ephemeral-storage":"100Gi","nvidia.com/gpu":"4",
                      "storage":"3Ti"},
          "allocatable":{"cpu":"7500m","memory":"30Gi","pods":110},
          "images":[{"names":["registry.k8s.io/pause@sha256:abc",
                              "registry.k8s.io/pause:3.9"],
                     "sizeBytes":300000},
                    {"names":["nginx"],"sizeBytes":50000000}],
          "conditions":[{"type":"Ready","status":"True"},
                        {"type":"MemoryPressure","status":"False"}],
          "declaredFeatures":["UserNamespacesHostNetworkSupport",
                              "GuaranteedQoSPodCPUResize",
                              "UserNamespacesHostNetworkSupport"],
          "addresses":[{"type":"InternalIP","address":"10.0.0.5"}]}})",
     true,
     "node n1 uid=node-uid rv=7 created=1786082091\n"
     "labels kubernetes.io/hostname=n1 topology.kubernetes.io/zone=z1\n"
     "taint dedicated=gpu:NoSchedule\n"
     "taint node.kubernetes.io/unreachable=:NoExecute\n"
     "unschedulable\n"
     "capacity cpu=8000m memory=34359738368 ephemeral-storage=107374182400 "
     "pods=110 nvidia.com/gpu=4\n"
     "allocatable cpu=7500m memory=32212254720 pods=110\n"
     "image registry.k8s.io/pause@sha256:abc,registry.k8s.io/pause:3.9 "
     "size=300000\n"
     "image nginx:latest size=50000000\n"
     "condition Ready=True\n"
     "condition MemoryPressure=False\n"
     "declared GuaranteedQoSPodCPUResize UserNamespacesHostNetworkSupport\n"},
    {"node allocatable defaults to capacity",
     R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n2"},
         "status":{"capacity":{"cpu":4,"memory":"8Gi"}}})",
     true,
     "node n2\n"
     "capacity cpu=4000m memory=8589934592\n"
     "allocatable cpu=4000m memory=8589934592\n"},
    {"node allocatable left empty without defaults",
     R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n2"},
         "status":{"capacity":{"cpu":4,"memory":"8Gi"}}})",
     false,
     "node n2\n"
     "capacity cpu=4000m memory=8589934592\n"
     "allocatable {}\n"},
    {"node with an explicitly empty allocatable",
     R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n2"},
         "status":{"capacity":{"cpu":4},"allocatable":{}}})",
     true,
     "node n2\n"
     "capacity cpu=4000m\n"
     "allocatable {}\n"},
    {"namespace gets its name label with defaults",
     R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a",
         "uid":"ns-uid","resourceVersion":"5","labels":{"env":"prod"}},
         "status":{"phase":"Active"}})",
     true,
     "namespace team-a uid=ns-uid rv=5\n"
     "labels env=prod kubernetes.io/metadata.name=team-a\n"},
    {"namespace without defaults",
     R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a",
         "labels":{"env":"prod"}}})",
     false,
     "namespace team-a\n"
     "labels env=prod\n"},
    {"terminating namespace",
     R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"old"},
         "status":{"phase":"Terminating"}})",
     false, "namespace old terminating\n"},
    {"namespace being deleted",
     R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"old",
         "deletionTimestamp":"2026-08-07T05:54:51Z"}})",
     false, "namespace old terminating\n"},
    {"priority class",
     R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass",
         "metadata":{"name":"high","resourceVersion":"9"},"value":1000000,
         "globalDefault":true,"preemptionPolicy":"Never",
         "description":"important"})",
     true,
     "priorityclass high rv=9 value=1000000 globalDefault "
     "preemption=Never\n"},
    {"priority class with defaults",
     R"({"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PriorityClass",
         "metadata":{"name":"low"},"value":-5})",
     true, "priorityclass low value=-5\n"},
    {"disruption budget with percent and status",
     R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
         "metadata":{"name":"web-pdb","namespace":"shop","uid":"pdb-uid",
         "resourceVersion":"11"},
         "spec":{"minAvailable":"50%",
                 "selector":{"matchLabels":{"app":"web"}}},
         "status":{"disruptionsAllowed":1,"currentHealthy":3,
                   "disruptedPods":{"web-1":"2026-08-07T05:54:51Z"}}})",
     true,
     "pdb shop/web-pdb uid=pdb-uid rv=11 selector=app=web minAvailable=50% "
     "disruptionsAllowed=1 disruptedPods=web-1\n"},
    {"disruption budget without selector or status",
     R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
         "metadata":{"name":"x"},"spec":{"maxUnavailable":1}})",
     true, "pdb default/x selector=<none> maxUnavailable=1\n"},
    {"disruption budget with an empty selector",
     R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
         "metadata":{"name":"all"},"spec":{"selector":{},
         "maxUnavailable":"0%"},"status":{"disruptionsAllowed":0}})",
     true,
     "pdb default/all selector=<all> maxUnavailable=0% "
     "disruptionsAllowed=0\n"},
    {"service: only the selector is kept",
     R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"web",
         "namespace":"shop","resourceVersion":"4"},
         "spec":{"selector":{"app":"web","tier":"front"},
                 "ports":[{"port":80}],"clusterIP":"10.0.0.1"}})",
     false, "Service shop/web rv=4 selector=app=web tier=front\n"},
    {"service without selector",
     R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"ext"},
         "spec":{"type":"ExternalName","externalName":"example.com",
                 "selector":null}})",
     false, "Service default/ext selector=\n"},
    {"replication controller",
     R"({"apiVersion":"v1","kind":"ReplicationController",
         "metadata":{"name":"rc"},"spec":{"replicas":3,
         "selector":{"app":"old"}}})",
     false, "ReplicationController default/rc selector=app=old\n"},
    {"replica set with status",
     R"({"apiVersion":"apps/v1","kind":"ReplicaSet",
         "metadata":{"name":"web-5d9f","namespace":"shop"},
         "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"},
           "matchExpressions":[{"key":"tier","operator":"In",
                                "values":["front"]}]},
           "template":{"metadata":{"labels":{"app":"web"}}}},
         "status":{"replicas":3,"readyReplicas":2}})",
     false, "ReplicaSet shop/web-5d9f selector=app=web,tier=front\n"},
    {"stateful set",
     R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},
         "spec":{"serviceName":"db","selector":{"matchLabels":{"app":"db"}}}})",
     false, "StatefulSet default/db selector=app=db\n"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_object_json(tc.json, with_defaults(tc.defaults));
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(render(*got), tc.want);
  }
}

TEST(DecodeObject, KnownKindAcceptsObjectsWithoutKind) {
  struct test_case {
    std::string name;
    std::string json;
    object_kind kind;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"pod item from a list", R"({"metadata":{"name":"p","namespace":"x"}})",
     object_kind::pod, "Pod x/p"},
    {"node item from a list", R"({"metadata":{"name":"n"}})", object_kind::node,
     "Node n"},
    {"namespace", R"({"metadata":{"name":"ns"}})", object_kind::namespace_,
     "Namespace ns"},
    {"priority class", R"({"metadata":{"name":"pc"},"value":3})",
     object_kind::priority_class, "PriorityClass pc"},
    {"disruption budget", R"({"metadata":{"name":"b","namespace":"y"}})",
     object_kind::pod_disruption_budget, "PodDisruptionBudget y/b"},
    {"service", R"({"metadata":{"name":"s","namespace":"y"}})",
     object_kind::service, "Service y/s"},
    {"replica set", R"({"metadata":{"name":"rs"}})", object_kind::replica_set,
     "ReplicaSet default/rs"},
    {"stateful set", R"({"metadata":{"name":"ss"}})", object_kind::stateful_set,
     "StatefulSet default/ss"},
    {"replication controller", R"({"metadata":{"name":"rc"}})",
     object_kind::replication_controller, "ReplicationController default/rc"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_object_json(tc.json, tc.kind);
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(kind_of(*got), tc.kind);
    EXPECT_EQ(name_of(*got), tc.want);
  }
  auto node = decode_node_json(
    R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n"}})");
  ASSERT_TRUE(node) << node.err().message;
  EXPECT_EQ(node->name.view(), "n");
}

// --- errors ------------------------------------------------------------------

struct error_case {
  std::string name;
  std::string json;
  /// Decoded with this kind; nullopt: the kind comes from the JSON.
  std::optional<object_kind> kind;
  std::string want;
};

/// A pod with `spec` as given.
std::string pod_with_spec(std::string_view spec) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":)"
         + std::string{spec} + "}";
}

std::string pod_with_container(std::string_view container) {
  return pod_with_spec(R"({"containers":[)" + std::string{container} + "]}");
}

std::string pod_with_affinity(std::string_view affinity) {
  return pod_with_spec(R"({"affinity":)" + std::string{affinity} + "}");
}

std::string node_with(std::string_view rest) {
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},)"
         + std::string{rest} + "}";
}

std::string pdb_with_spec(std::string_view spec) {
  return R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget",)"
         R"("metadata":{"name":"b"},"spec":)"
         + std::string{spec} + "}";
}

TEST(DecodeObject, ReportsThePathAndTheProblem) {
  const std::string pod_affinity_term0
    = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution"
      "[0]";
  const std::string node_term0
    = "spec.affinity.nodeAffinity."
      "requiredDuringSchedulingIgnoredDuringExecution"
      ".nodeSelectorTerms[0]";
  const std::vector<error_case> cases = {
    {"bad quantity",
     pod_with_container(
       R"({"name":"c","resources":{"requests":{"cpu":"12x"}}})"),
     std::nullopt,
     R"(spec.containers[0].resources.requests.cpu: invalid quantity "12x")"},
    {"quantity of the wrong type",
     pod_with_container(R"({"name":"c","resources":{"limits":{"cpu":true}}})"),
     std::nullopt,
     "spec.containers[0].resources.limits.cpu: expected string, got boolean"},
    {"negative quantity",
     pod_with_container(
       R"({"name":"c","resources":{"limits":{"memory":"-1Gi"}}})"),
     std::nullopt,
     R"(spec.containers[0].resources.limits.memory: invalid value "-1Gi": )"
     "must be non-negative"},
    {"negative numeric quantity",
     pod_with_container(R"({"name":"c","resources":{"requests":{"cpu":-2}}})"),
     std::nullopt,
     "spec.containers[0].resources.requests.cpu: invalid value -2: must be "
     "non-negative"},
    {"quantity too large for the scheduler's units",
     pod_with_container(
       R"({"name":"c","resources":{"requests":{"cpu":"1e30"}}})"),
     std::nullopt,
     R"(spec.containers[0].resources.requests.cpu: quantity "1e30" is out of )"
     "range"},
    {"priority of the wrong type", pod_with_spec(R"({"priority":"high"})"),
     std::nullopt, "spec.priority: expected integer, got string"},
    {"priority out of int32 range",
     pod_with_spec(R"({"priority":99999999999})"), std::nullopt,
     "spec.priority: value 99999999999 out of range"},
    {"priority with a fraction", pod_with_spec(R"({"priority":1.5})"),
     std::nullopt, "spec.priority: expected integer, got number"},
    {"priority written as a huge double", pod_with_spec(R"({"priority":1e30})"),
     std::nullopt, "spec.priority: value 1e+30 out of range"},
    {"priority beyond double range", pod_with_spec(R"({"priority":1e400})"),
     std::nullopt, "spec.priority: value inf out of range"},
    {"generation beyond int64",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",)"
     R"("generation":18446744073709551615}})",
     std::nullopt,
     "metadata.generation: value 18446744073709551615 out of range"},
    {"unsupported toleration operator",
     pod_with_spec(R"({"tolerations":[{"key":"a","operator":"Exists"},)"
                   R"({"key":"a","operator":"Maybe"}]})"),
     std::nullopt,
     R"(spec.tolerations[1].operator: unsupported value "Maybe": )"
     R"(supported values: "Equal", "Exists")"},
    {"unsupported toleration effect",
     pod_with_spec(R"({"tolerations":[{"key":"a","effect":"NoRun"}]})"),
     std::nullopt,
     R"(spec.tolerations[0].effect: unsupported value "NoRun": supported )"
     R"(values: "NoExecute", "NoSchedule", "PreferNoSchedule")"},
    {"toleration Exists with a value",
     pod_with_spec(
       R"({"tolerations":[{"key":"a","operator":"Exists","value":"x"}]})"),
     std::nullopt,
     "spec.tolerations[0].value: must be empty when operator is "
     "Exists"},
    {"toleration without key must use Exists",
     pod_with_spec(R"({"tolerations":[{"value":"x"}]})"), std::nullopt,
     "spec.tolerations[0].operator: must be Exists when key is empty"},
    {"tolerationSeconds of the wrong type",
     pod_with_spec(R"({"tolerations":[{"key":"a","operator":"Exists",)"
                   R"("tolerationSeconds":"300"}]})"),
     std::nullopt,
     "spec.tolerations[0].tolerationSeconds: expected integer, got string"},
    {"metadata of the wrong type",
     R"({"apiVersion":"v1","kind":"Pod","metadata":[]})", std::nullopt,
     "metadata: expected object, got array"},
    {"label value of the wrong type; dotted keys stay whole",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",)"
     R"("labels":{"app.kubernetes.io/name":3}}})",
     std::nullopt,
     "metadata.labels.app.kubernetes.io/name: expected string, got integer"},
    {"missing name", R"({"apiVersion":"v1","kind":"Pod","metadata":{}})",
     std::nullopt, "metadata.name: required value"},
    {"bad creationTimestamp",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",)"
     R"("creationTimestamp":"yesterday"}})",
     std::nullopt,
     R"(metadata.creationTimestamp: invalid timestamp )"
     R"("yesterday")"},
    {"impossible date",
     R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n",)"
     R"("creationTimestamp":"2026-02-30T00:00:00Z"}})",
     std::nullopt,
     R"(metadata.creationTimestamp: invalid timestamp )"
     R"("2026-02-30T00:00:00Z")"},
    {"missing kind", R"({"apiVersion":"v1","metadata":{"name":"p"}})",
     std::nullopt, "kind: required value"},
    {"unsupported kind",
     R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"}})",
     std::nullopt,
     R"(kind: unsupported value "Deployment": supported values: )"
     R"("CSIDriver", "CSINode", "CSIStorageCapacity", "Namespace", )"
     R"("Node", "PersistentVolume", "PersistentVolumeClaim", "Pod", )"
     R"("PodDisruptionBudget", "PriorityClass", "ReplicaSet", )"
     R"("ReplicationController", "Service", "StatefulSet", )"
     R"("StorageClass", "VolumeAttachment")"},
    {"kind differs from the expected one",
     R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}})",
     object_kind::pod,
     R"(kind: unsupported value "Node": supported values: "Pod")"},
    {"wrong apiVersion",
     R"({"apiVersion":"apps/v1","kind":"Pod","metadata":{"name":"p"}})",
     std::nullopt,
     R"(apiVersion: unsupported value "apps/v1": supported values: "v1")"},
    {"policy/v1beta1 budgets are refused",
     R"({"apiVersion":"policy/v1beta1","kind":"PodDisruptionBudget",)"
     R"("metadata":{"name":"b"}})",
     std::nullopt,
     R"(apiVersion: unsupported value "policy/v1beta1": supported values: )"
     R"("policy/v1")"},
    {"In without values",
     pod_with_affinity(
       R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
       R"({"topologyKey":"z","labelSelector":{"matchExpressions":[)"
       R"({"key":"a","operator":"In","values":[]}]}}]}})"),
     std::nullopt,
     pod_affinity_term0
       + ".labelSelector.matchExpressions[0].values: must be non-empty for "
         "operator In"},
    {"Exists with values",
     pod_with_affinity(
       R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
       R"({"topologyKey":"z","labelSelector":{"matchExpressions":[)"
       R"({"key":"a","operator":"Exists","values":["x"]}]}}]}})"),
     std::nullopt,
     pod_affinity_term0
       + ".labelSelector.matchExpressions[0].values: must be empty for "
         "operator Exists"},
    {"unsupported selector operator",
     pod_with_affinity(
       R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
       R"({"topologyKey":"z","labelSelector":{"matchExpressions":[)"
       R"({"key":"a","operator":"Equals","values":["x"]}]}}]}})"),
     std::nullopt,
     pod_affinity_term0
       + R"(.labelSelector.matchExpressions[0].operator: unsupported value )"
         R"("Equals": supported values: "DoesNotExist", "Exists", "In", )"
         R"("NotIn")"},
    {"selector requirement without key",
     pod_with_affinity(
       R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
       R"({"topologyKey":"z","labelSelector":{"matchExpressions":[)"
       R"({"operator":"Exists"}]}}]}})"),
     std::nullopt,
     pod_affinity_term0
       + ".labelSelector.matchExpressions[0].key: required value"},
    {"pod affinity term without topologyKey",
     pod_with_affinity(
       R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
       R"({"labelSelector":{}}]}})"),
     std::nullopt, pod_affinity_term0 + ".topologyKey: required value"},
    {"Lt with two values",
     pod_with_affinity(
       R"({"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
       R"({"nodeSelectorTerms":[{"matchExpressions":[)"
       R"({"key":"cores","operator":"Lt","values":["1","2"]}]}]}}})"),
     std::nullopt,
     node_term0
       + ".matchExpressions[0].values: must have exactly one value for "
         "operator Lt"},
    {"matchFields on a label",
     pod_with_affinity(
       R"({"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
       R"({"nodeSelectorTerms":[{"matchFields":[)"
       R"({"key":"metadata.labels","operator":"In","values":["a"]}]}]}}})"),
     std::nullopt,
     node_term0
       + R"(.matchFields[0].key: unsupported value "metadata.labels": )"
         R"(supported values: "metadata.name")"},
    {"matchFields with Exists",
     pod_with_affinity(
       R"({"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
       R"({"nodeSelectorTerms":[{"matchFields":[)"
       R"({"key":"metadata.name","operator":"Exists"}]}]}}})"),
     std::nullopt,
     node_term0
       + R"(.matchFields[0].operator: unsupported value "Exists": )"
         R"(supported values: "In", "NotIn")"},
    {"required node affinity without terms",
     pod_with_affinity(
       R"({"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
       R"({"nodeSelectorTerms":[]}}})"),
     std::nullopt,
     "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuring"
     "Execution.nodeSelectorTerms: required value"},
    {"weight out of range",
     pod_with_affinity(
       R"({"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[)"
       R"({"weight":0,"preference":{}}]}})"),
     std::nullopt,
     "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuring"
     "Execution[0].weight: invalid value 0: must be in the range 1-100"},
    {"spread maxSkew zero",
     pod_with_spec(
       R"({"topologySpreadConstraints":[{"maxSkew":0,)"
       R"("topologyKey":"z","whenUnsatisfiable":"DoNotSchedule"}]})"),
     std::nullopt,
     "spec.topologySpreadConstraints[0].maxSkew: invalid value "
     "0: must be greater than 0"},
    {"spread without whenUnsatisfiable",
     pod_with_spec(
       R"({"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"z"}]})"),
     std::nullopt,
     "spec.topologySpreadConstraints[0].whenUnsatisfiable: required value"},
    {"spread minDomains with ScheduleAnyway",
     pod_with_spec(R"({"topologySpreadConstraints":[{"maxSkew":1,)"
                   R"("topologyKey":"z","whenUnsatisfiable":"ScheduleAnyway",)"
                   R"("minDomains":2}]})"),
     std::nullopt,
     "spec.topologySpreadConstraints[0].minDomains: invalid "
     "value 2: requires whenUnsatisfiable DoNotSchedule"},
    {"spread policy",
     pod_with_spec(R"({"topologySpreadConstraints":[{"maxSkew":1,)"
                   R"("topologyKey":"z","whenUnsatisfiable":"DoNotSchedule",)"
                   R"("nodeTaintsPolicy":"Always"}]})"),
     std::nullopt,
     R"(spec.topologySpreadConstraints[0].nodeTaintsPolicy: unsupported )"
     R"(value "Always": supported values: "Honor", "Ignore")"},
    {"host port out of range",
     pod_with_container(
       R"({"name":"c","ports":[{"containerPort":1,"hostPort":70000}]})"),
     std::nullopt,
     "spec.containers[0].ports[0].hostPort: invalid value "
     "70000: must be in the range 0-65535"},
    {"unsupported protocol",
     pod_with_container(
       R"({"name":"c","ports":[{"containerPort":1,"protocol":"HTTP"}]})"),
     std::nullopt,
     R"(spec.containers[0].ports[0].protocol: unsupported value "HTTP": )"
     R"(supported values: "SCTP", "TCP", "UDP")"},
    {"containers of the wrong type", pod_with_spec(R"({"containers":{}})"),
     std::nullopt, "spec.containers: expected array, got object"},
    {"init container of the wrong type",
     pod_with_spec(R"({"initContainers":[{"name":"a"},"b"]})"), std::nullopt,
     "spec.initContainers[1]: expected object, got string"},
    {"claim without name",
     pod_with_spec(R"({"volumes":[{"name":"d","persistentVolumeClaim":{}}]})"),
     std::nullopt,
     "spec.volumes[0].persistentVolumeClaim.claimName: required "
     "value"},
    {"scheduling gate without name",
     pod_with_spec(R"({"schedulingGates":[{}]})"), std::nullopt,
     "spec.schedulingGates[0].name: required value"},
    {"unsupported preemption policy",
     pod_with_spec(R"({"preemptionPolicy":"Sometimes"})"), std::nullopt,
     R"(spec.preemptionPolicy: unsupported value "Sometimes": supported )"
     R"(values: "Never", "PreemptLowerPriority")"},
    {"unsupported phase",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},)"
     R"("status":{"phase":"Sleeping"}})",
     std::nullopt,
     R"(status.phase: unsupported value "Sleeping": supported values: )"
     R"("Failed", "Pending", "Running", "Succeeded", "Unknown")"},
    {"owner reference flag of the wrong type",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",)"
     R"("ownerReferences":[{"kind":"A","controller":"yes"}]}})",
     std::nullopt,
     "metadata.ownerReferences[0].controller: expected boolean, got string"},
    {"taint without effect", node_with(R"("spec":{"taints":[{"key":"a"}]})"),
     std::nullopt, "spec.taints[0].effect: required value"},
    {"taint without key",
     node_with(R"("spec":{"taints":[{"effect":"NoSchedule"}]})"), std::nullopt,
     "spec.taints[0].key: required value"},
    {"node capacity quantity",
     node_with(R"("status":{"capacity":{"memory":"lots"}})"), std::nullopt,
     R"(status.capacity.memory: invalid quantity "lots")"},
    {"node image size",
     node_with(R"("status":{"images":[{"names":["a"],"sizeBytes":"1"}]})"),
     std::nullopt, "status.images[0].sizeBytes: expected integer, got string"},
    {"node unschedulable", node_with(R"("spec":{"unschedulable":"true"})"),
     std::nullopt, "spec.unschedulable: expected boolean, got string"},
    {"node declared feature",
     node_with(R"("status":{"declaredFeatures":["a",7]})"), std::nullopt,
     "status.declaredFeatures[1]: expected string, got integer"},
    {"pod hostUsers",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},)"
     R"("spec":{"hostUsers":"no"}})",
     std::nullopt, "spec.hostUsers: expected boolean, got string"},
    {"restart rule action",
     R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},)"
     R"("spec":{"containers":[{"name":"c","restartPolicyRules":)"
     R"([{"action":1}]}]}})",
     std::nullopt,
     "spec.containers[0].restartPolicyRules[0].action: expected string, "
     "got integer"},
    {"budget with both limits",
     pdb_with_spec(R"({"minAvailable":1,"maxUnavailable":1})"), std::nullopt,
     "spec: minAvailable and maxUnavailable cannot both be set"},
    {"budget percent above 100", pdb_with_spec(R"({"minAvailable":"150%"})"),
     std::nullopt,
     R"(spec.minAvailable: invalid value "150%": must be an integer or a )"
     "percentage between 0% and 100%"},
    {"budget with an integer as string",
     pdb_with_spec(R"({"maxUnavailable":"3"})"), std::nullopt,
     R"(spec.maxUnavailable: invalid value "3": must be an integer or a )"
     "percentage between 0% and 100%"},
    {"budget negative", pdb_with_spec(R"({"maxUnavailable":-1})"), std::nullopt,
     "spec.maxUnavailable: invalid value -1: must be "
     "non-negative"},
    {"priority class value out of range",
     R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass",)"
     R"("metadata":{"name":"x"},"value":3000000000})",
     std::nullopt, "value: value 3000000000 out of range"},
    {"not an object", "[1,2]", std::nullopt, "expected object, got array"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = tc.kind ? decode_object_json(tc.json, *tc.kind)
                       : decode_object_json(tc.json);
    ASSERT_FALSE(got) << render(*got);
    EXPECT_EQ(got.err().code, ec::invalid_input);
    EXPECT_EQ(got.err().message, tc.want);
  }
}

TEST(DecodePod, MarksRequirementsTheSelectorParserRefusesUnusable) {
  // The API server checks only a requirement's shape; what kube-scheduler's
  // label selector parser refuses decodes, but can never match.
  struct test_case {
    std::string name;
    std::string requirement;
    bool want_usable;
    std::string want_field;
  };
  const std::vector<test_case> cases = {
    {"valid In", R"({"key":"zone","operator":"In","values":["a","b"]})", true,
     ""},
    {"invalid NotIn value",
     R"({"key":"foo","operator":"NotIn","values":["ok","invalid value: ___@#$%^"]})",
     false, "values[1]"},
    {"value longer than 63 characters",
     R"({"key":"foo","operator":"In","values":[")" + std::string(64, 'a')
       + R"("]})",
     false, "values[0]"},
    {"empty value is valid", R"({"key":"foo","operator":"In","values":[""]})",
     true, ""},
    {"invalid key", R"({"key":"a/b/c","operator":"Exists"})", false, "key"},
    {"Gt value that is no integer",
     R"({"key":"cores","operator":"Gt","values":["big"]})", false, "values[0]"},
    {"Lt with a signed integer",
     R"({"key":"cores","operator":"Lt","values":["+8"]})", true, ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_pod_json(pod_with_affinity(
      R"({"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
      R"({"nodeSelectorTerms":[{"matchExpressions":[)"
      + tc.requirement + "]}]}}}"));
    ASSERT_TRUE(got) << got.err().message;
    const auto& term = got->affinity->node->required->terms.at(0);
    EXPECT_EQ(term.match_expressions.at(0).usable, tc.want_usable);
    auto problem = term.first_problem();
    EXPECT_EQ(problem.has_value(), !tc.want_usable);
    if (problem) {
      EXPECT_EQ(problem->second.field, tc.want_field);
    }
  }
}

TEST(DecodeObject, AcceptsNumbersWrittenInEveryJsonForm) {
  struct test_case {
    std::string name;
    std::string spec;
    std::int32_t want_priority;
    std::int64_t want_milli_cpu;
  };
  const std::vector<test_case> cases = {
    {"integers",
     R"({"priority":7,"containers":[{"name":"c",)"
     R"("resources":{"requests":{"cpu":2}}}]})",
     7, 2000},
    {"integral doubles",
     R"({"priority":7.0,"containers":[{"name":"c",)"
     R"("resources":{"requests":{"cpu":1e1}}}]})",
     7, 10000},
    {"fractions as quantities",
     R"({"priority":-2147483648,"containers":[)"
     R"({"name":"c","resources":{"requests":)"
     R"({"cpu":0.25}}}]})",
     -2147483648, 250},
    {"strings as quantities",
     R"({"priority":2147483647,"containers":[)"
     R"({"name":"c","resources":{"requests":)"
     R"({"cpu":"1.5"}}}]})",
     2147483647, 1500},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_pod_json(pod_with_spec(tc.spec));
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(got->priority, tc.want_priority);
    EXPECT_EQ(got->requests.milli_cpu, tc.want_milli_cpu);
  }
}

// --- lists -------------------------------------------------------------------

TEST(DecodeList, DecodesGoodItemsAndSkipsBadOnes) {
  struct test_case {
    std::string name;
    std::string json;
    std::optional<object_kind> item_kind;
    std::string want_error;
    std::vector<std::string> want_items;
    std::vector<std::string> want_skipped;
    std::string want_resource_version;
    std::string want_continue;
  };
  const std::vector<test_case> cases = {
    {"pod list with bad items",
     R"({"kind":"PodList","apiVersion":"v1",
         "metadata":{"resourceVersion":"4211","continue":"tok",
                     "remainingItemCount":3},
         "items":[
          {"metadata":{"name":"a","namespace":"ns"}},
          {"metadata":{"name":"b"},"spec":{"priority":"x"}},
          "oops",
          {"kind":"Node","metadata":{"name":"c"}},
          {"kind":"Pod","apiVersion":"v1","metadata":{"name":"d"}}]})",
     std::nullopt,
     "",
     {"Pod ns/a", "Pod default/d"},
     {"items[1].spec.priority: expected integer, got string",
      "items[2]: expected object, got string",
      R"(items[3].kind: unsupported value "Node": supported values: "Pod")"},
     "4211",
     "tok"},
    {"kind List with mixed kinds",
     R"({"kind":"List","apiVersion":"v1","metadata":{},"items":[
         {"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}},
         {"kind":"Pod","apiVersion":"v1","metadata":{"name":"p1"}},
         {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"s"}},
         {"metadata":{"name":"x"}}]})",
     std::nullopt,
     "",
     {"Node n1", "Pod default/p1"},
     {R"(items[2].kind: unsupported value "ConfigMap": supported )"
      R"(values: "CSIDriver", "CSINode", "CSIStorageCapacity", )"
      R"("Namespace", "Node", "PersistentVolume", )"
      R"("PersistentVolumeClaim", "Pod", "PodDisruptionBudget", )"
      R"("PriorityClass", "ReplicaSet", "ReplicationController", )"
      R"("Service", "StatefulSet", "StorageClass", "VolumeAttachment")",
      "items[3].kind: required value"},
     "",
     ""},
    {"kind List with an item kind for items without one",
     R"({"kind":"List","apiVersion":"v1","items":[
         {"metadata":{"name":"n1"}},{"metadata":{"name":"n2"}}]})",
     object_kind::node,
     "",
     {"Node n1", "Node n2"},
     {},
     "",
     ""},
    {"list without kind when the item kind is known",
     R"({"items":[{"metadata":{"name":"pc"},"value":10}],
         "metadata":{"resourceVersion":"1"}})",
     object_kind::priority_class,
     "",
     {"PriorityClass pc"},
     {},
     "1",
     ""},
    {"every supported list kind: budgets",
     R"({"kind":"PodDisruptionBudgetList","apiVersion":"policy/v1",
         "items":[{"metadata":{"name":"b","namespace":"x"}}]})",
     std::nullopt,
     "",
     {"PodDisruptionBudget x/b"},
     {},
     "",
     ""},
    {"empty list with null items",
     R"({"kind":"NamespaceList","apiVersion":"v1","items":null,
         "metadata":{"resourceVersion":"77"}})",
     std::nullopt,
     "",
     {},
     {},
     "77",
     ""},
    {"unsupported list kind",
     R"({"kind":"ConfigMapList","apiVersion":"v1","items":[]})",
     std::nullopt,
     R"(kind: unsupported value "ConfigMapList": supported values: )"
     R"("CSIDriverList", "CSINodeList", "CSIStorageCapacityList", )"
     R"("List", "NamespaceList", "NodeList", )"
     R"("PersistentVolumeClaimList", "PersistentVolumeList", )"
     R"("PodDisruptionBudgetList", "PodList", "PriorityClassList", )"
     R"("ReplicaSetList", "ReplicationControllerList", "ServiceList", )"
     R"("StatefulSetList", "StorageClassList", "VolumeAttachmentList")",
     {},
     {},
     "",
     ""},
    {"list without kind or item kind",
     R"({"items":[]})",
     std::nullopt,
     "kind: required value",
     {},
     {},
     "",
     ""},
    {"items of the wrong type",
     R"({"kind":"PodList","items":{}})",
     std::nullopt,
     "items: expected array, got object",
     {},
     {},
     "",
     ""},
    {"truncated list",
     R"({"kind":"PodList","items":[{"metadata":)",
     std::nullopt,
     "invalid JSON at offset 39: incomplete JSON",
     {},
     {},
     "",
     ""},
    {"syntax error inside an item fails the whole list",
     R"({"kind":"PodList","items":[{"metadata":{"name":"a"}},)"
     R"({"metadata":{"name":tru}}]})",
     std::nullopt,
     "invalid JSON at offset 73: syntax error",
     {},
     {},
     "",
     ""},
    {"syntax error in a member the decoder ignores",
     R"({"kind":"PodList","extra":[1,}],"items":[]})",
     std::nullopt,
     "invalid JSON at offset 29: syntax error",
     {},
     {},
     "",
     ""},
    {"syntax error after the list",
     R"({"kind":"PodList","items":[]}})",
     std::nullopt,
     "invalid JSON at offset 29: extra data",
     {},
     {},
     "",
     ""},
    {"items before the list kind",
     R"({"items":[{"metadata":{"name":"a"}},{"spec":5}],"kind":"NodeList",)"
     R"("apiVersion":"v1"})",
     std::nullopt,
     "",
     {"Node a"},
     {"items[1].metadata.name: required value"},
     "",
     ""},
    {"a repeated items member replaces the earlier one",
     R"({"kind":"PodList","items":[{"metadata":{"name":"a"}}],)"
     R"("items":[{"metadata":{"name":"b"}}]})",
     std::nullopt,
     "",
     {"Pod default/b"},
     {},
     "",
     ""},
    {"a null kind reads as absent",
     R"({"kind":null,"metadata":null,"items":[{"metadata":{"name":"n"}}]})",
     object_kind::node,
     "",
     {"Node n"},
     {},
     "",
     ""},
    {"not an object",
     R"(["a"])",
     std::nullopt,
     "expected object, got array",
     {},
     {},
     "",
     ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_list_json(tc.json, tc.item_kind);
    if (!tc.want_error.empty()) {
      ASSERT_FALSE(got);
      EXPECT_EQ(got.err().code, ec::invalid_input);
      EXPECT_EQ(got.err().message, tc.want_error);
      continue;
    }
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(names_of(got->items), tc.want_items);
    EXPECT_EQ(messages_of(got->skipped), tc.want_skipped);
    for (const auto& e : got->skipped)
      EXPECT_EQ(e.code, ec::invalid_input);
    EXPECT_EQ(got->resource_version, tc.want_resource_version);
    EXPECT_EQ(got->continue_token, tc.want_continue);
  }
}

TEST(DecodeList, AppliesDefaultsOnlyWhenAsked) {
  const std::string json = R"({"kind":"NodeList","apiVersion":"v1","items":[
    {"metadata":{"name":"n1"},"status":{"capacity":{"cpu":"2"}}}]})";
  struct test_case {
    std::string name;
    bool defaults;
    std::int64_t want_allocatable_cpu;
  };
  const std::vector<test_case> cases = {
    {"defaults", true, 2000},
    {"no defaults", false, 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_list_json(json, std::nullopt, with_defaults(tc.defaults));
    ASSERT_TRUE(got) << got.err().message;
    ASSERT_EQ(got->items.size(), 1u);
    EXPECT_EQ(std::get<node_ptr>(got->items[0])->allocatable.milli_cpu,
              tc.want_allocatable_cpu);
  }
}

// --- watch events ------------------------------------------------------------

TEST(DecodeWatchEvent, DecodesEveryEventType) {
  struct test_case {
    std::string name;
    std::string line;
    object_kind kind;
    watch_event_type want_type;
    std::string want_object; // name_of, "" for none
    std::string want_resource_version;
    bool want_end;
    int want_code;
    std::string want_reason;
    std::string want_message;
  };
  const std::vector<test_case> cases = {
    {"added pod",
     R"({"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1",
         "metadata":{"name":"p1","namespace":"default",
                     "resourceVersion":"4212"}}})",
     object_kind::pod, watch_event_type::added, "Pod default/p1", "4212", false,
     0, "", ""},
    {"modified pod without kind",
     R"({"type":"MODIFIED","object":{"metadata":{"name":"p1",
         "namespace":"a","resourceVersion":"4213"},"spec":{"nodeName":"n1"}}})",
     object_kind::pod, watch_event_type::modified, "Pod a/p1", "4213", false, 0,
     "", ""},
    {"deleted node",
     R"({"type":"DELETED","object":{"kind":"Node","apiVersion":"v1",
         "metadata":{"name":"n1","resourceVersion":"99"}}})",
     object_kind::node, watch_event_type::deleted, "Node n1", "99", false, 0,
     "", ""},
    {"bookmark",
     R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1",
         "metadata":{"resourceVersion":"4300","creationTimestamp":null},
         "spec":{"containers":null},"status":{}}})",
     object_kind::pod, watch_event_type::bookmark, "", "4300", false, 0, "",
     ""},
    {"bookmark ending the initial events",
     R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1",
         "metadata":{"resourceVersion":"4301","annotations":{
           "k8s.io/initial-events-end":"true"}}}})",
     object_kind::pod, watch_event_type::bookmark, "", "4301", true, 0, "", ""},
    {"bookmark with another annotation value",
     R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5",
         "annotations":{"k8s.io/initial-events-end":"false"}}}})",
     object_kind::node, watch_event_type::bookmark, "", "5", false, 0, "", ""},
    {"error 410",
     R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1",
         "metadata":{},"status":"Failure",
         "message":"too old resource version: 5 (120)","reason":"Expired",
         "code":410}})json",
     object_kind::pod, watch_event_type::error, "", "", false, 410, "Expired",
     "too old resource version: 5 (120)"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_watch_event_json(tc.line, tc.kind);
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(got->type, tc.want_type);
    EXPECT_EQ(got->obj ? name_of(*got->obj) : "", tc.want_object);
    EXPECT_EQ(got->resource_version, tc.want_resource_version);
    EXPECT_EQ(got->initial_events_end, tc.want_end);
    EXPECT_EQ(got->code, tc.want_code);
    EXPECT_EQ(got->reason, tc.want_reason);
    EXPECT_EQ(got->message, tc.want_message);
  }
}

TEST(DecodeWatchEvent, ReportsBadEvents) {
  struct test_case {
    std::string name;
    std::string line;
    object_kind kind;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"unknown type", R"({"type":"SYNC","object":{}})", object_kind::pod,
     R"(type: unsupported value "SYNC": supported values: "ADDED", )"
     R"("BOOKMARK", "DELETED", "ERROR", "MODIFIED")"},
    {"missing type", R"({"object":{}})", object_kind::pod,
     "type: required value"},
    {"missing object", R"({"type":"ADDED"})", object_kind::pod,
     "object: required value"},
    {"bad object",
     R"({"type":"ADDED","object":{"metadata":{"name":"p"},
         "spec":{"priority":"x"}}})",
     object_kind::pod, "object.spec.priority: expected integer, got string"},
    {"object of another kind",
     R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p"}}})",
     object_kind::node,
     R"(object.kind: unsupported value "Pod": supported values: "Node")"},
    {"bookmark annotation of the wrong type",
     R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5",
         "annotations":{"k8s.io/initial-events-end":true}}}})",
     object_kind::pod,
     "object.metadata.annotations.k8s.io/initial-events-end: expected "
     "string, got boolean"},
    {"error code of the wrong type",
     R"({"type":"ERROR","object":{"code":"410"}})", object_kind::pod,
     "object.code: expected integer, got string"},
    {"garbage", "not json", object_kind::pod,
     "invalid JSON at offset 0: syntax error"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_watch_event_json(tc.line, tc.kind);
    ASSERT_FALSE(got);
    EXPECT_EQ(got.err().code, ec::invalid_input);
    EXPECT_EQ(got.err().message, tc.want);
  }
}

// --- manifests ---------------------------------------------------------------

TEST(DecodeManifest, ReadsJsonAndMultiDocumentYaml) {
  struct test_case {
    std::string name;
    std::string text;
    std::string want_error;
    std::vector<std::string> want_objects;
    std::vector<std::string> want_warnings;
  };
  const std::vector<test_case> cases = {
    {"multi-document YAML with an unused kind and an empty document",
     R"(# a cluster
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  containers:
  - name: c
    image: nginx
    resources:
      requests: {cpu: 0.5, memory: 128Mi}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  capacity: {cpu: 4, memory: 8Gi, pods: 110}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
---
---
apiVersion: v1
kind: Namespace
metadata: {name: team}
...
)",
     "",
     {"Pod default/web", "Node n1", "Namespace team"},
     {"doc 3: kind Deployment is not used by the scheduler; skipped"}},
    {"kind List flattened",
     R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: a, namespace: x}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: s}
- apiVersion: scheduling.k8s.io/v1
  kind: PriorityClass
  metadata: {name: high}
  value: 1000
)",
     "",
     {"Pod x/a", "PriorityClass high"},
     {"doc 1: items[1]: kind ConfigMap is not used by the scheduler; "
      "skipped"}},
    {"JSON list",
     R"({"kind":"PodList","apiVersion":"v1","items":[
         {"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]})",
     "",
     {"Pod default/a", "Pod default/b"},
     {}},
    {"JSON object after whitespace and a byte order mark",
     "\xEF\xBB\xBF\n  "
     R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n"}})",
     "",
     {"Node n"},
     {}},
    {"YAML flow mapping that is not JSON",
     "{apiVersion: v1, kind: Namespace, metadata: {name: x}}",
     "",
     {"Namespace x"},
     {}},
    {"unused list kind",
     "apiVersion: v1\nkind: ConfigMapList\nitems: []\n",
     "",
     {},
     {"doc 1: kind ConfigMapList is not used by the scheduler; skipped"}},
    {"empty text", "", "", {}, {}},
    {"only comments and separators",
     "# nothing\n---\n# here\n---\n",
     "",
     {},
     {}},
    {"document without kind",
     "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: v1\n"
     "metadata: {name: m1}\n",
     "doc 2: kind: required value",
     {},
     {}},
    {"document without apiVersion",
     "kind: Node\nmetadata: {name: n1}\n",
     "doc 1: apiVersion: required value",
     {},
     {}},
    {"list item without kind",
     "apiVersion: v1\nkind: List\nitems:\n- metadata: {name: n1}\n",
     "doc 1: items[0].kind: required value",
     {},
     {}},
    {"bad field in the second document",
     R"(apiVersion: v1
kind: Namespace
metadata: {name: a}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    resources: {requests: {cpu: 12x}}
)",
     R"(doc 2: spec.containers[0].resources.requests.cpu: invalid quantity )"
     R"("12x")",
     {},
     {}},
    {"YAML syntax error",
     "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\nkind: [Pod\n",
     "doc 2: invalid YAML at line 6, column 1: end of sequence flow not "
     "found",
     {},
     {}},
    {"document that is a scalar",
     "just text\n",
     "doc 1: expected object, got string",
     {},
     {}},
    {"broken JSON",
     R"({"kind":"Pod","apiVersion":"v1",)",
     "doc 1: invalid JSON at offset 32: incomplete JSON",
     {},
     {}},
    {"YAML booleans in a string map",
     "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {gpu: yes}\n",
     "doc 1: metadata.labels.gpu: expected string, got boolean",
     {},
     {}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_manifest(tc.text);
    if (!tc.want_error.empty()) {
      ASSERT_FALSE(got);
      EXPECT_EQ(got.err().code, ec::invalid_input);
      EXPECT_EQ(got.err().message, tc.want_error);
      continue;
    }
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(names_of(got->objects), tc.want_objects);
    EXPECT_EQ(got->warnings, tc.want_warnings);
  }
}

TEST(DecodeManifest, AppliesDefaultsToFileObjects) {
  const std::string text = R"(apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: c
    resources:
      limits: {cpu: "1", memory: 1Gi}
)";
  struct test_case {
    std::string name;
    bool defaults;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"defaults", true,
     "pod default/web\n"
     "scheduler default-scheduler\n"
     "container c requests=cpu=1000m memory=1073741824 has-cpu has-memory\n"
     "requests cpu=1000m memory=1073741824\n"},
    {"no defaults", false,
     "pod default/web\n"
     "container c requests={}\n"
     "requests {}\n"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_manifest(text, with_defaults(tc.defaults));
    ASSERT_TRUE(got) << got.err().message;
    ASSERT_EQ(got->objects.size(), 1u);
    EXPECT_EQ(render(got->objects[0]), tc.want);
  }
}

// --- YAML to JSON
// --------------------------------------------------------------

TEST(YamlToJson, TypesPlainScalarsAsKubernetesYamlDoes) {
  // The rule, as sigs.k8s.io/yaml (go-yaml v2, YAML 1.1) applies it:
  // booleans are true/True/TRUE, yes/Yes/YES, y/Y, on/On/ON and their false
  // counterparts; null is ~, null/Null/NULL and empty; integers may use
  // 0x / 0o / 0b prefixes, a leading 0 for octal and _ separators; quoted
  // and block scalars are always strings.
  struct test_case {
    std::string name;
    std::string yaml;
    std::vector<std::string> want;
  };
  const std::vector<test_case> cases = {
    {"true",
     "a: [true, True, TRUE, yes, Yes, YES, y, Y, on, On, ON]",
     {R"({"a":[true,true,true,true,true,true,true,true,true,true,true]})"}},
    {"false",
     "a: [false, False, FALSE, no, No, NO, n, N, off, Off, OFF]",
     {R"({"a":[false,false,false,false,false,false,false,false,false,false,)"
      R"(false]})"}},
    {"other spellings stay strings",
     "a: [tRUE, yES, oN, t, f, nope, Yess]",
     {R"({"a":["tRUE","yES","oN","t","f","nope","Yess"]})"}},
    {"null",
     "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: nULL\n",
     {R"({"a":null,"b":null,"c":null,"d":null,"e":null,"f":"nULL"})"}},
    {"integers",
     "a: [0, -17, +5, 1_000, 0x1F, 0X1f, 0o17, 017, 0b101, -0b101, "
     "9223372036854775807, -9223372036854775808, 18446744073709551615]",
     {R"({"a":[0,-17,5,1000,31,31,15,15,5,-5,9223372036854775807,)"
      R"(-9223372036854775808,18446744073709551615]})"}},
    {"floats",
     "a: [1.5, .5, -2.5e-3, 1e3, 1., 09, +0.25, 1_0.5]",
     {R"({"a":[1.5,0.5,-0.0025,1000,1,9,0.25,10.5]})"}},
    {"integers beyond 64 bits become doubles; huge floats stay strings",
     "a: [99999999999999999999, -0x1ffffffffffffffff, 1e400]",
     {R"({"a":[1e+20,-36893488147419103232,"1e400"]})"}},
    {"not numbers",
     "a: [1.2.3, 0x, 12x, 2024-01-01, 1e, -, +]",
     {R"({"a":["1.2.3","0x","12x","2024-01-01","1e","-","+"]})"}},
    {"quoted and block scalars stay strings",
     "a: [\"true\", 'yes', \"1\", '~', \"\"]\nb: |\n  line\nc: >-\n  10\n",
     {R"({"a":["true","yes","1","~",""],"b":"line\n","c":"10"})"}},
    {"explicit tags",
     "a: [!!str 1, !!str true, !!int \"7\", !!float 3, !!bool yes, "
     "!!null ~, !custom 5]",
     {R"({"a":["1","true",7,3,true,null,"5"]})"}},
    {"map keys that are not strings",
     "1: a\n2.5: b\non: c\nno: d\n\"yes\": e\n",
     {R"({"1":"a","2.5":"b","true":"c","false":"d","yes":"e"})"}},
    {"a country code read as a boolean (YAML 1.1)",
     "country: NO\n",
     {R"({"country":false})"}},
    {"anchors and aliases",
     "base: &b {x: 1}\ncopy: *b\nlist: [&v 5, *v]\n",
     {R"({"base":{"x":1},"copy":{"x":1},"list":[5,5]})"}},
    {"merge keys, explicit keys win",
     "base: &b {a: 1, c: 2}\nmore: &m {d: 4, a: 9}\n"
     "m:\n  c: 3\n  <<: [*b, *m]\n",
     {R"({"base":{"a":1,"c":2},"more":{"d":4,"a":9},"m":{"c":3,"a":1,"d":4}})"}},
    {"escapes",
     "a: \"q\\\"b\\\\s\\ttab\\x01\u00e9\"\n",
     {"{\"a\":\"q\\\"b\\\\s\\ttab\\u0001\u00e9\"}"}},
    {"documents, empty ones dropped",
     "a: 1\n---\n---\n# c\n---\nb: 2\n",
     {R"({"a":1})", R"({"b":2})"}},
    {"top-level sequence", "- 1\n- x\n", {R"([1,"x"])"}},
    {"nothing", "", {}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = yaml_documents_to_json(tc.yaml);
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(*got, tc.want);
  }
}

// --- robustness --------------------------------------------------------------

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

/// Nine levels of nine-fold aliases: 9^9 strings if expanded.
std::string billion_laughs() {
  std::string text = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    const char prev = static_cast<char>(c - 1);
    text += std::string{c} + ": &" + c + " [";
    for (int i = 0; i < 9; ++i)
      text += std::string{i > 0 ? ", " : ""} + "*" + prev;
    text += "]\n";
  }
  return text;
}

TEST(DecodeRobustness, RejectsHostileInputWithAnError) {
  struct test_case {
    std::string name;
    std::string text;
    bool yaml; // decode_manifest / yaml_documents_to_json, else JSON
    std::string want;
  };
  const std::string laughs = billion_laughs();
  const std::vector<test_case> cases = {
    {"empty JSON", "", false, "invalid JSON at offset 0: incomplete JSON"},
    {"truncated JSON", R"({"kind":"Pod","metadata":{"name":"p")", false,
     "invalid JSON at offset 36: incomplete JSON"},
    {"trailing garbage", R"({"kind":"Pod"} x)", false,
     "invalid JSON at offset 15: extra data"},
    {"binary garbage", std::string("\x00\xff\xfe\x01", 4), false,
     "invalid JSON at offset 0: syntax error"},
    {"invalid UTF-8 in a string", "{\"kind\":\"Pod\xff\"}", false,
     "invalid JSON at offset 12: syntax error"},
    {"JSON nested deeper than the limit",
     repeat(R"({"a":)", 100) + "1" + repeat("}", 100), false,
     "invalid JSON at offset 320: nesting deeper than 64 levels"},
    {"JSON nesting at the limit is fine for unknown fields",
     R"({"kind":"Namespace","metadata":{"name":"n"},"x":)" + repeat("[", 62)
       + repeat("]", 62) + "}",
     false, ""},
    {"YAML nested deeper than the limit", repeat("- ", 100) + "x\n", true,
     "doc 1: " + repeat("[0]", 64) + ": nesting deeper than 64 levels"},
    {"YAML flow nesting without end", "a: " + repeat("{a: ", 100000), true,
     "doc 1: " + repeat(".a", 64).substr(1)
       + ": nesting deeper than 64 levels"},
    {"billion laughs", laughs, true,
     "doc 1: f[0]: document too large after alias expansion (more than "
       + std::to_string(100'000 + 4 * laughs.size()) + " nodes)"},
    {"recursive alias", "a: &x\n  b: *x\n", true,
     "doc 1: a.b: alias refers to an anchor that is not complete"},
    {"infinity", "a: .inf\n", true,
     "doc 1: a: .inf cannot be represented in JSON"},
    {"null key", "~: b\n", true, "doc 1: null map keys are not supported"},
    {"collection key", "? [a]\n: b\n", true, "doc 1: map keys must be scalars"},
    {"bad explicit tag", "a: !!int twelve\n", true,
     "doc 1: a: cannot decode \"twelve\" as !!int"},
    {"invalid UTF-8 in YAML", "a: \"\xff\xfe\"\n", true,
     "doc 1: a: invalid UTF-8"},
    {"binary garbage as YAML", std::string("\x00\xff\xfe\x01", 4), true,
     "doc 1: invalid YAML at line 1, column 3: unknown escape character: ?"},
    {"map value where none may be", "a: b: c\n", true,
     "doc 1: invalid YAML at line 1, column 5: illegal map value"},
    {"undefined alias", "a: &x 1\nb: *y\n", true,
     "doc 1: invalid YAML at line 2, column 4: the referenced anchor is not "
     "defined"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    if (tc.yaml) {
      auto got = yaml_documents_to_json(tc.text);
      ASSERT_FALSE(got);
      EXPECT_EQ(got.err().code, ec::invalid_input);
      EXPECT_EQ(got.err().message, tc.want);
      auto manifest = decode_manifest(tc.text);
      ASSERT_FALSE(manifest);
      EXPECT_EQ(manifest.err().message, tc.want);
      continue;
    }
    auto got = decode_object_json(tc.text);
    if (tc.want.empty()) {
      EXPECT_TRUE(got) << got.err().message;
      continue;
    }
    ASSERT_FALSE(got);
    EXPECT_EQ(got.err().code, ec::invalid_input);
    EXPECT_EQ(got.err().message, tc.want);
  }
}

const std::string& sample_pod() {
  static const std::string json = R"({"kind":"Pod","apiVersion":"v1",
    "metadata":{"name":"web-1","namespace":"shop","uid":"u-1",
      "resourceVersion":"42","creationTimestamp":"2026-08-07T05:54:51Z",
      "labels":{"app":"web","version":"v2"},
      "ownerReferences":[{"kind":"ReplicaSet","name":"web","uid":"rs",
                          "controller":true}]},
    "spec":{"containers":[{"name":"c","image":"nginx",
      "resources":{"requests":{"cpu":"250m","memory":"64Mi"},
                   "limits":{"cpu":1}},
      "ports":[{"containerPort":80,"hostPort":8080}]}],
      "tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}],
      "affinity":{"podAntiAffinity":{
        "requiredDuringSchedulingIgnoredDuringExecution":[
          {"labelSelector":{"matchLabels":{"app":"web"}},
           "topologyKey":"kubernetes.io/hostname",
           "matchLabelKeys":["version"]}]}},
      "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",
        "whenUnsatisfiable":"DoNotSchedule",
        "labelSelector":{"matchLabels":{"app":"web"}}}]},
    "status":{"phase":"Pending"}})";
  return json;
}

TEST(DecodeRobustness, EveryTruncationIsAnError) {
  struct test_case {
    std::string name;
    std::string json;
    bool list;
  };
  const std::vector<test_case> cases = {
    {"object", sample_pod(), false},
    {"list",
     R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":)"
     R"("5"},"items":[)"
       + sample_pod() + "," + sample_pod() + R"(,"x",null,7,[]],"z":true})",
     true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto decode = [&](std::string_view text) -> error {
      if (tc.list) {
        auto got = decode_list_json(text);
        return got ? error{} : got.err();
      }
      auto got = decode_object_json(text);
      return got ? error{} : got.err();
    };
    ASSERT_FALSE(decode(tc.json)) << decode(tc.json).message;
    for (std::size_t n = 0; n < tc.json.size(); ++n) {
      SCOPED_TRACE("prefix of " + std::to_string(n) + " bytes");
      const error e = decode(std::string_view{tc.json}.substr(0, n));
      ASSERT_TRUE(e);
      EXPECT_EQ(e.code, ec::invalid_input);
      EXPECT_EQ(e.message.rfind("invalid JSON at offset ", 0), 0u) << e.message;
    }
  }
}

TEST(DecodeRobustness, MutatedInputNeverCrashes) {
  // Deterministic byte mutations of valid JSON and YAML: each decode must
  // return a value or an invalid_input error, and never crash.
  const std::string& json = sample_pod();
  auto yaml = yaml_documents_to_json(
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: b}}\n"
    "spec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 1}}\n");
  ASSERT_TRUE(yaml);
  const std::string yaml_text
    = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: &x b}}\n"
      "spec:\n  priority: 5\n  containers:\n  - name: c\n"
      "    resources: {requests: {cpu: 1, memory: *x}}\n---\n- [a, {b: c}]\n";
  std::uint64_t state = 0x243F6A8885A308D3ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  constexpr std::string_view alphabet = "{}[]:,\"\\ -&*!|>#\n0123456789eE.xa";
  std::set<std::string> distinct_errors;
  for (int i = 0; i < 3000; ++i) {
    const bool use_yaml = i % 2 == 1;
    std::string text = use_yaml ? yaml_text : json;
    const int edits = 1 + static_cast<int>(next() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = next() % text.size();
      const char c = (next() % 4 == 0) ? static_cast<char>(next() % 256)
                                       : alphabet[next() % alphabet.size()];
      if (next() % 3 == 0)
        text.insert(pos, 1, c);
      else
        text[pos] = c;
    }
    SCOPED_TRACE(text);
    if (use_yaml) {
      auto got = decode_manifest(text);
      if (!got) {
        EXPECT_EQ(got.err().code, ec::invalid_input);
        EXPECT_EQ(got.err().message.rfind("doc ", 0), 0u);
        distinct_errors.insert(got.err().message);
      }
    } else {
      auto got = decode_object_json(text);
      if (!got) {
        EXPECT_EQ(got.err().code, ec::invalid_input);
        distinct_errors.insert(got.err().message);
      }
    }
  }
  // The mutations reach many different checks, not just the JSON parser.
  EXPECT_GT(distinct_errors.size(), 100u);
}

TEST(DecodeList, ItemsDecodeAsTheSameObjectsAlone) {
  struct test_case {
    std::string name;
    std::string list_prefix;
    std::string item;
  };
  const std::vector<test_case> cases = {
    {"pod list", R"({"kind":"PodList","apiVersion":"v1","items":[)",
     sample_pod()},
    {"kind List", R"({"apiVersion":"v1","kind":"List","items":[)",
     sample_pod()},
    {"node list", R"({"kind":"NodeList","apiVersion":"v1","items":[)",
     R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1",
         "labels":{"zone":"a"}},"spec":{"taints":[{"key":"k",
         "effect":"NoSchedule"}]},"status":{"capacity":{"cpu":"4"},
         "images":[{"names":["nginx"],"sizeBytes":5}]}})"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto alone = decode_object_json(tc.item);
    ASSERT_TRUE(alone) << alone.err().message;
    auto list
      = decode_list_json(tc.list_prefix + tc.item + " , " + tc.item + "]}");
    ASSERT_TRUE(list) << list.err().message;
    ASSERT_EQ(list->items.size(), 2u);
    for (const auto& item : list->items)
      EXPECT_EQ(render(item), render(*alone));
  }
}

// --- spec fragments for plugin arguments
// ---------------------------------------

TEST(DecodeFragment, DecodesNodeAffinityWithAPathPrefix) {
  struct test_case {
    std::string name;
    std::string json;
    std::string want_error;
    std::string want_required;
    std::size_t want_preferred = 0;
  };
  const std::string path = "profiles[0].pluginConfig[1].args.addedAffinity";
  const std::vector<test_case> cases = {
    {"required and preferred",
     R"({"requiredDuringSchedulingIgnoredDuringExecution":{
         "nodeSelectorTerms":[{"matchExpressions":[
           {"key":"zone","operator":"In","values":["a"]}]}]},
         "preferredDuringSchedulingIgnoredDuringExecution":[
           {"weight":1,"preference":{"matchFields":[
             {"key":"metadata.name","operator":"In","values":["n1"]}]}}]})",
     "", "zone In (a)", 1},
    {"empty", "{}", "", "", 0},
    {"bad operator",
     R"({"requiredDuringSchedulingIgnoredDuringExecution":{
         "nodeSelectorTerms":[{"matchExpressions":[
           {"key":"zone","operator":"Like","values":["a"]}]}]}})",
     path
       + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
         R"([0].matchExpressions[0].operator: unsupported value "Like": )"
         R"(supported values: "DoesNotExist", "Exists", "Gt", "In", "Lt", )"
         R"("NotIn")",
     "", 0},
    {"not an object", "[]", path + ": expected object, got array", "", 0},
    {"not JSON", "{", path + ": invalid JSON at offset 1: incomplete JSON", "",
     0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_node_affinity_json(tc.json, path);
    if (!tc.want_error.empty()) {
      ASSERT_FALSE(got);
      EXPECT_EQ(got.err().code, ec::invalid_input);
      EXPECT_EQ(got.err().message, tc.want_error);
      continue;
    }
    ASSERT_TRUE(got) << got.err().message;
    std::string required;
    if (got->required)
      for (const auto& t : got->required->terms)
        required += render(t);
    EXPECT_EQ(required, tc.want_required);
    EXPECT_EQ(got->preferred.size(), tc.want_preferred);
  }
}

TEST(DecodeFragment, DecodesSpreadConstraintsKeepingMatchLabelKeys) {
  struct test_case {
    std::string name;
    std::string json;
    std::string path;
    std::string want; // render() or the error
  };
  const std::vector<test_case> cases = {
    {"defaults and unmerged matchLabelKeys",
     R"({"maxSkew":3,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway",
         "labelSelector":{"matchLabels":{"app":"web"}},
         "matchLabelKeys":["pod-template-hash"]})",
     "args.defaultConstraints[0]",
     "spread zone maxSkew=3 ScheduleAnyway selector=app=web minDomains=1 "
     "nodeAffinityPolicy=Honor nodeTaintsPolicy=Ignore "
     "matchLabelKeys=pod-template-hash"},
    {"error with the path",
     R"({"maxSkew":1,"whenUnsatisfiable":"DoNotSchedule"})",
     "args.defaultConstraints[1]",
     "args.defaultConstraints[1].topologyKey: required value"},
    {"error without a path", R"({"maxSkew":"1"})", "",
     "maxSkew: expected integer, got string"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_topology_spread_constraint_json(tc.json, tc.path);
    EXPECT_EQ(got ? render(*got) : got.err().message, tc.want);
  }
}

} // namespace
} // namespace tessera::model
