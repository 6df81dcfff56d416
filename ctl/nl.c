// SPDX-License-Identifier: GPL-2.0
/*
 * Socket setup, family lookup, request/reply exchange and error wording.
 *
 * The kernel explains most refusals in an extended ACK; nictlctl asks for
 * those (NETLINK_EXT_ACK) and shows the kernel's words, because only the
 * module knows which CPU or IRQ it objected to.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/netlink.h>
#include <linux/nictl.h>
#include <netlink/genl/ctrl.h>

#include "module_absent.h"
#include "nl.h"
#include "topology.h"
#include "report.h"

/*
 * Open and configure the socket, without looking up the family. Returns 0
 * or a negative libnl error code.
 */
int ctl_nl_connect(struct ctl_nl *nl)
{
	int one = 1, fd, err;

	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -NLE_NOMEM;
	err = genl_connect(nl->sk);
	if (err) {
		nl_socket_free(nl->sk);
		nl->sk = NULL;
		return err;
	}
	/* Replies of devices with many queues outgrow a page; peek for the size. */
	nl_socket_enable_msg_peek(nl->sk);
	/*
	 * Best effort: a kernel without these still works, its errors just
	 * lack the explanation. CAP_ACK keeps our request out of the errors.
	 */
	fd = nl_socket_get_fd(nl->sk);
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return 0;
}

void ctl_nl_close(struct ctl_nl *nl)
{
	nl_socket_free(nl->sk);
	nl->sk = NULL;
}

/*
 * How long a module still in its init may take to turn live or fail: its
 * init registers the family, and is quick even on a debug kernel.
 */
#define MODULE_COMING_WAIT_MS	5000

/* The module's initstate in sysfs: "live", "coming", "going", or "" when not loaded. */
static void module_state(char *state, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/module/nictl/initstate", topo_root());
	f = fopen(path, "r");
	if (!f || !fgets(state, len, f))
		state[0] = '\0';
	if (f)
		fclose(f);
}

/*
 * sysfs lists loaded modules whatever the network namespace. The family
 * exists from the end of the module's init to the start of its exit, so
 * only a live module must have it. A module still coming is waited for,
 * so that a command run while it loads finds it; one going has none.
 *
 * The family's lookup autoloads an installed module (MODULE_ALIAS_GENL_FAMILY:
 * the controller runs modprobe and waits for it), which does not make this
 * wait moot: modprobe counts a module that is "coming" as loaded and returns
 * at once, so a lookup during someone else's insmod or modprobe still finds
 * no family; and a module loaded from a build tree (insmod) is not installed.
 */
static bool module_live(void)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	char state[16];
	unsigned int waited;

	module_state(state, sizeof(state));
	for (waited = 0; !strcmp(state, "coming\n") && waited < MODULE_COMING_WAIT_MS;
	     waited += 10) {
		nanosleep(&tick, NULL);
		module_state(state, sizeof(state));
	}
	return !strcmp(state, "live\n");
}

/**
 * ctl_nl_open_or_absent() - connect and find the nictl family
 * @nl: the conversation
 *
 * Return: 0, 1 when module nictl is not loaded (nothing said: a caller with
 * another way says so itself), -1 after saying why it failed otherwise.
 */
int ctl_nl_open_or_absent(struct ctl_nl *nl)
{
	bool live;
	int err;

	err = ctl_nl_connect(nl);
	if (err) {
		ctl_msg("cannot open a generic netlink socket: %s", nl_geterror(err));
		return -1;
	}
	nl->family = genl_ctrl_resolve(nl->sk, NICTL_FAMILY_NAME);
	/*
	 * A module that turned live while the lookup ran may have registered
	 * its family after the lookup looked: a live module gets a second
	 * look before the namespace is blamed. Its state is read once, so it
	 * cannot turn live between that choice and the message.
	 */
	live = nl->family == -NLE_OBJ_NOTFOUND && module_live();
	if (live)
		nl->family = genl_ctrl_resolve(nl->sk, NICTL_FAMILY_NAME);
	if (nl->family == -NLE_OBJ_NOTFOUND && !live) {
		ctl_nl_close(nl);
		return 1;
	}
	/* The family lives in the initial network namespace only. */
	if (nl->family == -NLE_OBJ_NOTFOUND)
		ctl_msg("nictl is reachable from the initial network namespace only; "
			"run nictlctl there (e.g. nsenter -t 1 -n nictlctl ...)");
	else if (nl->family < 0)
		ctl_msg("cannot look up the generic netlink family " NICTL_FAMILY_NAME ": %s",
			nl_geterror(nl->family));
	if (nl->family >= 0)
		return 0;
	ctl_nl_close(nl);
	return -1;
}

/* One line: why the module is absent, what to do about it, and @then, if not NULL. */
void ctl_nl_module_absent(const char *then)
{
	struct module_absence a;

	module_absence(&a);
	ctl_msg("module nictl is not loaded: %s; %s%s%s", a.why, a.fix, then ? ". " : "",
		then ?: "");
}

/* Connect and find the nictl family; on failure print why and return -1. */
int ctl_nl_open(struct ctl_nl *nl)
{
	int ret = ctl_nl_open_or_absent(nl);

	if (ret > 0)
		ctl_nl_module_absent(NULL);
	return ret ? -1 : 0;
}

