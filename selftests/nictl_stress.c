// SPDX-License-Identifier: GPL-2.0
/*
 * Everything at once, for a bounded time (NICTL_STRESS_SECONDS, default
 * 90, and on a slow host on until every kind of operation and event
 * happened, up to 4 times as long): nictlctl binders and a restorer on
 * vnode0, e1k and vnode1, stats readers and switches, two `nictlctl
 * monitor -j` listeners, while vnode1's
 * PCI function is unbound and bound, vnode0's channels go 2 -> 1 -> 2, CPUs
 * 3 and 6 go offline and online, igb0's sticky binding is broken by one of
 * them gone at a channel change, the module is unloaded and loaded, the
 * fault knob fails some affinity writes, and something else moves vnode1's
 * IRQs through /proc, and a macvlan comes and goes on e1k. `nictlctl
 * daemon` governs vnode1 throughout.
 *
 * Every operation is logged with its result. During the run, only what
 * churn cannot excuse fails the test (an anomaly): a nictlctl that crashes
 * or fails without saying why on one line, a bind that places an IRQ
 * outside the CPUs asked for, JSON or Prometheus text that does not parse,
 * a monitor whose sequence numbers jump without an overrun said, a churn
 * step that should not fail, an operation that hangs.
 *
 * The end state is defined by a quiet tail: the churn stops and the test
 * brings back what it changed (CPUs online, module loaded, vnode1 bound to
 * its driver, vnode0's channels, accounting on); then each binder makes one
 * last, logged bind, so that the last successful bind of vnode0 and of e1k
 * is known, and must be exactly what /proc/irq, DEV_GET and
 * `nictlctl show -j` show. vnode1's binder ends with a bind of its own,
 * which the daemon must answer: vnode1 ends in the daemon's policy. Then
 * every kind of event is caused on purpose, one step after another (e1k
 * into a namespace and back, down and up, renamed, bound and moved and
 * restored, igb0's sticky binding applied and failed, a macvlan on e1k),
 * and every listener must hear each: the test waits for no event to
 * happen by chance. The kernel log must be clean since the start, and the
 * module must unload and load again.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "events.h"
#include "irqs.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nicops.h"
#include "nictl.h"
#include "run.h"
#include "stats.h"
#include "sys.h"
#include "verify.h"

#define CONF		"/tmp/nictl-stress.conf"
#define DAEMON_LOG	"/tmp/nictl-stress-daemon.log"
#define SECONDS_DEFAULT	90
/* The harness's timeout (below) must cover the run and the checks after it. */
#define SECONDS_MAX	3000
/*
 * An operation, or a worker's way out, that takes longer has hung; on a slow
 * (debug) kernel, stretched like the harness's timeouts.
 */
#define HANG_MS		(300LL * 1000 * timeout_scale())
#define MAX_WORKERS	16
#define LINE_LEN	8192
#define KMSG_MARK	"nictl_stress: start"

/* The CPUs that go offline and online: one per node, never CPU 0. */
static const unsigned int hotplug_cpus[] = { 3, 6 };

/*
 * Held by a CPU's offline/online cycle and for CPU_SETTLE_MS after it, and
 * by the PCI rebinder's unbind. Debian's 6.12.117, and the debug kernel
 * built from it, WARN in virtio_net's remove path (a send skb's refcount
 * underflows in free_unused_bufs()) when a virtio-net function that
 * transmits is unbound seconds after a CPU came back online, nictl loaded
 * or not: selftests/vm/virtio-remove-warn.sh, docs/reliability.md. It came
 * once 10.7 s after, so the settle is 30 s: rarer, not ruled out. Binds,
 * probes, moves and module reloads still race both.
 */
#define CPU_LOCK	"/tmp/nictl-stress-cpu.lock"
#define CPU_SETTLE_MS	(30000 * timeout_scale())

enum phase {
	RUN,		/* everything */
	CALM,		/* churn stops; binders go on */
	FINAL,		/* binders make their last bind and stop */
	END,		/* readers and listeners stop */
};

enum counter {
	C_BIND_OK, C_BIND_FAILED, C_DRY_RUNS, C_RESTORE_OK, C_RESTORE_FAILED, C_FAULTS,
	C_STATS_READS, C_STATS_FAILED, C_STATS_SWITCHES, C_MONITOR_RUNS, C_OVERRUNS,
	C_PCI_REBINDS, C_ETHTOOL, C_CPU_CYCLES, C_MODULE_RELOADS, C_UNLOAD_BUSY,
	C_FAULT_WINDOWS, C_PROC_MOVES, C_STACKINGS, C_ANOMALIES, NR_COUNTERS
};

static const char *const counter_names[NR_COUNTERS] = {
	"binds_ok", "binds_failed", "dry_runs", "restores_ok", "restores_failed",
	"faults_injected", "stats_reads", "stats_failed", "stats_switches", "monitor_runs",
	"overruns", "pci_rebinds", "ethtool_changes", "cpu_cycles", "module_reloads",
	"unload_busy", "fault_windows", "proc_moves", "stackings", "anomalies",
};

#define LISTENERS	2

/* The macvlan the stacker makes on e1k and deletes again. */
#define STACKED		"nictlstressmv"


/* The IRQs a bind placed and where, as its reply says. */
struct placement {
	unsigned int n;
	unsigned int irq[NICTL_MAX_IRQS];
	unsigned int cpu[NICTL_MAX_IRQS];
};

struct worker {
	pid_t pid;
	char name[32];
	enum phase until;	/* stops once this phase begins */
	char op[160];		/* what it does now, "" between operations */
	long long op_start_ms;	/* when it began, or when the last one ended */
	long long max_op_ms;
};

/* What the workers share with the test, in memory mapped before they fork. */
struct shared {
	int phase;
	long long t0_ms;
	long counters[NR_COUNTERS];
	long churn_binds[2];		/* ok and failed while the churn ran */
	long events[LISTENERS][__NICTL_EVENT_MAX];
	long daemon_binds[LISTENERS];	/* bound events from the daemon's pid */
	pid_t daemon;
	unsigned int n_workers;
	struct worker w[MAX_WORKERS];
	/* The last bind of vnode0's and e1k's binders. */
	struct placement last[2];
	bool last_done[2];
};

static struct shared *sh;
static struct worker *me;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static enum phase phase(void)
{
	return __atomic_load_n(&sh->phase, __ATOMIC_SEQ_CST);
}

static void count(enum counter c)
{
	__atomic_add_fetch(&sh->counters[c], 1, __ATOMIC_SEQ_CST);
}

/* One line of the log, in one write so that the workers' lines do not mix. */
static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	char line[1024];
	long long t = now_ms() - sh->t0_ms;
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "# %lld.%03lld [%s] ", t / 1000, t % 1000,
		     me ? me->name : "test");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0)
		return;
}

#define anomaly(fmt, ...) do { \
	count(C_ANOMALIES); \
	say("ANOMALY: " fmt, ##__VA_ARGS__); \
} while (0)

static void op_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void op_begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(me->op, sizeof(me->op), fmt, ap);
	va_end(ap);
	__atomic_store_n(&me->op_start_ms, now_ms(), __ATOMIC_SEQ_CST);
}

static void op_end(void)
{
	long long now = now_ms(), took = now - me->op_start_ms;

	if (took > me->max_op_ms)
		me->max_op_ms = took;
	if (took > HANG_MS)
		anomaly("%s took %lld ms", me->op, took);
	me->op[0] = '\0';
	__atomic_store_n(&me->op_start_ms, now, __ATOMIC_SEQ_CST);
}

