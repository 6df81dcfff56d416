// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "module.h"
#include "sys.h"

#define MODULE_DIR	"/sys/module/nictl"

bool nictl_module_loaded(void)
{
	struct stat st;

	return !stat(MODULE_DIR "/initstate", &st);
}

int nictl_module_load(void)
{
	return nictl_module_load_params("");
}

int nictl_module_load_params(const char *params)
{
	const char *ko = getenv("NICTL_KO");

	if (nictl_module_loaded())
		return 0;
	if (!ko) {
		fprintf(stderr, "# NICTL_KO is not set\n");
		return -EINVAL;
	}
	return module_load_path(ko, params);
}

int nictl_module_unload(void)
{
	return module_unload("nictl");
}

int module_load_path(const char *path, const char *params)
{
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0) && errno != EEXIST)
		ret = -errno;
	close(fd);
	return ret;
}

int module_unload(const char *name)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK))
		return -errno;
	return 0;
}

int nictl_param_read(const char *name, char *buf, size_t len)
{
	char path[128];

	return pathf(path, sizeof(path), MODULE_DIR "/parameters/%s", name) ?:
	       read_str(path, buf, len);
}

int nictl_param_write(const char *name, const char *value)
{
	char path[128];

	return pathf(path, sizeof(path), MODULE_DIR "/parameters/%s", name) ?:
	       write_str(path, value);
}

bool nictl_ops_held(long n, unsigned int secs)
{
	const unsigned int poll_us = 50 * 1000;
	char buf[32];
	long now = -1;
	unsigned int i;

	for (i = 0;; i++) {
		now = nictl_param_read("fault_stalled", buf, sizeof(buf)) ? -1 :
		      strtol(buf, NULL, 10);
		if (now == n)
			return true;
		if (i >= secs * (1000000 / poll_us))
			break;
		usleep(poll_us);
	}
	fprintf(stderr, "# %ld nictl ops held after %u s, want %ld\n", now, secs, n);
	return false;
}

int nictl_set_param(const char *name, unsigned int value)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", value);
	return nictl_param_write(name, buf);
}

int nictl_set_fault(unsigned int nth)
{
	return nictl_set_param("fault_fail_nth", nth);
}

int nictl_faults_off(void)
{
	static const char *const knobs[] = {
		"fault_fail_nth", "fault_share_ifindex", "fault_extra_ifindex", "fault_extra_irq",
		"fault_shared_irq", "fault_stall", "fault_dump_items", "fault_tsc_unstable",
		"fault_discovery_source", "fault_one_identity", "fault_no_pci_ifindex",
	};
	unsigned int i;
	int ret = 0;

	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		ret = nictl_set_param(knobs[i], 0) ?: ret;
	return ret;
}
