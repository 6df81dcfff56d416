// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon command: apply the configuration to every device, then keep it
 * applied. The module's events say when a device appeared, came up, changed
 * its queues, or had an IRQ moved behind nictl's back; each is answered by
 * applying that device's rule again, because only a fresh bind puts back
 * what a driver reload or a write to /proc took away. The daemon's own binds
 * come back as events too; it knows them by the netlink port id of its
 * request socket (its pid differs from the one the module sees when it runs
 * in a PID namespace) and ignores them, so it never answers itself.
 *
 * While the module is away (not loaded yet, refused by the kernel, or
 * unloaded), the daemon keeps the rules through sysfs and /proc/irq
 * instead: rtnetlink and ethtool netlink say when a device appeared, came
 * up or changed its queues, and a look at every bound IRQ each second finds
 * what moved. When the module comes, it puts back what it set that way and
 * binds through the module again.
 *
 * It never forks: systemd (Type=notify) or the shell keeps it in the
 * background. Without --foreground it logs to syslog. When configured, it
 * serves /metrics from the same loop (daemon/metrics.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>

#include <linux/genetlink.h>
#include <linux/nictl.h>
#include <netlink/genl/ctrl.h>

#include "commands.h"
#include "daemon/apply.h"
#include "daemon/backoff.h"
#include "daemon/balance.h"
#include "daemon/banned.h"
#include "daemon/hostcheck.h"
#include "daemon/irqbalance.h"
#include "daemon/links.h"
#include "daemon/metrics.h"
#include "daemon/notify.h"
#include "daemon/pending.h"
#include "direct/apply.h"
#include "event.h"
#include "log.h"
#include "report.h"

/* How often to look for the module while it is away. */
#define RESOLVE_PERIOD_MS	1000
/*
 * How often to look at the NAPI threads of the devices kept, and at their
 * bound IRQs while the module is away (with it, its events tell).
 */
#define CHECK_MS		1000

struct daemon {
	const char *conf_path;
	struct keeper k;
	struct nl_sock *ev;	/* the events group and the controller's notices */
	bool attached;		/* the family is resolved and its group joined */
	bool direct;		/* the module is away: rules kept through /proc/irq */
	struct links links;	/* device changes while direct */
	long long next_check_ms;	/* the next look at NAPI threads, and IRQs while direct */
	bool resync;		/* apply the configuration to every device */
	bool ready;		/* systemd was told READY=1 since the start or a reload */
	bool stop;
	uint64_t last_seq;	/* of the last event, 0 before the first */
	long long next_resolve_ms;
	struct pending pending;
	struct backoff backoff;	/* against whoever undoes our re-applies */
	struct balancer bal;
	struct banned banned;	/* read while conf.banned_cpus */
	struct daemon_metrics m;	/* /metrics, and what it counts */
	int sigfd;
};

static const char daemon_usage[] =
	"Usage: " PROG_NAME " daemon [-c FILE] [--once | --check] [--foreground]\n"
	"\n"
	"Apply the rules of the configuration file to every matching network device,\n"
	"then keep them applied: after a device appears, comes up or changes its queues,\n"
	"and when something else moves one of its IRQs. SIGHUP reloads the file; a file\n"
	"with an error is refused and the rules in force stay. The format is described\n"
	"in docs/config.md.\n"
	"\n"
	"Options:\n"
	"  -c, --config FILE  the configuration file (default " CONF_DEFAULT_PATH ")\n"
	"  --once             apply once and exit; non-zero when a rule failed\n"
	"  --check            only read the file: say what is wrong in it, or how many\n"
	"                     rules it holds; neither the module nor a device is touched\n"
	"  -f, --foreground   log to stderr instead of syslog (the daemon never forks)\n"
	"  -h, --help         show this help\n";

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Read the banned CPUs again; when they changed, say which and why, and
 * apply every rule again, so IRQs leave CPUs banned now and may come back
 * to CPUs banned no more. Balanced placements were made without knowing.
 */
static void check_banned(struct daemon *d, bool at_start)
{
	char *list;
	bool news;

	if (banned_refresh(&d->banned, now_ms(), &news)) {
		if (news)
			log_err("cannot read the banned CPUs: %s; the CPUs banned before stay banned",
				d->banned.error ?: "out of memory");
		return;
	}
	if (!news)
		return;
	list = cpuset_format(&d->banned.cpus);
	if (!cpuset_empty(&d->banned.cpus))
		log_info("banned CPUs %s, kept free of queue IRQs: %s%s", list ?: "?",
			 d->banned.why ?: "?", at_start ? "" : "; applying every rule again");
	else if (!at_start)
		log_info("no CPU is banned any more; applying every rule again");
	free(list);
	if (at_start)
		return;
	keeper_unplace(&d->k);
	balancer_reset(&d->bal);
	if (d->attached)
		balancer_start(&d->bal, &d->k.conf, now_ms());
	d->resync = true;
}

/*
 * Start reading the banned CPUs as the configuration says (again, after a
 * reload), before any rule is applied. With @watch, inotify reports changes.
 */
static void start_banned(struct daemon *d, bool watch)
{
	int err;

	banned_free(&d->banned);
	conf_ban(&d->k.conf, &d->banned.cpus);
	if (!d->k.conf.banned_cpus)
		return;
	err = banned_start(&d->banned, d->k.conf.banned_cpus_file, watch);
	if (err)
		log_warn("cannot watch irqbalance's environment files: %s; reading them once a "
			 "second", strerror(-err));
	check_banned(d, true);
}

/* What `systemctl status` shows; READY=1 too for a start or a reload. */
static __printf(2, 3) void tell_systemd(struct daemon *d, const char *fmt, ...)
{
	char status[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(status, sizeof(status), fmt, ap);
	va_end(ap);
	notify_systemd("%sSTATUS=%s", d->ready ? "" : "READY=1\n", status);
	d->ready = true;
}

static void schedule(struct daemon *d, dev_key key);

/* The device is gone: nothing is due for it, and nothing of it is kept. */
static void forget(struct daemon *d, dev_key key)
{
	pending_del(&d->pending, key);
	backoff_forget(&d->backoff, key);
	keeper_forget(&d->k, key);
}

/* A device changed while the module is away (daemon/links.h). */
static void on_link(void *arg, enum link_change what, unsigned int ifindex)
{
	dev_key key = dev_key_make(-1, ifindex);
	struct daemon *d = arg;

	switch (what) {
	case LINK_CHANGED:
		schedule(d, key);
		break;
	case LINK_GONE:
		forget(d, key);
		/* What it replaced went with its IRQs. */
		direct_saved_remove(ifindex);
		break;
	case LINK_LOST:
		log_warn("device messages were lost; applying every rule again");
		d->resync = true;
		break;
	}
}

/* Kept affinities of devices gone while nobody followed them (another binder, a restart). */
static void prune_kept(void)
{
	unsigned int n = direct_saved_prune();

	if (n)
		log_info("removed what binds without the module kept under /run/nictl for %u "
			 "device%s that %s gone", n, n == 1 ? "" : "s", n == 1 ? "is" : "are");
}

/* Keep the rules without the module until it comes, and say why it is away. */
static void go_direct(struct daemon *d)
{
	int err;

	err = links_start(&d->links, d->k.nl.sk, d->ev, on_link, d);
	if (err) {
		log_err("cannot follow the devices' netlink messages: %s; waiting for module "
			"nictl", nl_geterror(err));
		return;
	}
	ctl_nl_module_absent("Keeping the rules through /proc/irq until it loads: not atomic "
			     "against other writers, no steering, no stacked device, the "
			     "initial network namespace only");
	prune_kept();
	d->direct = true;
	d->resync = true;
	d->next_check_ms = now_ms() + CHECK_MS;
}

static void detach(struct daemon *d, const char *why)
{
	if (!d->attached)
		return;
	log_warn("module nictl %s", why);
	d->attached = false;
	d->k.nl.family = -1;
	d->next_resolve_ms = now_ms() + RESOLVE_PERIOD_MS;
	pending_free(&d->pending);
	balancer_reset(&d->bal);
	metrics_forget(&d->m);
	go_direct(d);
	if (!d->direct)
		tell_systemd(d, "module nictl %s; waiting for it to come back", why);
}

/*
 * The module came: stop following link messages, and put back what the
 * writes through /proc/irq replaced, so that the module's first binds save
 * the affinities the devices had before nictl, as its restore must give.
 */
static void leave_direct(struct daemon *d)
{
	links_stop(&d->links, d->ev);
	keeper_release_direct(&d->k);
	prune_kept();
	d->direct = false;
}

/* Find the family and join its events group: then apply everything. */
static void attach(struct daemon *d)
{
	int family, err;

	family = genl_ctrl_resolve(d->k.nl.sk, NICTL_FAMILY_NAME);
	d->next_resolve_ms = now_ms() + RESOLVE_PERIOD_MS;
	if (family < 0)
		return;
	err = ctl_events_join(&d->k.nl, d->ev);
	if (err) {
		log_err("cannot join the events group of nictl: %s", nl_geterror(err));
		return;
	}
	log_info("module nictl is here: applying every rule");
	if (d->direct)
		leave_direct(d);
	d->k.nl.family = family;
	d->attached = true;
	d->resync = true;
	d->last_seq = 0;	/* a reloaded module counts from 1 again */
	/* Its counters and NAPI instances are new too: balancing starts over. */
	balancer_start(&d->bal, &d->k.conf, now_ms());
}

/* Apply everything; detach when the module is gone. */
static void resync(struct daemon *d)
{
	unsigned int failed;

	d->resync = false;
	d->m.counts.resyncs++;
	pending_free(&d->pending);
	if (keeper_apply_all(&d->k, &failed) == -ENOENT)
		detach(d, "went away");
	else
		keeper_irqbalance(&d->k);
	d->m.counts.apply_failures += failed;
	/* The page shows the devices as they are now bound. */
	d->m.next_refresh_ms = 0;
	if (d->attached || d->direct)
		tell_systemd(d, "%u rule%s applied%s; %u device%s not as configured",
			     d->k.conf.nr_rules, d->k.conf.nr_rules == 1 ? "" : "s",
			     d->direct ? " without module nictl (through /proc/irq)" : "", failed,
			     failed == 1 ? "" : "s");
}

/* Apply the rules of the devices that are due; retry those without IRQs. */
static void run_pending(struct daemon *d)
{
	struct pending_dev dev;
	enum apply_result r;
	bool applied = false;
	long long now = now_ms();

	while ((d->attached || d->direct) && pending_pop(&d->pending, now, &dev)) {
		r = keeper_apply(&d->k, dev.key);
		d->m.counts.applies += r == APPLY_DONE;
		d->m.counts.apply_failures += r == APPLY_FAILED;
		if (r == APPLY_DONE)
			backoff_applied(&d->backoff, dev.key, now);
		if (r == APPLY_GONE)
			detach(d, "went away");
		else if (r == APPLY_WAIT && !pending_retry(&d->pending, &dev, now))
			log_warn("ifindex %u: still no queue IRQs after %u s; the rule applies "
				 "at its next event", dev_key_ifindex(dev.key),
				 d->k.conf.irq_wait_ms / 1000);
		applied |= r == APPLY_DONE;
	}
	if (applied)
		keeper_irqbalance(&d->k);
}

/* Apply @key's rule @delay_ms from now. */
static void schedule_in(struct daemon *d, dev_key key, unsigned int delay_ms)
{
	if (pending_add(&d->pending, key, now_ms() + delay_ms, d->k.conf.irq_wait_ms)) {
		ctl_msg("out of memory; resyncing every device");
		d->resync = true;
	}
}

static void schedule(struct daemon *d, dev_key key)
{
	schedule_in(d, key, 0);
}

/*
 * Answer a foreign change of @dev: at once, or after a wait when its last
 * answer was undone at once (a fight). A fight is logged once, when it
 * starts, with the fighter when nictlctl can tell.
 */
static void answer(struct daemon *d, const struct nictl_dev *dev)
{
	unsigned int delay_ms = 0;
	char fighter[64];
	bool started;
	pid_t pid;

	if (backoff_change(&d->backoff, dev_key_of(dev), now_ms(), &delay_ms, &started)) {
		ctl_msg("out of memory; resyncing every device");
		d->resync = true;
		return;
	}
	if (started) {
		d->m.counts.backoffs++;
		pid = irqbalance_pid();
		if (pid)
			snprintf(fighter, sizeof(fighter), "irqbalance (pid %d)", (int)pid);
		else
			snprintf(fighter, sizeof(fighter), "unknown");
		log_warn("%s: fighting over its IRQs: nictl's re-apply was undone at once (by %s); "
			 "re-applying after %u s, then waiting twice as long each time, up to %u s",
			 dev->ifname, fighter, delay_ms / 1000, BACKOFF_MAX_MS / 1000);
	}
	schedule_in(d, dev_key_of(dev), delay_ms);
}

/* The command name of @pid, for the audit line; "?" when it is gone. */
static void comm_of(uint32_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, len, f))
		snprintf(buf, len, "?");
	buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* "IRQ n WAS -> NOW, ..." for the IRQs of @ev. */
static char *describe(const struct ctl_event *ev)
{
	const struct nictl_dev *dev = &ev->dev.devs[0];
	char *buf = NULL, *was, *now;
	size_t len = 0;
	unsigned int i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (i = 0; i < dev->nr_irqs; i++) {
		was = cpuset_format(&ev->was[i]);
		now = cpuset_format(&dev->irqs[i].affinity);
		fprintf(f, "%sIRQ %u %s -> %s", i ? ", " : "", dev->irqs[i].irq, was ?: "?",
			now ?: "?");
		free(was);
		free(now);
	}
	fclose(f);
	return buf;
}

static void log_drift(const struct nictl_dev *dev, const char *what)
{
	log_warn("%s: moved behind nictl's back (irqbalance, a write to /proc/irq or the "
		 "driver): %s (nictl had set the CPU before the arrow); re-applying",
		 dev->ifname, what ?: "?");
}

/* Without the module, the look at the bound IRQs found @dev's moved. */
static void on_direct_drift(void *arg, const struct nictl_dev *dev, const char *what)
{
	struct daemon *d = arg;

	d->m.counts.drifts++;
	log_drift(dev, what);
	answer(d, dev);
}

/* The look at the NAPI threads found one of @dev's off its IRQ's CPUs. */
static void on_thread_astray(void *arg, const struct nictl_dev *dev, const char *what)
{
	struct daemon *d = arg;

	d->m.counts.drifts++;
	log_warn("%s: NAPI threads off their IRQs' CPUs (made since the bind: threaded NAPI "
		 "switched on, a driver reload, new channels; or moved): %s; re-applying",
		 dev->ifname, what ?: "?");
	answer(d, dev);
}

/* Someone else changed a device nictl keeps: say who and what, then re-apply. */
static void foreign_change(struct daemon *d, const struct ctl_event *ev)
{
	const struct nictl_dev *dev = &ev->dev.devs[0];
	char comm[32], *what = describe(ev);

	if (ev->type == NICTL_EVENT_DRIFT)
		d->m.counts.drifts++;
	else
		d->m.counts.foreign++;
	if (ev->type == NICTL_EVENT_DRIFT) {
		log_drift(dev, what);
	} else if (ev->who) {
		comm_of(ev->pid, comm, sizeof(comm));
		log_warn("%s: %s by pid %u (%s) uid %u: %s; re-applying its rule", dev->ifname,
			 ctl_event_name(ev->type), ev->pid, comm, ev->uid, what ?: "?");
	} else {
		log_warn("%s: %s by netlink port %u: %s; re-applying its rule", dev->ifname,
			 ctl_event_name(ev->type), ev->portid, what ?: "?");
	}
	free(what);
	answer(d, dev);
}

static void on_event(struct daemon *d, const struct ctl_event *ev)
{
	dev_key key = dev_key_of(&ev->dev.devs[0]);

	if (d->last_seq && ev->seq != d->last_seq + 1) {
		log_warn("missed %llu events of nictl; resyncing every device",
			 (unsigned long long)(ev->seq - d->last_seq - 1));
		d->m.counts.events_missed += ev->seq - d->last_seq - 1;
		d->resync = true;
	}
	d->last_seq = ev->seq;
	switch (ev->type) {
	case NICTL_EVENT_REGISTERED:
	case NICTL_EVENT_UP:
	case NICTL_EVENT_RENAMED:
	case NICTL_EVENT_QUEUES_CHANGED:
	case NICTL_EVENT_LINKED:
	case NICTL_EVENT_UNLINKED:
		schedule(d, key);
		break;
	case NICTL_EVENT_UNREGISTERED:
		forget(d, key);
		break;
	case NICTL_EVENT_DRIFT:
	case NICTL_EVENT_BOUND:
	case NICTL_EVENT_RESTORED:
		/* Our own binds come back as events: answering them would loop. */
		if (ev->type != NICTL_EVENT_DRIFT &&
		    ev->portid == nl_socket_get_local_port(d->k.nl.sk))
			break;
		if (keeper_owns(&d->k, key))
			foreign_change(d, ev);
		break;
	default:
		break;
	}
}

static int on_message(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	struct daemon *d = arg;
	struct ctl_event ev;

	if (hdr->nlmsg_type == GENL_ID_CTRL) {
		switch (ctl_family_notice(hdr, NICTL_FAMILY_NAME)) {
		case FAMILY_DEL:
			detach(d, "was unloaded");
			break;
		case FAMILY_NEW:
			d->next_resolve_ms = 0;
			break;
		default:
			break;
		}
		return NL_OK;
	}
	if (d->direct && links_genl_message(&d->links, hdr))
		return NL_OK;
	if (!d->attached || hdr->nlmsg_type != d->k.nl.family)
		return NL_OK;
	if (ctl_event_parse(hdr, &ev)) {
		log_warn("an event of nictl could not be read; resyncing every device");
		d->resync = true;
		return NL_OK;
	}
	if (ev.dev.devs[0].ifindex)
		on_event(d, &ev);
	ctl_event_free(&ev);
	return NL_OK;
}

/* Read every notification queued on the events socket (on_message() each). */
static void read_events(struct daemon *d)
{
	int err;

	do {
		err = nl_recvmsgs_default(d->ev);
		/* libnl reports the socket's ENOBUFS (an overrun) as -NLE_NOMEM. */
		if (err == -NLE_NOMEM && d->attached) {
			log_warn("the events socket overflowed and events were lost; resyncing "
				 "every device");
			d->m.counts.event_overflows++;
			d->resync = true;
		}
	} while (err >= 0 || err == -NLE_NOMEM);
}

/* SIGHUP: take the new file if it is valid, else keep the rules in force. */
static void reload(struct daemon *d)
{
	struct conf conf;
	struct timespec now;
	char err[512];

	clock_gettime(CLOCK_MONOTONIC, &now);
	notify_systemd("RELOADING=1\nMONOTONIC_USEC=%llu",
		       (unsigned long long)now.tv_sec * 1000000 + now.tv_nsec / 1000);
	d->ready = false;
	d->m.counts.last_reload_ok = false;
	if (conf_load(d->conf_path, &conf, err, sizeof(err))) {
		log_err("%s; configuration not reloaded, the previous one stays in force", err);
		tell_systemd(d, "reload refused, the previous rules stay: %s", err);
		return;
	}
	conf_free(&d->k.conf);
	d->k.conf = conf;
	d->m.counts.last_reload_ok = true;
	d->m.counts.last_reload_ok_s = time(NULL);
	start_banned(d, true);
	metrics_configure(&d->m, d->k.conf.metrics);
	/* Placements were made under the old rules; the next rounds make new ones. */
	keeper_unplace(&d->k);
	balancer_reset(&d->bal);
	if (d->attached)
		balancer_start(&d->bal, &d->k.conf, now_ms());
	log_info("configuration %s reloaded: %u rule%s", d->conf_path, conf.nr_rules,
		 conf.nr_rules == 1 ? "" : "s");
	d->resync = true;
	/* Without the module nor a way around it, nothing to apply: ready as it stands. */
	if (!d->attached && !d->direct)
		tell_systemd(d, "reloaded; waiting for module nictl");
}

static void read_signals(struct daemon *d)
{
	struct signalfd_siginfo si;

	while (read(d->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP)
			reload(d);
		else
			d->stop = true;
	}
}

/* The earlier of two poll() timeouts, where -1 is none. */
static int earlier(int a, int b)
{
	return a < 0 || (b >= 0 && b < a) ? b : a;
}

static int poll_timeout(const struct daemon *d)
{
	long long now = now_ms(), until;
	int t = d->resync ? 0 : pending_timeout(&d->pending, now);

	if (d->k.conf.banned_cpus)
		t = earlier(t, banned_timeout(&d->banned, now));
	t = earlier(t, metrics_timeout(&d->m, now));
	if (d->attached || d->direct)
		t = earlier(t, d->next_check_ms > now ? (int)(d->next_check_ms - now) : 0);
	if (d->attached)
		return earlier(t, balancer_timeout(&d->bal, now));
	until = d->next_resolve_ms > now ? d->next_resolve_ms - now : 0;
	return earlier(t, (int)until);
}

static int run(struct daemon *d)
{
	struct pollfd fds[5] = {
		{ .fd = d->sigfd, .events = POLLIN },
		{ .fd = nl_socket_get_fd(d->ev), .events = POLLIN },
		{ .fd = -1, .events = POLLIN },	/* inotify on the banned CPUs' files */
		{ .fd = -1, .events = POLLIN },	/* the /metrics server's epoll */
		{ .fd = -1, .events = POLLIN },	/* link messages while the module is away */
	};

	d->k.nl.family = -1;
	attach(d);
	if (!d->attached)
		go_direct(d);
	while (!d->stop) {
		fds[2].fd = d->banned.inotify_fd;
		fds[3].fd = metrics_server_fd(&d->m.server);
		fds[4].fd = links_fd(&d->links);
		if (d->k.conf.banned_cpus && banned_timeout(&d->banned, now_ms()) == 0)
			check_banned(d, false);
		if (!d->attached && now_ms() >= d->next_resolve_ms)
			attach(d);
		if ((d->attached || d->direct) && d->resync)
			resync(d);
		if ((d->attached || d->direct) && now_ms() >= d->next_check_ms) {
			if (d->direct)
				keeper_check_direct(&d->k, on_direct_drift, d);
			keeper_check_threads(&d->k, on_thread_astray, d);
			d->next_check_ms = now_ms() + CHECK_MS;
		}
		if (!d->ready)
			tell_systemd(d, "waiting for module nictl");
		run_pending(d);
		if (d->attached && d->bal.next_ms && now_ms() >= d->bal.next_ms &&
		    balancer_round(&d->bal, &d->k, now_ms()) == -ENOENT)
			detach(d, "went away");
		if (d->attached)
			metrics_refresh(&d->m, now_ms());
		if (poll(fds, 5, poll_timeout(d)) < 0 && errno != EINTR) {
			ctl_msg("poll: %s", strerror(errno));
			return EXIT_FAILURE;
		}
		if (fds[0].revents & POLLIN)
			read_signals(d);
		if (fds[1].revents & POLLIN)
			read_events(d);
		if (fds[2].revents & POLLIN) {
			banned_drain(&d->banned);
			check_banned(d, false);
		}
		if (fds[4].revents & POLLIN && d->direct)
			links_read(&d->links);
		/* Also when nothing is ready: it drops idle clients at their timeout. */
		metrics_server_run(&d->m.server);
	}
	notify_systemd("STOPPING=1");
	log_info("stopped");
	return EXIT_SUCCESS;
}

/* Signals arrive through a descriptor, so the loop handles them in turn. */
static int open_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

static int start(struct daemon *d)
{
	int err;

	d->sigfd = open_signals();
	if (d->sigfd < 0) {
		ctl_msg("cannot set up signals: %s", strerror(errno));
		return EXIT_FAILURE;
	}
	err = ctl_nl_connect(&d->k.nl);
	if (!err)
		err = ctl_events_socket(&d->ev);
	if (err) {
		ctl_msg("cannot open a generic netlink socket: %s", nl_geterror(err));
		return EXIT_FAILURE;
	}
	nl_socket_modify_cb(d->ev, NL_CB_VALID, NL_CB_CUSTOM, on_message, d);
	d->m.counts.last_reload_ok = true;
	d->m.counts.last_reload_ok_s = time(NULL);
	log_info("started: %u rule%s from %s", d->k.conf.nr_rules,
		 d->k.conf.nr_rules == 1 ? "" : "s", d->conf_path);
	start_banned(d, true);
	metrics_configure(&d->m, d->k.conf.metrics);
	return run(d);
}

/* --once: every rule, one time; the exit status says whether all held. */
static int once(struct daemon *d)
{
	unsigned int failed;
	int err;

	err = ctl_nl_open_or_absent(&d->k.nl);
	if (err < 0)
		return EXIT_FAILURE;
	if (err > 0)
		ctl_nl_module_absent("Applying the rules through /proc/irq: not atomic against "
				     "other writers, no steering, no stacked device, the initial "
				     "network namespace only");
	start_banned(d, false);
	err = keeper_apply_all(&d->k, &failed);
	if (err == -ENOENT)
		ctl_msg("module nictl went away");
	if (!err && keeper_irqbalance(&d->k))
		failed++;
	if (!err && failed)
		ctl_msg("%u device%s not as the configuration says", failed,
			failed == 1 ? "" : "s");
	return err || failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* How cmd_daemon() runs, from its options. */
struct daemon_mode {
	bool once;	/* apply once and exit */
	bool check;	/* read the file and exit */
	bool fg;	/* log to stderr */
};

/* Returns -1 when the daemon should go on, else the exit status. */
static int parse_args(int argc, char **argv, struct daemon *d, struct daemon_mode *mode)
{
	enum { OPT_ONCE = 0x100, OPT_CHECK };
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "foreground", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *shortopts = ":c:fh";
	int c;

	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			d->conf_path = optarg;
			break;
		case OPT_ONCE:
			mode->once = true;
			break;
		case OPT_CHECK:
			mode->check = true;
			break;
		case 'f':
			mode->fg = true;
			break;
		case 'h':
			fputs(daemon_usage, stdout);
			return EXIT_SUCCESS;
		default:
			return ctl_bad_option("daemon", shortopts, c, argv);
		}
	}
	if (optind < argc)
		return ctl_usage("daemon", "unexpected argument '%s'", argv[optind]);
	if (mode->once && mode->check)
		return ctl_usage("daemon", "--once applies the rules, --check only reads them: "
				 "give one of them");
	return -1;
}

