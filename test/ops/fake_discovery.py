#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
"""A stand-in API server for `kubectl apply --dry-run=client` (deploy_test):
it answers discovery for the kinds in deploy/ and 404 for every object, so
kubectl maps each document to a resource and reports it "created (dry
run)" without a cluster. NOT a real API server: it stores nothing and
validates nothing. Prints its port on the first line of stdout."""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

GROUPS = {
    "v1": [("configmaps", "ConfigMap", True), ("services", "Service", True),
           ("serviceaccounts", "ServiceAccount", True),
           ("namespaces", "Namespace", False)],
    "apps/v1": [("deployments", "Deployment", True)],
    "rbac.authorization.k8s.io/v1": [
        ("clusterroles", "ClusterRole", False),
        ("clusterrolebindings", "ClusterRoleBinding", False),
        ("roles", "Role", True), ("rolebindings", "RoleBinding", True)],
}
VERBS = ["create", "delete", "get", "list", "patch", "update", "watch"]


def resource_list(gv):
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv,
            "resources": [{"name": n, "singularName": "", "namespaced": ns,
                           "kind": k, "verbs": VERBS}
                          for n, k, ns in GROUPS[gv]]}


def group_list():
    groups = []
    for gv in GROUPS:
        if "/" not in gv:
            continue
        name, version = gv.split("/")
        v = {"groupVersion": gv, "version": version}
        groups.append({"name": name, "versions": [v], "preferredVersion": v})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?")[0].rstrip("/")
        if path == "/api":
            return self.reply(200, {"kind": "APIVersions", "versions": ["v1"],
                                    "serverAddressByClientCIDRs": []})
        if path == "/apis":
            return self.reply(200, group_list())
        if path == "/api/v1":
            return self.reply(200, resource_list("v1"))
        if path.startswith("/apis/") and path[6:] in GROUPS:
            return self.reply(200, resource_list(path[6:]))
        self.reply(404, {"kind": "Status", "apiVersion": "v1",
                         "status": "Failure", "reason": "NotFound",
                         "message": "not found", "code": 404})


server = HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