/* Sleep between @min_ms and @max_ms. */
static void nap(unsigned int *seed, unsigned int min_ms, unsigned int max_ms)
{
	usleep(1000 * (min_ms + rand_r(seed) % (max_ms - min_ms + 1)));
}

/* Run nictlctl with the NULL-terminated @args into @r: its exit status, or -errno. */
static int ctl(struct run_result *r, const char *const *args)
{
	const char *argv[16];
	char line[160] = "";
	unsigned int n = 0, used = 0;
	int ret;

	argv[n++] = getenv("NICTL_CTL");
	for (; *args && n < 15; args++) {
		argv[n++] = *args;
		used += snprintf(line + used, sizeof(line) - used, " %s", *args);
		if (used >= sizeof(line))
			used = sizeof(line) - 1;
	}
	argv[n] = NULL;
	op_begin("nictlctl%s", line);
	ret = run_cmd(r, false, NULL, argv);
	op_end();
	if (ret) {
		anomaly("nictlctl%s could not run: %s", line, strerror(-ret));
		return ret;
	}
	return r->status;
}

/*
 * Judge a nictlctl that failed (status @status): under churn it may, but
 * only with status 1 and one line that says why. An apply that failed
 * with EIO and rolled back is an injected fault.
 */
static void failed_well(const char *what, int status, const struct run_result *r)
{
	if (status < 0)
		return;		/* it did not run: said by ctl() */
	if (status != 1 || count_lines(r->err) != 1 || strncmp(r->err, "nictlctl: ", 10)) {
		anomaly("%s: exit %d, stderr: %s", what, status, r->err[0] ? r->err : "(empty)");
		return;
	}
	say("%s: %.*s", what, (int)strcspn(r->err, "\n"), r->err);
	if (strstr(r->err, "rolled back") && strstr(r->err, "Input/output error"))
		count(C_FAULTS);
}

/* The number after @key in @s, or -1 (null, or no such key). */
static long json_num(const char *s, const char *key, const char **end)
{
	const char *p = strstr(s, key);
	char *e;
	long v;

	if (!p)
		return -1;
	p += strlen(key);
	v = strtol(p, &e, 10);
	*end = e;
	return e == p ? -1 : v;
}

/*
 * The IRQs and target CPUs of the one device in @json, as `bind -j` prints
 * it: 0, or -EPROTO when an IRQ has no target or there is none at all.
 */
static int parse_placement(const char *json, struct placement *p)
{
	const char *s = json, *end;
	long irq, cpu;

	p->n = 0;
	while ((irq = json_num(s, "\"irq\":", &end)) >= 0) {
		cpu = json_num(end, "\"target_cpu\":", &end);
		if (cpu < 0 || p->n == NICTL_MAX_IRQS)
			return -EPROTO;
		p->irq[p->n] = irq;
		p->cpu[p->n++] = cpu;
		s = end;
	}
	return p->n ? 0 : -EPROTO;
}

static void format_placement(const struct placement *p, char *buf, size_t len)
{
	unsigned int i;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 0; i < p->n && used < len; i++)
		used += snprintf(buf + used, len - used, "%sIRQ %u -> %u", i ? ", " : "",
				 p->irq[i], p->cpu[i]);
}

/* One way to bind: nictlctl's options, and the CPUs the result may use. */
struct policy {
	const char *args[5];
	const char *allowed;	/* NULL: a dry run */
};

struct binder {
	const char *ifname;
	const struct policy *policies;
	unsigned int n;
	const struct policy *last;	/* in the quiet tail; must succeed */
	int slot;			/* in sh->last, -1: the daemon has the last word */
};

/*
 * vnode0 and e1k sit on node 0 (CPUs 0-3), vnode1 on node 1 (4-7); CPUs 3
 * and 6 come and go, so the binds that need them fail now and then. The
 * sticky binds make the module apply them again at vnode0's channel
 * changes and vnode1's rebinds, and fail to while CPU 3 or 6 is gone.
 */
static const struct policy vnode0_policies[] = {
	{ { "--numa-local" }, "1-3" },
	{ { "--node", "1" }, "4-7" },
	{ { "--cpus", "1,3" }, "1,3" },
	{ { "--cpus", "2-3", "--allow-siblings" }, "2-3" },
	{ { "--exclude", "2-5" }, "1,6-7" },
	{ { "--cpus", "3,6" }, "3,6" },
	{ { "--numa-local", "--dry-run" }, NULL },
	{ { "--numa-local", "--sticky" }, "1-3" },
	{ { "--cpus", "3,6", "--sticky" }, "3,6" },
};

static const struct policy e1k_policies[] = {
	{ { "--cpus", "3" }, "3" },
	{ { "--cpus", "6" }, "6" },
	{ { "--numa-local" }, "1-3" },
	{ { "--node", "1" }, "4-7" },
	{ { "--cpus", "1-2" }, "1-2" },
	{ { "--exclude", "1-6" }, "7" },
};

static const struct policy vnode1_policies[] = {
	{ { "--cpus", "1-2" }, "1-2" },
	{ { "--cpus", "5,7" }, "5,7" },
	{ { "--node", "0" }, "1-3" },
	{ { "--cpus", "3,6" }, "3,6" },
	{ { "--numa-local", "--allow-siblings" }, "4-7" },
	{ { "--cpus", "3,6", "--sticky" }, "3,6" },
};

static const struct policy vnode0_last = { { "--cpus", "2,5" }, "2,5" };
static const struct policy e1k_last = { { "--cpus", "7" }, "7" };
static const struct policy vnode1_last = { { "--cpus", "1-2" }, "1-2" };

static const struct binder binders[] = {
	{ "vnode0", vnode0_policies, ARRAY_SIZE(vnode0_policies), &vnode0_last, 0 },
	{ "e1k", e1k_policies, ARRAY_SIZE(e1k_policies), &e1k_last, 1 },
	{ "vnode1", vnode1_policies, ARRAY_SIZE(vnode1_policies), &vnode1_last, -1 },
};

/*
 * Bind @b's device by @p, log the outcome, check a success against the
 * CPUs asked for: 0 and @got filled on success, 1 on a failure.
 */
static int bind_once(struct run_result *r, const struct binder *b, const struct policy *p,
		     struct placement *got)
{
	const char *args[9] = { "bind", b->ifname };
	char what[128], placed[512];
	struct cpus allowed;
	unsigned int i, n = 2, used;
	int status;

	used = snprintf(what, sizeof(what), "bind %s", b->ifname);
	for (i = 0; p->args[i]; i++) {
		args[n++] = p->args[i];
		used += snprintf(what + used, sizeof(what) - used, " %s", p->args[i]);
	}
	args[n++] = "-j";
	status = ctl(r, args);
	if (status) {
		count(C_BIND_FAILED);
		failed_well(what, status, r);
		return 1;
	}
	if (!p->allowed) {
		count(C_DRY_RUNS);
		say("%s: ok", what);
		return 0;
	}
	count(C_BIND_OK);
	if (parse_placement(r->out, got) || cpus_parse(&allowed, p->allowed)) {
		anomaly("%s: a reply without targets: %s", what, r->out);
		return 1;
	}
	format_placement(got, placed, sizeof(placed));
	say("%s: ok, asked CPUs %s: %s", what, p->allowed, placed);
	for (i = 0; i < got->n; i++)
		if (!cpus_test(&allowed, got->cpu[i]))
			anomaly("%s: IRQ %u placed on CPU %u", what, got->irq[i], got->cpu[i]);
	return 0;
}

