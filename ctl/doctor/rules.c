// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's rules: from two samples taken an interval apart, what is
 * wrong, with the numbers seen and the command that fixes it. Pure: the
 * samples are plain data (doctor.h), so the unit tests feed it any machine.
 * Counters that only grow (softirq time, softnet, NAPI packets, NIC drops,
 * drifts) are judged by what they did in the interval; placements and
 * settings by the second sample. The identifiers are stable and documented
 * in the man page and docs/design.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor.h"
#include "util.h"

/*
 * A CPU that spends half its time in NET_RX has no headroom for a burst and
 * starves its other work; it is worth moving only when another CPU of the
 * machine has the time to take some, here one under a tenth of that.
 */
#define HOT_CPU_PCT		50
#define IDLE_CPU_PCT		5

/*
 * Below this many packets in the interval the split over queues says
 * nothing; above it, one queue with nine in ten of them means one flow
 * (RSS cannot split a flow) or an indirection table that favours a queue.
 */
#define RSS_MIN_PACKETS		1000
#define RSS_SHARE_PCT		90

/*
 * A busy machine squeezes net_rx_action now and then, tens of times a
 * second under a burst on a slow (virtual) CPU; a hundred times a second
 * means the budget ends polls early all the time and packets wait for
 * ksoftirqd.
 */
#define SQUEEZE_PER_S		100

/*
 * Default rings are often an eighth of the maximum and fine; a quarter or
 * less is "far below" and the first suspect when the NIC drops.
 */
#define RING_SMALL_DIV		4

/* What the suggested sysctls multiply the current value by. */
#define SYSCTL_GROWTH		2

struct ctx {
	const struct doc_sample *prev;
	const struct doc_sample *cur;
	struct doc_findings *out;
	int err;
};

static const char *const severity_names[] = {
	[DOC_INFO] = "info", [DOC_WARNING] = "warning", [DOC_ERROR] = "error",
};

const char *doc_severity_name(enum doc_severity sev)
{
	return severity_names[sev];
}

static struct doc_finding *add(struct ctx *c, const char *id, enum doc_severity sev,
			       const char *dev)
{
	struct doc_findings *out = c->out;
	struct doc_finding *f;

	if (c->err)
		return NULL;
	f = realloc(out->f, (out->nr + 1) * sizeof(*f));
	if (!f) {
		c->err = -ENOMEM;
		return NULL;
	}
	out->f = f;
	f = &out->f[out->nr++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = sev;
	if (dev && !(f->dev = strdup(dev)))
		c->err = -ENOMEM;
	return f;
}

static __printf(3, 4) void set_str(struct ctx *c, char **dst, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(dst, fmt, ap) < 0) {
		*dst = NULL;
		c->err = -ENOMEM;
	}
	va_end(ap);
}

static void fact_num(struct doc_finding *f, const char *key, long long num)
{
	if (f && f->nr_facts < DOC_MAX_FACTS)
		f->facts[f->nr_facts++] = (struct doc_fact){ .key = key, .num = num };
}

/* A fact that is text: @s (malloc'ed, NULL when that failed) goes to @f. */
static void fact_take(struct ctx *c, struct doc_finding *f, const char *key, char *s)
{
	if (!s)
		c->err = -ENOMEM;
	if (!f || !s || f->nr_facts >= DOC_MAX_FACTS) {
		free(s);
		return;
	}
	f->facts[f->nr_facts++] = (struct doc_fact){ .key = key, .str = s };
}

/* A fact that is a list (CPUs, IRQs), in the kernel's cpulist form. */
static void fact_list(struct ctx *c, struct doc_finding *f, const char *key,
		      const struct cpuset *set)
{
	fact_take(c, f, key, cpuset_format(set));
}

static void set_add(struct ctx *c, struct cpuset *s, unsigned int n)
{
	if (cpuset_add(s, n))
		c->err = -ENOMEM;
}

