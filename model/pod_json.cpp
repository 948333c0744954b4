// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Decoding of v1.Pod and of the spec types it shares with plugin arguments
// (node affinity, topology spread constraints).
#include "model/json_reader.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <string>

namespace tessera::model::json_detail {

namespace {

/// Reads an array of strings as symbols.
std::vector<symbol> read_symbols(json_reader& r, const json_value& v) {
  std::vector<symbol> out;
  const auto& a = get_array(r, v);
  out.reserve(a.size());
  for_each_element(r, a, [&](std::size_t, const json_value& e) {
    out.push_back(get_symbol(r, e));
  });
  return out;
}

std::int32_t read_weight(json_reader& r, const json_object& o) {
  std::int32_t weight = 0;
  with_member(r, o, "weight", [&](const json_value& v) {
    weight = get_int32(r, v);
    if (weight < 1 || weight > 100)
      r.fail("invalid value " + std::to_string(weight)
             + ": must be in the range 1-100");
  });
  if (weight == 0)
    fail_at(r, {"weight"}, "required value");
  return weight;
}

// --- node affinity ---------------------------------------------------------

node_selector_requirement
read_node_requirement(json_reader& r, const json_value& v, bool is_field) {
  using op = node_selector_requirement::op;
  static constexpr std::array<std::string_view, 6> operators
    = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
  static constexpr std::array<std::string_view, 2> field_operators
    = {"In", "NotIn"};
  static constexpr std::array<std::string_view, 1> field_keys
    = {"metadata.name"};
  const auto& o = get_object(r, v);
  node_selector_requirement req;
  with_member(r, o, "key", [&](const json_value& k) {
    if (is_field) {
      (void)get_enum(r, k, field_keys);
    }
    req.key = get_symbol(r, k);
  });
  if (req.key.empty())
    fail_at(r, {"key"}, "required value");
  std::string_view op_name;
  with_member(r, o, "operator", [&](const json_value& x) {
    op_name = get_string(r, x);
    req.oper = is_field ? static_cast<op>(get_enum(r, x, field_operators))
                        : static_cast<op>(get_enum(r, x, operators));
  });
  if (op_name.empty())
    fail_at(r, {"operator"}, "required value");
  with_member(r, o, "values", [&](const json_value& x) {
    for_each_element(r, get_array(r, x), [&](std::size_t, const json_value& e) {
      req.values.push_back(get_symbol(r, e));
    });
  });
  const std::string op_text{op_name};
  if (is_field) {
    if (req.values.size() != 1)
      fail_at(r, {"values"},
              "must have exactly one value for operator " + op_text);
    return req;
  }
  switch (req.oper) {
  case op::in:
  case op::not_in:
    if (req.values.empty())
      fail_at(r, {"values"}, "must be non-empty for operator " + op_text);
    break;
  case op::exists:
  case op::does_not_exist:
    if (!req.values.empty())
      fail_at(r, {"values"}, "must be empty for operator " + op_text);
    break;
  case op::gt:
  case op::lt:
    if (req.values.size() != 1)
      fail_at(r, {"values"},
              "must have exactly one value for operator " + op_text);
    break;
  }
  // Only the shape is an input error here; a key or value that
  // kube-scheduler's selector parser refuses makes the term unusable, as it
  // does upstream.
  req.check_usable();
  return req;
}

} // namespace

node_selector_term read_node_selector_term(json_reader& r,
                                           const json_value& v) {
  const auto& o = get_object(r, v);
  node_selector_term term;
  with_member(r, o, "matchExpressions", [&](const json_value& x) {
    for_each_element(r, get_array(r, x), [&](std::size_t, const json_value& e) {
      term.match_expressions.push_back(read_node_requirement(r, e, false));
    });
  });
  with_member(r, o, "matchFields", [&](const json_value& x) {
    for_each_element(r, get_array(r, x), [&](std::size_t, const json_value& e) {
      term.match_fields.push_back(read_node_requirement(r, e, true));
    });
  });
  return term;
}

namespace {

// --- pod affinity ----------------------------------------------------------

/// Adds `key In/NotIn (pod's value)` for each key the pod has, unless the
/// selector already holds that requirement (objects from an API server
/// that merged them at admission come back unchanged).
void merge_label_keys(label_selector& selector, const std::vector<symbol>& keys,
                      label_requirement::op oper, const label_set& labels) {
  for (symbol key : keys) {
    const symbol* value = labels.find(key);
    if (value == nullptr)
      continue;
    label_requirement req;
    req.key = key;
    req.oper = oper;
    req.values.push_back(*value);
    const auto& existing = selector.requirements();
    if (std::find(existing.begin(), existing.end(), req) == existing.end())
      selector.add(std::move(req));
  }
}

pod_affinity_term read_affinity_term(json_reader& r, const json_value& v,
                                     const label_set* pod_labels) {
  const auto& o = get_object(r, v);
  pod_affinity_term term;
  with_member(r, o, "labelSelector", [&](const json_value& x) {
    term.selector = read_label_selector(r, x);
  });
  with_member(r, o, "namespaces", [&](const json_value& x) {
    term.namespaces = read_symbols(r, x);
  });
  with_member(r, o, "namespaceSelector", [&](const json_value& x) {
    term.namespace_selector = read_label_selector(r, x);
  });
  with_member(r, o, "topologyKey", [&](const json_value& x) {
    term.topology_key = get_symbol(r, x);
  });
  if (term.topology_key.empty())
    fail_at(r, {"topologyKey"}, "required value");
  with_member(r, o, "matchLabelKeys", [&](const json_value& x) {
    term.match_label_keys = read_symbols(r, x);
  });
  with_member(r, o, "mismatchLabelKeys", [&](const json_value& x) {
    term.mismatch_label_keys = read_symbols(r, x);
  });
  // A nil selector matches nothing; the API server leaves it alone too.
  if (pod_labels != nullptr && !term.selector.is_nothing()) {
    merge_label_keys(term.selector, term.match_label_keys,
                     label_requirement::op::in, *pod_labels);
    merge_label_keys(term.selector, term.mismatch_label_keys,
                     label_requirement::op::not_in, *pod_labels);
  }
  return term;
}

pod_affinity read_pod_affinity(json_reader& r, const json_value& v,
                               const label_set& pod_labels) {
  const auto& o = get_object(r, v);
  pod_affinity out;
  with_member(r, o, "requiredDuringSchedulingIgnoredDuringExecution",
              [&](const json_value& x) {
                for_each_element(r, get_array(r, x),
                                 [&](std::size_t, const json_value& e) {
                                   out.required.push_back(
                                     read_affinity_term(r, e, &pod_labels));
                                 });
              });
  with_member(r, o, "preferredDuringSchedulingIgnoredDuringExecution",
              [&](const json_value& x) {
                for_each_element(
                  r, get_array(r, x), [&](std::size_t, const json_value& e) {
                    const auto& w = get_object(r, e);
                    weighted_pod_affinity_term wt;
                    wt.weight = read_weight(r, w);
                    bool has_term = false;
                    with_member(
                      r, w, "podAffinityTerm", [&](const json_value& t) {
                        wt.term = read_affinity_term(r, t, &pod_labels);
                        has_term = true;
                      });
                    if (!has_term)
                      fail_at(r, {"podAffinityTerm"}, "required value");
                    out.preferred.push_back(std::move(wt));
                  });
              });
  return out;
}

affinity_spec read_affinity(json_reader& r, const json_value& v,
                            const label_set& pod_labels) {
  const auto& o = get_object(r, v);
  affinity_spec out;
  with_member(r, o, "nodeAffinity", [&](const json_value& x) {
    out.node = read_node_affinity(r, x);
  });
  with_member(r, o, "podAffinity", [&](const json_value& x) {
    out.pod = read_pod_affinity(r, x, pod_labels);
  });
  with_member(r, o, "podAntiAffinity", [&](const json_value& x) {
    out.pod_anti = read_pod_affinity(r, x, pod_labels);
  });
  return out;
}

// --- tolerations -----------------------------------------------------------

toleration read_toleration(json_reader& r, const json_value& v) {
  static constexpr std::array<std::string_view, 2> operators
    = {"Equal", "Exists"};
  static constexpr std::array<std::string_view, 3> effects
    = {"NoSchedule", "PreferNoSchedule", "NoExecute"};
  toleration t;
  for_each_field(
    r, get_object(r, v), [&](std::string_view key, const json_value& x) {
      if (key == "key") {
        t.key = get_symbol(r, x);
      } else if (key == "operator") {
        if (!get_string(r, x).empty()) // "" means Equal
          t.oper = static_cast<toleration::op>(get_enum(r, x, operators));
      } else if (key == "value") {
        t.value = get_symbol(r, x);
      } else if (key == "effect") {
        if (!get_string(r, x).empty()) { // "" matches every effect
          (void)get_enum(r, x, effects);
          t.effect = parse_taint_effect(get_string(r, x));
        }
      } else if (key == "tolerationSeconds") {
        t.toleration_seconds = get_int64(r, x);
      }
    });
  if (t.key.empty() && t.oper != toleration::op::exists)
    fail_at(r, {"operator"}, "must be Exists when key is empty");
  if (t.oper == toleration::op::exists && !t.value.empty())
    fail_at(r, {"value"}, "must be empty when operator is Exists");
  return t;
}

// --- containers ------------------------------------------------------------

bool has_kind(const resource_entries& entries, resource_kind kind) noexcept {
  return std::any_of(entries.begin(), entries.end(),
                     [&](const resource_entry& e) { return e.kind == kind; });
}

/// Reads `resources`: requests, plus (with defaults) limits copied into
/// missing requests.
void read_requests(json_reader& r, const json_object& o, bool defaults,
                   resource_entries& requests) {
  resource_entries limits;
  for_each_field(r, o, [&](std::string_view key, const json_value& x) {
    if (key == "requests")
      read_resource_map(r, x, requests);
    else if (key == "limits")
      read_resource_map(r, x, limits);
  });
  if (!defaults)
    return;
  for (const auto& limit : limits) {
    const bool requested = std::any_of(
      requests.begin(), requests.end(),
      [&](const resource_entry& e) { return e.name == limit.name; });
    if (!requested)
      requests.push_back(limit);
  }
}

host_port read_port(json_reader& r, const json_value& v, bool host_network,
                    bool defaults) {
  static constexpr std::array<std::string_view, 3> protocols
    = {"TCP", "UDP", "SCTP"};
  static const symbol tcp{"TCP"};
  static const symbol any_ip{"0.0.0.0"};
  host_port port;
  port.ip = any_ip;
  port.protocol = tcp;
  std::int32_t container_port = 0;
  for_each_field(r, get_object(r, v),
                 [&](std::string_view key, const json_value& x) {
                   if (key == "containerPort") {
                     container_port = get_int32(r, x);
                   } else if (key == "hostPort") {
                     port.port = get_int32(r, x);
                     if (port.port < 0 || port.port > 65535)
                       r.fail("invalid value " + std::to_string(port.port)
                              + ": must be in the range 0-65535");
                   } else if (key == "hostIP") {
                     if (!get_string(r, x).empty())
                       port.ip = get_symbol(r, x);
                   } else if (key == "protocol") {
                     if (!get_string(r, x).empty()) {
                       (void)get_enum(r, x, protocols);
                       port.protocol = get_symbol(r, x);
                     }
                   }
                 });
  // With host networking every container port is a host port.
  if (defaults && host_network && port.port == 0)
    port.port = container_port;
  return port;
}

container read_container(json_reader& r, const json_value& v, bool init,
                         bool host_network, const decode_options& opts) {
  container c;
  for_each_field(
    r, get_object(r, v), [&](std::string_view key, const json_value& x) {
      if (key == "name") {
        c.name = get_string(r, x);
      } else if (key == "image") {
        c.image = get_string(r, x);
      } else if (key == "resources") {
        resource_entries requests;
        read_requests(r, get_object(r, x), opts.apply_defaults, requests);
        c.has_cpu_request = has_kind(requests, resource_kind::cpu);
        c.has_memory_request = has_kind(requests, resource_kind::memory);
        apply_resources(requests, c.requests);
      } else if (key == "ports") {
        for_each_element(
          r, get_array(r, x), [&](std::size_t, const json_value& e) {
            host_port p = read_port(r, e, host_network, opts.apply_defaults);
            if (p.port > 0)
              c.host_ports.push_back(p);
          });
      } else if (key == "restartPolicy") {
        c.restartable = init && get_string(r, x) == "Always";
      } else if (key == "restartPolicyRules") {
        for_each_element(
          r, get_array(r, x), [&](std::size_t, const json_value& e) {
            with_member(r, get_object(r, e), "action",
                        [&](const json_value& a) {
                          if (get_string(r, a) == "RestartAllContainers")
                            c.restarts_all_containers = true;
                        });
          });
      }
    });
  return c;
}

volume read_volume(json_reader& r, const json_value& v, bool defaults) {
  const auto& o = get_object(r, v);
  volume vol;
  with_member(r, o, "name",
              [&](const json_value& x) { vol.name = get_string(r, x); });
  // The source is the one other member that is set.
  for (const auto& member : o) {
    if (member.key() == "name" || member.value().is_null())
      continue;
    vol.type.assign(member.key().data(), member.key().size());
    break;
  }
  if (vol.type.empty()) {
    if (defaults)
      vol.type = "emptyDir";
    return vol;
  }
  {
    // read_inline_attach_source below names the source in paths itself.
    path_guard guard{r, vol.type};
    const auto& src = get_object(r, o.at(vol.type));
    auto read_string = [&](std::string_view field, std::string& out) {
      with_member(r, src, field,
                  [&](const json_value& x) { out = get_string(r, x); });
    };
    with_member(r, src, "readOnly", [&](const json_value& x) {
      if (!x.is_null())
        vol.read_only = get_bool(r, x);
    });
    if (vol.type == "persistentVolumeClaim") {
      read_string("claimName", vol.claim_name);
      if (vol.claim_name.empty())
        fail_at(r, {"claimName"}, "required value");
    } else if (vol.type == "ephemeral") {
      // The claim is named after the pod, which read_pod fills in.
      vol.ephemeral = true;
    } else if (vol.type == "gcePersistentDisk") {
      read_string("pdName", vol.disk_id);
    } else if (vol.type == "awsElasticBlockStore") {
      read_string("volumeID", vol.disk_id);
    } else if (vol.type == "iscsi") {
      read_string("iqn", vol.disk_id);
    } else if (vol.type == "rbd") {
      std::string pool = "rbd"; // the API server's default pool
      std::string image;
      read_string("pool", pool);
      read_string("image", image);
      vol.disk_id = pool + "/" + image;
      with_member(r, src, "monitors", [&](const json_value& x) {
        for_each_element(r, get_array(r, x),
                         [&](std::size_t, const json_value& m) {
                           vol.rbd_monitors.emplace_back(get_string(r, m));
                         });
      });
    }
  }
  vol.attach = read_inline_attach_source(r, vol.type, o.at(vol.type));
  return vol;
}

/// Pod-level requests defaulting (PodLevelResources): with pod-level limits,
/// a missing pod-level cpu / memory request becomes the containers'
/// effective request when some container requests it, else the limit.
void default_pod_level_requests(pod& p, const resource_entries& pod_requests,
                                const resource_entries& pod_limits) {
  if (pod_limits.empty())
    return;
  const bool any_cpu
    = std::any_of(p.containers.begin(), p.containers.end(),
                  [](const container& c) { return c.has_cpu_request; })
      || std::any_of(p.init_containers.begin(), p.init_containers.end(),
                     [](const container& c) { return c.has_cpu_request; });
  const bool any_memory
    = std::any_of(p.containers.begin(), p.containers.end(),
                  [](const container& c) { return c.has_memory_request; })
      || std::any_of(p.init_containers.begin(), p.init_containers.end(),
                     [](const container& c) { return c.has_memory_request; });
  pod bare = p; // containers only: no overhead, no pod-level requests
  bare.overhead = {};
  bare.pod_level_requests.reset();
  const resource_list aggregate = compute_pod_requests(bare, false);
  resource_list& out = p.pod_level_requests.emplace();
  apply_resources(pod_requests, out);
  for (const auto& limit : pod_limits) {
    if (limit.kind != resource_kind::cpu && limit.kind != resource_kind::memory)
      continue;
    if (has_kind(pod_requests, limit.kind))
      continue;
    if (limit.kind == resource_kind::cpu)
      out.milli_cpu = any_cpu ? aggregate.milli_cpu : limit.value;
    else
      out.memory = any_memory ? aggregate.memory : limit.value;
  }
}

/// `<generateName><5 characters>` as the API server names objects.
std::string generate_name(std::string_view prefix) {
  static constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  static std::atomic<std::uint64_t> counter{0};
  std::uint64_t x
    = counter.fetch_add(1, std::memory_order_relaxed) + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  std::string name{prefix};
  for (int i = 0; i < 5; ++i) {
    name += alphabet[x % alphabet.size()];
    x /= alphabet.size();
  }
  return name;
}

void read_owner_references(json_reader& r, const json_value& v,
                           std::vector<owner_reference>& out) {
  path_guard meta_guard{r, "metadata"};
  path_guard guard{r, "ownerReferences"};
  for_each_element(r, get_array(r, v), [&](std::size_t, const json_value& e) {
    const auto& o = get_object(r, e);
    owner_reference ref;
    with_member(r, o, "apiVersion", [&](const json_value& x) {
      ref.api_version = get_string(r, x);
    });
    with_member(r, o, "kind",
                [&](const json_value& x) { ref.kind = get_string(r, x); });
    with_member(r, o, "name",
                [&](const json_value& x) { ref.name = get_string(r, x); });
    with_member(r, o, "uid",
                [&](const json_value& x) { ref.uid = get_string(r, x); });
    with_member(r, o, "controller",
                [&](const json_value& x) { ref.controller = get_bool(r, x); });
    out.push_back(std::move(ref));
  });
}

void read_pod_spec(json_reader& r, const json_value& v, pod& p,
                   const decode_options& opts) {
  static constexpr std::array<std::string_view, 2> preemption_policies
    = {"PreemptLowerPriority", "Never"};
  const auto& o = get_object(r, v);
  // Read first: container ports depend on it.
  bool host_network = false;
  with_member(r, o, "hostNetwork",
              [&](const json_value& x) { host_network = get_bool(r, x); });
  p.host_network = host_network;
  with_member(r, o, "hostUsers",
              [&](const json_value& x) { p.host_users = get_bool(r, x); });
  auto read_containers
    = [&](const json_value& x, bool init, std::vector<container>& out) {
        const auto& a = get_array(r, x);
        out.reserve(a.size());
        for_each_element(r, a, [&](std::size_t, const json_value& e) {
          out.push_back(read_container(r, e, init, host_network, opts));
        });
      };
  const json_value* pod_resources = nullptr;
  for_each_field(r, o, [&](std::string_view key, const json_value& x) {
    if (key == "containers") {
      read_containers(x, false, p.containers);
    } else if (key == "initContainers") {
      read_containers(x, true, p.init_containers);
    } else if (key == "tolerations") {
      const auto& a = get_array(r, x);
      p.tolerations.reserve(a.size());
      for_each_element(r, a, [&](std::size_t, const json_value& e) {
        p.tolerations.push_back(read_toleration(r, e));
      });
    } else if (key == "nodeName") {
      p.node_name = get_symbol(r, x);
    } else if (key == "schedulerName") {
      p.scheduler_name = get_symbol(r, x);
    } else if (key == "priority") {
      p.priority = get_int32(r, x);
      p.priority_given = true;
    } else if (key == "priorityClassName") {
      p.priority_class_name = get_string(r, x);
    } else if (key == "preemptionPolicy") {
      p.preemption
        = static_cast<preemption_policy>(get_enum(r, x, preemption_policies));
    } else if (key == "nodeSelector") {
      p.node_selector = read_label_map(r, x);
    } else if (key == "affinity") {
      p.affinity = read_affinity(r, x, p.labels);
    } else if (key == "topologySpreadConstraints") {
      for_each_element(r, get_array(r, x),
                       [&](std::size_t, const json_value& e) {
                         p.topology_spread_constraints.push_back(
                           read_spread_constraint(r, e, &p.labels));
                       });
    } else if (key == "volumes") {
      const auto& a = get_array(r, x);
      p.volumes.reserve(a.size());
      for_each_element(r, a, [&](std::size_t, const json_value& e) {
        p.volumes.push_back(read_volume(r, e, opts.apply_defaults));
      });
    } else if (key == "overhead") {
      p.overhead = read_resource_list(r, x);
    } else if (key == "schedulingGates") {
      for_each_element(
        r, get_array(r, x), [&](std::size_t, const json_value& e) {
          std::string name;
          with_member(r, get_object(r, e), "name",
                      [&](const json_value& n) { name = get_string(r, n); });
          if (name.empty())
            fail_at(r, {"name"}, "required value");
          p.scheduling_gates.push_back(std::move(name));
        });
    } else if (key == "resourceClaims") {
      for_each_element(
        r, get_array(r, x), [&](std::size_t, const json_value& e) {
          pod_resource_claim claim;
          const auto& c = get_object(r, e);
          with_member(r, c, "name", [&](const json_value& n) {
            claim.name = get_string(r, n);
          });
          with_member(r, c, "resourceClaimName", [&](const json_value& n) {
            claim.claim_name = get_string(r, n);
          });
          with_member(r, c, "resourceClaimTemplateName",
                      [&](const json_value& n) {
                        claim.template_name = get_string(r, n);
                      });
          if (claim.name.empty())
            fail_at(r, {"name"}, "required value");
          p.resource_claims.push_back(std::move(claim));
        });
    } else if (key == "resources") {
      pod_resources = &x; // after the containers: defaults depend on them
    }
  });
  if (pod_resources != nullptr) {
    path_guard guard{r, "resources"};
    const auto& res = get_object(r, *pod_resources);
    resource_entries requests;
    resource_entries limits;
    with_member(r, res, "requests", [&](const json_value& y) {
      read_resource_map(r, y, requests);
    });
    with_member(r, res, "limits",
                [&](const json_value& y) { read_resource_map(r, y, limits); });
    if (opts.apply_defaults && !limits.empty())
      default_pod_level_requests(p, requests, limits);
    else if (find(res, "requests") != nullptr)
      apply_resources(requests, p.pod_level_requests.emplace());
  }
}

// The resources the kubelet reports per container (in-place resize); other
// status fields of the entries are not read.
void read_container_resources(json_reader& r, const json_value& v,
                              std::vector<container_resources_status>& out) {
  if (v.is_null())
    return;
  for_each_element(r, get_array(r, v), [&](std::size_t, const json_value& e) {
    const auto& o = get_object(r, e);
    container_resources_status st;
    with_member(r, o, "name",
                [&](const json_value& x) { st.name = get_string(r, x); });
    with_member(r, o, "allocatedResources", [&](const json_value& x) {
      if (!x.is_null())
        st.allocated = read_resource_list(r, x);
    });
    with_member(r, o, "resources", [&](const json_value& x) {
      if (x.is_null())
        return;
      with_member(r, get_object(r, x), "requests", [&](const json_value& q) {
        if (!q.is_null())
          st.actual = read_resource_list(r, q);
      });
    });
    if (st.allocated || st.actual)
      out.push_back(std::move(st));
  });
}

void read_pod_status(json_reader& r, const json_value& v, pod& p) {
  static constexpr std::array<std::string_view, 5> phases
    = {"Pending", "Running", "Succeeded", "Failed", "Unknown"};
  for_each_field(
    r, get_object(r, v), [&](std::string_view key, const json_value& x) {
      if (key == "phase") {
        if (!get_string(r, x).empty())
          p.phase = static_cast<pod_phase>(get_enum(r, x, phases));
      } else if (key == "nominatedNodeName") {
        p.nominated_node_name = get_symbol(r, x);
      } else if (key == "startTime") {
        p.start_unix = get_timestamp(r, x);
      } else if (key == "conditions") {
        for_each_element(
          r, get_array(r, x), [&](std::size_t, const json_value& e) {
            const auto& c = get_object(r, e);
            const json_value* type = find(c, "type");
            if (type == nullptr)
              fail_at(r, {"type"}, "required value");
            std::string_view type_text;
            {
              path_guard guard{r, "type"};
              type_text = get_string(r, *type);
            }
            pod_scheduled_condition cond;
            for_each_field(r, c, [&](std::string_view k, const json_value& y) {
              if (k == "status")
                cond.status = get_string(r, y);
              else if (k == "reason")
                cond.reason = get_string(r, y);
              else if (k == "message")
                cond.message = get_string(r, y);
            });
            if (type_text == "PodScheduled")
              p.scheduled_condition = std::move(cond);
            else if (type_text == "PodResizePending")
              p.resize_infeasible = cond.reason == "Infeasible";
            else if (type_text == "DisruptionTarget")
              p.disrupted_by_preemption
                = cond.status == "True"
                  && cond.reason == "PreemptionByScheduler";
          });
      } else if (key == "containerStatuses" || key == "initContainerStatuses") {
        read_container_resources(r, x, p.container_resources);
      }
    });
}

} // namespace

node_affinity read_node_affinity(json_reader& r, const json_value& v) {
  const auto& o = get_object(r, v);
  node_affinity out;
  with_member(
    r, o, "requiredDuringSchedulingIgnoredDuringExecution",
    [&](const json_value& x) {
      const auto& sel = get_object(r, x);
      node_selector ns;
      with_member(r, sel, "nodeSelectorTerms", [&](const json_value& terms) {
        for_each_element(r, get_array(r, terms),
                         [&](std::size_t, const json_value& t) {
                           ns.terms.push_back(read_node_selector_term(r, t));
                         });
      });
      if (ns.terms.empty())
        fail_at(r, {"nodeSelectorTerms"}, "required value");
      out.required = std::move(ns);
    });
  with_member(r, o, "preferredDuringSchedulingIgnoredDuringExecution",
              [&](const json_value& x) {
                for_each_element(
                  r, get_array(r, x), [&](std::size_t, const json_value& e) {
                    const auto& w = get_object(r, e);
                    preferred_scheduling_term term;
                    term.weight = read_weight(r, w);
                    bool has_preference = false;
                    with_member(r, w, "preference", [&](const json_value& p) {
                      term.preference = read_node_selector_term(r, p);
                      has_preference = true;
                    });
                    if (!has_preference)
                      fail_at(r, {"preference"}, "required value");
                    out.preferred.push_back(std::move(term));
                  });
              });
  return out;
}

topology_spread_constraint read_spread_constraint(json_reader& r,
                                                  const json_value& v,
                                                  const label_set* pod_labels) {
  using tsc = topology_spread_constraint;
  static constexpr std::array<std::string_view, 2> actions
    = {"DoNotSchedule", "ScheduleAnyway"};
  static constexpr std::array<std::string_view, 2> policies
    = {"Honor", "Ignore"};
  const auto& o = get_object(r, v);
  tsc c;
  bool has_skew = false;
  with_member(r, o, "maxSkew", [&](const json_value& x) {
    c.max_skew = get_int32(r, x);
    has_skew = true;
    if (c.max_skew <= 0)
      r.fail("invalid value " + std::to_string(c.max_skew)
             + ": must be greater than 0");
  });
  if (!has_skew)
    fail_at(r, {"maxSkew"}, "required value");
  with_member(r, o, "topologyKey",
              [&](const json_value& x) { c.topology_key = get_symbol(r, x); });
  if (c.topology_key.empty())
    fail_at(r, {"topologyKey"}, "required value");
  bool has_action = false;
  with_member(r, o, "whenUnsatisfiable", [&](const json_value& x) {
    c.action = static_cast<tsc::when_unsatisfiable>(get_enum(r, x, actions));
    has_action = true;
  });
  if (!has_action)
    fail_at(r, {"whenUnsatisfiable"}, "required value");
  with_member(r, o, "labelSelector", [&](const json_value& x) {
    c.selector = read_label_selector(r, x);
  });
  with_member(r, o, "minDomains", [&](const json_value& x) {
    c.min_domains = get_int32(r, x);
    c.min_domains_set = true;
    if (c.min_domains <= 0)
      r.fail("invalid value " + std::to_string(c.min_domains)
             + ": must be greater than 0");
    if (c.action != tsc::when_unsatisfiable::do_not_schedule)
      r.fail("invalid value " + std::to_string(c.min_domains)
             + ": requires whenUnsatisfiable DoNotSchedule");
  });
  with_member(r, o, "nodeAffinityPolicy", [&](const json_value& x) {
    c.node_affinity_policy
      = static_cast<tsc::inclusion_policy>(get_enum(r, x, policies));
  });
  with_member(r, o, "nodeTaintsPolicy", [&](const json_value& x) {
    c.node_taints_policy
      = static_cast<tsc::inclusion_policy>(get_enum(r, x, policies));
  });
  with_member(r, o, "matchLabelKeys", [&](const json_value& x) {
    c.match_label_keys = read_symbols(r, x);
  });
  if (pod_labels != nullptr && !c.selector.is_nothing())
    merge_label_keys(c.selector, c.match_label_keys, label_requirement::op::in,
                     *pod_labels);
  return c;
}

pod read_pod(json_reader& r, const json_object& o, const decode_options& opts) {
  static const symbol default_namespace{"default"};
  static const symbol default_scheduler{"default-scheduler"};
  pod p;
  object_metadata meta = read_metadata(r, o);
  if (meta.name.empty() && opts.apply_defaults && !meta.generate_name.empty())
    p.name = generate_name(meta.generate_name);
  else
    p.name = meta.name;
  if (p.name.empty())
    require_name(r, meta);
  p.ns = meta.namespace_.empty() ? default_namespace : intern(meta.namespace_);
  p.uid = meta.uid;
  p.resource_version = meta.resource_version;
  p.creation_unix = meta.creation_unix;
  p.generation = meta.generation;
  p.labels = std::move(meta.labels);
  p.deleting = meta.deleting;
  if (meta.owner_references != nullptr)
    read_owner_references(r, *meta.owner_references, p.owners);
  for_each_field(r, o, [&](std::string_view key, const json_value& x) {
    if (key == "spec")
      read_pod_spec(r, x, p, opts);
    else if (key == "status")
      read_pod_status(r, x, p);
  });
  if (opts.apply_defaults && p.scheduler_name.empty())
    p.scheduler_name = default_scheduler;
  for (auto& vol : p.volumes)
    if (vol.ephemeral)
      vol.claim_name = p.name + "-" + vol.name;
  p.complete();
  return p;
}

} // namespace tessera::model::json_detail