static void run_binder(const struct binder *b)
{
	struct run_result *r = malloc(sizeof(*r));
	struct placement got;
	unsigned int seed = getpid();

	if (!r)
		return;
	while (phase() < FINAL) {
		bind_once(r, b, &b->policies[rand_r(&seed) % b->n], &got);
		nap(&seed, 0, 300);
	}
	/* The quiet tail: this is the device's last bind, and it must succeed. */
	if (bind_once(r, b, b->last, &got)) {
		anomaly("the last bind of %s failed on a quiet system", b->ifname);
	} else if (b->slot >= 0) {
		sh->last[b->slot] = got;
		sh->last_done[b->slot] = true;
	}
	free(r);
}

static void run_restorer(void)
{
	struct run_result *r = malloc(sizeof(*r));
	unsigned int seed = getpid(), i;
	char what[64];
	int status;

	for (i = 0; r && phase() < CALM; i++) {
		const char *dev = binders[i % ARRAY_SIZE(binders)].ifname;

		snprintf(what, sizeof(what), "restore %s", dev);
		status = ctl(r, (const char *const []){ "restore", dev, "-j", NULL });
		if (status) {
			count(C_RESTORE_FAILED);
			failed_well(what, status, r);
		} else {
			count(C_RESTORE_OK);
			say("%s: ok", what);
		}
		nap(&seed, 200, 1200);
	}
	free(r);
}

/* What the stats readers ask, and how a successful answer is checked. */
enum format { TABLE, JSON, PROM };

static const struct {
	const char *args[7];
	enum format format;
} reads[] = {
	{ { "stats" }, TABLE },
	{ { "stats", "-j" }, JSON },
	{ { "stats", "vnode0" }, TABLE },
	{ { "stats", "vnode1", "-j" }, JSON },
	{ { "stats", "e1k", "--hist" }, TABLE },
	{ { "stats", "--prometheus" }, PROM },
	{ { "stats", "vnode0", "-i", "0.3", "-j" }, JSON },
	{ { "show", "-j" }, JSON },
	{ { "show", "vnode1" }, TABLE },
};

static void run_stats_reader(void)
{
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	unsigned int seed = getpid(), i;
	char what[96];
	int status;

	for (i = 0; r && jq && phase() < END; i++) {
		unsigned int k = i % ARRAY_SIZE(reads), a;
		size_t used = 0;

		what[0] = '\0';
		for (a = 0; reads[k].args[a]; a++)
			used += snprintf(what + used, sizeof(what) - used, "%s%s", a ? " " : "",
					 reads[k].args[a]);
		status = ctl(r, reads[k].args);
		if (status) {
			count(C_STATS_FAILED);
			failed_well(what, status, r);
		} else {
			count(C_STATS_READS);
			if (reads[k].format == JSON && run_jq(jq, r->out, "."))
				anomaly("%s: not JSON: %.200s", what, r->out);
			if (reads[k].format == PROM && !prom_text_ok(r->out))
				anomaly("%s: not Prometheus text", what);
		}
		nap(&seed, 0, 200);
	}
	free(jq);
	free(r);
}

static void run_stats_switch(void)
{
	static const char *const opts[] = { "--reset", "--off", "--on" };
	struct run_result *r = malloc(sizeof(*r));
	unsigned int seed = getpid(), i;
	char what[32];
	int status;

	for (i = 0; r && phase() < CALM; i++) {
		snprintf(what, sizeof(what), "stats %s", opts[i % 3]);
		status = ctl(r, (const char *const []){ "stats", opts[i % 3], NULL });
		if (status) {
			failed_well(what, status, r);
		} else {
			count(C_STATS_SWITCHES);
			say("%s: ok", what);
		}
		nap(&seed, 300, 1500);
	}
	free(r);
}

/* Text that arrives in pieces, handed on line by line. */
struct lines {
	char buf[LINE_LEN];
	size_t len;
};

/* Read what @fd has into @l and call @fn for each whole line: 0, or 1 at end of file. */
static int read_lines(int fd, struct lines *l, void (*fn)(const char *line, void *arg), void *arg)
{
	ssize_t n = read(fd, l->buf + l->len, sizeof(l->buf) - 1 - l->len);
	char *nl;

	if (n <= 0)
		return n == 0 || errno != EINTR;
	l->len += n;
	l->buf[l->len] = '\0';
	while ((nl = strchr(l->buf, '\n'))) {
		*nl = '\0';
		fn(l->buf, arg);
		l->len -= nl + 1 - l->buf;
		memmove(l->buf, nl + 1, l->len + 1);
	}
	if (l->len == sizeof(l->buf) - 1) {
		anomaly("a line longer than %d bytes: %.100s", LINE_LEN, l->buf);
		l->len = 0;
	}
	return 0;
}

/* What one run of `nictlctl monitor -j` showed. */
struct monitor_run {
	int idx;		/* of the listener */
	long long last_seq;	/* 0 before the first event */
	unsigned int events, gaps, said_gaps, overruns;
	bool unloaded;		/* it said the module went away */
};

static void on_event(const char *line, void *arg)
{
	struct monitor_run *m = arg;
	const char *end, *p;
	long long seq = json_num(line, "\"seq\":", &end);
	char name[32];
	int type;

	p = strstr(line, "\"event\":\"");
	if (seq <= 0 || !p || sscanf(p + 9, "%31[^\"]", name) != 1) {
		anomaly("monitor printed a line without seq or event: %.200s", line);
		return;
	}
	if (m->last_seq && seq <= m->last_seq)
		anomaly("monitor: seq %lld after %lld", seq, m->last_seq);
	else if (m->last_seq && seq != m->last_seq + 1)
		m->gaps++;
	m->last_seq = seq;
	m->events++;
	for (type = 1; type < __NICTL_EVENT_MAX; type++)
		if (!strcmp(name, nictl_event_name(type)))
			break;
	if (type == __NICTL_EVENT_MAX) {
		anomaly("monitor: unknown event %s", name);
		return;
	}
	__atomic_add_fetch(&sh->events[m->idx][type], 1, __ATOMIC_SEQ_CST);
	if (type == NICTL_EVENT_BOUND && sh->daemon &&
	    json_num(line, "\"pid\":", &end) == sh->daemon)
		__atomic_add_fetch(&sh->daemon_binds[m->idx], 1, __ATOMIC_SEQ_CST);
}

static void on_monitor_err(const char *line, void *arg)
{
	struct monitor_run *m = arg;

	say("monitor: %s", line);
	if (strstr(line, "events lost: socket overrun")) {
		m->overruns++;
		count(C_OVERRUNS);
	} else if (strstr(line, "events lost: ")) {
		m->said_gaps++;
	} else if (strstr(line, "module nictl was unloaded") ||
		   strstr(line, "module nictl is not loaded") ||
		   strstr(line, "cannot join the events")) {
		m->unloaded = true;
	} else {
		anomaly("monitor said: %s", line);
	}
}

/*
 * One run of the monitor, until it ends (the module went away) or the
 * listeners stop: every gap in its sequence numbers said on stderr, and
 * none without an overrun.
 */
