/* SPDX-License-Identifier: GPL-2.0 */
/* sysfs and procfs access: small files, CPU topology and hotplug. */
#ifndef NICTL_TEST_SYS_H
#define NICTL_TEST_SYS_H

#include <stdbool.h>
#include <stddef.h>

#include "cpus.h"

/* snprintf() into @buf that fails with -ENAMETOOLONG instead of truncating. */
int pathf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Read a small file, without its trailing newline: 0 or -errno. */
int read_str(const char *path, char *buf, size_t len);
int read_long(const char *path, long *v);
int read_cpus(const char *path, struct cpus *s);
/* The last component of the target of symlink @path: 0 or -errno. */
int link_basename(const char *path, char *buf, size_t len);
/* Write @s in one write(2), as sysfs and procfs files want: 0 or -errno. */
int write_str(const char *path, const char *s);

/* Is the running kernel @major.@minor or newer? */
bool kernel_at_least(unsigned int major, unsigned int minor);

/* nr_cpu_ids as the kernel has it: the last possible CPU plus one. */
int sys_nr_cpu_ids(void);
int sys_online_cpus(struct cpus *s);
/* NUMA node of @cpu, -1 when no node lists it. */
int cpu_node(unsigned int cpu);
int node_cpus(int node, struct cpus *s);
/* The SMT siblings of @cpu (its physical core), @cpu included. */
int cpu_core(unsigned int cpu, struct cpus *s);
/*
 * The online CPUs of @node that are sibling number @thread of their core
 * (0: the first): with two threads per core, thread 0 and thread 1 give two
 * disjoint sets that each hold one CPU of every core of the node.
 */
int node_threads(int node, unsigned int thread, struct cpus *s);
int cpu_set_online(unsigned int cpu, bool online);
/* Bring every possible CPU back online: 0 or the first -errno. */
int cpus_all_online(void);

#endif /* NICTL_TEST_SYS_H */
