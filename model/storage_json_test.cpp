// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/decode.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::model::storage_json_test {
namespace {

// Each decoded storage object is rendered as one line naming every field with
// a non-default value, so a table states exactly what a document decodes to.

std::string render_modes(std::uint8_t modes) {
  static constexpr std::string_view names[] = {"RWO", "ROX", "RWX", "RWOP"};
  std::string out;
  for (unsigned i = 0; i < 4; ++i)
    if ((modes & (1u << i)) != 0)
      out += (out.empty() ? "" : ",") + std::string{names[i]};
  return out;
}

std::string render_affinity(const node_selector& sel) {
  std::string out;
  for (const auto& term : sel.terms) {
    out += out.empty() ? "" : " | ";
    for (const auto& req : term.match_expressions) {
      out += std::string{req.key.view()} + "=";
      for (std::size_t i = 0; i < req.values.size(); ++i)
        out += (i > 0 ? "," : "") + std::string{req.values[i].view()};
    }
  }
  return out;
}

std::string render_labels(const label_set& labels) {
  std::string out;
  for (const auto& l : labels)
    out += (out.empty() ? "" : ",") + std::string{l.key.view()} + "="
           + std::string{l.value.view()};
  return out;
}

std::string render(const persistent_volume& pv) {
  static constexpr std::string_view phases[]
    = {"Pending", "Available", "Bound", "Released", "Failed"};
  std::string out = "pv " + pv.name;
  if (!pv.uid.empty())
    out += " uid=" + pv.uid;
  if (!pv.labels.empty())
    out += " labels=" + render_labels(pv.labels);
  if (!pv.storage_class.empty())
    out += " class=" + pv.storage_class;
  if (pv.capacity_bytes != 0)
    out += " capacity=" + std::to_string(pv.capacity_bytes);
  if (pv.access_modes != 0)
    out += " modes=" + render_modes(pv.access_modes);
  if (pv.mode == volume_mode::block)
    out += " block";
  if (pv.node_affinity)
    out += " affinity=" + render_affinity(*pv.node_affinity);
  if (pv.claim_ref)
    out += " claim=" + std::string{pv.claim_ref->ns.view()} + "/"
           + pv.claim_ref->name
           + (pv.claim_ref->uid.empty() ? "" : "@" + pv.claim_ref->uid);
  out += " phase=" + std::string{phases[static_cast<int>(pv.phase)]};
  if (!pv.source_type.empty())
    out += " source=" + pv.source_type;
  if (!pv.attach.driver.empty())
    out += " attach=" + pv.attach.driver + ":" + pv.attach.handle;
  if (!pv.attributes_class.empty())
    out += " vac=" + pv.attributes_class;
  return out;
}

std::string render(const persistent_volume_claim& c) {
  static constexpr std::string_view phases[] = {"Pending", "Bound", "Lost"};
  std::string out = "pvc " + std::string{c.ns.view()} + "/" + c.name;
  if (!c.uid.empty())
    out += " uid=" + c.uid;
  if (c.storage_class)
    out += " class=" + (c.storage_class->empty() ? "\"\"" : *c.storage_class);
  if (!c.volume_name.empty())
    out += " volume=" + c.volume_name;
  if (c.access_modes != 0)
    out += " modes=" + render_modes(c.access_modes);
  if (c.mode == volume_mode::block)
    out += " block";
  if (c.request_bytes != 0)
    out += " request=" + std::to_string(c.request_bytes);
  if (c.selector)
    out += " selector=" + c.selector->to_string();
  if (!c.selected_node.empty())
    out += " selected=" + c.selected_node;
  if (c.bind_completed)
    out += " bind-completed";
  out += " phase=" + std::string{phases[static_cast<int>(c.phase)]};
  if (c.deleting)
    out += " deleting";
  if (!c.controller_uid.empty())
    out += " controller=" + c.controller_uid;
  if (!c.attributes_class.empty())
    out += " vac=" + c.attributes_class;
  return out;
}

std::string render(const storage_class& sc) {
  std::string out = "sc " + sc.name + " provisioner=" + sc.provisioner;
  if (sc.binding == binding_mode::wait_for_first_consumer)
    out += " wffc";
  for (const auto& term : sc.allowed_topologies) {
    out += " topology=";
    for (const auto& req : term.match_label_expressions) {
      out += req.key + ":";
      for (std::size_t i = 0; i < req.values.size(); ++i)
        out += (i > 0 ? "," : "") + req.values[i];
      out += ";";
    }
  }
  return out;
}

std::string render(const csi_node& n) {
  std::string out = "csinode " + std::string{n.name.view()};
  for (const auto& d : n.drivers)
    out += " " + d.name + "="
           + (d.allocatable_count ? std::to_string(*d.allocatable_count)
                                  : std::string{"unlimited"});
  return out;
}

std::string render(const csi_driver& d) {
  return "csidriver " + d.name
         + " attach=" + (d.attach_required ? "true" : "false")
         + " capacity=" + (d.storage_capacity ? "true" : "false");
}

std::string render(const csi_storage_capacity& c) {
  std::string out = "capacity " + std::string{c.ns.view()} + "/" + c.name
                    + " class=" + c.storage_class;
  out += " topology="
         + (c.node_topology.is_nothing()      ? std::string{"<none>"}
            : c.node_topology.is_everything() ? std::string{"<all>"}
                                              : c.node_topology.to_string());
  if (c.capacity)
    out += " capacity=" + std::to_string(*c.capacity);
  if (c.maximum_volume_size)
    out += " max=" + std::to_string(*c.maximum_volume_size);
  return out;
}

std::string render(const volume_attachment& va) {
  return "va " + va.name + " attacher=" + va.attacher
         + " node=" + std::string{va.node.view()}
         + " pv=" + (va.volume_name.empty() ? "<inline>" : va.volume_name);
}

std::string render(const object& o) {
  return std::visit(
    [](const auto& p) -> std::string {
      if constexpr (requires { render(*p); })
        return render(*p);
      else
        return "not a storage object";
    },
    o);
}

struct test_case {
  std::string name;
  std::string json;
  std::string want;
};

void run_cases(const std::vector<test_case>& cases) {
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_object_json(tc.json, decode_options{false});
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(render(*got), tc.want);
  }
}

