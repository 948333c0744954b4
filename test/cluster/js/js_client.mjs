// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
//
// What a user of the official JavaScript client (@kubernetes/client-node)
// does against the embedded cluster: version, namespaces, pods, an informer
// that lists and then watches, patches, a binding, kwok's Running, events,
// NotFound.
//
// Usage: node js_client.mjs KUBECONFIG (with the client installed where
// node resolves it). Prints "ok: STEP" per step; a failed check exits 1.
import * as k8s from "@kubernetes/client-node";

function ok(step) {
  console.log("ok: " + step);
}

function check(cond, what) {
  if (!cond) throw new Error("check failed: " + what);
}

async function eventually(test, what, seconds = 10) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("timed out waiting for " + what);
}

function pod(name, labels = {}) {
  return {
    metadata: { name, labels },
    spec: {
      containers: [{
        name: "c",
        image: "busybox",
        resources: { requests: { cpu: "100m", memory: "64Mi" } },
      }],
    },
  };
}

async function main(kubeconfig) {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);

  const version = await kc.makeApiClient(k8s.VersionApi).getCode();
  check(version.gitVersion.startsWith("v1.37."), version.gitVersion);
  ok("version " + version.gitVersion);

  await core.createNamespace({ body: { metadata: { name: "js" } } });
  const ns = await core.readNamespace({ name: "js" });
  check(ns.status.phase === "Active", JSON.stringify(ns.status));
  ok("namespace Active");

  const created = await core.createNamespacedPod({
    namespace: "js", body: pod("a", { app: "web" }),
  });
  check(created.status.phase === "Pending", JSON.stringify(created.status));
  check(created.metadata.uid && created.metadata.resourceVersion, "uid, rv");
  ok("pod created Pending");

  const listed = await core.listNamespacedPod({
    namespace: "js", labelSelector: "app=web",
  });
  check(listed.items.map((p) => p.metadata.name).join() === "a", "list");
  ok("list by label");

  // An informer lists, then watches from the list's resourceVersion.
  const informer = k8s.makeInformer(kc, "/api/v1/namespaces/js/pods",
    () => core.listNamespacedPod({ namespace: "js" }));
  const added = [];
  informer.on("add", (p) => added.push(p.metadata.name));
  let informerError = null;
  informer.on("error", (e) => { informerError = e; });
  await informer.start();
  await eventually(() => added.includes("a"), "the informer's list");
  await core.createNamespacedPod({ namespace: "js", body: pod("b") });
  await eventually(() => added.includes("b"), "the informer's watch");
  check(informerError === null, "informer error " + informerError);
  ok("informer lists then watches");

  const patched = await core.patchNamespacedPod(
    { name: "a", namespace: "js", body: { metadata: { labels: { tier: "front" } } } },
    k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch));
  check(patched.metadata.labels.app === "web"
        && patched.metadata.labels.tier === "front",
        JSON.stringify(patched.metadata.labels));
  ok("patch merges labels");

  const nodes = await core.listNode();
  const node = nodes.items[0].metadata.name;
  await core.createNamespacedBinding({
    namespace: "js",
    body: { metadata: { name: "a" }, target: { kind: "Node", name: node } },
  });
  const bound = await core.readNamespacedPod({ name: "a", namespace: "js" });
  check(bound.spec.nodeName === node, "bound to " + bound.spec.nodeName);
  ok("bound to " + node);

  await eventually(async () =>
    (await core.readNamespacedPod({ name: "a", namespace: "js" })).status.phase
      === "Running", "kwok to run the pod");
  ok("pod Running");

  try {
    await core.readNamespacedPod({ name: "missing", namespace: "js" });
    throw new Error("read of a missing pod succeeded");
  } catch (e) {
    check(e.code === 404, "code " + e.code + " " + e);
    const body = typeof e.body === "string" ? JSON.parse(e.body) : e.body;
    check(body.reason === "NotFound", JSON.stringify(body));
    check(body.details.name === "missing", JSON.stringify(body));
  }
  ok("missing pod 404 NotFound");

  await core.deleteNamespacedPod({ name: "b", namespace: "js" });
  await eventually(async () => (await core.listNamespacedPod({ namespace: "js" }))
    .items.map((p) => p.metadata.name).join() === "a", "pod b to go");
  ok("pod deleted");

  const events = await core.listNamespacedEvent({ namespace: "js" });
  check(Array.isArray(events.items), "events");
  ok("events listed");
  await informer.stop();
}

main(process.argv[2]).then(() => process.exit(0), (e) => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
