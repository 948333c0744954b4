# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
"""What a user of the official Python client (Debian's python3-kubernetes)
does against the embedded cluster: version, namespaces, pods, a watch that
resumes from a list, patches, a binding, kwok's Running, events, NotFound.

Usage: python_client.py KUBECONFIG. Prints "ok: STEP" per step; any failed
check raises, so the exit code is not 0.
"""
import json
import sys
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException


def ok(step):
    print("ok: " + step, flush=True)


def eventually(check, what, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def pod(name, labels=None):
    return client.V1Pod(
        metadata=client.V1ObjectMeta(name=name, labels=labels or {}),
        spec=client.V1PodSpec(containers=[client.V1Container(
            name="c", image="busybox",
            resources=client.V1ResourceRequirements(
                requests={"cpu": "100m", "memory": "64Mi"}))]))


def main(kubeconfig):
    config.load_kube_config(config_file=kubeconfig)
    core = client.CoreV1Api()

    version = client.VersionApi().get_code()
    assert version.git_version.startswith("v1.37."), version.git_version
    ok("version " + version.git_version)

    core.create_namespace(
        client.V1Namespace(metadata=client.V1ObjectMeta(name="py")))
    assert core.read_namespace("py").status.phase == "Active"
    ok("namespace Active")

    created = core.create_namespaced_pod("py", pod("a", {"app": "web"}))
    assert created.status.phase == "Pending", created.status
    assert created.metadata.uid and created.metadata.resource_version
    ok("pod created Pending")

    listed = core.list_namespaced_pod("py", label_selector="app=web")
    assert [p.metadata.name for p in listed.items] == ["a"]
    ok("list by label")

    # A watch from the list's resourceVersion sees what happens after it.
    seen = []
    w = watch.Watch()

    def follow():
        for ev in w.stream(core.list_namespaced_pod, "py",
                           resource_version=listed.metadata.resource_version,
                           timeout_seconds=10):
            seen.append((ev["type"], ev["object"].metadata.name))
            if ev["object"].metadata.name == "b":
                w.stop()

    t = threading.Thread(target=follow)
    t.start()
    time.sleep(0.3)
    core.create_namespaced_pod("py", pod("b"))
    t.join(15)
    assert ("ADDED", "b") in seen, seen
    assert ("ADDED", "a") not in seen, seen
    ok("watch resumes after the list")

    patched = core.patch_namespaced_pod(
        "a", "py", {"metadata": {"labels": {"tier": "front"}}})
    assert patched.metadata.labels == {"app": "web", "tier": "front"}, \
        patched.metadata.labels
    ok("patch merges labels")

    node = core.list_node().items[0].metadata.name
    binding = client.V1Binding(
        metadata=client.V1ObjectMeta(name="a"),
        target=client.V1ObjectReference(kind="Node", name=node))
    # The API answers a binding with a Status, which this client cannot
    # deserialize into V1Binding: read the raw answer, as its users do.
    raw = core.create_namespaced_binding("py", binding,
                                         _preload_content=False)
    assert raw.status == 201, raw.status
    assert json.loads(raw.data)["status"] == "Success", raw.data
    bound = core.read_namespaced_pod("a", "py")
    assert bound.spec.node_name == node
    ok("bound to " + node)

    eventually(lambda: core.read_namespaced_pod("a", "py").status.phase
               == "Running", "kwok to run the pod")
    ok("pod Running")

    try:
        core.read_namespaced_pod("missing", "py")
        raise AssertionError("read of a missing pod succeeded")
    except ApiException as e:
        assert e.status == 404, e.status
        body = json.loads(e.body)
        assert body["reason"] == "NotFound", body
        assert body["details"]["name"] == "missing", body
    ok("missing pod 404 NotFound")

    core.delete_namespaced_pod("b", "py")
    eventually(lambda: [p.metadata.name for p in
                        core.list_namespaced_pod("py").items] == ["a"],
               "pod b to go")
    ok("pod deleted")

    events = core.list_namespaced_event("py")
    assert isinstance(events.items, list)
    ok("events listed")


if __name__ == "__main__":
    main(sys.argv[1])