static const struct doc_cpu *find_cpu(const struct doc_sample *s, int cpu)
{
	unsigned int i;

	for (i = 0; i < s->nr_cpus; i++)
		if ((int)s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

static int cpu_node(const struct doc_sample *s, int cpu)
{
	const struct doc_cpu *dc = find_cpu(s, cpu);

	return dc ? dc->node : -1;
}

/* Physical cores among the online CPUs of @node (every online CPU when -1). */
static unsigned int node_cores(const struct doc_sample *s, int node)
{
	unsigned int i, j, cores = 0;

	for (i = 0; i < s->nr_cpus; i++) {
		if (node >= 0 && s->cpus[i].node != node)
			continue;
		for (j = 0; j < i; j++)
			if (s->cpus[j].core == s->cpus[i].core)
				break;
		cores += j == i;
	}
	return cores;
}

static double span_s(const struct ctx *c)
{
	return (double)(c->cur->now_ns - c->prev->now_ns) / 1e9;
}

/* How much a counter grew; a counter that went back (wrapped, reset) grew by 0. */
static uint64_t grew(uint64_t before, uint64_t after)
{
	return after > before ? after - before : 0;
}

int doc_avoid_cpus(const struct doc_sample *s, struct cpuset *out)
{
	return cpuset_or(out, &s->reserved) ?: cpuset_or(out, &s->banned);
}

/* The bind that --fix would make; it keeps off doc_avoid_cpus() as --exclude. */
static void bind_fix(struct ctx *c, struct doc_finding *f, const struct doc_dev *d)
{
	struct cpuset avoid = CPUSET_INIT;
	char *list = NULL;

	if (!f)
		return;
	f->bind_fix = true;
	if (doc_avoid_cpus(c->cur, &avoid) ||
	    (!cpuset_empty(&avoid) && !(list = cpuset_format(&avoid))))
		c->err = -ENOMEM;
	/* Without the module, bind goes through /proc/irq and steers nothing. */
	set_str(c, &f->fix, "nictlctl bind %s%s%s%s%s", d->ifname,
		d->node >= 0 ? " --numa-local" : "", list ? " --exclude " : "", list ?: "",
		c->cur->module_why ? "" : " --steer");
	free(list);
	cpuset_free(&avoid);
}

/* The IRQs of @d that satisfy @pick, and the CPUs they interrupt. */
static unsigned int irqs_where(struct ctx *c, const struct doc_dev *d,
			       bool (*pick)(const struct ctx *c, const struct doc_dev *d,
					    const struct doc_irq *irq),
			       struct cpuset *irqs, struct cpuset *cpus)
{
	unsigned int i, n = 0;

	for (i = 0; i < d->nr_irqs; i++) {
		if (d->irqs[i].cpu < 0 || !pick(c, d, &d->irqs[i]))
			continue;
		set_add(c, irqs, d->irqs[i].irq);
		set_add(c, cpus, d->irqs[i].cpu);
		n++;
	}
	return n;
}

static bool on_cpu0(const struct ctx *c, const struct doc_dev *d, const struct doc_irq *irq)
{
	(void)c;
	(void)d;
	return irq->cpu == 0;
}

static bool on_far_node(const struct ctx *c, const struct doc_dev *d, const struct doc_irq *irq)
{
	int node = cpu_node(c->cur, irq->cpu);

	return d->node >= 0 && node >= 0 && node != d->node;
}

static bool on_isolated(const struct ctx *c, const struct doc_dev *d, const struct doc_irq *irq)
{
	(void)d;
	return cpuset_has(&c->cur->isolated, irq->cpu);
}

static bool on_reserved(const struct ctx *c, const struct doc_dev *d, const struct doc_irq *irq)
{
	(void)d;
	return cpuset_has(&c->cur->reserved, irq->cpu);
}

static bool on_banned(const struct ctx *c, const struct doc_dev *d, const struct doc_irq *irq)
{
	(void)d;
	return cpuset_has(&c->cur->banned, irq->cpu);
}

static bool any_irq(const struct ctx *c, const struct doc_dev *d, const struct doc_irq *irq)
{
	(void)c;
	(void)d;
	(void)irq;
	return true;
}

static bool unbanned(const struct ctx *c, const struct doc_dev *d, const struct doc_irq *irq)
{
	(void)d;
	return !c->cur->bans_known || !irq->banned;
}

/* One placement finding: the IRQs @pick selects, if any. */
static struct doc_finding *placement(struct ctx *c, const struct doc_dev *d, const char *id,
				     enum doc_severity sev,
				     bool (*pick)(const struct ctx *c, const struct doc_dev *d,
						  const struct doc_irq *irq),
				     const char *what)
{
	struct cpuset irqs = CPUSET_INIT, cpus = CPUSET_INIT;
	struct doc_finding *f = NULL;
	unsigned int n;
	char *list;

	n = irqs_where(c, d, pick, &irqs, &cpus);
	if (n) {
		f = add(c, id, sev, d->ifname);
		list = cpuset_format(&cpus);
		if (f)
			set_str(c, &f->text, "%u of %u queue IRQs on CPU%s %s, %s", n, d->nr_irqs,
				cpuset_weight(&cpus) == 1 ? "" : "s", list ?: "?", what);
		free(list);
		fact_num(f, "irqs_count", n);
		fact_list(c, f, "irqs", &irqs);
		fact_list(c, f, "cpus", &cpus);
		bind_fix(c, f, d);
	}
	cpuset_free(&irqs);
	cpuset_free(&cpus);
	return f;
}

/* On CPUs irqbalance is told to keep free, saying who told it. */
static void banned_cpu(struct ctx *c, const struct doc_dev *d)
{
	char *what;

	if (!c->cur->banned_why)
		return;
	if (asprintf(&what, "banned for other work: %s", c->cur->banned_why) < 0) {
		c->err = -ENOMEM;
		return;
	}
	placement(c, d, "irq-banned-cpu", DOC_WARNING, on_banned, what);
	free(what);
}

/* All queue IRQs on one CPU: one CPU does all of the device's receiving. */
static void single_cpu(struct ctx *c, const struct doc_dev *d)
{
	struct cpuset irqs = CPUSET_INIT, cpus = CPUSET_INIT;
	struct doc_finding *f;

	if (irqs_where(c, d, any_irq, &irqs, &cpus) >= 2 && cpuset_weight(&cpus) == 1 &&
	    c->cur->nr_cpus > 1) {
		f = add(c, "irq-single-cpu", DOC_WARNING, d->ifname);
		if (f)
			set_str(c, &f->text, "all %u queue IRQs interrupt CPU %d: one CPU "
				"receives for every queue", d->nr_irqs, cpuset_next(&cpus, -1));
		fact_num(f, "cpu", cpuset_next(&cpus, -1));
		fact_list(c, f, "irqs", &irqs);
		bind_fix(c, f, d);
	}
	cpuset_free(&irqs);
	cpuset_free(&cpus);
}

/*
 * Two IRQs on the two threads of one core share its execution units, while
 * the device's node has a core for each: a bind would give each its own.
 */
static void siblings(struct ctx *c, const struct doc_dev *d)
{
	const struct doc_cpu *a, *b;
	struct doc_finding *f;
	struct cpuset cpus = CPUSET_INIT, busy = CPUSET_INIT;
	unsigned int i, j;

	for (i = 0; i < d->nr_irqs; i++) {
		a = find_cpu(c->cur, d->irqs[i].cpu);
		for (j = 0; a && j < d->nr_irqs; j++) {
			b = find_cpu(c->cur, d->irqs[j].cpu);
			if (b && b->cpu != a->cpu && b->core == a->core) {
				set_add(c, &cpus, a->cpu);
				set_add(c, &cpus, b->cpu);
			}
		}
		if (a)
			set_add(c, &busy, a->cpu);
	}
	/* IRQs that share a CPU (a queue pair's rx and tx) need one core between them. */
	if (!cpuset_empty(&cpus) && node_cores(c->cur, d->node) >= cpuset_weight(&busy)) {
		f = add(c, "irq-smt-siblings", DOC_WARNING, d->ifname);
		if (f)
			set_str(c, &f->text, "queue IRQs on SMT siblings of one core, while "
				"the node has %u cores for the %u CPUs they use",
				node_cores(c->cur, d->node), cpuset_weight(&busy));
		fact_list(c, f, "cpus", &cpus);
		fact_num(f, "node_cores", node_cores(c->cur, d->node));
		bind_fix(c, f, d);
	}
	cpuset_free(&cpus);
	cpuset_free(&busy);
}

static const struct doc_irq *prev_irq(const struct doc_dev *pd, unsigned int irq)
{
	unsigned int i;

	for (i = 0; pd && i < pd->nr_irqs; i++)
		if (pd->irqs[i].irq == irq)
			return &pd->irqs[i];
	return NULL;
}

/* Something moved a bound IRQ off its target during the interval. */
static void drift(struct ctx *c, const struct doc_dev *d, const struct doc_dev *pd)
{
	struct cpuset irqs = CPUSET_INIT;
	const struct doc_irq *p;
	struct doc_finding *f;
	unsigned int i, moves = 0;

	for (i = 0; i < d->nr_irqs; i++) {
		p = prev_irq(pd, d->irqs[i].irq);
		if (p && d->irqs[i].drifts > p->drifts) {
			moves += d->irqs[i].drifts - p->drifts;
			set_add(c, &irqs, d->irqs[i].irq);
		}
	}
	if (moves) {
		f = add(c, "irq-drift", DOC_WARNING, d->ifname);
		if (f)
			set_str(c, &f->text, "queue IRQs moved off nictl's CPUs %u times during "
				"the interval%s", moves, c->cur->irqbalance ?
				" (irqbalance is running)" : "");
		fact_num(f, "drifts", moves);
		fact_list(c, f, "irqs", &irqs);
		if (f && c->cur->irqbalance)
			set_str(c, &f->fix, "systemctl stop irqbalance");
		else if (f)
			set_str(c, &f->fix, "nictlctl daemon");
	}
	cpuset_free(&irqs);
}

static void irqbalance(struct ctx *c, const struct doc_dev *d)
{
	struct doc_finding *f;

	if (!c->cur->irqbalance)
		return;
	f = placement(c, d, "irqbalance-unbanned", DOC_WARNING, unbanned,
		      "which the running irqbalance may move every 10 s");
	if (!f)
		return;
	fact_num(f, "irqbalance_pid", c->cur->irqbalance);
	f->bind_fix = false;
	free(f->fix);
	set_str(c, &f->fix, "printf '[daemon]\\nirqbalance = ban\\n' >> /etc/nictl/nictl.conf && "
		"systemctl restart nictl");
}

/* Nothing puts the binding back after a driver reload: no rule, no sticky binding. */
static void no_rule(struct ctx *c, const struct doc_dev *d)
{
	struct doc_finding *f;

	if (d->governor || !d->bound)
		return;
	f = add(c, "no-daemon-rule", DOC_WARNING, d->ifname);
	if (!f)
		return;
	set_str(c, &f->text, "no daemon rule%s and no sticky binding govern it: its placement "
		"is lost at the next driver reload", c->cur->rules_read ? "" :
		" (no configuration could be read)");
	set_str(c, &f->fix, "printf '[rule %s]\\nmatch-name = %s\\ncpus = numa-local\\n"
		"steer = auto\\n' >> /etc/nictl/nictl.conf && systemctl reload nictl",
		d->ifname, d->ifname);
}

/* Fewer rx queues than the node has cores, and nothing spreads them: RPS. */
static void few_queues(struct ctx *c, const struct doc_dev *d)
{
	unsigned int cores = node_cores(c->cur, d->node);
	struct doc_finding *f;

	if (d->rps || !d->rx_queues || d->rx_queues >= cores)
		return;
	f = add(c, "few-queues-no-rps", DOC_WARNING, d->ifname);
	if (!f)
		return;
	set_str(c, &f->text, "%u rx queue%s for %u cores on its node, and no RPS", d->rx_queues,
		d->rx_queues == 1 ? "" : "s", cores);
	fact_num(f, "rx_queues", d->rx_queues);
	fact_num(f, "node_cores", cores);
	fact_num(f, "max_channels", d->max_channels);
	if (d->max_channels > d->channels)
		set_str(c, &f->fix, "ethtool -L %s combined %u", d->ifname,
			d->max_channels < cores ? d->max_channels : cores);
	else
		bind_fix(c, f, d);
}

static void rps_far(struct ctx *c, const struct doc_dev *d)
{
	struct doc_finding *f;

	if (d->rps_far_queue < 0)
		return;
	f = add(c, "rps-other-node", DOC_WARNING, d->ifname);
	if (f)
		set_str(c, &f->text, "rx queue %d steers packets (RPS) onto CPUs of another node "
			"than its IRQ", d->rps_far_queue);
	fact_num(f, "queue", d->rps_far_queue);
	fact_list(c, f, "far_cpus", &d->rps_far);
	bind_fix(c, f, d);
}

/* A NAPI thread the IRQ wakes may poll on another node: its packets' work crosses nodes. */
static void thread_far(struct ctx *c, const struct doc_dev *d)
{
	struct doc_finding *f;

	if (!d->thread_far_pid)
		return;
	f = add(c, "napi-thread-other-node", DOC_WARNING, d->ifname);
	if (f)
		set_str(c, &f->text, "irq %u interrupts CPU %d, but its NAPI thread %s (pid %u) "
			"may run on CPUs of another node: its packets' work crosses nodes",
			d->thread_far_irq, d->thread_far_cpu, d->thread_far_name,
			d->thread_far_pid);
	fact_num(f, "irq", d->thread_far_irq);
	fact_num(f, "pid", d->thread_far_pid);
	fact_num(f, "irq_cpu", d->thread_far_cpu);
	fact_list(c, f, "far_cpus", &d->thread_far);
	if (f)
		set_str(c, &f->fix, "taskset -pc %d %u", d->thread_far_cpu, d->thread_far_pid);
}

static const struct doc_dev *dev_on_cpu(const struct doc_sample *s, int cpu)
{
	unsigned int i, j;

	for (i = 0; i < s->nr_devs; i++)
		for (j = 0; j < s->devs[i].nr_irqs; j++)
			if (s->devs[i].irqs[j].cpu == cpu)
				return &s->devs[i];
	return NULL;
}

static double net_rx_pct(const struct ctx *c, const struct doc_cpu *dc)
{
	const struct doc_cpu *p = find_cpu(c->prev, dc->cpu);
	double span = span_s(c);

	if (!p || span <= 0)
		return 0;
	return grew(p->net_rx_ns, dc->net_rx_ns) / 1e7 / span;
}

/* The hottest CPU; -1 unless it is hot while another idles. */
static int hot_cpu(const struct ctx *c, double *pct, unsigned int *idle)
{
	unsigned int i;
	double p, max = -1;
	int hot = -1;

	*idle = 0;
	for (i = 0; i < c->cur->nr_cpus; i++) {
		p = net_rx_pct(c, &c->cur->cpus[i]);
		if (p > max) {
			max = p;
			hot = c->cur->cpus[i].cpu;
		}
		*idle += p < IDLE_CPU_PCT;
	}
	*pct = max;
	return max >= HOT_CPU_PCT && *idle ? hot : -1;
}

static void hot(struct ctx *c, int cpu, double pct, unsigned int idle)
{
	const struct doc_dev *d = dev_on_cpu(c->cur, cpu);
	struct doc_finding *f;

	f = add(c, "hot-cpu", DOC_WARNING, d ? d->ifname : NULL);
	if (!f)
		return;
	set_str(c, &f->text, "CPU %d spent %.0f%% of the interval in NET_RX while %u CPUs spent "
		"under %d%%", cpu, pct, idle, IDLE_CPU_PCT);
	fact_num(f, "cpu", cpu);
	fact_num(f, "net_rx_pct", (long long)(pct + 0.5));
	fact_num(f, "idle_cpus", idle);
	if (d)
		bind_fix(c, f, d);
}

static const struct doc_napi *prev_napi(const struct doc_dev *pd, int queue)
{
	unsigned int i;

	for (i = 0; pd && i < pd->nr_napis; i++)
		if (pd->napis[i].queue == queue)
			return &pd->napis[i];
	return NULL;
}

static uint64_t napi_grew(const struct doc_dev *pd, const struct doc_napi *n)
{
	const struct doc_napi *p = prev_napi(pd, n->queue);

	return p ? grew(p->packets, n->packets) : 0;
}

static const struct doc_irq *queue_irq(const struct doc_dev *d, int queue)
{
	unsigned int i;

	for (i = 0; i < d->nr_irqs; i++)
		if ((int)d->irqs[i].queue == queue)
			return &d->irqs[i];
	return NULL;
}

/* One queue carries most packets; worse when it is what makes a CPU hot. */
static void rss(struct ctx *c, const struct doc_dev *d, const struct doc_dev *pd, int hot)
{
	const struct doc_napi *top = NULL;
	const struct doc_irq *irq;
	struct doc_finding *f;
	uint64_t total = 0, most = 0, n;
	unsigned int i;

	for (i = 0; i < d->nr_napis; i++) {
		n = napi_grew(pd, &d->napis[i]);
		total += n;
		if (n > most) {
			most = n;
			top = &d->napis[i];
		}
	}
	if (d->nr_napis < 2 || total < RSS_MIN_PACKETS || most * 100 < total * RSS_SHARE_PCT)
		return;
	irq = queue_irq(d, top->queue);
	f = add(c, "rss-imbalance", irq && hot >= 0 && irq->cpu == hot ? DOC_WARNING : DOC_INFO,
		d->ifname);
	if (!f)
		return;
	set_str(c, &f->text, "queue %d received %.0f%% of %llu packets (one flow, or an "
		"indirection table that favours it)", top->queue, most * 100.0 / total,
		(unsigned long long)total);
	fact_num(f, "queue", top->queue);
	fact_num(f, "share_pct", (long long)(most * 100 / total));
	fact_num(f, "packets", total);
	set_str(c, &f->fix, "ethtool -X %s equal %u", d->ifname, d->nr_napis);
}

/* What tasks spent busy-polling @n over the sample, as the module timed it. */
static uint64_t napi_busy_grew(const struct doc_dev *pd, const struct doc_napi *n)
{
	const struct doc_napi *p = prev_napi(pd, n->queue);

	return p ? grew(p->busy_ns, n->busy_ns) : 0;
}

/* Why a queue was polled off its IRQ's CPUs, from what is known best to least. */
static void napi_off_text(struct ctx *c, struct doc_finding *f, const struct doc_dev *d,
			  int queue, uint64_t busy_ns)
{
	if (d->threaded)
		set_str(c, &f->text, "queue %d was polled on CPUs outside its IRQ's: threaded "
			"NAPI runs in a kthread the scheduler places", queue);
	else if (busy_ns)
		set_str(c, &f->text, "queue %d was polled on CPUs outside its IRQ's: tasks "
			"busy-polled it for %.1f ms, on the CPUs they ran on", queue, busy_ns / 1e6);
	else
		set_str(c, &f->text, "queue %d was polled on CPUs outside its IRQ's: %s", queue,
			c->cur->busy_poll ? "busy polling runs in the reading thread" :
			"the IRQ moved since the counters started, or busy polling by a "
			"socket option");
}

/* NAPI polled outside its IRQ's CPUs: threaded NAPI or busy polling, not a fault. */
static void napi_off(struct ctx *c, const struct doc_dev *d, const struct doc_dev *pd)
{
	const struct doc_irq *irq;
	uint64_t busy_ns;
	struct cpuset out = CPUSET_INIT;
	struct doc_finding *f;
	unsigned int i;

	for (i = 0; i < d->nr_napis; i++) {
		irq = queue_irq(d, d->napis[i].queue);
		if (!irq || cpuset_empty(&irq->affinity) || !napi_grew(pd, &d->napis[i]))
			continue;
		cpuset_free(&out);
		if (cpuset_or(&out, &d->napis[i].cpus)) {
			c->err = -ENOMEM;
			break;
		}
		cpuset_andnot(&out, &irq->affinity);
		if (cpuset_empty(&out))
			continue;
		f = add(c, "napi-off-irq-cpu", DOC_INFO, d->ifname);
		busy_ns = napi_busy_grew(pd, &d->napis[i]);
		if (f)
			napi_off_text(c, f, d, d->napis[i].queue, busy_ns);
		fact_num(f, "queue", d->napis[i].queue);
		fact_list(c, f, "outside_cpus", &out);
		fact_num(f, "threaded", d->threaded);
		fact_num(f, "busy_poll", c->cur->busy_poll);
		fact_num(f, "busy_ns", busy_ns);
		break;
	}
	cpuset_free(&out);
}

static uint64_t drops_grew(const struct doc_dev *d, const struct doc_dev *pd,
			   const char **top, uint64_t *top_n)
{
	uint64_t total = 0, n;
	unsigned int i, j;

	*top = NULL;
	*top_n = 0;
	for (i = 0; pd && i < d->nr_drops; i++) {
		for (j = 0; j < pd->nr_drops; j++)
			if (!strcmp(pd->drops[j].name, d->drops[i].name))
				break;
		if (j == pd->nr_drops)
			continue;
		n = grew(pd->drops[j].value, d->drops[i].value);
		total += n;
		if (n > *top_n) {
			*top_n = n;
			*top = d->drops[i].name;
		}
	}
	return total;
}

static bool ring_small(const struct doc_dev *d)
{
	return d->ring && d->ring_max && d->ring * RING_SMALL_DIV <= d->ring_max;
}

static void nic_drops(struct ctx *c, const struct doc_dev *d, const struct doc_dev *pd)
{
	struct doc_finding *f;
	const char *top;
	uint64_t total, top_n;

	total = drops_grew(d, pd, &top, &top_n);
	if (total) {
		f = add(c, "nic-drops", DOC_ERROR, d->ifname);
		if (f)
			set_str(c, &f->text, "the NIC dropped %llu packets in %.1f s (%s +%llu)",
				(unsigned long long)total, span_s(c), top,
				(unsigned long long)top_n);
		fact_num(f, "dropped", total);
		fact_take(c, f, "counter", strdup(top));
		fact_num(f, "counter_dropped", top_n);
		fact_num(f, "ring", d->ring);
		fact_num(f, "ring_max", d->ring_max);
		if (f && ring_small(d))
			set_str(c, &f->fix, "ethtool -G %s rx %u", d->ifname, d->ring_max);
		else if (f && d->max_channels > d->channels)
			set_str(c, &f->fix, "ethtool -L %s combined %u", d->ifname,
				d->max_channels);
		else
			bind_fix(c, f, d);
	}
	if (!ring_small(d))
		return;
	/* A small ring alone is a choice; with drops it is the first suspect. */
	f = add(c, "ring-small", total ? DOC_WARNING : DOC_INFO, d->ifname);
	if (f)
		set_str(c, &f->text, "rx ring of %u descriptors, the NIC allows %u", d->ring,
			d->ring_max);
	fact_num(f, "ring", d->ring);
	fact_num(f, "ring_max", d->ring_max);
	if (f)
		set_str(c, &f->fix, "ethtool -G %s rx %u", d->ifname, d->ring_max);
}

static const struct doc_dev *prev_dev(const struct ctx *c, const struct doc_dev *d)
{
	return doc_sample_dev(c->prev, d->ifindex);
}

static void device(struct ctx *c, const struct doc_dev *d, int hot)
{
	const struct doc_dev *pd = prev_dev(c, d);

	single_cpu(c, d);
	placement(c, d, "irq-cpu0", DOC_WARNING, on_cpu0, "which the kernel's housekeeping "
		  "and most other IRQs use");
	placement(c, d, "irq-far-node", DOC_WARNING, on_far_node, "another NUMA node than "
		  "the device's: every packet crosses the interconnect");
	siblings(c, d);
	placement(c, d, "irq-isolated-cpu", DOC_ERROR, on_isolated, "reserved by isolcpus= or "
		  "nohz_full= for work that must not be interrupted");
	placement(c, d, "irq-reserved-cpu", DOC_WARNING, on_reserved, "an isolated cgroup "
		  "cpuset partition (a container runtime's reserved CPUs)");
	banned_cpu(c, d);
	drift(c, d, pd);
	irqbalance(c, d);
	no_rule(c, d);
	few_queues(c, d);
	rps_far(c, d);
	thread_far(c, d);
	rss(c, d, pd, hot);
	nic_drops(c, d, pd);
	napi_off(c, d, pd);
}

static void softnet(struct ctx *c)
{
	const struct doc_cpu *dc, *p;
	uint64_t squeeze = 0, dropped = 0;
	struct doc_finding *f;
	unsigned int i;

	for (i = 0; i < c->cur->nr_cpus; i++) {
		dc = &c->cur->cpus[i];
		p = find_cpu(c->prev, dc->cpu);
		if (!p || !dc->softnet || !p->softnet)
			continue;
		/* 32-bit counters: unsigned subtraction survives one wrap. */
		squeeze += (uint32_t)(dc->squeeze - p->squeeze);
		dropped += (uint32_t)(dc->dropped - p->dropped);
	}
	if (squeeze && squeeze >= SQUEEZE_PER_S * span_s(c)) {
		f = add(c, "softnet-squeeze", DOC_WARNING, NULL);
		if (f)
			set_str(c, &f->text, "net_rx_action ran out of budget %llu times in "
				"%.1f s (netdev_budget %u, netdev_budget_usecs %u)",
				(unsigned long long)squeeze, span_s(c), c->cur->budget,
				c->cur->budget_usecs);
		fact_num(f, "time_squeeze", squeeze);
		fact_num(f, "netdev_budget", c->cur->budget);
		fact_num(f, "netdev_budget_usecs", c->cur->budget_usecs);
		if (f)
			set_str(c, &f->fix, "sysctl -w net.core.netdev_budget=%u "
				"net.core.netdev_budget_usecs=%u",
				(c->cur->budget ?: 300) * SYSCTL_GROWTH,
				(c->cur->budget_usecs ?: 2000) * SYSCTL_GROWTH);
	}
	if (dropped) {
		f = add(c, "softnet-backlog-drops", DOC_ERROR, NULL);
		if (f)
			set_str(c, &f->text, "%llu packets dropped on a full backlog in %.1f s "
				"(netdev_max_backlog %u)", (unsigned long long)dropped, span_s(c),
				c->cur->max_backlog);
		fact_num(f, "dropped", dropped);
		fact_num(f, "netdev_max_backlog", c->cur->max_backlog);
		if (f)
			set_str(c, &f->fix, "sysctl -w net.core.netdev_max_backlog=%u",
				(c->cur->max_backlog ?: 1000) * SYSCTL_GROWTH);
	}
}

/* Worst first, keeping the rules' order within a severity (qsort is not stable). */
static void sort(struct doc_findings *fs)
{
	struct doc_finding tmp;
	unsigned int i, j;

	for (i = 1; i < fs->nr; i++) {
		tmp = fs->f[i];
		for (j = i; j && fs->f[j - 1].severity < tmp.severity; j--)
			fs->f[j] = fs->f[j - 1];
		fs->f[j] = tmp;
	}
}

/*
 * The findings of the interval from @prev to @cur, worst first (in the
 * order the rules run within a severity), into @out. 0 or -ENOMEM.
 */
int doc_rules(const struct doc_sample *prev, const struct doc_sample *cur,
	      struct doc_findings *out)
{
	struct ctx c = { .prev = prev, .cur = cur, .out = out };
	unsigned int i, idle = 0;
	struct doc_finding *f;
	double pct = 0;
	int hotc = -1;

	memset(out, 0, sizeof(*out));
	out->span_ns = cur->now_ns - prev->now_ns;
	if (cur->module_why && (f = add(&c, "module-absent", DOC_INFO, NULL))) {
		set_str(&c, &f->text, "module nictl is not loaded: %s; read from sysfs and /proc, "
			"without NET_RX time, NAPI polls or drift counts", cur->module_why);
		set_str(&c, &f->fix, "%s", cur->module_fix);
	}
	if (prev->stats_on && cur->stats_on) {
		hotc = hot_cpu(&c, &pct, &idle);
	} else if (!cur->module_why && (f = add(&c, "stats-off", DOC_INFO, NULL))) {
		set_str(&c, &f->text, "softirq accounting is off: hot CPUs cannot be seen");
		set_str(&c, &f->fix, "nictlctl stats --on");
	}
	if (hotc >= 0)
		hot(&c, hotc, pct, idle);
	for (i = 0; i < cur->nr_devs; i++)
		device(&c, &cur->devs[i], hotc);
	softnet(&c);
	if (!c.err)
		sort(out);
	else
		doc_findings_free(out);
	return c.err;
}

/* Findings that make the exit status 1: not info, not fixed. */
unsigned int doc_problems(const struct doc_findings *fs)
{
	unsigned int i, n = 0;

	for (i = 0; i < fs->nr; i++)
		n += fs->f[i].severity > DOC_INFO && !fs->f[i].fixed;
	return n;
}

void doc_findings_free(struct doc_findings *fs)
{
	unsigned int i, j;

	for (i = 0; i < fs->nr; i++) {
		free(fs->f[i].dev);
		free(fs->f[i].text);
		free(fs->f[i].fix);
		for (j = 0; j < fs->f[i].nr_facts; j++)
			free(fs->f[i].facts[j].str);
	}
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}