TEST(DecodeStorage, PersistentVolumes) {
  run_cases({
    {"every field of a local volume",
     R"({"apiVersion":"v1","kind":"PersistentVolume",
         "metadata":{"name":"pv1","uid":"u1","labels":{"zone":"a"}},
         "spec":{"capacity":{"storage":"10Gi"},
                 "accessModes":["ReadWriteOnce","ReadOnlyMany"],
                 "volumeMode":"Block","storageClassName":"local",
                 "persistentVolumeReclaimPolicy":"Retain",
                 "mountOptions":["ro"],
                 "volumeAttributesClassName":"gold",
                 "claimRef":{"kind":"PersistentVolumeClaim","namespace":"ns",
                             "name":"c","uid":"cu"},
                 "local":{"path":"/mnt/disk"},
                 "nodeAffinity":{"required":{"nodeSelectorTerms":[
                   {"matchExpressions":[{"key":"kubernetes.io/hostname",
                     "operator":"In","values":["n1","n2"]}]}]}}},
         "status":{"phase":"Bound"}})",
     "pv pv1 uid=u1 labels=zone=a class=local capacity=10737418240 "
     "modes=RWO,ROX block affinity=kubernetes.io/hostname=n1,n2 "
     "claim=ns/c@cu phase=Bound source=local vac=gold"},
    {"class from the beta annotation",
     R"({"apiVersion":"v1","kind":"PersistentVolume",
         "metadata":{"name":"pv2","annotations":{
           "volume.beta.kubernetes.io/storage-class":"old"}},
         "spec":{"hostPath":{"path":"/x"}},
         "status":{"phase":"Available"}})",
     "pv pv2 class=old phase=Available source=hostPath"},
    {"the beta annotation wins over spec.storageClassName",
     R"({"apiVersion":"v1","kind":"PersistentVolume",
         "metadata":{"name":"pv3","annotations":{
           "volume.beta.kubernetes.io/storage-class":"old"}},
         "spec":{"storageClassName":"new"}})",
     "pv pv3 class=old phase=Pending"},
    {"claimRef without namespace and uid (pre-bound)",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"claimRef":{"name":"c"}}})",
     "pv p claim=default/c phase=Pending"},
    {"csi source keeps driver and handle",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"vol-1"}}})",
     "pv p phase=Pending source=csi attach=ebs.csi.aws.com:vol-1"},
    {"gcePersistentDisk is translated to the GCE PD CSI driver",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"gcePersistentDisk":{"pdName":"disk-1","fsType":"ext4"}}})",
     "pv p phase=Pending source=gcePersistentDisk "
     "attach=pd.csi.storage.gke.io:disk-1"},
    {"awsElasticBlockStore is translated to the EBS CSI driver",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"awsElasticBlockStore":{"volumeID":"vol-2"}}})",
     "pv p phase=Pending source=awsElasticBlockStore "
     "attach=ebs.csi.aws.com:vol-2"},
    {"azureDisk is translated to the Azure disk CSI driver",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"azureDisk":{"diskName":"d","diskURI":"uri-3"}}})",
     "pv p phase=Pending source=azureDisk attach=disk.csi.azure.com:uri-3"},
    {"cinder is translated to the Cinder CSI driver",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"cinder":{"volumeID":"c-4"}}})",
     "pv p phase=Pending source=cinder attach=cinder.csi.openstack.org:c-4"},
    {"portworxVolume is translated to the Portworx CSI driver",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"portworxVolume":{"volumeID":"px-5"}}})",
     "pv p phase=Pending source=portworxVolume attach=pxd.portworx.com:px-5"},
    {"vsphereVolume is not counted, as upstream",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"vsphereVolume":{"volumePath":"[ds] v.vmdk"}}})",
     "pv p phase=Pending source=vsphereVolume"},
    {"nfs is not attached",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"nfs":{"server":"s","path":"/"}}})",
     "pv p phase=Pending source=nfs"},
  });
}

