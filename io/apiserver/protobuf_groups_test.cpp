// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The named groups' kinds as a Go client writes them (from the generated
// classes), decoded into the JSON the server stores.
#include "io/apiserver/kube_core.pb.h"
#include "io/apiserver/kube_groups.pb.h"
#include "io/apiserver/test_protobuf.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
using test::decode;
using test::envelope;

TEST(ProtobufGroups, ReplicaSetWithStatus) {
  kube::ReplicaSet rs;
  rs.mutable_metadata()->set_name("web-5d8f");
  rs.mutable_metadata()->set_namespace_("default");
  auto* owner = rs.mutable_metadata()->add_ownerreferences();
  owner->set_apiversion("apps/v1");
  owner->set_kind("Deployment");
  owner->set_name("web");
  owner->set_controller(true);
  auto* spec = rs.mutable_spec();
  spec->set_replicas(0); // scaled down: a pointer, so the zero is kept
  (*spec->mutable_selector()->mutable_matchlabels())["app"] = "web";
  (*spec->mutable_template_()->mutable_metadata()->mutable_labels())["app"]
    = "web";
  auto* c = spec->mutable_template_()->mutable_spec()->add_containers();
  c->set_name("web");
  c->set_image("nginx");
  spec->set_minreadyseconds(0);
  auto* status = rs.mutable_status();
  status->set_replicas(0);
  status->set_observedgeneration(2);
  status->set_terminatingreplicas(1);
  auto* cond = status->add_conditions();
  cond->set_type("ReplicaFailure");
  cond->set_status("True");
  cond->mutable_lasttransitiontime()->set_seconds(1767323045);
  cond->set_reason("FailedCreate");
  EXPECT_EQ(decode(envelope(rs, "apps/v1", "ReplicaSet")),
            json::parse(R"({"kind":"ReplicaSet","apiVersion":"apps/v1",
              "metadata":{"name":"web-5d8f","namespace":"default",
                "ownerReferences":[{"kind":"Deployment","name":"web",
                  "apiVersion":"apps/v1","controller":true}]},
              "spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"}},
                "template":{"metadata":{"labels":{"app":"web"}},
                  "spec":{"containers":[{"name":"web","image":"nginx"}]}}},
              "status":{"replicas":0,"observedGeneration":2,
                "conditions":[{"type":"ReplicaFailure","status":"True",
                  "lastTransitionTime":"2026-01-02T03:04:05Z",
                  "reason":"FailedCreate"}],
                "terminatingReplicas":1}})"));
}

