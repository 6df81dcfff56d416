/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The network namespace the global options -n and --netns select, and the
 * ids and names of namespaces (`ip netns`).
 */
#ifndef NICTLCTL_NETNS_H
#define NICTLCTL_NETNS_H

#include <stdbool.h>
#include <stddef.h>

#include <netlink/msg.h>

/*
 * Select the namespace named @name (/run/netns/NAME), or the one of @arg: a
 * PID (/proc/PID/ns/net) or a path. Return 0, EXIT_FAILURE after one line
 * when it cannot be opened or is no network namespace, EXIT_USAGE for a
 * name `ip netns` cannot have.
 */
int ctl_netns_select_name(const char *name);
int ctl_netns_select(const char *arg);
/* Name the namespace by its id instead (the daemon), or none (the initial one). */
void ctl_netns_select_id(int id);
void ctl_netns_select_none(void);
bool ctl_netns_selected(void);
/* What the user named: the name, or the path; NULL when none is selected. */
const char *ctl_netns_label(void);
/*
 * Add NICTL_A_NETNS_FD (or NICTL_A_NETNS_ID) of the selected namespace to
 * @msg, if one is; 0 or a libnl error.
 */
int ctl_netns_put(struct nl_msg *msg);

/* The id the caller's namespace has for the namespace of @fd, or -1 when none or unknown. */
int ctl_netns_id_of(int fd);
/* The same for /run/netns/@name. */
int ctl_netns_id_of_name(const char *name);
/* Call @fn with each name under /run/netns until it returns non-zero: that, or 0. */
int ctl_netns_each(int (*fn)(const char *name, void *arg), void *arg);
/* The name under /run/netns of the namespace with id @id into @name: 0, or -1 if none. */
int ctl_netns_name_of(int id, char *name, size_t len);
/*
 * What to call the namespace with id @id in output: its name under
 * /run/netns, else what -n or --netns named, else NULL.
 */
const char *ctl_netns_name_for(int id, char *name, size_t len);

#endif /* NICTLCTL_NETNS_H */