TEST(DecodeStorage, PersistentVolumeClaims) {
  run_cases({
    {"every field",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c","namespace":"ns","uid":"cu",
           "deletionTimestamp":"2026-01-01T00:00:00Z",
           "annotations":{"volume.kubernetes.io/selected-node":"n1",
                          "pv.kubernetes.io/bind-completed":"yes"},
           "ownerReferences":[
             {"apiVersion":"v1","kind":"Pod","name":"other","uid":"o1"},
             {"apiVersion":"v1","kind":"Pod","name":"p","uid":"pu",
              "controller":true}]},
         "spec":{"storageClassName":"fast","volumeName":"pv1",
                 "accessModes":["ReadWriteOncePod"],"volumeMode":"Block",
                 "volumeAttributesClassName":"gold",
                 "selector":{"matchLabels":{"tier":"db"}},
                 "resources":{"requests":{"storage":"1500Mi"}}},
         "status":{"phase":"Bound"}})",
     "pvc ns/c uid=cu class=fast volume=pv1 modes=RWOP block "
     "request=1572864000 selector=tier=db selected=n1 bind-completed "
     "phase=Bound deleting controller=pu vac=gold"},
    {"no namespace is the default one, no class is unset",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c"},
         "spec":{"accessModes":["ReadWriteOnce","ReadWriteMany"]}})",
     "pvc default/c modes=RWO,RWX phase=Pending"},
    {"empty class means no class",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c"},"spec":{"storageClassName":""},
         "status":{"phase":"Lost"}})",
     "pvc default/c class=\"\" phase=Lost"},
    {"class from the beta annotation",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c","annotations":{
           "volume.beta.kubernetes.io/storage-class":"old"}},
         "spec":{"storageClassName":null}})",
     "pvc default/c class=old phase=Pending"},
    {"the beta annotation wins over spec.storageClassName",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c","annotations":{
           "volume.beta.kubernetes.io/storage-class":"old"}},
         "spec":{"storageClassName":"new"}})",
     "pvc default/c class=old phase=Pending"},
    {"an owner that is not the controller is not kept",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c","ownerReferences":[
           {"apiVersion":"v1","kind":"Pod","name":"p","uid":"pu",
            "controller":false}]}})",
     "pvc default/c phase=Pending"},
  });
}