static void monitor_once(int idx, struct lines *out, struct lines *err)
{
	struct monitor_run m = { .idx = idx };
	struct spawned s;
	bool out_done = false, err_done = false, stopped = false;
	int status;

	out->len = err->len = 0;
	op_begin("nictlctl monitor -j");
	if (spawn_ctl(&s, (const char *const []){ "monitor", "-j", NULL })) {
		anomaly("cannot start the monitor");
		return;
	}
	count(C_MONITOR_RUNS);
	while (!out_done || !err_done) {
		struct pollfd fds[2] = {
			{ .fd = out_done ? -1 : s.out, .events = POLLIN },
			{ .fd = err_done ? -1 : s.err, .events = POLLIN },
		};

		if (!stopped && phase() >= END) {
			kill(s.pid, SIGTERM);
			stopped = true;
		}
		if (poll(fds, 2, 200) < 0 && errno != EINTR)
			break;
		if (fds[0].revents)
			out_done = read_lines(s.out, out, on_event, &m);
		if (fds[1].revents)
			err_done = read_lines(s.err, err, on_monitor_err, &m);
		me->op_start_ms = now_ms();	/* a monitor waits by design */
	}
	status = spawn_stop(&s, 0, 5000);
	op_end();
	say("monitor ended (exit %d): %u events, last seq %lld, %u gaps (%u said), %u overruns",
	    status, m.events, m.last_seq, m.gaps, m.said_gaps, m.overruns);
	if (!(stopped && status == 0) && !(status == 1 && m.unloaded))
		anomaly("monitor ended with %d%s", status, m.unloaded ? "" : " (module still here)");
	if (m.gaps != m.said_gaps || (m.gaps && !m.overruns))
		anomaly("monitor: %u sequence gaps, %u said, %u overruns", m.gaps, m.said_gaps,
			m.overruns);
}

static void run_listener(int idx)
{
	struct lines *out = malloc(sizeof(*out)), *err = malloc(sizeof(*err));

	while (out && err && phase() < END) {
		monitor_once(idx, out, err);
		if (phase() < END)
			usleep(200 * 1000);
	}
	free(out);
	free(err);
}

/* A step of a churn loop that must not fail: 0, or an anomaly. */
static int must(const char *what, int ret)
{
	op_end();
	if (ret)
		anomaly("%s: %s", what, ret < 0 ? strerror(-ret) : "failed");
	else
		say("%s: ok", what);
	return ret;
}

struct nic {
	struct netdev_info info;
	char driver[64];	/* of the PCI function */
};

/* Take the CPU-cycle lock (CPU_LOCK): its fd, or -errno. */
static int cpu_lock(void)
{
	int fd = open(CPU_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX)) {
		close(fd);
		return -errno;
	}
	return fd;
}

static void run_pci_rebinder(const struct nic *n)
{
	unsigned int seed = getpid();
	int lock, ret;

	while (phase() < CALM) {
		op_begin("unbind %s, no CPU cycle for %u s", n->info.bus_addr,
			 CPU_SETTLE_MS / 1000);
		lock = cpu_lock();
		ret = lock < 0 ? lock : pci_driver_bind(n->driver, n->info.bus_addr, false);
		if (lock >= 0)
			close(lock);
		if (must("PCI unbind of vnode1", ret))
			return;
		nap(&seed, 200, 1000);
		op_begin("bind %s", n->info.bus_addr);
		if (must("PCI bind of vnode1, renamed and up",
			 netdev_revive(n->info.pci_path, n->driver, "vnode1")))
			return;
		count(C_PCI_REBINDS);
		nap(&seed, 3000, 8000);
	}
}

/* A macvlan made on e1k and deleted again: e1k's linked and unlinked events. */
static void run_stacker(void)
{
	unsigned int seed = getpid();

	while (phase() < CALM) {
		op_begin("ip link add " STACKED " on e1k");
		if (must("ip link add " STACKED, SH("ip", "link", "add", "link", "e1k", "name",
						   STACKED, "type", "macvlan")))
			return;
		count(C_STACKINGS);
		nap(&seed, 500, 1500);
		op_begin("ip link del " STACKED);
		if (must("ip link del " STACKED, SH("ip", "link", "del", STACKED)))
			return;
		nap(&seed, 1000, 3000);
	}
}

static void run_channels(void)
{
	unsigned int seed = getpid(), i;
	char what[64];

	for (i = 1; phase() < CALM; i++) {
		snprintf(what, sizeof(what), "ethtool -L vnode0 combined %u", 2 - i % 2);
		op_begin("%s", what);
		if (must(what, netdev_set_channels("vnode0", 2 - i % 2)))
			return;
		count(C_ETHTOOL);
		nap(&seed, 1000, 3000);
	}
}

/*
 * CPU hotplug is refused (EBUSY) while a PCI driver probes, which the PCI
 * rebinder makes happen, and a probe on a loaded emulator can take many
 * seconds: keep trying for as long as an operation may take.
 */
static int set_online(unsigned int cpu, bool online)
{
	long long start = now_ms();
	int ret;

	while ((ret = cpu_set_online(cpu, online)) == -EBUSY && now_ms() - start < HANG_MS / 2)
		usleep(100 * 1000);
	return ret;
}

/* Take CPU_LOCK for a CPU cycle: its fd, or -1 (an anomaly). */
static int take_cpu_lock(void)
{
	int lock;

	op_begin("take " CPU_LOCK);
	lock = cpu_lock();
	op_end();
	if (lock < 0)
		anomaly("take " CPU_LOCK ": %s", strerror(-lock));
	return lock;
}

/*
 * After a CPU came back. The settling time also spaces the cycles out,
 * which they need: Debian's 6.12 WARNs now and then in the deadline server
 * as a CPU dies (task_non_contending() from sched_cpu_dying(), no nictl
 * code on the stack) when cycles come faster. The churn stopping does not
 * wait for it.
 */
static void settle_cpus(void)
{
	long long end;

	for (end = now_ms() + CPU_SETTLE_MS; phase() < CALM && now_ms() < end;)
		usleep(100 * 1000);
}

static void run_hotplug(void)
{
	unsigned int seed = getpid(), i, cpu;
	char what[32];
	int lock;

	for (i = 0; phase() < CALM; i++) {
		cpu = hotplug_cpus[i % ARRAY_SIZE(hotplug_cpus)];
		lock = take_cpu_lock();
		if (lock < 0)
			return;
		snprintf(what, sizeof(what), "CPU %u offline", cpu);
		op_begin("%s", what);
		if (must(what, set_online(cpu, false)))
			return;
		nap(&seed, 300, 1500);
		snprintf(what, sizeof(what), "CPU %u online", cpu);
		op_begin("%s", what);
		if (must(what, set_online(cpu, true)))
			return;
		count(C_CPU_CYCLES);
		settle_cpus();
		close(lock);
		/* Time for a waiting unbind to take the lock. */
		nap(&seed, 1000, 3000);
	}
}

/* igb0, which no binder touches: a sticky binding that a CPU cycle breaks. */
static const struct policy igb0_sticky = { { "--cpus", "3,6", "--sticky" }, "3,6" };
static const struct binder igb0_binder = { "igb0", &igb0_sticky, 1, NULL, -1 };

/*
 * A sticky binding the module cannot apply, every cycle: igb0 bound stickily
 * on CPUs 3 and 6, then, under the CPU-cycle lock, CPU 6 taken away and
 * igb0's channel count changed. igb allocates new vectors inside ethtool -L:
 * the module's apply fails (sticky-failed) and igb0 keeps what its driver
 * gave it. Then CPU 6
 * comes back, and settles as the hotplug worker's CPUs do.
 */