int cmd_daemon(int argc, char **argv)
{
	struct daemon d = { .conf_path = CONF_DEFAULT_PATH, .sigfd = -1,
			    .banned = { .inotify_fd = -1 }, .links = LINKS_INIT };
	struct daemon_mode mode = { 0 };
	char err[512];
	int ret;

	metrics_init(&d.m, &d.k, &d.attached);
	ret = parse_args(argc, argv, &d, &mode);
	if (ret >= 0)
		return ret;
	if (conf_load(d.conf_path, &d.k.conf, err, sizeof(err)) ||
	    (mode.check && conf_check_host(&d.k.conf, err, sizeof(err)))) {
		ctl_msg("%s; %s", err, mode.check ? "not valid" : "not started");
		keeper_free(&d.k);
		return EXIT_CONFIG;
	}
	if (mode.check) {
		printf("%s: valid, %u rule%s\n", d.conf_path, d.k.conf.nr_rules,
		       d.k.conf.nr_rules == 1 ? "" : "s");
		keeper_free(&d.k);
		return EXIT_SUCCESS;
	}
	/* Errors in the file went to the terminal; from now on, to the log. */
	if (!mode.fg && !mode.once)
		log_to_syslog();
	ret = mode.once ? once(&d) : start(&d);
	links_stop(&d.links, d.ev);
	if (d.ev)
		nl_socket_free(d.ev);
	if (d.k.nl.sk)
		ctl_nl_close(&d.k.nl);
	if (d.sigfd >= 0)
		close(d.sigfd);
	pending_free(&d.pending);
	backoff_free(&d.backoff);
	balancer_reset(&d.bal);
	banned_free(&d.banned);
	metrics_free(&d.m);
	keeper_free(&d.k);
	return ret;
}
