#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpora fuzz/corpus/<target>/ from the project's examples,
perf templates, configuration examples and test data, plus a few hand-written
inputs per target (fuzz/README.md). Run from anywhere; it replaces the
generated seeds and keeps files named crash-* (inputs that once crashed a
target, kept as regression seeds)."""
import glob
import json
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def docs_of(path):
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if isinstance(d, dict)]


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), sort_keys=False)


def example_files():
    return sorted(glob.glob(os.path.join(ROOT, "examples", "*.yaml")))


def template_files():
    return sorted(glob.glob(os.path.join(ROOT, "perf", "workloads",
                                         "templates", "*.yaml")))


def config_files():
    return sorted(glob.glob(os.path.join(ROOT, "examples", "config", "*.yaml"))
                  + glob.glob(os.path.join(ROOT, "config", "testdata", "*")))


def objects(kind, limit):
    """Distinct objects of `kind` from the examples and perf templates."""
    seen, out = set(), []
    for path in example_files() + template_files():
        for d in docs_of(path):
            if d.get("kind") != kind:
                continue
            text = compact(d)
            if text not in seen:
                seen.add(text)
                out.append(d)
    return out[:limit]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def http(method, target, body="", content_type="application/json",
         accept="application/json"):
    head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if accept:
        head += f"Accept: {accept}\r\n"
    if body:
        head += f"Content-Type: {content_type}\r\n"
        head += f"Content-Length: {len(body.encode())}\r\n"
    return head + "\r\n" + body


def seeds():
    pods = objects("Pod", 12)
    nodes = objects("Node", 6)
    s = {}
    s["pod_decode"] = [compact(p) for p in pods]
    s["node_decode"] = [compact(n) for n in nodes]
    s["list_decode"] = [
        "Pod\n" + compact({"kind": "PodList", "apiVersion": "v1",
                           "metadata": {"resourceVersion": "42"},
                           "items": pods[:3]}),
        "\n" + compact({"kind": "NodeList", "apiVersion": "v1",
                        "metadata": {"resourceVersion": "7",
                                     "continue": "abc"},
                        "items": nodes[:3]}),
        "\n" + compact({"kind": "List", "apiVersion": "v1",
                        "items": nodes[:1] + pods[:1]}),
        "Pod\n" + compact({"kind": "PodList", "items": [
            pods[0], {"metadata": {"name": "bad", "namespace": "x"},
                      "spec": {"containers": "no"}}]}),
    ]
    events = []
    for t in ("ADDED", "MODIFIED", "DELETED"):
        events.append("Pod\n" + compact({"type": t, "object": pods[0]}))
    events.append("Node\n" + compact({"type": "ADDED", "object": nodes[0]}))
    events.append("Pod\n" + compact({"type": "BOOKMARK", "object": {
        "kind": "Pod", "metadata": {"resourceVersion": "12", "annotations": {
            "k8s.io/initial-events-end": "true"}}}}))
    events.append("Pod\n" + compact({"type": "ERROR", "object": {
        "kind": "Status", "apiVersion": "v1", "status": "Failure",
        "code": 410, "reason": "Expired",
        "message": "too old resource version: 1 (5)"}}))
    s["watch_event_decode"] = events
    s["manifest_decode"] = [read(p) for p in example_files()] + [
        compact({"kind": "List", "apiVersion": "v1", "items": pods[:2]})]
    s["yaml_to_json"] = ([read(p) for p in template_files()] + [
        "a: &x {b: [1, 0x1F, 0o17, 1_000, .5, 1e3, ~, yes, off]}\nc: *x\n"
        "d:\n  <<: *x\n  e: |\n    block\n",
        "- 'single'\n- \"double\\n\"\n- plain text\n---\nk: >-\n  folded\n"])
    s["quantity_parse"] = [
        "1", "0", "-1", "100m", "1.5", "1.5Gi", "1536Mi", "1Ki", "-0.0Ki",
        "1e3", "1E3", "1e-3", "+1k", ".5", "5.", "12x", "1n", "1u", "9Ei",
        "16Ei", "8Ei", "0.1Ki", "123456789012345678901234567890",
        "1e400", "1e21", "999999999999999999E", "-", "Mi", "1.000000001",
        "0.0000000001"]
    s["label_selector_parse"] = [
        "", "app=web", "app==web", "app!=web", "app in (a,b)",
        "tier notin (x, y),env", "!canary", "k8s.io/name=v,app",
        "k=", "k in ()", "a=b,c in (d),!e,f notin (g)", "x>1"]
    s["field_selector_parse"] = [
        "pods\nspec.nodeName=", "pods\nstatus.phase!=Running,"
        "spec.schedulerName=default-scheduler",
        "events\ninvolvedObject.name=a\\,b,reason==Scheduled",
        "nodes\nspec.unschedulable=false", "\nmetadata.name=x",
        "namespaces\nstatus.phase=Active", "pods\nmetadata.namespace==kube-system"]
    s["scheduler_config"] = [read(p) for p in config_files()]
    kc = ("apiVersion: v1\nkind: Config\nclusters:\n- name: c1\n  cluster:\n"
          "    server: https://10.0.0.1:6443\n{extra}users:\n- name: u1\n"
          "  user:\n{user}contexts:\n- name: ctx\n  context: {{cluster: c1, "
          "user: u1, namespace: team}}\ncurrent-context: ctx\n")
    s["kubeconfig_parse"] = [
        kc.format(extra="", user="    token: s3cret\n"),
        kc.format(extra="    insecure-skip-tls-verify: true\n",
                  user="    username: a\n    password: b\n"),
        kc.format(extra="    certificate-authority-data: bm90IGEgY2VydA==\n"
                  "    tls-server-name: api.local\n",
                  user="    exec:\n      apiVersion: "
                  "client.authentication.k8s.io/v1\n      command: "
                  "get-token\n      args: [--x]\n      env: [{name: A, "
                  "value: b}]\n      interactiveMode: Never\n"),
        kc.format(extra="    proxy-url: http://proxy:3128\n",
                  user="    client-certificate-data: eA==\n"
                  "    client-key-data: eA==\n"),
        "apiVersion: v1\nkind: Config\nclusters: []\ncurrent-context: x\n",
    ]
    pod = dict(pods[0])
    pod.setdefault("metadata", {})
    pod["metadata"] = dict(pod["metadata"], name="p1", namespace="default")
    pod.pop("status", None)
    pod_body = compact(pod)
    node = dict(nodes[0])
    node["metadata"] = dict(node.get("metadata", {}), name="n1")
    ns_pods = "/api/v1/namespaces/default/pods"
    typed = "application/vnd.kubernetes.protobuf, application/json"
    s["apiserver_http"] = [
        http("GET", "/api") + http("GET", "/apis") + http("GET", "/version"),
        http("GET", "/healthz") + http("GET", "/openapi/v2"),
        http("POST", ns_pods, pod_body)
        + http("GET", ns_pods + "?labelSelector=app%3Dweb&limit=1")
        + http("GET", ns_pods + "/p1", accept="application/json;as=Table;"
               "v=v1;g=meta.k8s.io"),
        http("POST", ns_pods, pod_body)
        + http("PATCH", ns_pods + "/p1", '{"metadata":{"labels":{"a":"b"}}}',
               "application/merge-patch+json")
        + http("PATCH", ns_pods + "/p1/status",
               '{"status":{"conditions":[{"type":"PodScheduled",'
               '"status":"False","reason":"Unschedulable"}]}}',
               "application/strategic-merge-patch+json")
        + http("PATCH", ns_pods + "/p1",
               '[{"op":"add","path":"/metadata/annotations","value":{}}]',
               "application/json-patch+json"),
        http("POST", "/api/v1/nodes", compact(node))
        + http("POST", ns_pods, pod_body)
        + http("POST", ns_pods + "/p1/binding", compact({
            "apiVersion": "v1", "kind": "Binding",
            "metadata": {"name": "p1"},
            "target": {"kind": "Node", "name": "n1"}}))
        + http("GET", "/api/v1/pods?fieldSelector=spec.nodeName%3Dn1"),
        http("POST", ns_pods, pod_body)
        + http("GET", ns_pods + "?watch=1&resourceVersion=0"
               "&allowWatchBookmarks=true"),
        http("POST", ns_pods, pod_body)
        + http("GET", "/api/v1/pods?watch=true", accept="application/json;"
               "as=Table;v=v1;g=meta.k8s.io"),
        http("POST", ns_pods, pod_body)
        + http("DELETE", ns_pods + "/p1?gracePeriodSeconds=0",
               '{"kind":"DeleteOptions","apiVersion":"v1",'
               '"propagationPolicy":"Background"}'),
        http("PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-system/"
             "leases/kube-scheduler", compact({
                 "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
                 "metadata": {"name": "kube-scheduler",
                              "namespace": "kube-system"},
                 "spec": {"holderIdentity": "a",
                          "leaseDurationSeconds": 15}})),
        # A typed client: protobuf replies, lists, errors and watches.
        http("POST", ns_pods, pod_body, accept=typed)
        + http("GET", ns_pods + "/p1", accept=typed)
        + http("GET", ns_pods + "?limit=1", accept=typed)
        + http("GET", ns_pods + "/nope", accept=typed)
        + http("GET", ns_pods + "?watch=1&resourceVersion=0", accept=typed),
        http("POST", "/api/v1/nodes", compact(node), accept=typed)
        + http("GET", "/api/v1/nodes?watch=true",
               accept="application/vnd.kubernetes.protobuf"),
        http("POST", "/api/v1/namespaces/default/events", compact({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "e1", "namespace": "default"},
            "involvedObject": {"kind": "Pod", "name": "p1",
                               "namespace": "default"},
            "reason": "Scheduled", "message": "ok", "type": "Normal"})),
    ]
    target_pod = compact({"metadata": {"name": "p", "labels": {"a": "1"},
                                       "finalizers": ["a", "b"]},
                          "spec": {"containers": [
                              {"name": "c", "image": "i"}]},
                          "status": {"conditions": [
                              {"type": "Ready", "status": "True"}],
                              "phase": "Pending"}})
    target_node = compact({"metadata": {"name": "n"},
                           "spec": {"taints": [{"key": "a",
                                                "effect": "NoSchedule"}]},
                           "status": {"addresses": [
                               {"type": "InternalIP", "address": "10.0.0.1"},
                               {"type": "Hostname", "address": "n"}]}})

    def patch_seed(resource, target, patch):
        return f"{resource}\n{target}\n---\n{patch}"
    s["json_patch"] = [
        patch_seed("pods", target_pod, '[{"op":"add","path":"/metadata/'
                   'labels/b","value":"2"},{"op":"remove","path":"/metadata/'
                   'finalizers/0"}]'),
        patch_seed("pods", target_pod, '[{"op":"copy","from":"/metadata/name",'
                   '"path":"/metadata/generateName"},{"op":"move","from":'
                   '"/status/phase","path":"/status/reason"}]'),
        patch_seed("nodes", target_node, '[{"op":"test","path":"/spec/taints/'
                   '0/key","value":"a"},{"op":"replace","path":"/spec/'
                   'taints/0/effect","value":"NoExecute"},{"op":"add",'
                   '"path":"/spec/taints/-","value":{"key":"~1x~0"}}]'),
    ]
    s["merge_patch"] = [
        patch_seed("pods", target_pod,
                   '{"metadata":{"labels":{"a":null,"c":"3"}}}'),
        patch_seed("pods", target_pod,
                   '{"status":{"conditions":[{"type":"X"}]}}'),
        patch_seed("nodes", target_node, '{"spec":{"unschedulable":true,'
                   '"taints":null}}'),
    ]
    s["strategic_patch"] = [
        patch_seed("pods", target_pod, '{"status":{"$setElementOrder/'
                   'conditions":[{"type":"Ready"},{"type":"PodScheduled"}],'
                   '"conditions":[{"type":"PodScheduled","status":"False"}]}}'),
        patch_seed("pods", target_pod, '{"metadata":{"$deleteFromPrimitive'
                   'List/finalizers":["a"],"labels":{"$patch":"replace",'
                   '"b":"2"}}}'),
        patch_seed("nodes", target_node, '{"status":{"addresses":[{"type":'
                   '"Hostname","$patch":"delete"}]},"spec":{"taints":[]}}'),
        patch_seed("pods", target_pod, '{"spec":{"$retainKeys":["containers"],'
                   '"containers":[{"name":"c","image":"j"},{"name":"d"}]}}'),
        patch_seed("pods", target_pod, '{"metadata":{"ownerReferences":[{'
                   '"uid":"u1","kind":"ReplicaSet","name":"r"}]},"status":'
                   '{"podIPs":[{"ip":"10.1.0.1"}],"nominatedNodeName":null}}'),
    ]
    return s


def main():
    for target, inputs in seeds().items():
        folder = os.path.join(CORPUS, target)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if name.startswith("seed-"):
                os.remove(os.path.join(folder, name))
        for i, text in enumerate(inputs):
            with open(os.path.join(folder, f"seed-{i:02d}"), "w",
                      encoding="utf-8", newline="") as f:
                f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
