// SPDX-License-Identifier: GPL-2.0
/*
 * Network namespaces: the one the global options -n and --netns select,
 * which every request that names a device (or dumps them) sends to the
 * module as an open file descriptor, and the names the ids of namespaces
 * have under /run/netns, as `ip netns` keeps them.
 *
 * The module names a device's namespace by the id the initial namespace
 * has for it; rtnetlink's RTM_GETNSID turns a namespace file into that id.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/net_namespace.h>
#include <linux/nictl.h>
#include <linux/nsfs.h>
#include <linux/rtnetlink.h>
#include <netlink/netlink.h>

#include "netns.h"
#include "report.h"

/* Where `ip netns add NAME` mounts the namespace. */
#define NETNS_RUN_DIR	"/run/netns"

static int selected_fd = -1;
static char selected_label[4096];
static int selected_id = -1;

/* The directory of named namespaces: NICTL_NETNS_DIR for the unit tests. */
static const char *netns_dir(void)
{
	return getenv("NICTL_NETNS_DIR") ?: NETNS_RUN_DIR;
}

/*
 * Open @path as a network namespace for a request; @what says, for a
 * message, what the user named. Returns the fd, or -1 after one line.
 */
static int open_netns(const char *path, const char *what)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		ctl_msg("no network namespace %s (%s: %s)", what, path, strerror(errno));
		return -1;
	}
	if (ioctl(fd, NS_GET_NSTYPE) != CLONE_NEWNET) {
		ctl_msg("%s is not a network namespace", path);
		close(fd);
		return -1;
	}
	return fd;
}

static int select_path(const char *path, const char *what, const char *label)
{
	int fd = open_netns(path, what);

	if (fd < 0)
		return EXIT_FAILURE;
	ctl_netns_select_none();
	selected_fd = fd;
	snprintf(selected_label, sizeof(selected_label), "%s", label);
	return 0;
}

int ctl_netns_select_name(const char *name)
{
	char path[4096], what[300];

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return ctl_usage(NULL, "invalid network namespace name '%s'", name);
	snprintf(path, sizeof(path), "%s/%s", netns_dir(), name);
	snprintf(what, sizeof(what), "named %s", name);
	return select_path(path, what, name);
}

int ctl_netns_select(const char *arg)
{
	char path[4096], what[300];

	if (!*arg)
		return ctl_usage(NULL, "--netns needs a PID or a path");
	if (strspn(arg, "0123456789") == strlen(arg)) {
		snprintf(path, sizeof(path), "/proc/%s/ns/net", arg);
		snprintf(what, sizeof(what), "of process %s", arg);
		return select_path(path, what, path);
	}
	snprintf(what, sizeof(what), "at %s", arg);
	return select_path(arg, what, arg);
}

void ctl_netns_select_id(int id)
{
	ctl_netns_select_none();
	selected_id = id;
}

void ctl_netns_select_none(void)
{
	if (selected_fd >= 0)
		close(selected_fd);
	selected_fd = -1;
	selected_id = -1;
}

bool ctl_netns_selected(void)
{
	return selected_fd >= 0 || selected_id >= 0;
}

const char *ctl_netns_label(void)
{
	return selected_fd >= 0 ? selected_label : NULL;
}

int ctl_netns_put(struct nl_msg *msg)
{
	if (selected_fd >= 0)
		return nla_put_u32(msg, NICTL_A_NETNS_FD, selected_fd);
	return selected_id < 0 ? 0 : nla_put_s32(msg, NICTL_A_NETNS_ID, selected_id);
}

static int on_nsid(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[NETNSA_MAX + 1];
	int *id = arg;

	if (nlmsg_parse(nlmsg_hdr(msg), sizeof(struct rtgenmsg), tb, NETNSA_MAX, NULL) ||
	    !tb[NETNSA_NSID] || nla_len(tb[NETNSA_NSID]) < (int)sizeof(int32_t))
		return NL_SKIP;
	*id = (int32_t)nla_get_u32(tb[NETNSA_NSID]);
	return NL_OK;
}

int ctl_netns_id_of(int fd)
{
	struct rtgenmsg gen = { .rtgen_family = AF_UNSPEC };
	struct nl_msg *msg = NULL;
	struct nl_sock *sk;
	int id = -1;

	sk = nl_socket_alloc();
	if (!sk)
		return -1;
	/* The reply is the answer; an ack after it would only be read as another. */
	nl_socket_disable_auto_ack(sk);
	if (nl_connect(sk, NETLINK_ROUTE))
		goto out;
	msg = nlmsg_alloc_simple(RTM_GETNSID, NLM_F_REQUEST);
	if (!msg || nlmsg_append(msg, &gen, sizeof(gen), NLMSG_ALIGNTO) ||
	    nla_put_u32(msg, NETNSA_FD, fd) || nl_send_auto(sk, msg) < 0)
		goto out;
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_nsid, &id);
	if (nl_recvmsgs_default(sk) < 0)
		id = -1;
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return id;
}

int ctl_netns_id_of_name(const char *name)
{
	char path[4096];
	int fd, id;

	snprintf(path, sizeof(path), "%s/%s", netns_dir(), name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	id = ctl_netns_id_of(fd);
	close(fd);
	return id;
}

int ctl_netns_each(int (*fn)(const char *name, void *arg), void *arg)
{
	struct dirent *d;
	int stop = 0;
	DIR *dp;

	dp = opendir(netns_dir());
	if (!dp)
		return 0;
	while (!stop && (d = readdir(dp)))
		if (d->d_name[0] != '.')
			stop = fn(d->d_name, arg);
	closedir(dp);
	return stop;
}

struct name_of {
	int id;
	char *name;
	size_t len;
};

static int is_named(const char *name, void *arg)
{
	struct name_of *n = arg;

	if (ctl_netns_id_of_name(name) != n->id)
		return 0;
	snprintf(n->name, n->len, "%s", name);
	return 1;
}

int ctl_netns_name_of(int id, char *name, size_t len)
{
	struct name_of n = { id, name, len };

	return id >= 0 && ctl_netns_each(is_named, &n) ? 0 : -1;
}

const char *ctl_netns_name_for(int id, char *name, size_t len)
{
	if (!ctl_netns_name_of(id, name, len))
		return name;
	return ctl_netns_label();
}
