// SPDX-License-Identifier: GPL-2.0
/*
 * The stats command: where the network softirqs spend their time, per CPU,
 * and with DEV which NAPI instance (queue) does the receiving and where. The
 * module times every NET_RX and NET_TX softirq run and counts every NAPI
 * poll; its counters only grow, so nictlctl shows either one snapshot since
 * the counters started (module load or the last --reset) or, with -i, the
 * difference of samples taken SECONDS apart. The three formats below are
 * stable: tests and scripts rely on them.
 *
 * TABLE (default; on stdout)
 *
 * A heading line, then one row per CPU that is online or ever counted
 * something, in ascending order, each indented by two spaces, columns
 * left-aligned and separated by at least two spaces. With more than 16 such
 * CPUs the table is a summary (--all lists every CPU): the 16 with the most
 * NET_RX time (then NET_TX time), hottest first, and a line for the rest,
 * "  ... <n> more CPUs, each with NET_RX <pct>% or less (--all lists
 * them)"; --hist then lists the same CPUs. A snapshot:
 *
 *   softirqs since the counters started 101.0 s ago; accounting on
 *     CPU  NET_RX%  RX_RUNS  RX/s   RX_AVG  RX_MAX  NET_TX%  TX/s  TX_MAX
 *     0    2.4      11500    113.9  213us   2.00ms  0.0      1.0   12.0us
 *     1    0.1      200      2.0    550us   4.00ms  0.0      0.0   -
 *     2    0.0      0        0.0    -       -       0.0      0.0   -
 *
 * With -i, per interval (blocks separated by an empty line):
 *
 *   softirqs over 1.00 s; accounting on; MAX: longest run since the start,
 *   + if reached in this interval                    (one line, wrapped here)
 *     CPU  NET_RX%  RX/s    RX_AVG  RX_MAX   NET_TX%  TX/s  TX_MAX  PKTS/s  DROPS  SQUEEZE
 *     0    45.0     1500.0  300us   2.00ms+  0.0      2.0   12.0us  9000.0  0      3
 *     1    1.0      100.0   100us   4.00ms   0.0      0.0   -       100.0   0      0
 *
 * NET_RX% is the share of the CPU's time spent in the NET_RX handler (of the
 * time since the start, or of the interval); RX_RUNS the handler's runs,
 * RX/s their rate, RX_AVG their average duration, RX_MAX the longest run.
 * The NET_TX columns are the same for NET_TX. The module keeps only the
 * longest run since the start, so over an interval RX_MAX and TX_MAX are that
 * too; a '+' marks one reached during the interval, which is therefore the
 * interval's longest run. Durations have three significant digits and a unit
 * (ns, us, ms, s); "-" means no run. PKTS/s, DROPS and SQUEEZE come from
 * /proc/net/softnet_stat over the interval: packets processed per second,
 * packets dropped on a full backlog, and net_rx_action runs that ended with
 * work left (budget or time exhausted); "-" where it has no row for the CPU.
 * "accounting off, counters frozen (stats --on)" replaces "accounting on"
 * when the module's probes are off.
 *
 * After an empty line, the same CPUs' NET_RX time split by what it was
 * spent on (an interval here; a snapshot has BKLOG_PKTS, the backlog's
 * packets since the start, instead of the two rates):
 *
 *   NET_RX time: NAPI% in device NAPIs, BACKLOG% in the RPS backlog, OTHER% the rest
 *     CPU  NET_RX%  NAPI%  BACKLOG%  OTHER%  BKLOG_PKTS/s  RPS_IPI/s
 *     0    45.0     30.0   0.0       15.0    0.0           0.0
 *     1    1.0      0.2    0.6       0.2     400.0         50.0
 *
 * NAPI% is the share of the span the CPU spent polling device NAPIs (with
 * DEV: that device's, and the heading says "in vnode1's NAPIs"), BACKLOG%
 * polling its backlog NAPI, where RPS and RFS queue the packets they steer
 * to the CPU, OTHER% the rest of NET_RX (with DEV, other devices' NAPIs
 * too); the three add up to NET_RX%. A poll's time runs from the end of
 * the poll before it in the same NET_RX run (see enum nictl_poll_attr).
 * BKLOG_PKTS/s are the packets the backlog processed, RPS_IPI/s the IPIs
 * with which other CPUs' RPS woke this one (softnet_stat's received_rps;
 * "-" where it has no row). Where the backlog is polled by threads of its
 * own (PREEMPT_RT, thread_backlog_napi), outside NET_RX, a line follows:
 * "  <n> backlog polls ran in backlog threads (PREEMPT_RT): untimed, no
 * RPS IPIs"; their packets are in BKLOG_PKTS, their time in no column.
 * Busy polling (a task polling a NAPI from its socket calls, SO_BUSY_POLL
 * or net.core.busy_read) runs outside NET_RX too; where a CPU of the table
 * did any, a line after the split says how much of the span it took:
 * "  busy polling, in tasks outside NET_RX: CPU 7 12.5% (4000 polls)[, CPU
 * <n> ...]".
 *
 * --hist adds, after an empty line and "runs by duration" (" in the
 * interval" with -i), a table of run counts per CPU and vector (VEC net_rx,
 * net_tx) in the module's log2 buckets: <1us, 1-2us, 2-4us, ... 256-512us,
 * 512us-1ms, 1-2ms, 2-4ms, 4-8ms, 8-16ms, >=16ms (1024 us counted as 1 ms).
 *
 * With DEV, after an empty line, the device's NAPI instances:
 *
 *   vnode1 (ifindex 3): 2 NAPI instances, 10000.0 packets/s
 *     QUEUE  NAPI_ID  PKTS/s  POLLS/s  SHARE%  IRQ_CPUS  NAPI_CPUS  THREAD_MS  BUSY_MS
 *     0      8193     9100.0  300.0    91.0    4         4          -          -
 *     1      8194     900.0   50.0     9.0     5         5-6*       -          3.0
 *     * polled outside its IRQ affinity: queue 1 on CPU 6 (busy polling there)
 *   (since the counters started: a moved IRQ, threaded NAPI or busy polling)
 *                                                          (one line, wrapped)
 *
 * In a snapshot the heading ends "<n> packets since the counters started" and
 * PACKETS and POLLS replace PKTS/s and POLLS/s. QUEUE is the receive queue
 * ("?" when the module does not know it), SHARE% the instance's share of the
 * device's packets, IRQ_CPUS the affinity of the queue's receive (or
 * combined) IRQs as a cpulist ("-" when it has none), NAPI_CPUS the CPUs the
 * instance was polled on since the start. A '*' after NAPI_CPUS marks an
 * instance polled outside its IRQs' affinity; the footnote line says where,
 * and "(busy polling there)" when tasks busy-polled it on one of those
 * CPUs in the span. THREAD_MS is the CPU time of the kernel thread that
 * polls the instance (threaded NAPI) in the span, BUSY_MS the time tasks
 * spent busy-polling it; "-" for none.
 * A device without instances has "no NAPI instances" instead of the table.
 *
 * A stacked DEV (a bond, VLAN, macvlan) has no NAPI instances of its own:
 * the table lists those of every physical device beneath it, by device in
 * the module's order, then by queue, a DEV column first naming each one's
 * device; the heading names the devices and the footnote and the last line
 * name the device of a queue ("vnode1 queue 1"):
 *
 *   bond0 (ifindex 9), stacked on vnode0, vnode1: 4 NAPI instances, 20000.0
 *   packets/s                                              (one line, wrapped)
 *     DEV     QUEUE  NAPI_ID  PKTS/s  POLLS/s  SHARE%  IRQ_CPUS  NAPI_CPUS
 *     vnode0  0      8193     9100.0  300.0    45.5    0         0
 *     vnode0  1      8194     900.0   50.0     4.5     1         1
 *     vnode1  0      8195     5000.0  200.0    25.0    2         2
 *     vnode1  1      8196     5000.0  200.0    25.0    3         3
 *
 * IRQ_CPUS is then the affinity of that device's queue, SHARE% a share of
 * all their packets, and NAPI% above counts the NAPIs of all of them ("in
 * the NAPIs of the devices beneath bond0").
 *
 * The last line names the hottest CPU and, with DEV, the largest share:
 *
 *   hottest CPU: 0, NET_RX 45.0% of the interval; queue 0 takes 91% of
 *   vnode1's packets (even: 50%)                          (one line, wrapped)
 *
 * ("of the time since the start" in a snapshot; "hottest CPU: none, no NET_RX
 * time counted"; "; vnode1 received no packets"; "; vnode1 has no NAPI
 * instances"; "NAPI <id>" for an instance of unknown queue; under a stacked
 * DEV "; vnode0 queue 0 takes 46% of bond0's packets (even: 25%)".)
 *
 * JSON (-j; on stdout)
 *
 * One object per snapshot or interval, each on a line of its own. Members,
 * in this order:
 *
 *   since_ns       integer, the snapshot's span since the counters started;
 *                  with -i instead:
 *   interval_ns    integer, the interval's length
 *   enabled        boolean, the module's probes are on
 *   cpus           array, one object per CPU of the table, ascending:
 *     cpu                 integer
 *     net_rx, net_tx      objects, one vector over the span:
 *       count      integer, runs
 *       time_ns    integer, their total duration
 *       max_ns     integer, the longest run since the counters started
 *       max_new    boolean, with -i: max_ns was reached in the interval (so
 *                  it is the interval's longest run); false in a snapshot
 *       hist       array of 16 integers, runs per bucket (as --hist)
 *       pct        number, time_ns in percent of the span
 *       per_sec    number, runs per second
 *       avg_ns     integer, time_ns / count rounded, 0 without runs
 *     poll                object, the NAPI polls over the span by kind:
 *       device, backlog   objects: polls, packets, time_ns (NET_RX time of
 *                  the timed polls), untimed (polls outside NET_RX that
 *                  are not timed) integers; pct (time_ns in percent of the
 *                  span), packets_per_sec numbers; busy_polls (polls by
 *                  busy polling), busy_ns (the time of those timed, outside
 *                  NET_RX) integers, busy_pct (busy_ns in percent of the
 *                  span) number
 *     net_rx_split        object, NET_RX time as the table splits it:
 *       napi_ns, backlog_ns, other_ns        integers, adding up to
 *                  net_rx.time_ns (napi_ns: DEV's NAPIs with DEV, those
 *                  of every device beneath a stacked one)
 *       napi_pct, backlog_pct, other_pct     numbers
 *     napi_unattributed   integer, polls the module could not attribute
 *     softnet             object, or null when softnet_stat has no row:
 *       processed, dropped, time_squeeze   integers: since boot in a
 *                  snapshot, over the interval with -i
 *       received_rps       integer the same way (RPS IPIs), or null when
 *                  the row has no such field
 *   hottest_cpu    integer, the CPU with the largest NET_RX pct, or null
 *   dev            (with DEV) object: ifname (string), ifindex (integer),
 *                  packets (integer, over the span); a stacked DEV also has
 *     stacked          true (absent for any other device)
 *     lower            array of objects, the physical devices beneath it
 *                      whose instances the queues are: ifname (string),
 *                      ifindex (integer)
 *   queues         (with DEV) array, one object per NAPI instance, in table
 *                  order:
 *     ifname           string, with a stacked DEV only: the instance's
 *                      device, one of dev.lower
 *     queue            integer, or null when unknown
 *     napi_id          integer
 *     polls, packets   integers, over the span
 *     time_ns          integer, NET_RX time its polls took in the span
 *     busy_ns          integer, time tasks spent busy-polling it in the span
 *     polls_per_sec, packets_per_sec, share_pct   numbers
 *     irq_cpus         array of CPU numbers, the queue's IRQ affinity
 *     napi_cpus        array of CPU numbers, where it was polled since the start
 *     outside_cpus     array, napi_cpus outside a non-empty irq_cpus
 *     busy_cpus        array, the CPUs tasks busy-polled it on in the span
 *     thread           object, or null when no kernel thread polls it: pid
 *                      (integer), time_ns (its CPU time in the span), cpus
 *                      (array, where it may run)
 *
 * Numbers with a fraction have three decimals.
 *
 * PROMETHEUS (--prometheus; on stdout)
 *
 * The counters since the start in the text exposition format, for
 * node_exporter's textfile collector (labels cpu, vec = net_rx|net_tx; with
 * kind = device|backlog; with DEV device, queue):
 *
 *   nictl_softirq_accounting_enabled                  gauge, 1 or 0
 *   nictl_stats_source{via}                           gauge, 1; via = module,
 *                                                     or procfs (below)
 *   nictl_softirq_runs_total{cpu,vec}                 counter
 *   nictl_softirq_seconds_total{cpu,vec}              counter
 *   nictl_softirq_max_seconds{cpu,vec}                gauge
 *   nictl_softirq_duration_seconds{vec}               histogram of every CPU,
 *                                                     le = 1e-06 ... 0.016384,
 *                                                     +Inf
 *   nictl_napi_unattributed_polls_total{cpu}          counter
 *   nictl_cpu_polls_total{cpu,kind}                   counter
 *   nictl_cpu_poll_packets_total{cpu,kind}            counter
 *   nictl_cpu_poll_seconds_total{cpu,kind}            counter, NET_RX time
 *   nictl_cpu_untimed_polls_total{cpu,kind}           counter, polls outside
 *                                                     NET_RX not timed
 *   nictl_cpu_busy_polls_total{cpu,kind}              counter, busy polling's
 *   nictl_cpu_busy_poll_seconds_total{cpu,kind}       counter, its time
 *   nictl_napi_polls_total{device,queue}              counter (with DEV)
 *   nictl_napi_packets_total{device,queue}            counter (with DEV)
 *   nictl_napi_seconds_total{device,queue}            counter (with DEV)
 *   nictl_napi_busy_poll_seconds_total{device,queue}  counter (with DEV)
 *   nictl_napi_thread_seconds_total{device,queue}     counter (with DEV, for
 *                                                     instances a thread polls)
 *
 * queue is "napi-<id>" for an instance of unknown queue. For a stacked DEV the
 * instances are those of the physical devices beneath it, and device names
 * each one's device (vnode0, not bond0): the label set stays the same, and
 * a series follows its NIC whether it is read through the bond or not.
 * softnet_stat is left out:
 * node_exporter's softnet collector exports it (received_rps too). --prometheus takes no -i.
 *
 * WITHOUT THE MODULE (stats_proc.c)
 *
 * After the one line that says why the module is absent, the CPUs as procfs
 * counts them since boot: NET_RX and NET_TX runs (/proc/softirqs) and the
 * time in softirqs of every vector (/proc/stat), with softnet_stat. The
 * table's heading says so, and its columns are CPU, RX_RUNS, RX/s, TX_RUNS,
 * TX/s, SOFT% (with -i: CPU, RX/s, TX/s, SOFT%, PKTS/s, DROPS, SQUEEZE); no
 * split, no histogram; the last line names the CPU with the most SOFT%.
 * JSON has "via": "procfs" ("module" otherwise), time_ns, max_ns, hist,
 * pct and avg_ns of each vector null, poll, net_rx_split and
 * napi_unattributed null, and softirq_pct a number (null with the module).
 * Prometheus has nictl_stats_source{via="procfs"} and the runs only. DEV,
 * --hist and the switches need the module and are refused with the reason.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/nictl.h>

#include "commands.h"
#include "duration.h"
#include "report.h"
#include "stats/stats.h"

/* Longest -i: a day; beyond, a cron job with --prometheus serves better. */
#define MAX_INTERVAL_S	86400

