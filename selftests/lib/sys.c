// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sys.h"

int pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int read_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	if ((size_t)n == len - 1)
		return -E2BIG;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int read_long(const char *path, long *v)
{
	char buf[64], *end;
	int ret;

	ret = read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*v = strtol(buf, &end, 0);
	return errno || end == buf || *end ? -EINVAL : 0;
}

int read_cpus(const char *path, struct cpus *s)
{
	char buf[CPUS_LIST_LEN];
	int ret;

	ret = read_str(path, buf, sizeof(buf));
	return ret ? ret : cpus_parse(s, buf);
}

int link_basename(const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	ssize_t n;

	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	return pathf(buf, len, "%s", basename(target));
}

bool kernel_at_least(unsigned int major, unsigned int minor)
{
	unsigned int has_major = 0, has_minor = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &has_major, &has_minor) != 2)
		return false;
	return has_major > major || (has_major == major && has_minor >= minor);
}

int write_str(const char *path, const char *s)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(s))
		ret = -EIO;
	close(fd);
	return ret;
}

int sys_nr_cpu_ids(void)
{
	struct cpus possible;
	int cpu, last = -1, ret;

	ret = read_cpus("/sys/devices/system/cpu/possible", &possible);
	if (ret)
		return ret;
	for_each_cpu(cpu, &possible)
		last = cpu;
	return last + 1;
}

int sys_online_cpus(struct cpus *s)
{
	return read_cpus("/sys/devices/system/cpu/online", s);
}

int node_cpus(int node, struct cpus *s)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	return read_cpus(path, s);
}

int cpu_node(unsigned int cpu)
{
	struct cpus possible_nodes, cpus;
	int node, ret;

	ret = read_cpus("/sys/devices/system/node/possible", &possible_nodes);
	if (ret)
		return -1;
	for_each_cpu(node, &possible_nodes)
		if (!node_cpus(node, &cpus) && cpus_test(&cpus, cpu))
			return node;
	return -1;
}

int cpu_core(unsigned int cpu, struct cpus *s)
{
	char path[128];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", cpu);
	return read_cpus(path, s);
}

int node_threads(int node, unsigned int thread, struct cpus *s)
{
	struct cpus node_set, online, core;
	int cpu, sib, ret;
	unsigned int nth;

	ret = node_cpus(node, &node_set) ?: sys_online_cpus(&online);
	if (ret)
		return ret;
	cpus_zero(s);
	for_each_cpu(cpu, &node_set) {
		if (!cpus_test(&online, cpu))
			continue;
		ret = cpu_core(cpu, &core);
		if (ret)
			return ret;
		nth = 0;
		for_each_cpu(sib, &core) {
			if (sib == cpu)
				break;
			nth++;
		}
		if (nth == thread)
			cpus_set(s, cpu);
	}
	return 0;
}

int cpu_set_online(unsigned int cpu, bool online)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
	return write_str(path, online ? "1" : "0");
}

int cpus_all_online(void)
{
	struct cpus offline;
	int cpu, ret, first = 0;

	ret = read_cpus("/sys/devices/system/cpu/offline", &offline);
	if (ret)
		return ret;
	for_each_cpu(cpu, &offline) {
		ret = cpu_set_online(cpu, true);
		if (ret && !first)
			first = ret;
	}
	return first;
}