static void run_sticky_breaker(void)
{
	struct run_result *r = malloc(sizeof(*r));
	unsigned int seed = getpid(), i, n;
	struct netdev_info igb0;
	struct placement got;
	char what[48];
	int lock, ret;

	if (!r || must("igb0's queue count", netdev_info("igb0", &igb0)))
		goto out;
	for (i = 1; phase() < CALM; i++) {
		lock = take_cpu_lock();
		if (lock < 0)
			break;
		if (bind_once(r, &igb0_binder, &igb0_sticky, &got)) {
			close(lock);
			nap(&seed, 1000, 3000);
			continue;
		}
		n = 2 - i % 2;
		snprintf(what, sizeof(what), "ethtool -L igb0 combined %u", n);
		op_begin("CPU 6 offline, then %s", what);
		if (must("CPU 6 offline", set_online(6, false)))
			break;
		ret = must(what, netdev_set_channels("igb0", n));
		if (!ret) {
			count(C_ETHTOOL);
			/* The periodic check finds the new queue count within a second. */
			nap(&seed, 3000, 4000);
		}
		op_begin("CPU 6 online");
		if (must("CPU 6 online", set_online(6, true)) || ret)
			break;
		count(C_CPU_CYCLES);
		settle_cpus();
		close(lock);
		nap(&seed, 1000, 3000);
	}
	op_begin("ethtool -L igb0 combined %u, restore igb0", igb0.rx_queues);
	must("igb0's queue count back", netdev_set_channels("igb0", igb0.rx_queues));
	/* A module reload may have dropped the binding already. */
	ctl(r, (const char *const []){ "restore", "igb0", NULL });
	op_end();
out:
	free(r);
}

static void run_module_reloader(void)
{
	unsigned int seed = getpid(), tries;
	int ret;

	nap(&seed, 10000, 20000);
	while (phase() < CALM) {
		op_begin("rmmod nictl");
		/* A dump in progress holds the module: that is no fault. */
		for (tries = 0; (ret = nictl_module_unload()) == -EAGAIN && tries < 100; tries++) {
			count(C_UNLOAD_BUSY);
			usleep(50 * 1000);
		}
		if (must("rmmod nictl", ret))
			return;
		nap(&seed, 300, 1500);
		op_begin("insmod nictl");
		if (must("insmod nictl", nictl_module_load()))
			return;
		count(C_MODULE_RELOADS);
		nap(&seed, 15000, 30000);
	}
}

/*
 * Open windows in which the k-th affinity write of every apply fails;
 * the binds caught in one count the faults. While the module is away
 * there is no knob, and no window.
 */
static void run_faults(void)
{
	unsigned int seed = getpid(), i;
	int ret;

	for (i = 0; phase() < CALM; i++) {
		nap(&seed, 1000, 3000);
		op_begin("fault_fail_nth=%u", 1 + i % 4);
		ret = nictl_set_fault(1 + i % 4);
		op_end();
		say("fault_fail_nth=%u: %s", 1 + i % 4, ret ? strerror(-ret) : "ok");
		if (ret)
			continue;
		count(C_FAULT_WINDOWS);
		nap(&seed, 300, 800);
		op_begin("fault_fail_nth=0");
		ret = nictl_set_fault(0);
		op_end();
		say("fault_fail_nth=0: %s", ret ? strerror(-ret) : "ok");
	}
	/* The module may have been reloaded in between, with the knob off. */
	if (nictl_module_loaded())
		nictl_set_fault(0);
}

/* What irqbalance or a script does: move one of vnode1's queue IRQs to CPU 0. */
static void run_mover(void)
{
	struct proc_irqs *p = malloc(sizeof(*p));
	struct queue_irq q[NICTL_MAX_IRQS];
	struct netdev_info info;
	unsigned int seed = getpid(), n;
	struct cpus cpu0;
	int ret;

	cpus_zero(&cpu0);
	cpus_set(&cpu0, 0);
	while (p && phase() < CALM) {
		nap(&seed, 2000, 4000);
		op_begin("move a vnode1 IRQ");
		ret = netdev_info("vnode1", &info) ?: proc_interrupts(p) ?:
		      proc_queue_irqs(p, info.irq_prefix, q, NICTL_MAX_IRQS, &n);
		if (!ret && !n)
			ret = -ENOENT;
		if (!ret) {
			n = rand_r(&seed) % n;
			ret = irq_set_affinity(q[n].irq, &cpu0);
		}
		op_end();
		say("move a vnode1 IRQ to CPU 0 through /proc: %s%s",
		    ret ? strerror(-ret) : "IRQ ", ret ? "" : q[n].name);
		if (!ret)
			count(C_PROC_MOVES);
	}
	free(p);
}

enum job {
	J_BIND_VNODE0, J_BIND_E1K, J_BIND_VNODE1, J_RESTORE, J_STATS, J_STATS_SWITCH,
	J_LISTEN0, J_LISTEN1, J_PCI, J_CHANNELS, J_HOTPLUG, J_STICKY, J_MODULE, J_FAULTS,
	J_MOVER, J_STACKER, NR_JOBS
};

static const struct {
	const char *name;
	enum phase until;
} jobs[NR_JOBS] = {
	[J_BIND_VNODE0] = { "bind vnode0", FINAL },
	[J_BIND_E1K] = { "bind e1k", FINAL },
	[J_BIND_VNODE1] = { "bind vnode1", FINAL },
	[J_RESTORE] = { "restore", CALM },
	[J_STATS] = { "stats", END },
	[J_STATS_SWITCH] = { "stats switch", CALM },
	[J_LISTEN0] = { "listener 0", END },
	[J_LISTEN1] = { "listener 1", END },
	[J_PCI] = { "pci vnode1", CALM },
	[J_CHANNELS] = { "channels vnode0", CALM },
	[J_HOTPLUG] = { "cpu hotplug", CALM },
	[J_STICKY] = { "sticky breaker", CALM },
	[J_MODULE] = { "module", CALM },
	[J_FAULTS] = { "faults", CALM },
	[J_MOVER] = { "proc mover", CALM },
	[J_STACKER] = { "macvlan on e1k", CALM },
};

static void run_job(enum job j, const struct nic *vnode1)
{
	switch (j) {
	case J_BIND_VNODE0:
	case J_BIND_E1K:
	case J_BIND_VNODE1:
		return run_binder(&binders[j - J_BIND_VNODE0]);
	case J_RESTORE:
		return run_restorer();
	case J_STATS:
		return run_stats_reader();
	case J_STATS_SWITCH:
		return run_stats_switch();
	case J_LISTEN0:
	case J_LISTEN1:
		return run_listener(j - J_LISTEN0);
	case J_PCI:
		return run_pci_rebinder(vnode1);
	case J_CHANNELS:
		return run_channels();
	case J_HOTPLUG:
		return run_hotplug();
	case J_STICKY:
		return run_sticky_breaker();
	case J_MODULE:
		return run_module_reloader();
	case J_FAULTS:
		return run_faults();
	case J_MOVER:
		return run_mover();
	case J_STACKER:
		return run_stacker();
	case NR_JOBS:
		break;
	}
}

/* Fork the worker of job @j, in a process group of its own: 0 or -errno. */
static int start_worker(enum job j, const struct nic *vnode1)
{
	struct worker *w = &sh->w[sh->n_workers];
	pid_t pid;

	snprintf(w->name, sizeof(w->name), "%s", jobs[j].name);
	w->until = jobs[j].until;
	w->op_start_ms = now_ms();
	pid = fork_flushed();
	if (pid < 0)
		return -errno;
	if (!pid) {
		setpgid(0, 0);
		me = w;
		run_job(j, vnode1);
		say("done; longest operation %lld ms", me->max_op_ms);
		_exit(0);
	}
	w->pid = pid;
	sh->n_workers++;
	return 0;
}

