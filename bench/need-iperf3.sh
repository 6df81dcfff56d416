# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the host halves of the benchmarks that run iperf3 in a suite
# guest: the guest runs the host's root file system over 9p, so iperf3 must
# be installed on the host. need_iperf3 NAME installs it when it is missing
# (NAME prefixes the messages); it exits on failure.

need_iperf3() {
	command -v iperf3 >/dev/null && return
	echo "$1: installing iperf3" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends iperf3 >&2 || {
		echo "$1: cannot install iperf3" >&2
		exit 1
	}
}