enum stats_format { FMT_TABLE, FMT_JSON, FMT_PROM };

struct stats_args {
	const char *dev;		/* NULL: CPUs only */
	uint64_t interval_ns;		/* 0: one snapshot */
	unsigned int count;		/* intervals; 0 when --count was not given */
	enum stats_format format;
	unsigned int nr_formats;	/* of -j and --prometheus */
	bool hist;
	bool all;			/* every CPU in the table, not a summary */
	uint8_t switch_cmd;		/* STATS_RESET or STATS_SET, 0 for none */
	int enable;			/* for STATS_SET */
	unsigned int nr_switches;
	const char *switch_opt;
	unsigned int nr_others;		/* options that make no sense with a switch */
};

static const char stats_usage[] =
	"Usage: " PROG_NAME " stats [DEV] [-i INTERVAL [--count N]] [--hist] [-a|--all]"
	" [-j|--json | --prometheus]\n"
	"       " PROG_NAME " stats --reset | --on | --off\n"
	"\n"
	"Show where the network softirqs spend their time: per CPU the share of\n"
	"time in NET_RX and NET_TX, their rate and run durations, NET_RX split into\n"
	"polling device NAPIs, the RPS backlog and the rest (with RPS IPIs), and\n"
	"with DEV (an interface name or ifindex) how the device's packets spread\n"
	"over its NAPI instances (queues) and CPUs, its NAPIs alone counting as\n"
	"NAPI time; a bond, VLAN or macvlan shows those of each physical device\n"
	"beneath it. Without -i: one snapshot since the counters started (module\n"
	"load or --reset).\n"
	"\n"
	"Options:\n"
	"  -i, --interval INTERVAL show what happened in INTERVAL: 1, 0.5, 500ms, 1m;\n"
	"                          with /proc/net/softnet_stat beside it\n"
	"      --count N           show N intervals in a row (default 1)\n"
	"      --hist              add the histogram of softirq run durations (-j and\n"
	"                          --prometheus always carry it)\n"
	"  -a, --all               list every CPU; above 16 CPUs the table shows the\n"
	"                          16 busiest only (-j and --prometheus list all)\n"
	"  -j, --json              print one JSON object per snapshot or interval\n"
	"      --prometheus        print the counters for node_exporter's textfile\n"
	"                          collector\n"
	"      --reset             zero every counter (needs CAP_NET_ADMIN)\n"
	"      --on, --off         switch the accounting on or off; off costs\n"
	"                          nothing, the counters stay (needs CAP_NET_ADMIN)\n"
	"  -h, --help              show this help\n";

