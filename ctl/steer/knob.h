/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values steering is made of: each queue's files under
 * /sys/class/net/DEV/queues (named relative to it, "rx-0/rps_cpus", so a
 * name survives a rename of DEV) and the host-wide RFS table size.
 */
#ifndef NICTLCTL_STEER_KNOB_H
#define NICTLCTL_STEER_KNOB_H

#include <stddef.h>

/* The host-wide RFS table size, as messages name it. */
#define FLOW_ENTRIES_NAME	"net.core.rps_sock_flow_entries"

#define KNOB_NAME_LEN	32

struct knob {
	char name[KNOB_NAME_LEN];	/* "rx-0/rps_cpus" */
	char *value;			/* as read, without the newline */
};

struct knob_list {
	struct knob *knobs;
	unsigned int nr;
};

int knob_path(char *buf, size_t len, const char *ifname, const char *name);
int knob_read(const char *ifname, const char *name, char **value);
int knob_write(const char *ifname, const char *name, const char *value);
int knob_writable(const char *ifname, const char *name);
int knobs_add(struct knob_list *list, const char *name, const char *value);
const struct knob *knobs_find(const struct knob_list *list, const char *name);
void knobs_free(struct knob_list *list);
int knobs_put_back(const char *ifname, const struct knob_list *list, unsigned int nr,
		   const char **failed);

int sysfs_write(const char *path, const char *value);

int flow_entries_read(unsigned int *entries);
int flow_entries_write(unsigned int entries);
int flow_entries_writable(void);
int flow_entries_put_back(unsigned int before, unsigned int raised);

#endif /* NICTLCTL_STEER_KNOB_H */