TEST(ProtobufGroups, StatefulSetAndDaemonSet) {
  kube::StatefulSet ss;
  ss.mutable_metadata()->set_name("db");
  auto* spec = ss.mutable_spec();
  spec->set_replicas(3);
  spec->set_servicename("db");
  spec->set_podmanagementpolicy("Parallel");
  spec->mutable_updatestrategy()->set_type("RollingUpdate");
  spec->mutable_updatestrategy()->mutable_rollingupdate()->set_partition(0);
  auto* unavailable = spec->mutable_updatestrategy()
                        ->mutable_rollingupdate()
                        ->mutable_maxunavailable();
  unavailable->set_type(1);
  unavailable->set_strval("50%");
  spec->set_revisionhistorylimit(0);
  spec->mutable_persistentvolumeclaimretentionpolicy()->set_whendeleted(
    "Delete");
  spec->mutable_ordinals()->set_start(0);
  auto* status = ss.mutable_status();
  status->set_replicas(3);
  status->set_readyreplicas(2);
  status->set_currentrevision("db-7c9d");
  status->set_updaterevision("db-5f6b");
  status->set_collisioncount(0);
  status->set_availablereplicas(0);
  EXPECT_EQ(decode(envelope(ss, "apps/v1", "StatefulSet")),
            json::parse(R"({"kind":"StatefulSet","apiVersion":"apps/v1",
              "metadata":{"name":"db"},
              "spec":{"replicas":3,"serviceName":"db",
                "podManagementPolicy":"Parallel",
                "updateStrategy":{"type":"RollingUpdate",
                  "rollingUpdate":{"partition":0,"maxUnavailable":"50%"}},
                "revisionHistoryLimit":0,
                "persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete"},
                "ordinals":{"start":0}},
              "status":{"replicas":3,"readyReplicas":2,
                "currentRevision":"db-7c9d","updateRevision":"db-5f6b",
                "collisionCount":0,"availableReplicas":0}})"));

  kube::DaemonSet ds;
  ds.mutable_metadata()->set_name("agent");
  ds.mutable_metadata()->set_namespace_("kube-system");
  auto* dspec = ds.mutable_spec();
  (*dspec->mutable_selector()->mutable_matchlabels())["app"] = "agent";
  dspec->mutable_updatestrategy()->set_type("RollingUpdate");
  auto* rolling = dspec->mutable_updatestrategy()->mutable_rollingupdate();
  rolling->mutable_maxunavailable()->set_intval(1);
  rolling->mutable_maxsurge()->set_intval(0);
  dspec->set_revisionhistorylimit(10);
  auto* dstatus = ds.mutable_status();
  // A DaemonSet on no node yet: Go writes these four counts even at zero.
  dstatus->set_currentnumberscheduled(0);
  dstatus->set_numbermisscheduled(0);
  dstatus->set_desirednumberscheduled(0);
  dstatus->set_numberready(0);
  dstatus->set_observedgeneration(1);
  dstatus->set_numberunavailable(0);
  EXPECT_EQ(decode(envelope(ds, "apps/v1", "DaemonSet")),
            json::parse(R"({"kind":"DaemonSet","apiVersion":"apps/v1",
              "metadata":{"name":"agent","namespace":"kube-system"},
              "spec":{"selector":{"matchLabels":{"app":"agent"}},
                "updateStrategy":{"type":"RollingUpdate",
                  "rollingUpdate":{"maxUnavailable":1,"maxSurge":0}},
                "revisionHistoryLimit":10},
              "status":{"currentNumberScheduled":0,"numberMisscheduled":0,
                "desiredNumberScheduled":0,"numberReady":0,
                "observedGeneration":1}})"));
}

TEST(ProtobufGroups, JobWithPoliciesAndStatus) {
  kube::Job job;
  job.mutable_metadata()->set_name("report");
  auto* spec = job.mutable_spec();
  spec->set_parallelism(0); // suspended by scaling to zero
  spec->set_completions(4);
  spec->set_backofflimit(0);
  spec->set_completionmode("Indexed");
  spec->set_suspend(false);
  spec->set_manualselector(false);
  spec->set_backofflimitperindex(1);
  spec->set_maxfailedindexes(0);
  spec->set_podreplacementpolicy("Failed");
  spec->set_managedby("kubernetes.io/job-controller");
  auto* rule = spec->mutable_podfailurepolicy()->add_rules();
  rule->set_action("FailJob");
  rule->mutable_onexitcodes()->set_operator_("In");
  rule->mutable_onexitcodes()->add_values(3);
  rule->mutable_onexitcodes()->add_values(42);
  auto* ignore = spec->mutable_podfailurepolicy()->add_rules();
  ignore->set_action("Ignore");
  auto* pattern = ignore->add_onpodconditions();
  pattern->set_type("DisruptionTarget");
  pattern->set_status("True");
  auto* success = spec->mutable_successpolicy()->add_rules();
  success->set_succeededindexes("0-2");
  success->set_succeededcount(0);
  auto* status = job.mutable_status();
  status->mutable_starttime()->set_seconds(1767323045);
  status->set_active(0);
  status->set_succeeded(2);
  status->set_ready(0);
  status->set_terminating(0);
  status->set_completedindexes("0-1");
  status->set_failedindexes("");
  status->mutable_uncountedterminatedpods()->add_succeeded("u-1");
  auto* cond = status->add_conditions();
  cond->set_type("SuccessCriteriaMet");
  cond->set_status("True");
  cond->mutable_lastprobetime()->set_seconds(1767326706);
  cond->mutable_lasttransitiontime()->set_seconds(1767326706);
  EXPECT_EQ(decode(envelope(job, "batch/v1", "Job")),
            json::parse(R"({"kind":"Job","apiVersion":"batch/v1",
              "metadata":{"name":"report"},
              "spec":{"parallelism":0,"completions":4,"manualSelector":false,
                "backoffLimit":0,"completionMode":"Indexed","suspend":false,
                "podFailurePolicy":{"rules":[
                  {"action":"FailJob",
                   "onExitCodes":{"operator":"In","values":[3,42]}},
                  {"action":"Ignore","onPodConditions":[
                    {"type":"DisruptionTarget","status":"True"}]}]},
                "backoffLimitPerIndex":1,"maxFailedIndexes":0,
                "podReplacementPolicy":"Failed",
                "managedBy":"kubernetes.io/job-controller",
                "successPolicy":{"rules":[
                  {"succeededIndexes":"0-2","succeededCount":0}]}},
              "status":{"conditions":[{"type":"SuccessCriteriaMet",
                  "status":"True","lastProbeTime":"2026-01-02T04:05:06Z",
                  "lastTransitionTime":"2026-01-02T04:05:06Z"}],
                "startTime":"2026-01-02T03:04:05Z","succeeded":2,
                "completedIndexes":"0-1",
                "uncountedTerminatedPods":{"succeeded":["u-1"]},
                "ready":0,"failedIndexes":"","terminating":0}})"));
}

