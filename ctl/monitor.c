// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor command: print the module's events as they come, one line
 * each, flushed at once so that a reader on a pipe sees every event when it
 * happens. Lost events are said, never hidden: an overrun of the socket as
 * it happens, and the gap in the sequence numbers that it left. The module
 * going away ends the monitor with a failure; `nictlctl daemon` is the one
 * that waits for it to come back.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>

#include <linux/genetlink.h>
#include <linux/nictl.h>

#include "commands.h"
#include "event.h"
#include "event_fmt.h"
#include "nl.h"
#include "report.h"
#include "show.h"

static const char monitor_usage[] =
	"Usage: " PROG_NAME " monitor [-j|--json]\n"
	"\n"
	"Print the nictl module's events as they happen, one line each: devices\n"
	"registered, unregistered, up, down, renamed; queue changes; affinity drift\n"
	"of the IRQs nictl bound; and every bind and restore, with who made it.\n"
	"Lost events (a full socket) are reported on stderr. Runs until SIGINT or\n"
	"SIGTERM (exit 0), or until the module is unloaded (exit 1).\n"
	"\n"
	"Options:\n"
	"  -j, --json    print each event as one JSON object on one line\n"
	"  -h, --help    show this help\n";

struct monitor {
	bool json;
	int family;		/* the nictl family's id: its messages are events */
	uint64_t last_seq;	/* of the last event printed, 0 before the first */
	bool gone;		/* the family was unregistered */
	bool failed;		/* an event could not be read or printed */
};

/* Say how many events a jump of the sequence numbers to @seq skipped. */
static void check_seq(struct monitor *m, uint64_t seq)
{
	if (m->last_seq && seq > m->last_seq + 1)
		ctl_msg("events lost: %" PRIu64 " (seq %" PRIu64 " to %" PRIu64 ")",
			seq - m->last_seq - 1, m->last_seq + 1, seq - 1);
	m->last_seq = seq;
}

static int on_message(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	struct monitor *m = arg;
	struct ctl_event ev;
	struct timespec now;
	int err;

	if (hdr->nlmsg_type == GENL_ID_CTRL) {
		if (ctl_family_notice(hdr, NICTL_FAMILY_NAME) == FAMILY_DEL)
			m->gone = true;
		return NL_OK;
	}
	if (hdr->nlmsg_type != m->family)
		return NL_OK;
	clock_gettime(CLOCK_REALTIME, &now);
	err = ctl_event_parse(hdr, &ev);
	if (err) {
		ctl_msg("cannot read an event: %s", err == -EPROTO ?
			"nictlctl and the nictl module must be of one release" : strerror(-err));
		m->failed = true;
		return NL_OK;
	}
	check_seq(m, ev.seq);
	if ((m->json ? event_print_json : event_print_text)(stdout, &ev, &now))
		m->failed = true;
	fflush(stdout);
	ctl_event_free(&ev);
	return NL_OK;
}

/* Read every datagram waiting on @sk; -1 on a socket error (said). */
static int read_events(struct nl_sock *sk)
{
	int err;

	for (;;) {
		err = nl_recvmsgs_default(sk);
		if (err == -NLE_AGAIN)
			return 0;
		/* libnl reports the socket's ENOBUFS as -NLE_NOMEM. */
		if (err == -NLE_NOMEM)
			ctl_msg("events lost: socket overrun");
		else if (err < 0)
			break;
	}
	ctl_msg("cannot read events: %s", nl_geterror(err));
	return -1;
}

/* SIGINT and SIGTERM, as a descriptor that poll() watches with the socket. */
static int open_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC);
}

/* Print events until a signal (0), the module's exit or an error (-1). */
static int monitor_loop(struct monitor *m, struct nl_sock *sk, int sigfd)
{
	struct pollfd fds[2] = {
		{ .fd = sigfd, .events = POLLIN },
		{ .fd = nl_socket_get_fd(sk), .events = POLLIN },
	};

	for (;;) {
		if (poll(fds, 2, -1) < 0 && errno != EINTR) {
			ctl_msg("poll: %s", strerror(errno));
			return -1;
		}
		if (fds[0].revents)
			return 0;
		if (fds[1].revents && read_events(sk))
			return -1;
		if (m->gone) {
			ctl_msg("module nictl was unloaded: no more events");
			return -1;
		}
	}
}

static int monitor_run(struct monitor *m)
{
	struct nl_sock *sk = NULL;
	struct ctl_nl nl;
	int sigfd, err;

	if (ctl_nl_open(&nl))
		return EXIT_FAILURE;
	m->family = nl.family;
	sigfd = open_signals();
	err = sigfd < 0 ? -NLE_FAILURE : ctl_events_socket(&sk);
	if (!err)
		err = ctl_events_join(&nl, sk);
	ctl_nl_close(&nl);
	if (sigfd < 0)
		ctl_msg("cannot watch for signals: %s", strerror(errno));
	else if (err)
		ctl_msg("cannot join the events of the nictl module: %s", nl_geterror(err));
	if (!err) {
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_message, m);
		err = monitor_loop(m, sk, sigfd);
	}
	nl_socket_free(sk);
	if (sigfd >= 0)
		close(sigfd);
	return err || m->failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int cmd_monitor(int argc, char **argv)
{
	struct monitor m = { 0 };
	int ret;

	ret = show_opts(argc, argv, monitor_usage, &m.json);
	if (ret >= 0)
		return ret;
	if (optind < argc)
		return ctl_usage("monitor", "unexpected argument '%s'", argv[optind]);
	return monitor_run(&m);
}