/*
 * Start phase @p and wait for the workers that stop at it. A worker that
 * takes longer than HANG_MS (from the start of its current operation) is
 * reported with what it is doing and killed. Returns the problems.
 */
static int enter_phase(enum phase p)
{
	unsigned int i, left;
	int problems = 0, status;
	struct worker *w;

	__atomic_store_n(&sh->phase, p, __ATOMIC_SEQ_CST);
	say("phase %d", p);
	do {
		left = 0;
		for (i = 0; i < sh->n_workers; i++) {
			w = &sh->w[i];
			if (w->until != p || !w->pid)
				continue;
			if (waitpid(w->pid, &status, WNOHANG) == w->pid) {
				if (!WIFEXITED(status) || WEXITSTATUS(status)) {
					say("worker %s ended with status %#x", w->name, status);
					problems++;
				}
				w->pid = 0;
			} else if (now_ms() - __atomic_load_n(&w->op_start_ms, __ATOMIC_SEQ_CST) >
				   HANG_MS) {
				say("HANG: worker %s is stuck in '%s'", w->name, w->op);
				kill(-w->pid, SIGKILL);
				waitpid(w->pid, &status, 0);
				w->pid = 0;
				problems++;
			} else {
				left++;
			}
		}
		if (left)
			usleep(100 * 1000);
	} while (left);
	return problems;
}

/* A worker that ended before its time (it crashed, or a churn step failed). */
static int early_exits(void)
{
	unsigned int i;
	int status, n = 0;

	for (i = 0; i < sh->n_workers; i++) {
		if (!sh->w[i].pid || waitpid(sh->w[i].pid, &status, WNOHANG) != sh->w[i].pid)
			continue;
		say("worker %s ended early (status %#x)", sh->w[i].name, status);
		sh->w[i].pid = 0;
		sh->w[i].until = RUN;
		n++;
	}
	return n;
}

static unsigned int stress_seconds(void)
{
	const char *s = getenv("NICTL_STRESS_SECONDS");
	long v = s ? strtol(s, NULL, 10) : SECONDS_DEFAULT;

	return v > 0 && v <= SECONDS_MAX ? v : SECONDS_DEFAULT;
}

FIXTURE(stress) {
	struct test_env env;
	struct nic vnode1;
	unsigned int vnode0_channels;
	pid_t daemon;
	char mark[64];
};

static const struct governed governed_vnode1 = { "vnode1", 1, 4, true, false, NULL };

/* The daemon's rule: vnode1 by its MAC, on its own node. */
static int write_conf(void)
{
	return write_conf_mac(CONF, "vnode1",
			      "# written by nictl_stress\n"
			      "[rule node1-nic]\n"
			      "match-mac = %s\n"
			      "cpus = numa-local\n"
			      "\n"
			      "[daemon]\n"
			      "irqbalance = ignore\n");
}

FIXTURE_SETUP(stress)
{
	struct netdev_info vnode0;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	sh->t0_ms = now_ms();
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, netdev_info("vnode1", &self->vnode1.info));
	pci_driver_name(self->vnode1.info.pci_path, self->vnode1.driver,
			sizeof(self->vnode1.driver));
	ASSERT_STREQ("virtio-pci", self->vnode1.driver);
	ASSERT_EQ(0, netdev_info("vnode0", &vnode0));
	ASSERT_EQ(2U, vnode0.rx_queues);
	self->vnode0_channels = vnode0.rx_queues;
	snprintf(self->mark, sizeof(self->mark), KMSG_MARK " %lld", now_ms());
	ASSERT_EQ(0, kmsg_mark(self->mark));
	ASSERT_EQ(0, write_conf());
	unlink(DAEMON_LOG);
	self->daemon = daemon_start(CONF, DAEMON_LOG);
	ASSERT_LT(0, self->daemon);
	sh->daemon = self->daemon;
	ASSERT_TRUE(back_in_policy(&self->env.nl, &governed_vnode1));
}

FIXTURE_TEARDOWN(stress)
{
	struct netdev_info now;
	int status;

	if (self->daemon && waitpid(self->daemon, &status, WNOHANG) == 0)
		daemon_stop(self->daemon);
	EXPECT_EQ(0, cpus_all_online());
	EXPECT_EQ(0, netdev_revive(self->vnode1.info.pci_path, self->vnode1.driver, "vnode1"));
	if (!netdev_info("vnode0", &now) && now.rx_queues != self->vnode0_channels)
		EXPECT_EQ(0, netdev_set_channels("vnode0", self->vnode0_channels));
	EXPECT_EQ(0, env_teardown(&self->env));
	EXPECT_EQ(0, stats_defaults());
	munmap(sh, sizeof(*sh));
}

/*
 * The last bind of @ifname (slot @slot) is in force: nictl holds it, its
 * reply, DEV_GET, `nictlctl show -j` and /proc/irq all say the same.
 */
static bool last_bind_holds(struct nl_client *nl, const char *ifname, int slot,
			    const struct policy *p)
{
	const struct placement *last = &sh->last[slot];
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	char want[512] = "", line[64];
	struct nictl_dev dev;
	struct nl_result res;
	struct cpus asked, mask;
	unsigned int i;
	bool ok = r && jq && sh->last_done[slot] && !cpus_parse(&asked, p->allowed);

	/* placement_ok() makes the IRQs fire, so that no move is pending after it. */
	if (ok && (nictl_dev_get(nl, ifname, &dev, &res) || !placement_ok(&dev, &asked, true) ||
		   nictl_dev_get(nl, ifname, &dev, &res))) {
		fprintf(stderr, "# %s is not placed as asked (%s)\n", ifname, res.msg);
		ok = false;
	}
	ok = ok && dev.n_irqs == last->n && dev_matches_proc(&dev);
	for (i = 0; ok && i < last->n; i++) {
		if (dev.irqs[i].num != last->irq[i] || dev.irqs[i].target_cpu != last->cpu[i] ||
		    irq_affinity(last->irq[i], &mask, NULL) || cpus_count(&mask) != 1 ||
		    !cpus_test(&mask, last->cpu[i])) {
			fprintf(stderr, "# %s: IRQ %u is not where the last bind put it (CPU %u)\n",
				ifname, last->irq[i], last->cpu[i]);
			ok = false;
		}
		snprintf(line, sizeof(line), "%u %u %u\n", last->irq[i], last->cpu[i],
			 last->cpu[i]);
		strcat(want, line);
	}
	/* The module's record as nictlctl shows it: IRQ, affinity, target. */
	ok = ok && !run_ctl(r, false, NULL, (const char *const []){ "show", ifname, "-j", NULL }) &&
	     !run_jq(jq, r->out, ".[0].irqs[] | \"\\(.irq) \\(.affinity_list) \\(.target_cpu)\"");
	if (ok && strcmp(jq->out, want)) {
		fprintf(stderr, "# show %s -j says:\n%s# the last bind:\n%s", ifname, jq->out, want);
		ok = false;
	}
	free(jq);
	free(r);
	return ok;
}

/*
 * What has not happened yet: a kind of operation, or (with @events) an
 * event or a bind by the daemon that a listener has not seen. Each is
 * printed when @loud.
 */