TEST(ProtobufGroups, StorageKinds) {
  kube::StorageClass sc;
  sc.mutable_metadata()->set_name("gp3");
  sc.set_provisioner("ebs.csi.aws.com");
  (*sc.mutable_parameters())["type"] = "gp3";
  sc.set_reclaimpolicy("Retain");
  sc.set_allowvolumeexpansion(false);
  sc.set_volumebindingmode("WaitForFirstConsumer");
  auto* req = sc.add_allowedtopologies()->add_matchlabelexpressions();
  req->set_key("topology.kubernetes.io/zone");
  req->add_values("us-east-1a");
  EXPECT_EQ(decode(envelope(sc, "storage.k8s.io/v1", "StorageClass")),
            json::parse(R"({"kind":"StorageClass",
              "apiVersion":"storage.k8s.io/v1","metadata":{"name":"gp3"},
              "provisioner":"ebs.csi.aws.com","parameters":{"type":"gp3"},
              "reclaimPolicy":"Retain","allowVolumeExpansion":false,
              "volumeBindingMode":"WaitForFirstConsumer",
              "allowedTopologies":[{"matchLabelExpressions":[
                {"key":"topology.kubernetes.io/zone",
                 "values":["us-east-1a"]}]}]})"));

  kube::CSINode node;
  node.mutable_metadata()->set_name("node-1");
  auto* driver = node.mutable_spec()->add_drivers();
  driver->set_name("ebs.csi.aws.com");
  driver->set_nodeid("i-0abc");
  driver->add_topologykeys("topology.kubernetes.io/zone");
  driver->mutable_allocatable()->set_count(0); // no volume may attach
  EXPECT_EQ(decode(envelope(node, "storage.k8s.io/v1", "CSINode")),
            json::parse(R"({"kind":"CSINode","apiVersion":"storage.k8s.io/v1",
              "metadata":{"name":"node-1"},
              "spec":{"drivers":[{"name":"ebs.csi.aws.com","nodeID":"i-0abc",
                "topologyKeys":["topology.kubernetes.io/zone"],
                "allocatable":{"count":0}}]}})"));

  kube::CSIDriver csi;
  csi.mutable_metadata()->set_name("ebs.csi.aws.com");
  auto* cspec = csi.mutable_spec();
  cspec->set_attachrequired(true);
  cspec->set_podinfoonmount(false);
  cspec->add_volumelifecyclemodes("Persistent");
  cspec->set_storagecapacity(true);
  cspec->set_fsgrouppolicy("File");
  auto* token = cspec->add_tokenrequests();
  token->set_audience(""); // the API server's own audience
  token->set_expirationseconds(3600);
  cspec->set_requiresrepublish(false);
  cspec->set_nodeallocatableupdateperiodseconds(60);
  EXPECT_EQ(decode(envelope(csi, "storage.k8s.io/v1", "CSIDriver")),
            json::parse(R"({"kind":"CSIDriver",
              "apiVersion":"storage.k8s.io/v1",
              "metadata":{"name":"ebs.csi.aws.com"},
              "spec":{"attachRequired":true,"podInfoOnMount":false,
                "volumeLifecycleModes":["Persistent"],"storageCapacity":true,
                "fsGroupPolicy":"File",
                "tokenRequests":[{"audience":"","expirationSeconds":3600}],
                "requiresRepublish":false,
                "nodeAllocatableUpdatePeriodSeconds":60}})"));

  kube::CSIStorageCapacity cap;
  cap.mutable_metadata()->set_name("csisc-1");
  cap.mutable_metadata()->set_namespace_("kube-system");
  (*cap.mutable_nodetopology()
      ->mutable_matchlabels())["topology.kubernetes.io/zone"]
    = "us-east-1a";
  cap.set_storageclassname("gp3");
  cap.mutable_capacity()->set_string("100Gi");
  cap.mutable_maximumvolumesize()->set_string("0");
  EXPECT_EQ(decode(envelope(cap, "storage.k8s.io/v1", "CSIStorageCapacity")),
            json::parse(R"({"kind":"CSIStorageCapacity",
              "apiVersion":"storage.k8s.io/v1",
              "metadata":{"name":"csisc-1","namespace":"kube-system"},
              "nodeTopology":{"matchLabels":
                {"topology.kubernetes.io/zone":"us-east-1a"}},
              "storageClassName":"gp3","capacity":"100Gi",
              "maximumVolumeSize":"0"})"));

  kube::VolumeAttachment va;
  va.mutable_metadata()->set_name("csi-3f2a");
  va.mutable_spec()->set_attacher("ebs.csi.aws.com");
  va.mutable_spec()->mutable_source()->set_persistentvolumename("pv-1");
  va.mutable_spec()->set_nodename("node-1");
  va.mutable_status()->set_attached(false);
  auto* err = va.mutable_status()->mutable_attacherror();
  err->mutable_time()->set_seconds(1767323045);
  err->set_message("rpc error: code = Internal");
  err->set_errorcode(13);
  EXPECT_EQ(decode(envelope(va, "storage.k8s.io/v1", "VolumeAttachment")),
            json::parse(R"({"kind":"VolumeAttachment",
              "apiVersion":"storage.k8s.io/v1","metadata":{"name":"csi-3f2a"},
              "spec":{"attacher":"ebs.csi.aws.com",
                "source":{"persistentVolumeName":"pv-1"},"nodeName":"node-1"},
              "status":{"attached":false,"attachError":{
                "time":"2026-01-02T03:04:05Z",
                "message":"rpc error: code = Internal","errorCode":13}}})"));
}

TEST(ProtobufGroups, Scale) {
  kube::Scale s;
  s.mutable_metadata()->set_name("web");
  s.mutable_metadata()->set_namespace_("default");
  s.mutable_metadata()->set_resourceversion("48213");
  s.mutable_spec()->set_replicas(0); // omitempty in Go: dropped
  s.mutable_status()->set_replicas(0);
  s.mutable_status()->set_selector("app=web");
  EXPECT_EQ(decode(envelope(s, "autoscaling/v1", "Scale")),
            json::parse(R"({"kind":"Scale","apiVersion":"autoscaling/v1",
              "metadata":{"name":"web","namespace":"default",
                "resourceVersion":"48213"},
              "spec":{},"status":{"replicas":0,"selector":"app=web"}})"));
}

} // namespace
} // namespace tessera::apiserver
