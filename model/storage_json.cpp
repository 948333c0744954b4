// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Decoding of v1 PersistentVolume and PersistentVolumeClaim and
// storage.k8s.io/v1 StorageClass, CSINode, CSIDriver, CSIStorageCapacity and
// VolumeAttachment: only the fields the volume plugins read.
#include "model/json_reader.hpp"

#include <boost/json.hpp>

#include <array>

namespace tessera::model::json_detail {

namespace {

constexpr std::string_view beta_class_annotation
  = "volume.beta.kubernetes.io/storage-class";

symbol default_namespace() {
  static const symbol ns{"default"};
  return ns;
}

std::string_view annotation(const object_metadata& meta, std::string_view key) {
  if (meta.annotations == nullptr)
    return {};
  if (const auto* o = meta.annotations->if_object())
    if (const json_value* v = find(*o, key))
      if (const auto* s = v->if_string())
        return {s->data(), s->size()};
  return {};
}

bool has_annotation(const object_metadata& meta, std::string_view key) {
  if (meta.annotations == nullptr)
    return false;
  const auto* o = meta.annotations->if_object();
  return o != nullptr && find(*o, key) != nullptr;
}

std::int64_t read_bytes(json_reader& r, const json_value& v) {
  auto bytes = get_quantity(r, v).value();
  if (!bytes)
    r.fail(bytes.err().message);
  if (*bytes < 0)
    r.fail("must be greater than or equal to 0");
  return *bytes;
}

/// The `storage` entry of a ResourceList (capacity, requests).
std::int64_t read_storage_entry(json_reader& r, const json_value& v) {
  std::int64_t out = 0;
  with_member(r, get_object(r, v), "storage",
              [&](const json_value& x) { out = read_bytes(r, x); });
  return out;
}

std::uint8_t read_access_modes(json_reader& r, const json_value& v) {
  static constexpr std::array<std::string_view, 4> modes
    = {"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"};
  std::uint8_t out = 0;
  for_each_element(r, get_array(r, v), [&](std::size_t, const json_value& e) {
    out |= static_cast<std::uint8_t>(1u << get_enum(r, e, modes));
  });
  return out;
}

volume_mode read_volume_mode(json_reader& r, const json_value& v) {
  static constexpr std::array<std::string_view, 2> modes
    = {"Filesystem", "Block"};
  return static_cast<volume_mode>(get_enum(r, v, modes));
}

/// A PV's or inline volume's source, as attach limits and VolumeRestrictions
/// see it. `type` is the source's field name.
attachable_volume read_attach_source(json_reader& r, std::string_view type,
                                     const json_value& v) {
  struct source {
    std::string_view type;
    std::string_view handle_field;
    std::string_view provisioner;
  };
  // In-tree sources are counted under the CSI driver migration gives them.
  // vSphere and Azure File are not: kube-scheduler does not count them.
  static constexpr std::array<source, 6> sources = {{
    {"gcePersistentDisk", "pdName", "kubernetes.io/gce-pd"},
    {"awsElasticBlockStore", "volumeID", "kubernetes.io/aws-ebs"},
    {"azureDisk", "diskURI", "kubernetes.io/azure-disk"},
    {"cinder", "volumeID", "kubernetes.io/cinder"},
    {"portworxVolume", "volumeID", "kubernetes.io/portworx-volume"},
    {"csi", "volumeHandle", ""},
  }};
  attachable_volume out;
  for (const auto& s : sources) {
    if (s.type != type)
      continue;
    path_guard guard{r, type};
    const auto& o = get_object(r, v);
    with_member(r, o, s.handle_field,
                [&](const json_value& x) { out.handle = get_string(r, x); });
    if (s.provisioner.empty())
      with_member(r, o, "driver",
                  [&](const json_value& x) { out.driver = get_string(r, x); });
    else
      out.driver = csi_driver_of_provisioner(s.provisioner);
  }
  return out;
}

/// The name of the one volume-source member of `o` that is set, skipping
/// the members listed in `not_sources`.
template <std::size_t N>
std::string_view
source_member(const json_object& o,
              const std::array<std::string_view, N>& not_sources) {
  for (const auto& member : o) {
    std::string_view key{member.key().data(), member.key().size()};
    if (member.value().is_null() || !member.value().is_object())
      continue;
    if (std::find(not_sources.begin(), not_sources.end(), key)
        == not_sources.end())
      return key;
  }
  return {};
}

claim_reference read_claim_ref(json_reader& r, const json_value& v) {
  const auto& o = get_object(r, v);
  claim_reference ref;
  with_member(r, o, "namespace",
              [&](const json_value& x) { ref.ns = intern(get_string(r, x)); });
  with_member(r, o, "name",
              [&](const json_value& x) { ref.name = get_string(r, x); });
  with_member(r, o, "uid",
              [&](const json_value& x) { ref.uid = get_string(r, x); });
  if (ref.ns.empty())
    ref.ns = default_namespace();
  return ref;
}

std::string controller_uid(json_reader& r, const object_metadata& meta) {
  std::string out;
  if (meta.owner_references == nullptr)
    return out;
  path_guard meta_guard{r, "metadata"};
  path_guard guard{r, "ownerReferences"};
  for_each_element(r, get_array(r, *meta.owner_references),
                   [&](std::size_t, const json_value& e) {
                     const auto& o = get_object(r, e);
                     bool controller = false;
                     with_member(r, o, "controller", [&](const json_value& x) {
                       controller = get_bool(r, x);
                     });
                     if (controller)
                       with_member(r, o, "uid", [&](const json_value& x) {
                         out = get_string(r, x);
                       });
                   });
  return out;
}

} // namespace

persistent_volume read_persistent_volume(json_reader& r, const json_object& o) {
  static constexpr std::array<std::string_view, 5> phases
    = {"Pending", "Available", "Bound", "Released", "Failed"};
  // The spec's other object members; everything else that is an object is
  // the volume source.
  static constexpr std::array<std::string_view, 3> not_sources
    = {"capacity", "claimRef", "nodeAffinity"};
  persistent_volume pv;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  pv.name = meta.name;
  pv.uid = meta.uid;
  pv.resource_version = meta.resource_version;
  pv.labels = std::move(meta.labels);
  with_member(r, o, "spec", [&](const json_value& x) {
    const auto& spec = get_object(r, x);
    with_member(r, spec, "capacity", [&](const json_value& c) {
      pv.capacity_bytes = read_storage_entry(r, c);
    });
    with_member(r, spec, "accessModes", [&](const json_value& a) {
      pv.access_modes = read_access_modes(r, a);
    });
    with_member(r, spec, "volumeMode",
                [&](const json_value& m) { pv.mode = read_volume_mode(r, m); });
    with_member(r, spec, "storageClassName", [&](const json_value& c) {
      pv.storage_class = get_string(r, c);
    });
    with_member(r, spec, "volumeAttributesClassName", [&](const json_value& c) {
      pv.attributes_class = get_string(r, c);
    });
    with_member(r, spec, "claimRef", [&](const json_value& c) {
      pv.claim_ref = read_claim_ref(r, c);
    });
    with_member(r, spec, "nodeAffinity", [&](const json_value& a) {
      with_member(r, get_object(r, a), "required", [&](const json_value& req) {
        node_selector sel;
        with_member(r, get_object(r, req), "nodeSelectorTerms",
                    [&](const json_value& terms) {
                      for_each_element(r, get_array(r, terms),
                                       [&](std::size_t, const json_value& t) {
                                         sel.terms.push_back(
                                           read_node_selector_term(r, t));
                                       });
                    });
        pv.node_affinity = std::move(sel);
      });
    });
    pv.source_type = source_member(spec, not_sources);
    if (!pv.source_type.empty())
      pv.attach
        = read_attach_source(r, pv.source_type, spec.at(pv.source_type));
  });
  // The beta annotation, when present, wins over the spec field, as the
  // volume controllers read it.
  if (has_annotation(meta, beta_class_annotation))
    pv.storage_class = annotation(meta, beta_class_annotation);
  with_member(r, o, "status", [&](const json_value& x) {
    with_member(r, get_object(r, x), "phase", [&](const json_value& p) {
      pv.phase = static_cast<volume_phase>(get_enum(r, p, phases));
    });
  });
  return pv;
}

persistent_volume_claim read_persistent_volume_claim(json_reader& r,
                                                     const json_object& o) {
  static constexpr std::array<std::string_view, 3> phases
    = {"Pending", "Bound", "Lost"};
  persistent_volume_claim pvc;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  pvc.ns
    = meta.namespace_.empty() ? default_namespace() : intern(meta.namespace_);
  pvc.name = meta.name;
  pvc.uid = meta.uid;
  pvc.resource_version = meta.resource_version;
  pvc.deleting = meta.deleting;
  pvc.selected_node = annotation(meta, selected_node_annotation);
  pvc.bind_completed = has_annotation(meta, bind_completed_annotation);
  pvc.controller_uid = controller_uid(r, meta);
  with_member(r, o, "spec", [&](const json_value& x) {
    const auto& spec = get_object(r, x);
    with_member(r, spec, "storageClassName", [&](const json_value& c) {
      if (!c.is_null())
        pvc.storage_class = std::string{get_string(r, c)};
    });
    with_member(r, spec, "volumeName", [&](const json_value& v) {
      pvc.volume_name = get_string(r, v);
    });
    with_member(r, spec, "accessModes", [&](const json_value& a) {
      pvc.access_modes = read_access_modes(r, a);
    });
    with_member(r, spec, "volumeMode", [&](const json_value& m) {
      pvc.mode = read_volume_mode(r, m);
    });
    with_member(r, spec, "volumeAttributesClassName", [&](const json_value& c) {
      if (!c.is_null())
        pvc.attributes_class = get_string(r, c);
    });
    with_member(r, spec, "selector", [&](const json_value& s) {
      if (!s.is_null())
        pvc.selector = read_label_selector(r, s);
    });
    with_member(r, spec, "resources", [&](const json_value& res) {
      with_member(r, get_object(r, res), "requests", [&](const json_value& q) {
        pvc.request_bytes = read_storage_entry(r, q);
      });
    });
  });
  if (has_annotation(meta, beta_class_annotation))
    pvc.storage_class = std::string{annotation(meta, beta_class_annotation)};
  with_member(r, o, "status", [&](const json_value& x) {
    with_member(r, get_object(r, x), "phase", [&](const json_value& p) {
      pvc.phase = static_cast<claim_phase>(get_enum(r, p, phases));
    });
  });
  return pvc;
}

storage_class read_storage_class(json_reader& r, const json_object& o) {
  static constexpr std::array<std::string_view, 2> modes
    = {"Immediate", "WaitForFirstConsumer"};
  storage_class sc;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  sc.name = meta.name;
  sc.resource_version = meta.resource_version;
  with_member(r, o, "provisioner",
              [&](const json_value& x) { sc.provisioner = get_string(r, x); });
  if (sc.provisioner.empty())
    fail_at(r, {"provisioner"}, "required value");
  with_member(r, o, "volumeBindingMode", [&](const json_value& x) {
    sc.binding = static_cast<binding_mode>(get_enum(r, x, modes));
  });
  with_member(r, o, "allowedTopologies", [&](const json_value& x) {
    for_each_element(r, get_array(r, x), [&](std::size_t, const json_value& t) {
      topology_selector_term term;
      with_member(
        r, get_object(r, t), "matchLabelExpressions",
        [&](const json_value& exprs) {
          for_each_element(
            r, get_array(r, exprs), [&](std::size_t, const json_value& e) {
              topology_selector_term::requirement req;
              const auto& eo = get_object(r, e);
              with_member(r, eo, "key", [&](const json_value& k) {
                req.key = get_string(r, k);
              });
              with_member(r, eo, "values", [&](const json_value& vs) {
                for_each_element(r, get_array(r, vs),
                                 [&](std::size_t, const json_value& s) {
                                   req.values.emplace_back(get_string(r, s));
                                 });
              });
              if (req.key.empty())
                fail_at(r, {"key"}, "required value");
              if (req.values.empty())
                fail_at(r, {"values"}, "must specify as least one value");
              term.match_label_expressions.push_back(std::move(req));
            });
        });
      sc.allowed_topologies.push_back(std::move(term));
    });
  });
  return sc;
}

csi_node read_csi_node(json_reader& r, const json_object& o) {
  csi_node cn;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  cn.name = intern(meta.name);
  cn.resource_version = meta.resource_version;
  with_member(r, o, "spec", [&](const json_value& x) {
    with_member(r, get_object(r, x), "drivers", [&](const json_value& ds) {
      for_each_element(
        r, get_array(r, ds), [&](std::size_t, const json_value& d) {
          csi_node_driver driver;
          const auto& dobj = get_object(r, d);
          with_member(r, dobj, "name", [&](const json_value& n) {
            driver.name = get_string(r, n);
          });
          with_member(r, dobj, "allocatable", [&](const json_value& a) {
            if (a.is_null())
              return;
            with_member(r, get_object(r, a), "count", [&](const json_value& c) {
              if (c.is_null())
                return;
              driver.allocatable_count = get_int32(r, c);
              if (*driver.allocatable_count < 0)
                r.fail("must be greater than or equal to 0");
            });
          });
          if (driver.name.empty())
            fail_at(r, {"name"}, "required value");
          cn.drivers.push_back(std::move(driver));
        });
    });
  });
  return cn;
}

csi_driver read_csi_driver(json_reader& r, const json_object& o) {
  csi_driver d;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  d.name = meta.name;
  d.resource_version = meta.resource_version;
  with_member(r, o, "spec", [&](const json_value& x) {
    const auto& spec = get_object(r, x);
    with_member(r, spec, "attachRequired", [&](const json_value& v) {
      if (!v.is_null())
        d.attach_required = get_bool(r, v);
    });
    with_member(r, spec, "storageCapacity", [&](const json_value& v) {
      if (!v.is_null())
        d.storage_capacity = get_bool(r, v);
    });
  });
  return d;
}

csi_storage_capacity read_csi_storage_capacity(json_reader& r,
                                               const json_object& o) {
  csi_storage_capacity c;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  c.ns
    = meta.namespace_.empty() ? default_namespace() : intern(meta.namespace_);
  c.name = meta.name;
  c.resource_version = meta.resource_version;
  with_member(r, o, "storageClassName",
              [&](const json_value& x) { c.storage_class = get_string(r, x); });
  if (c.storage_class.empty())
    fail_at(r, {"storageClassName"}, "required value");
  with_member(r, o, "nodeTopology", [&](const json_value& x) {
    if (!x.is_null())
      c.node_topology = read_label_selector(r, x);
  });
  with_member(r, o, "capacity", [&](const json_value& x) {
    if (!x.is_null())
      c.capacity = read_bytes(r, x);
  });
  with_member(r, o, "maximumVolumeSize", [&](const json_value& x) {
    if (!x.is_null())
      c.maximum_volume_size = read_bytes(r, x);
  });
  return c;
}

volume_attachment read_volume_attachment(json_reader& r, const json_object& o) {
  volume_attachment va;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  va.name = meta.name;
  va.resource_version = meta.resource_version;
  with_member(r, o, "spec", [&](const json_value& x) {
    const auto& spec = get_object(r, x);
    with_member(r, spec, "attacher",
                [&](const json_value& a) { va.attacher = get_string(r, a); });
    with_member(r, spec, "nodeName", [&](const json_value& n) {
      va.node = intern(get_string(r, n));
    });
    with_member(r, spec, "source", [&](const json_value& s) {
      with_member(r, get_object(r, s), "persistentVolumeName",
                  [&](const json_value& n) {
                    if (!n.is_null())
                      va.volume_name = get_string(r, n);
                  });
    });
  });
  return va;
}

attachable_volume read_inline_attach_source(json_reader& r,
                                            std::string_view type,
                                            const json_value& v) {
  if (type == "csi")
    return {}; // inline CSI volumes are ephemeral, not attached
  return read_attach_source(r, type, v);
}

} // namespace tessera::model::json_detail