/* Long-only options get values outside the character range. */
enum {
	OPT_HIST = 0x100,
	OPT_COUNT,
	OPT_PROM,
	OPT_RESET,
	OPT_ON,
	OPT_OFF,
};

static int parse_count(const char *arg, unsigned int *count)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || !n || n > UINT_MAX)
		return ctl_usage("stats", "--count '%s': give the number of intervals, 1 or more",
				 arg);
	*count = n;
	return 0;
}

static void add_switch(struct stats_args *a, const char *opt, uint8_t cmd, int enable)
{
	a->switch_cmd = cmd;
	a->enable = enable;
	a->switch_opt = opt;
	a->nr_switches++;
}

static const char stats_shortopts[] = ":i:ajh";

/* One option other than -h; returns 0, or the exit status when it is bad. */
static int parse_option(struct stats_args *a, int c, char **argv)
{
	if (c != OPT_RESET && c != OPT_ON && c != OPT_OFF)
		a->nr_others++;
	switch (c) {
	case 'i':
		return duration_parse("stats", "-i", optarg, MAX_INTERVAL_S, &a->interval_ns);
	case OPT_COUNT:
		return parse_count(optarg, &a->count);
	case OPT_HIST:
		a->hist = true;
		return 0;
	case 'a':
		a->all = true;
		return 0;
	case 'j':
		a->format = FMT_JSON;
		a->nr_formats++;
		return 0;
	case OPT_PROM:
		a->format = FMT_PROM;
		a->nr_formats++;
		return 0;
	case OPT_RESET:
		add_switch(a, "--reset", NICTL_CMD_STATS_RESET, 0);
		return 0;
	case OPT_ON:
		add_switch(a, "--on", NICTL_CMD_STATS_SET, 1);
		return 0;
	case OPT_OFF:
		add_switch(a, "--off", NICTL_CMD_STATS_SET, 0);
		return 0;
	default:
		return ctl_bad_option("stats", stats_shortopts, c, argv);
	}
}