TEST(DecodeStorage, StorageClassesAndCsiObjects) {
  run_cases({
    {"storage class defaults to Immediate",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",
         "metadata":{"name":"std"},"provisioner":"kubernetes.io/gce-pd",
         "reclaimPolicy":"Delete"})",
     "sc std provisioner=kubernetes.io/gce-pd"},
    {"WaitForFirstConsumer with allowedTopologies",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",
         "metadata":{"name":"local"},
         "provisioner":"kubernetes.io/no-provisioner",
         "volumeBindingMode":"WaitForFirstConsumer",
         "allowedTopologies":[
           {"matchLabelExpressions":[
             {"key":"topology.kubernetes.io/zone","values":["a","b"]},
             {"key":"disk","values":["ssd"]}]},
           {"matchLabelExpressions":[{"key":"zone","values":["c"]}]}]})",
     "sc local provisioner=kubernetes.io/no-provisioner wffc "
     "topology=topology.kubernetes.io/zone:a,b;disk:ssd; topology=zone:c;"},
    {"CSINode allocatable counts, absent and null mean no limit",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSINode",
         "metadata":{"name":"n1"},
         "spec":{"drivers":[
           {"name":"ebs.csi.aws.com","nodeID":"i-1",
            "allocatable":{"count":25}},
           {"name":"pd.csi.storage.gke.io","nodeID":"x"},
           {"name":"d3","nodeID":"y","allocatable":{"count":null}}]}})",
     "csinode n1 ebs.csi.aws.com=25 pd.csi.storage.gke.io=unlimited "
     "d3=unlimited"},
    {"CSIDriver defaults: attach required, no capacity tracking",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver",
         "metadata":{"name":"d1"},"spec":{}})",
     "csidriver d1 attach=true capacity=false"},
    {"CSIDriver with both set",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver",
         "metadata":{"name":"d2"},
         "spec":{"attachRequired":false,"storageCapacity":true}})",
     "csidriver d2 attach=false capacity=true"},
    {"CSIStorageCapacity with capacity and maximumVolumeSize",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity",
         "metadata":{"name":"cap1","namespace":"kube-system"},
         "storageClassName":"fast",
         "nodeTopology":{"matchLabels":{"zone":"a"}},
         "capacity":"100Gi","maximumVolumeSize":"10Gi"})",
     "capacity kube-system/cap1 class=fast topology=zone=a "
     "capacity=107374182400 max=10737418240"},
    {"CSIStorageCapacity without topology matches no node",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity",
         "metadata":{"name":"cap2"},"storageClassName":"fast"})",
     "capacity default/cap2 class=fast topology=<none>"},
    {"VolumeAttachment of a PV",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment",
         "metadata":{"name":"csi-1"},
         "spec":{"attacher":"ebs.csi.aws.com","nodeName":"n1",
                 "source":{"persistentVolumeName":"pv1"}}})",
     "va csi-1 attacher=ebs.csi.aws.com node=n1 pv=pv1"},
    {"VolumeAttachment of an inline volume",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment",
         "metadata":{"name":"csi-2"},
         "spec":{"attacher":"a","nodeName":"n2",
                 "source":{"inlineVolumeSpec":{}}}})",
     "va csi-2 attacher=a node=n2 pv=<inline>"},
  });
}