static unsigned int missing(bool loud, bool events)
{
	unsigned int l, type, c, n = 0;

	for (l = 0; events && l < LISTENERS; l++) {
		for (type = 1; type < __NICTL_EVENT_MAX; type++) {
			if (sh->events[l][type])
				continue;
			if (loud)
				fprintf(stderr, "# listener %u saw no %s event\n", l,
					nictl_event_name(type));
			n++;
		}
		if (!sh->daemon_binds[l]) {
			if (loud)
				fprintf(stderr, "# listener %u saw no bind by the daemon\n", l);
			n++;
		}
	}
	for (c = 0; c < NR_COUNTERS; c++) {
		if (c == C_ANOMALIES || c == C_OVERRUNS || c == C_UNLOAD_BUSY ||
		    c == C_STATS_FAILED || sh->counters[c])
			continue;
		if (loud)
			fprintf(stderr, "# no %s\n", counter_names[c]);
		n++;
	}
	return n;
}

/* How many events of each kind each listener has seen. */
struct seen {
	long n[LISTENERS][__NICTL_EVENT_MAX];
};

static void seen_now(struct seen *s)
{
	unsigned int l, type;

	for (l = 0; l < LISTENERS; l++)
		for (type = 0; type < __NICTL_EVENT_MAX; type++)
			s->n[l][type] = __atomic_load_n(&sh->events[l][type], __ATOMIC_SEQ_CST);
}

/* Every listener has seen an event of @type since @before. */
static bool all_saw(const struct seen *before, enum nictl_event type)
{
	struct seen now;
	unsigned int l;

	seen_now(&now);
	for (l = 0; l < LISTENERS; l++)
		if (now.n[l][type] <= before->n[l][type])
			return false;
	return true;
}

/* Wait until every listener saw @type since @before: 0, or -ETIMEDOUT after saying so. */
static int wait_all_saw(const struct seen *before, enum nictl_event type)
{
	long long end = now_ms() + 60000LL * timeout_scale();

	while (!all_saw(before, type) && now_ms() < end)
		usleep(100 * 1000);
	if (all_saw(before, type))
		return 0;
	fprintf(stderr, "# a listener saw no %s event after the step that causes it\n",
		nictl_event_name(type));
	return -ETIMEDOUT;
}

/* e1k moved to a namespace and back: unregistered, registered, down and up. */
static int move_e1k_and_back(void)
{
	return SH("ip", "netns", "add", "nictl-stress") ?:
	       SH("ip", "link", "set", "e1k", "netns", "nictl-stress") ?:
	       SH("ip", "-n", "nictl-stress", "link", "set", "e1k", "netns", "1") ?:
	       SH("ip", "netns", "del", "nictl-stress") ?: netdev_set_up("e1k", true);
}

/* e1000e frees its IRQs at close and requests them at open: queues-changed. */
static int cycle_e1k(void)
{
	return netdev_set_up("e1k", false) ?: netdev_set_up("e1k", true);
}

static int rename_e1k(void)
{
	return netdev_set_up("e1k", false) ?: netdev_rename("e1k", "nictlstrx") ?:
	       netdev_rename("nictlstrx", "e1k") ?: netdev_set_up("e1k", true);
}

/*
 * e1k bound on CPU 7, one of its IRQs moved to CPU 0 through /proc (drift),
 * then restored: bound, drift, restored.
 */
static int drift_e1k(struct nl_client *nl, struct run_result *r, const struct seen *before)
{
	struct nictl_dev *dev = malloc(sizeof(*dev));
	struct nl_result res;
	struct cpus cpu0;
	int ret;

	if (!dev)
		return -ENOMEM;
	cpus_zero(&cpu0);
	cpus_set(&cpu0, 0);
	ret = ctl(r, (const char *const []){ "bind", "e1k", "--cpus", "7", NULL }) ?:
	      nictl_dev_get(nl, "e1k", dev, &res) ?: !dev->n_irqs ? -ENOENT :
	      irq_set_affinity(dev->irqs[0].num, &cpu0) ?:
	      wait_all_saw(before, NICTL_EVENT_DRIFT) ?:
	      ctl(r, (const char *const []){ "restore", "e1k", NULL });
	free(dev);
	return ret;
}

/*
 * igb0 with 2 queue pairs bound stickily on CPUs 3 and 6, then cut to 1 (igb
 * allocates new vectors inside ethtool -L): with CPU 6 offline the module
 * cannot apply the binding (sticky-failed), with it online it does
 * (sticky-applied). Then the affinities and the channels go back.
 */
static int change_sticky_igb0(struct run_result *r, const struct seen *before, bool cpu6_away)
{
	enum nictl_event want = cpu6_away ? NICTL_EVENT_STICKY_FAILED : NICTL_EVENT_STICKY_APPLIED;
	struct netdev_info igb0;
	int ret, lock;

	ret = netdev_info("igb0", &igb0);
	if (ret)
		return ret;
	lock = cpu_lock();
	if (lock < 0)
		return lock;
	ret = netdev_set_channels("igb0", 2) ?:
	      ctl(r, (const char *const []){ "bind", "igb0", "--cpus", "3,6", "--sticky", NULL });
	if (!ret && cpu6_away)
		ret = set_online(6, false);
	if (!ret)
		ret = netdev_set_channels("igb0", 1) ?: wait_all_saw(before, want);
	if (cpu6_away)
		ret = set_online(6, true) ?: ret;
	ret = ctl(r, (const char *const []){ "restore", "igb0", NULL }) ?: ret;
	ret = netdev_set_channels("igb0", igb0.rx_queues) ?: ret;
	close(lock);
	return ret;
}

/* A macvlan made on e1k and deleted: linked, unlinked. */
static int stack_on_e1k(void)
{
	return SH("ip", "link", "add", "link", "e1k", "name", STACKED, "type", "macvlan") ?:
	       SH("ip", "link", "del", STACKED);
}

enum tail_step {
	STEP_NETNS, STEP_DOWN_UP, STEP_RENAME, STEP_DRIFT, STEP_STICKY, STEP_STICKY_FAILS,
	STEP_STACK, NR_STEPS
};

/* The steps of the quiet tail and the kinds of event each causes. */
static const struct {
	const char *what;
	enum nictl_event causes[3];
} tail_steps[NR_STEPS] = {
	[STEP_NETNS] = { "e1k to a namespace and back",
			 { NICTL_EVENT_UNREGISTERED, NICTL_EVENT_REGISTERED } },
	[STEP_DOWN_UP] = { "e1k down and up",
			   { NICTL_EVENT_DOWN, NICTL_EVENT_UP, NICTL_EVENT_QUEUES_CHANGED } },
	[STEP_RENAME] = { "e1k renamed and back", { NICTL_EVENT_RENAMED } },
	[STEP_DRIFT] = { "e1k bound, moved, restored",
			 { NICTL_EVENT_BOUND, NICTL_EVENT_DRIFT, NICTL_EVENT_RESTORED } },
	[STEP_STICKY] = { "igb0's sticky binding at ethtool -L",
			  { NICTL_EVENT_STICKY_APPLIED } },
	[STEP_STICKY_FAILS] = { "igb0's sticky binding at ethtool -L, CPU 6 away",
				{ NICTL_EVENT_STICKY_FAILED } },
	[STEP_STACK] = { "a macvlan on e1k", { NICTL_EVENT_LINKED, NICTL_EVENT_UNLINKED } },
};