/* A request for @cmd with room for its attributes; NULL when out of memory. */
struct nl_msg *ctl_nl_msg(const struct ctl_nl *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags, cmd,
				NICTL_FAMILY_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/*
 * Copy the extended-ACK message of the NLMSG_ERROR or NLMSG_DONE message
 * @hdr into @buf ("" if it has none). The attributes follow the error code
 * of a DONE; in an ERROR they follow the echo of the request, which is just
 * its header when the kernel capped it.
 */
void ctl_nl_extack(const struct nlmsghdr *hdr, char *buf, size_t size)
{
	static const struct nla_policy policy[NLMSGERR_ATTR_MAX + 1] = {
		[NLMSGERR_ATTR_MSG] = { .type = NLA_STRING },
	};
	const struct nlmsgerr *err = NLMSG_DATA(hdr);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off;

	buf[0] = '\0';
	if (!(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (hdr->nlmsg_type == NLMSG_DONE)
		off = NLMSG_ALIGN(sizeof(err->error));
	else if (hdr->nlmsg_len < NLMSG_LENGTH(sizeof(*err)))
		return;
	else if (hdr->nlmsg_flags & NLM_F_CAPPED)
		off = sizeof(*err);
	else
		off = sizeof(err->error) + NLMSG_ALIGN(err->msg.nlmsg_len);
	if (hdr->nlmsg_len < NLMSG_HDRLEN + off)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)NLMSG_DATA(hdr) + off),
		      hdr->nlmsg_len - NLMSG_HDRLEN - off, policy) || !tb[NLMSGERR_ATTR_MSG])
		return;
	snprintf(buf, size, "%s", (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
}

struct transaction {
	ctl_nl_reply_fn fn;
	void *arg;
	struct ctl_nl_error *e;
	bool done;
};

static int on_reply(struct nl_msg *msg, void *arg)
{
	struct transaction *t = arg;
	int err = t->fn(nlmsg_hdr(msg), t->arg);

	if (!err)
		return NL_OK;
	t->e->err = err;
	t->done = true;
	return NL_STOP;
}

/* NLMSG_DONE ends a dump; it carries an int error and maybe an extended ACK. */
static int on_done(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	struct transaction *t = arg;
	int err;

	t->done = true;
	if (hdr->nlmsg_len < NLMSG_LENGTH(sizeof(err)))
		return NL_STOP;
	memcpy(&err, NLMSG_DATA(hdr), sizeof(err));
	if (err < 0) {
		t->e->err = err;
		ctl_nl_extack(hdr, t->e->msg, sizeof(t->e->msg));
	}
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct transaction *t = arg;

	(void)msg;
	t->done = true;
	return NL_STOP;
}

/* libnl hands over the payload of the error message; its header sits right before it. */
static int on_error(struct sockaddr_nl *who, struct nlmsgerr *err, void *arg)
{
	struct transaction *t = arg;

	(void)who;
	t->e->err = err->error;
	ctl_nl_extack((void *)((char *)err - NLMSG_HDRLEN), t->e->msg, sizeof(t->e->msg));
	t->done = true;
	return NL_STOP;
}

static void libnl_failed(struct ctl_nl_error *e, const char *what, int nlerr)
{
	e->err = -EIO;
	snprintf(e->msg, sizeof(e->msg), "%s: %s", what, nl_geterror(nlerr));
}

/*
 * Send @msg (consumed) and feed every reply to @fn until the kernel
 * acknowledges the request or ends the dump. Returns 0, or the negative errno
 * also stored in @e.
 */
int ctl_nl_transact(struct ctl_nl *nl, struct nl_msg *msg, ctl_nl_reply_fn fn, void *arg,
		    struct ctl_nl_error *e)
{
	struct transaction t = { fn, arg, e, false };
	struct nl_cb *cb;
	int err;

	e->err = 0;
	e->msg[0] = '\0';
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		e->err = -ENOMEM;
		return e->err;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_reply, &t);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_done, &t);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &t);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &t);

	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		libnl_failed(e, "cannot send the request", err);
	while (err >= 0 && !t.done) {
		err = nl_recvmsgs(nl->sk, cb);
		/* A callback that stops the loop makes libnl report an error too. */
		if (err < 0 && !t.done)
			libnl_failed(e, "cannot read the reply", err);
	}
	nl_cb_put(cb);
	return e->err;
}

/* What a bare errno means for nictl, when the kernel said nothing more. */
static const char *errno_meaning(int err)
{
	switch (err) {
	case ENOENT:
		return "the device has no queue IRQs; is it down?";
	case ENODATA:
		return "nictl has not bound this device; there is nothing to restore";
	case EOPNOTSUPP:	/* a command this module predates */
		return "the loaded nictl module does not know this request; "
		       "load the nictl.ko of this release";
	case EPROTO:	/* never from the kernel: a reply nictlctl could not read */
		return "malformed reply; nictlctl and the nictl module must be of one release";
	default:
		return NULL;
	}
}

/* Print the one line for request @cmd on device @dev (NULL for all) failing with @e. */
void ctl_nl_report(const char *cmd, const char *dev, const struct ctl_nl_error *e)
{
	const char *what = e->msg[0] ? e->msg : errno_meaning(-e->err);

	if (e->err == -ENODEV && dev)
		ctl_msg("no such device: %s", dev);
	else if (e->err == -EPERM && !e->msg[0])
		ctl_msg("permission denied: needs CAP_NET_ADMIN in the initial user namespace "
			"(run as root on the host)");
	else if (what)
		ctl_msg("%s%s%s: %s (%s)", cmd, dev ? " " : "", dev ?: "", what, strerror(-e->err));
	else
		ctl_msg("%s%s%s: %s", cmd, dev ? " " : "", dev ?: "", strerror(-e->err));
}