/* Combinations the options alone rule out; returns 0 or EXIT_USAGE. */
static int check_args(const struct stats_args *a)
{
	if (a->nr_switches > 1)
		return ctl_usage("stats", "give only one of --reset, --on and --off");
	if (a->nr_switches && a->dev)
		return ctl_usage("stats", "%s takes no DEV: the accounting is one for all CPUs "
				 "and devices", a->switch_opt);
	if (a->nr_switches && a->nr_others)
		return ctl_usage("stats", "%s takes no other option", a->switch_opt);
	if (a->count && !a->interval_ns)
		return ctl_usage("stats", "--count needs -i: it counts intervals of -i");
	if (a->nr_formats > 1)
		return ctl_usage("stats", "give only one of -j and --prometheus");
	if (a->all && a->format != FMT_TABLE)
		return ctl_usage("stats", "--all chooses the table's rows; -j and --prometheus "
				 "always carry every CPU");
	if (a->format == FMT_PROM && a->interval_ns)
		return ctl_usage("stats", "--prometheus prints counters, which Prometheus turns "
				 "into rates itself; it takes no -i");
	return 0;
}

static int print_view(const struct stats_args *a, const struct stats_sample *prev,
		      const struct stats_sample *cur)
{
	struct stats_view v;
	int err;

	err = stats_view_make(&v, prev, cur);
	if (err)
		ctl_msg("out of memory");
	else if (a->format == FMT_JSON)
		err = stats_json(stdout, &v);
	else if (a->format == FMT_PROM)
		err = stats_prom(stdout, &v);
	else
		err = stats_table(stdout, &v, a->hist, a->all);
	stats_view_free(&v);
	/* Each interval reaches a pipe (jq, a log) as soon as it is complete. */
	fflush(stdout);
	return err;
}

