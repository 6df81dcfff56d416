#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deploy/ and the packaged configuration, as far as they can be checked
# without a cluster: every nictl.conf they hold is one nictlctl accepts
# (daemon --check), the manifests pass yamllint's strict mode and hang
# together (what the DaemonSet mounts and names exists, one namespace).
# selftests/unit/Makefile fills in the paths of the repository and the build.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@
BUILD=@NICTL_BUILD@
NICTLCTL=$BUILD/bin/nictlctl
K8S=$REPO/deploy/kubernetes

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The host the shipped files are written for (--check also judges them
# against the host's CPUs and nodes): two nodes of 16 CPUs.
FLEET=$TMP/sys
mkdir -p "$FLEET/devices/system/cpu" "$FLEET/devices/system/node/node0" \
	"$FLEET/devices/system/node/node1"
echo 0-31 >"$FLEET/devices/system/cpu/present"
echo 0-31 >"$FLEET/devices/system/cpu/online"
echo 0-1 >"$FLEET/devices/system/node/online"
echo 0-15 >"$FLEET/devices/system/node/node0/cpulist"
echo 16-31 >"$FLEET/devices/system/node/node1/cpulist"

# conf_valid FILE RULES: nictlctl reads FILE and finds RULES rules in it,
# every one of which can apply on the fleet's host.
conf_valid() {
	local got want="$1: valid, $2 rule"

	[ "$2" = 1 ] || want=${want}s
	got=$(NICTL_SYSFS=$FLEET "$NICTLCTL" daemon --check -c "$1" 2>&1)
	[ "$got" = "$want" ] || { echo "got '$got', expected '$want'"; return 1; }
}

# The nictl.conf the ConfigMap holds, as the pods read it.
configmap_conf() {
	python3 -c '
import sys, yaml
print(yaml.safe_load(open(sys.argv[1]))["data"]["nictl.conf"], end="")
' "$K8S/configmap.yaml" >"$TMP/nictl.conf" && conf_valid "$TMP/nictl.conf" 1
}

yaml_lint() {
	yamllint --strict -d '{extends: default, rules: {line-length: {max: 100}}}' "$K8S"
}

# What kubectl apply would refuse or a pod would fail on at start.
manifests_agree() {
	python3 - "$K8S" <<'PY'
import glob, os, sys, yaml

docs = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.yaml"))):
    for doc in yaml.safe_load_all(open(path)):
        docs[doc["kind"]] = doc
bad = []
def need(ok, what):
    if not ok:
        bad.append(what)

ns = docs["Namespace"]["metadata"]["name"]
need(docs["Namespace"]["metadata"]["labels"].get("pod-security.kubernetes.io/enforce")
     == "privileged", "the namespace must admit privileged pods")
ds, cm = docs["DaemonSet"], docs["ConfigMap"]
for doc in (ds, cm):
    need(doc["metadata"].get("namespace") == ns,
         f"{doc['kind']} is not in namespace {ns}")
need(ds["apiVersion"] == "apps/v1", "DaemonSet is not apps/v1")
spec = ds["spec"]["template"]["spec"]
labels = ds["spec"]["template"]["metadata"]["labels"]
for k, v in ds["spec"]["selector"]["matchLabels"].items():
    need(labels.get(k) == v, f"selector {k}={v} does not select the pods")
need(spec.get("hostNetwork") is True, "the daemon needs the host's network namespace")
need(spec.get("hostPID") is True, "the daemon needs the host's PIDs (irqbalance)")
volumes = {v["name"]: v for v in spec["volumes"]}
for c in spec.get("initContainers", []) + spec["containers"]:
    need(c.get("image"), f"container {c['name']} has no image")
    need(c.get("securityContext", {}).get("privileged") is True,
         f"container {c['name']} is not privileged")
    for m in c.get("volumeMounts", []):
        need(m["name"] in volumes, f"{c['name']} mounts undeclared volume {m['name']}")
used = {m["name"] for c in spec.get("initContainers", []) + spec["containers"]
        for m in c.get("volumeMounts", [])}
need(used == set(volumes), f"volumes mounted by no container: {set(volumes) - used}")
cms = [v["configMap"]["name"] for v in volumes.values() if "configMap" in v]
need(cms == [cm["metadata"]["name"]], f"the DaemonSet mounts ConfigMaps {cms}")
daemon = next(c for c in spec["containers"] if c["name"] == "nictl")
conf = daemon["command"][daemon["command"].index("-c") + 1]
mounted = {m["mountPath"] for m in daemon["volumeMounts"] if volumes[m["name"]].get("configMap")}
need(os.path.dirname(conf) in mounted, f"{conf} is not where the ConfigMap is mounted")
need(os.path.basename(conf) in cm["data"], f"the ConfigMap has no {os.path.basename(conf)}")
# The banned-CPUs file the configuration names is inside a host mount.
for line in cm["data"]["nictl.conf"].splitlines():
    if line.startswith("banned-cpus-file"):
        path = line.split("=", 1)[1].strip()
        need(any(path.startswith(m["mountPath"] + "/") for m in daemon["volumeMounts"]
                 if "hostPath" in volumes[m["name"]]),
             f"banned-cpus-file {path} is not on a host mount")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

tap_check "deploy/systemd/nictl.conf: valid, 2 rules" conf_valid "$REPO/deploy/systemd/nictl.conf" 2
tap_check "the ConfigMap's nictl.conf: valid, 1 rule" configmap_conf
tap_check "debian/nictl.conf, the packaged conffile: valid, no rules" \
	conf_valid "$REPO/debian/nictl.conf" 0
tap_check "etc/nictl.conf.example: valid, 5 rules" conf_valid "$REPO/etc/nictl.conf.example" 5
tap_check "yamllint --strict on deploy/kubernetes" yaml_lint
tap_check "the manifests agree with each other" manifests_agree
tap_done