TEST(DecodeStorage, ReportsThePathAndTheProblem) {
  struct error_case {
    std::string name;
    std::string json;
    std::string want;
  };
  const std::vector<error_case> cases = {
    {"negative PV capacity",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"capacity":{"storage":"-1Gi"}}})",
     "spec.capacity.storage: must be greater than or equal to 0"},
    {"bad PV capacity",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"capacity":{"storage":"lots"}}})",
     R"(spec.capacity.storage: invalid quantity "lots")"},
    {"negative claim request",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c"},
         "spec":{"resources":{"requests":{"storage":"-5"}}}})",
     "spec.resources.requests.storage: must be greater than or equal to 0"},
    {"unknown access mode",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c"},
         "spec":{"accessModes":["ReadWriteOnce","WriteOnly"]}})",
     R"(spec.accessModes[1]: unsupported value "WriteOnly": supported )"
     R"(values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", )"
     R"("ReadWriteOncePod")"},
    {"unknown volume mode",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"volumeMode":"Raw"}})",
     R"(spec.volumeMode: unsupported value "Raw": supported values: )"
     R"("Block", "Filesystem")"},
    {"unknown claim phase",
     R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
         "metadata":{"name":"c"},"status":{"phase":"Gone"}})",
     R"(status.phase: unsupported value "Gone": supported values: )"
     R"("Bound", "Lost", "Pending")"},
    {"csi source without a handle of the right type",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
         "spec":{"csi":{"driver":"d","volumeHandle":7}}})",
     "spec.csi.volumeHandle: expected string, got integer"},
    {"missing provisioner",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",
         "metadata":{"name":"sc"}})",
     "provisioner: required value"},
    {"unknown binding mode",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",
         "metadata":{"name":"sc"},"provisioner":"p",
         "volumeBindingMode":"Later"})",
     R"(volumeBindingMode: unsupported value "Later": supported values: )"
     R"("Immediate", "WaitForFirstConsumer")"},
    {"allowedTopologies requirement without values",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",
         "metadata":{"name":"sc"},"provisioner":"p",
         "allowedTopologies":[{"matchLabelExpressions":[{"key":"z"}]}]})",
     "allowedTopologies[0].matchLabelExpressions[0].values: must specify as "
     "least one value"},
    {"negative CSINode count",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSINode",
         "metadata":{"name":"n"},
         "spec":{"drivers":[{"name":"d","allocatable":{"count":-1}}]}})",
     "spec.drivers[0].allocatable.count: must be greater than or equal to 0"},
    {"CSINode driver without name",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSINode",
         "metadata":{"name":"n"},"spec":{"drivers":[{"nodeID":"x"}]}})",
     "spec.drivers[0].name: required value"},
    {"CSIDriver attachRequired of the wrong type",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver",
         "metadata":{"name":"d"},"spec":{"attachRequired":"yes"}})",
     "spec.attachRequired: expected boolean, got string"},
    {"CSIStorageCapacity without class",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity",
         "metadata":{"name":"c"}})",
     "storageClassName: required value"},
    {"negative CSIStorageCapacity capacity",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity",
         "metadata":{"name":"c"},"storageClassName":"s",
         "capacity":"-1"})",
     "capacity: must be greater than or equal to 0"},
    {"VolumeAttachment node of the wrong type",
     R"({"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment",
         "metadata":{"name":"v"},"spec":{"nodeName":1}})",
     "spec.nodeName: expected string, got integer"},
    {"PV without a name",
     R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{}})",
     "metadata.name: required value"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_object_json(tc.json, decode_options{false});
    ASSERT_FALSE(got) << render(*got);
    EXPECT_EQ(got.err().code, ec::invalid_input);
    EXPECT_EQ(got.err().message, tc.want);
  }
}

// --- pod volumes
// ---------------------------------------------------------------

std::string render(const volume& v) {
  std::string out = v.name + ":" + v.type;
  if (!v.claim_name.empty())
    out += " claim=" + v.claim_name;
  if (v.ephemeral)
    out += " ephemeral";
  if (v.read_only)
    out += " ro";
  if (!v.disk_id.empty())
    out += " disk=" + v.disk_id;
  for (const auto& m : v.rbd_monitors)
    out += " mon=" + m;
  if (!v.attach.driver.empty())
    out += " attach=" + v.attach.driver + ":" + v.attach.handle;
  return out;
}

std::string pod_with_volumes(std::string_view volumes) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},)"
         R"("spec":{"containers":[{"name":"c"}],"volumes":[)"
         + std::string{volumes} + "]}}";
}