/* Sleep until @deadline on CLOCK_MONOTONIC, which leaves no drift over --count. */
static void sleep_until(struct timespec *deadline, uint64_t ns)
{
	deadline->tv_sec += ns / 1000000000;
	deadline->tv_nsec += ns % 1000000000;
	if (deadline->tv_nsec >= 1000000000) {
		deadline->tv_sec++;
		deadline->tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL) == EINTR)
		;
}

/* One sample: the module's, or procfs's when @nl is NULL (no module). */
static int sample(struct ctl_nl *nl, const struct dev_ref *ref, struct stats_sample *s)
{
	return nl ? stats_read(nl, ref, s) : stats_read_proc(s);
}

/* Take the samples and print the views; returns 0 or -1 after the one line. */
static int sample_and_print(struct ctl_nl *nl, const struct stats_args *a,
			    const struct dev_ref *ref)
{
	struct stats_sample samples[2], *prev = &samples[0], *cur = &samples[1], *tmp;
	struct timespec deadline;
	unsigned int i, count = a->count ?: 1;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	err = sample(nl, ref, prev);
	if (err)
		return err;
	if (!a->interval_ns) {
		err = print_view(a, NULL, prev);
		stats_sample_free(prev);
		return err;
	}
	for (i = 0; i < count && !err; i++) {
		sleep_until(&deadline, a->interval_ns);
		err = sample(nl, ref, cur);
		if (err)
			break;
		if (i && a->format == FMT_TABLE)
			putchar('\n');
		err = print_view(a, prev, cur);
		stats_sample_free(prev);
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	stats_sample_free(prev);
	return err;
}

/*
 * Module nictl is not loaded: the CPUs from procfs, after the one line that
 * says why; what needs the module (its switches, a device's queues, the
 * histogram) is refused with the reason.
 */
static int run_without_module(const struct stats_args *a)
{
	const char *needs = a->switch_cmd ? "its accounting is the module's" :
			    a->dev ? "a device's NAPI polls are counted by it only" :
			    a->hist ? "only it times each run" : NULL;
	char then[160];

	if (needs) {
		snprintf(then, sizeof(then), "%s needs it: %s", a->switch_cmd ? a->switch_opt :
			 a->dev ? "stats DEV" : "--hist", needs);
		ctl_nl_module_absent(then);
		return EXIT_FAILURE;
	}
	ctl_nl_module_absent("Counted from /proc/softirqs and /proc/stat: runs per CPU and the "
			     "time in softirqs of every vector, no NET_RX time");
	return sample_and_print(NULL, a, NULL) ? EXIT_FAILURE : EXIT_SUCCESS;
}

static int run(const struct stats_args *a)
{
	struct dev_ref ref;
	struct ctl_nl nl;
	int err;

	if (a->dev) {
		err = dev_ref_parse("stats", a->dev, &ref);
		if (err)
			return err;
	}
	err = ctl_nl_open_or_absent(&nl);
	if (err > 0)
		return run_without_module(a);
	if (err)
		return EXIT_FAILURE;
	if (a->switch_cmd) {
		err = stats_request(&nl, a->switch_cmd, a->enable);
		if (!err && a->switch_cmd == NICTL_CMD_STATS_RESET)
			ctl_msg("softirq and NAPI counters reset");
		else if (!err)
			ctl_msg("softirq accounting %s", a->enable ? "on" :
				"off; the counters keep their values");
	} else {
		err = sample_and_print(&nl, a, a->dev ? &ref : NULL);
	}
	ctl_nl_close(&nl);
	return err ? EXIT_FAILURE : EXIT_SUCCESS;
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "hist", no_argument, NULL, OPT_HIST },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "prometheus", no_argument, NULL, OPT_PROM },
		{ "reset", no_argument, NULL, OPT_RESET },
		{ "on", no_argument, NULL, OPT_ON },
		{ "off", no_argument, NULL, OPT_OFF },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct stats_args a = { .format = FMT_TABLE };
	int c, err;

	while ((c = getopt_long(argc, argv, stats_shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(stats_usage, stdout);
			return EXIT_SUCCESS;
		}
		err = parse_option(&a, c, argv);
		if (err)
			return err;
	}
	if (argc - optind > 1)
		return ctl_usage("stats", "unexpected argument '%s'", argv[optind + 1]);
	if (optind < argc)
		a.dev = argv[optind];
	return check_args(&a) ?: run(&a);
}