static int tail_step(enum tail_step step, struct nl_client *nl, struct run_result *r,
		     const struct seen *before)
{
	switch (step) {
	case STEP_NETNS:
		return move_e1k_and_back();
	case STEP_DOWN_UP:
		return cycle_e1k();
	case STEP_RENAME:
		return rename_e1k();
	case STEP_DRIFT:
		return drift_e1k(nl, r, before);
	case STEP_STICKY:
	case STEP_STICKY_FAILS:
		return change_sticky_igb0(r, before, step == STEP_STICKY_FAILS);
	case STEP_STACK:
		return stack_on_e1k();
	default:
		return -EINVAL;
	}
}

/*
 * Every kind of event, caused on purpose once the churn is over, and seen
 * by every listener. The churn makes them too, but some only by luck (a
 * sticky binding breaks only when a channel change finds its CPU away and
 * the binding in place), which a slow or busy host may not have: an event
 * the test asks for comes from a step of its own. e1k and igb0 serve, as
 * nobody else binds them now and the daemon governs vnode1 only.
 * Return: how many steps failed or were not heard.
 */
static int cause_every_event(struct nl_client *nl)
{
	static struct worker tail = { .name = "tail" };
	struct run_result *r = malloc(sizeof(*r));
	struct seen before;
	unsigned int i, k;
	int failed = 0, ret;

	if (!r)
		return 1;
	/* Its operations are logged and timed as a worker's. */
	me = &tail;
	for (i = 0; i < NR_STEPS; i++) {
		seen_now(&before);
		op_begin("%s", tail_steps[i].what);
		ret = tail_step(i, nl, r, &before);
		op_end();
		for (k = 0; !ret && k < ARRAY_SIZE(tail_steps[i].causes) &&
			    tail_steps[i].causes[k]; k++)
			ret = wait_all_saw(&before, tail_steps[i].causes[k]);
		say("%s: %s%s%s", tail_steps[i].what, ret ? strerror(ret < 0 ? -ret : EIO) : "heard",
		    ret > 0 ? "; nictlctl said: " : "", ret > 0 ? r->err : "");
		failed += !!ret;
	}
	me = NULL;
	free(r);
	return failed;
}

/* Print the figures, and write them as one line to $NICTL_RESULTS/stress-summary.txt. */
static void summary(unsigned int seconds, long long took_ms)
{
	const char *dir = getenv("NICTL_RESULTS"), *krel = getenv("NICTL_KREL");
	char line[2048], path[512];
	unsigned int i, type;
	size_t used;
	FILE *f;

	used = snprintf(line, sizeof(line), "kernel=%s seconds=%u wall_ms=%lld", krel ?: "?",
			seconds, took_ms);
	for (i = 0; i < NR_COUNTERS; i++)
		used += snprintf(line + used, sizeof(line) - used, " %s=%ld", counter_names[i],
				 sh->counters[i]);
	used += snprintf(line + used, sizeof(line) - used,
			 " churn_binds_ok=%ld churn_binds_failed=%ld", sh->churn_binds[0],
			 sh->churn_binds[1]);
	for (type = 1; type < __NICTL_EVENT_MAX; type++)
		used += snprintf(line + used, sizeof(line) - used, " events_%s=%ld",
				 nictl_event_name(type), sh->events[0][type]);
	used += snprintf(line + used, sizeof(line) - used, " daemon_binds=%ld",
			 sh->daemon_binds[0]);
	for (i = 0; i < sh->n_workers; i++)
		say("worker %s: longest operation %lld ms", sh->w[i].name, sh->w[i].max_op_ms);
	say("summary: %s", line);
	if (!dir || pathf(path, sizeof(path), "%s/stress-summary.txt", dir))
		return;
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

TEST_F_TIMEOUT(stress, everything_at_once, SECONDS_MAX + 1200)
{
	unsigned int seconds = stress_seconds(), j, waited;
	int problems = 0, tries, status, ret;
	long long start = now_ms();
	struct nictl_dev dev;
	struct nl_result res;

	say("%u seconds of churn; the daemon is pid %d", seconds, self->daemon);
	for (j = 0; j < NR_JOBS; j++)
		ASSERT_EQ(0, start_worker(j, &self->vnode1));
	/*
	 * On a slow host, go on until every kind of operation happened, within
	 * limits. Events need no luck: the quiet tail causes every kind
	 * (cause_every_event()).
	 */
	for (waited = 0; waited < seconds || (missing(false, false) && waited < 4 * seconds);
	     waited++) {
		sleep(1);
		problems += early_exits();
		if (waited % 10 == 9)
			say("%u s: %ld binds ok, %ld failed, %ld anomalies", waited + 1,
			    sh->counters[C_BIND_OK], sh->counters[C_BIND_FAILED],
			    sh->counters[C_ANOMALIES]);
	}
	sh->churn_binds[0] = sh->counters[C_BIND_OK];
	sh->churn_binds[1] = sh->counters[C_BIND_FAILED];
	problems += enter_phase(CALM);

	/* Everything back as it was: the binders' last binds need a quiet system. */
	EXPECT_EQ(0, nictl_module_load());
	EXPECT_EQ(0, nictl_set_fault(0));
	EXPECT_EQ(0, cpus_all_online());
	EXPECT_EQ(0, netdev_revive(self->vnode1.info.pci_path, self->vnode1.driver, "vnode1"));
	EXPECT_EQ(0, netdev_set_channels("vnode0", self->vnode0_channels));
	EXPECT_EQ(0, stats_defaults());
	problems += enter_phase(FINAL);

	nl_close(&self->env.nl);
	ASSERT_EQ(0, nictl_open(&self->env.nl));
	/* vnode1's binder had the last word but one: the daemon answers it. */
	EXPECT_TRUE(back_in_policy(&self->env.nl, &governed_vnode1));
	EXPECT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	EXPECT_TRUE(dev_matches_proc(&dev));
	EXPECT_TRUE(last_bind_holds(&self->env.nl, "vnode0", 0, &vnode0_last));
	EXPECT_TRUE(last_bind_holds(&self->env.nl, "e1k", 1, &e1k_last));
	EXPECT_EQ(0, cause_every_event(&self->env.nl));
	/* The events of the tail reach the listeners before they stop. */
	sleep(3);
	problems += enter_phase(END);

	EXPECT_EQ(0, waitpid(self->daemon, &status, WNOHANG)) TH_LOG("the daemon died");
	EXPECT_EQ(0, daemon_stop(self->daemon));
	self->daemon = 0;
	/* The daemon's binds fail in the fault windows too; it logs each. */
	sh->counters[C_FAULTS] += daemon_dump_log(DAEMON_LOG, "rolled back");
	EXPECT_EQ(0, problems);
	EXPECT_EQ(0, sh->counters[C_ANOMALIES]);
	EXPECT_EQ(0U, missing(true, true));
	EXPECT_TRUE(kmsg_clean_since(self->mark));

	/* The module leaves cleanly and comes back. */
	nl_close(&self->env.nl);
	for (tries = 0; (ret = nictl_module_unload()) == -EAGAIN && tries < 50; tries++)
		usleep(100 * 1000);
	EXPECT_EQ(0, ret);
	EXPECT_FALSE(nictl_module_loaded());
	ASSERT_EQ(0, nictl_module_load());
	ASSERT_EQ(0, nictl_open(&self->env.nl));
	EXPECT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res)) TH_LOG("%s", res.msg);
	summary(waited, now_ms() - start);
}

NICTL_TEST_MAIN