TEST(DecodeStorage, PodVolumes) {
  struct volume_case {
    std::string name;
    std::string volumes;
    std::vector<std::string> want;
  };
  const std::vector<volume_case> cases = {
    {"claim, read only",
     R"({"name":"data","persistentVolumeClaim":{"claimName":"c1",
         "readOnly":true}})",
     {"data:persistentVolumeClaim claim=c1 ro"}},
    {"generic ephemeral volume is claimed as <pod>-<volume>",
     R"({"name":"scratch","ephemeral":{"volumeClaimTemplate":{
         "spec":{"accessModes":["ReadWriteOnce"]}}}})",
     {"scratch:ephemeral claim=web-scratch ephemeral"}},
    {"gcePersistentDisk",
     R"({"name":"g","gcePersistentDisk":{"pdName":"pd-1","readOnly":true}})",
     {"g:gcePersistentDisk ro disk=pd-1 attach=pd.csi.storage.gke.io:pd-1"}},
    {"awsElasticBlockStore",
     R"({"name":"a","awsElasticBlockStore":{"volumeID":"vol-1"}})",
     {"a:awsElasticBlockStore disk=vol-1 attach=ebs.csi.aws.com:vol-1"}},
    {"rbd with the default pool",
     R"({"name":"r","rbd":{"image":"img","monitors":["m1","m2"],
         "readOnly":true}})",
     {"r:rbd ro disk=rbd/img mon=m1 mon=m2"}},
    {"rbd with a pool",
     R"({"name":"r","rbd":{"pool":"p","image":"img","monitors":["m1"]}})",
     {"r:rbd disk=p/img mon=m1"}},
    {"iscsi",
     R"({"name":"i","iscsi":{"targetPortal":"t","iqn":"iqn.x","lun":0}})",
     {"i:iscsi disk=iqn.x"}},
    {"inline csi is not attached",
     R"({"name":"s","csi":{"driver":"secrets-store"}})",
     {"s:csi"}},
    {"emptyDir and configMap",
     R"({"name":"e","emptyDir":{}},{"name":"cm","configMap":{"name":"x"}})",
     {"e:emptyDir", "cm:configMap"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_pod_json(pod_with_volumes(tc.volumes));
    ASSERT_TRUE(got) << got.err().message;
    std::vector<std::string> rendered;
    for (const auto& v : got->volumes)
      rendered.push_back(render(v));
    EXPECT_EQ(rendered, tc.want);
  }
}

TEST(DecodeStorage, ReportsPodVolumeErrorsWithTheirPath) {
  struct error_case {
    std::string name;
    std::string volumes;
    std::string want;
  };
  const std::vector<error_case> cases = {
    {"claim without name", R"({"name":"d","persistentVolumeClaim":{}})",
     "spec.volumes[0].persistentVolumeClaim.claimName: required value"},
    {"readOnly of the wrong type",
     R"({"name":"d","persistentVolumeClaim":{"claimName":"c",
         "readOnly":"yes"}})",
     "spec.volumes[0].persistentVolumeClaim.readOnly: expected boolean, got "
     "string"},
    {"gce disk name of the wrong type",
     R"({"name":"g","gcePersistentDisk":{"pdName":5}})",
     "spec.volumes[0].gcePersistentDisk.pdName: expected string, got integer"},
    {"azure disk URI of the wrong type",
     R"({"name":"z","azureDisk":{"diskName":"d","diskURI":5}})",
     "spec.volumes[0].azureDisk.diskURI: expected string, got integer"},
    {"rbd monitor of the wrong type",
     R"({"name":"x","emptyDir":{}},{"name":"r","rbd":{"image":"i",
         "monitors":[true]}})",
     "spec.volumes[1].rbd.monitors[0]: expected string, got boolean"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = decode_pod_json(pod_with_volumes(tc.volumes));
    ASSERT_FALSE(got);
    EXPECT_EQ(got.err().message, tc.want);
  }
}

} // namespace
} // namespace tessera::model::storage_json_test
