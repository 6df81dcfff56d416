// SPDX-License-Identifier: GPL-2.0
/*
 * One observation of the machine for the doctor, from what nictl already
 * reads: the devices and their queue IRQs (DEV_GET), the softirq accounting
 * and softnet_stat (stats/), each device's NAPI instances (NAPI_GET), its
 * steering now (steer/), the CPUs' nodes and cores, isolated and reserved
 * CPUs, irqbalance and its bans, the daemon's rules, a few sysctls, and the
 * NIC's own counters, ring and channels (ethtool.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf/conf.h"
#include "conf/mac.h"
#include "conf/rules.h"
#include "daemon/banned.h"
#include "daemon/irqbalance.h"
#include "direct/apply.h"
#include "direct/discover.h"
#include "doctor/doctor.h"
#include "module_absent.h"
#include "napi/threads.h"
#include "report.h"
#include "stats/stats.h"
#include "steer/view.h"
#include "topology.h"

/* Everything read once for a sample and shared by its devices. */
struct reading {
	struct dev_list list;
	struct conf conf;
	bool conf_ok;
	struct irq_set bans;
	struct steer_views views;
};

static unsigned int read_uint(const char *rel)
{
	char path[512];
	unsigned int v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", proc_root(), rel);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%u", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static void read_sysctls(struct doc_sample *s)
{
	s->budget = read_uint("sys/net/core/netdev_budget");
	s->budget_usecs = read_uint("sys/net/core/netdev_budget_usecs");
	s->max_backlog = read_uint("sys/net/core/netdev_max_backlog");
	s->busy_poll = read_uint("sys/net/core/busy_poll") || read_uint("sys/net/core/busy_read");
}

/* Without the module: the online CPUs and their softnet rows, no NET_RX time. */
static int read_cpus_direct(struct stats_sample *st)
{
	int cpu, err;

	memset(st, 0, sizeof(*st));
	err = topo_online_cpus(&st->online);
	if (err) {
		ctl_msg("cannot read the online CPUs from %s: %s", topo_root(), strerror(-err));
		return -1;
	}
	st->cpus = calloc(cpuset_weight(&st->online) ?: 1, sizeof(*st->cpus));
	if (!st->cpus) {
		ctl_msg("out of memory");
		stats_sample_free(st);
		return -1;
	}
	cpuset_for_each(cpu, &st->online)
		st->cpus[st->nr_cpus++].cpu = cpu;
	if (!softnet_read(st))
		return 0;
	stats_sample_free(st);
	return -1;
}

/* The online CPUs, with their node and core, NET_RX time and softnet row. */
static int read_cpus(struct ctl_nl *nl, struct doc_sample *s, const struct steer_views *v)
{
	struct stats_sample st;
	struct stats_cpu *c;
	struct doc_cpu *dc;
	unsigned int i;

	if (nl ? stats_read(nl, NULL, &st) : read_cpus_direct(&st))
		return -1;
	s->stats_on = st.enabled;
	s->cpus = calloc(st.nr_cpus, sizeof(*s->cpus));
	for (i = 0; s->cpus && i < st.nr_cpus; i++) {
		c = &st.cpus[i];
		if (!cpuset_empty(&st.online) && !cpuset_has(&st.online, c->cpu))
			continue;
		dc = &s->cpus[s->nr_cpus++];
		dc->cpu = c->cpu;
		dc->node = c->cpu < v->nr_topo ? v->topo[c->cpu].node : -1;
		dc->core = c->cpu < v->nr_topo ? v->topo[c->cpu].core : (int)c->cpu;
		dc->net_rx_ns = c->vec[NICTL_SOFTIRQ_NET_RX].time_ns;
		dc->softnet = c->softnet.present;
		dc->squeeze = c->softnet.time_squeeze;
		dc->dropped = c->softnet.dropped;
	}
	stats_sample_free(&st);
	if (s->cpus)
		return 0;
	ctl_msg("out of memory");
	return -1;
}

/* Which daemon rule, or the kernel's sticky binding, keeps @dev placed. */
static char *governor(const struct reading *r, const struct nictl_dev *dev)
{
	struct dev_facts facts = { .value = {
		[RULE_MATCH_NAME] = dev->ifname, [RULE_MATCH_PCI] = dev->bus_addr,
		[RULE_MATCH_DRIVER] = dev->driver,
	} };
	const struct rule *rule;
	char mac[MAC_STR_LEN];

	if (dev->sticky_id)
		return strdup("sticky");
	if (!r->conf_ok)
		return NULL;
	if (!mac_of(dev->ifname, mac, sizeof(mac)))
		facts.value[RULE_MATCH_MAC] = mac;
	rule = rules_find(&r->conf, &facts);
	return rule ? strdup(rule->name) : NULL;
}

/*
 * Where an IRQ interrupts: its effective affinity, but its new affinity
 * when a move waits for the next interrupt (x86 without interrupt
 * remapping), which is where that interrupt will go.
 */
static const struct cpuset *irq_cpus(const struct nictl_irq *irq)
{
	if ((irq->flags & NICTL_IRQ_F_PENDING) || cpuset_empty(&irq->effective))
		return &irq->affinity;
	return &irq->effective;
}

static int copy_irqs(struct doc_dev *d, const struct nictl_dev *dev, const struct irq_set *bans)
{
	const struct nictl_irq *irq;
	struct doc_irq *di;
	unsigned int i;

	d->irqs = calloc(dev->nr_irqs ?: 1, sizeof(*d->irqs));
	if (!d->irqs)
		return -ENOMEM;
	for (i = 0; i < dev->nr_irqs; i++) {
		irq = &dev->irqs[i];
		di = &d->irqs[d->nr_irqs++];
		di->irq = irq->irq;
		di->queue = irq->queue;
		di->cpu = cpuset_next(irq_cpus(irq), -1);
		di->drifts = irq->drifts;
		di->banned = irq_set_has(bans, irq->irq);
		if (cpuset_or(&di->affinity, &irq->affinity))
			return -ENOMEM;
	}
	return 0;
}

/* The device's NAPI instances; a failure is printed and ends the doctor. */
static int read_napis(struct ctl_nl *nl, struct doc_dev *d)
{
	struct dev_ref ref = { .ifindex = d->ifindex, .name = d->ifname };
	struct stats_sample st;
	unsigned int i;
	int err = 0;

	if (stats_read(nl, &ref, &st))
		return -1;
	d->napis = calloc(st.nr_napis ?: 1, sizeof(*d->napis));
	for (i = 0; d->napis && !err && i < st.nr_napis; i++) {
		d->napis[i].queue = st.napis[i].queue;
		d->napis[i].packets = st.napis[i].packets;
		d->napis[i].busy_ns = st.napis[i].busy_ns;
		err = cpuset_or(&d->napis[i].cpus, &st.napis[i].cpus);
		d->nr_napis++;
	}
	stats_sample_free(&st);
	if (d->napis && !err)
		return 0;
	ctl_msg("out of memory");
	return -1;
}

static int steering(struct doc_dev *d, const struct steer_now *now,
		    const struct steer_warnings *ws)
{
	unsigned int i;

	for (i = 0; now->rps && i < now->rx_queues; i++)
		d->rps |= !cpuset_empty(&now->rx[i].cpus);
	d->rps_far_queue = -1;
	for (i = 0; i < ws->nr; i++) {
		if (ws->w[i].kind != STEER_WARN_RPS_NODE)
			continue;
		d->rps_far_queue = ws->w[i].queue;
		return cpuset_or(&d->rps_far, &ws->w[i].far);
	}
	return 0;
}

/* The first NAPI thread of @dev that may run off its IRQ's node, if any; 0 or -ENOMEM. */
static int thread_far(struct doc_dev *d, const struct nictl_dev *dev)
{
	struct napi_threads threads;
	unsigned int i;
	int err, cpu;

	/* Another namespace's NAPIs are not this one's netdev-genl's to name. */
	if (dev->other_netns) {
		d->threaded = napi_dev_threaded(dev->ifname);
		return 0;
	}
	err = napi_threads_of(dev, &threads);
	d->threaded = threads.threaded;
	for (i = 0; !err && i < threads.n && !d->thread_far_pid; i++) {
		cpu = napi_thread_far(dev, &threads.t[i], &d->thread_far);
		if (cpu < 0) {
			cpuset_free(&d->thread_far);
			continue;
		}
		d->thread_far_name = strdup(threads.t[i].name);
		d->thread_far_pid = threads.t[i].pid;
		d->thread_far_irq = threads.t[i].irq;
		d->thread_far_cpu = cpu;
		err = d->thread_far_name ? 0 : -ENOMEM;
	}
	napi_threads_release(&threads);
	return err;
}

static int read_dev(struct ctl_nl *nl, struct doc_dev *d, const struct reading *r,
		    unsigned int i)
{
	const struct nictl_dev *dev = &r->list.devs[i];

	d->ifindex = dev->ifindex;
	d->ifname = strdup(dev->ifname);
	d->node = dev->numa_node;
	d->rx_queues = dev->rx_queues;
	d->bound = dev->flags & NICTL_DEV_F_BOUND;
	d->governor = governor(r, dev);
	if (!d->ifname || copy_irqs(d, dev, &r->bans) ||
	    steering(d, &r->views.now[i], &r->views.warnings[i]) || thread_far(d, dev) ||
	    doc_ethtool_read(d)) {
		ctl_msg("out of memory");
		return -1;
	}
	return nl ? read_napis(nl, d) : 0;
}

static bool wanted(const struct doc_read_args *a, const char *ifname)
{
	unsigned int i;

	for (i = 0; i < a->nr_devs; i++)
		if (!strcmp(a->devs[i], ifname))
			return true;
	return !a->nr_devs;
}

/* Every device asked for must exist: a typo is not a healthy machine. */
static int check_names(const struct doc_read_args *a, const struct dev_list *list)
{
	unsigned int i, j;

	for (i = 0; i < a->nr_devs; i++) {
		for (j = 0; j < list->nr; j++)
			if (!strcmp(a->devs[i], list->devs[j].ifname))
				break;
		if (j == list->nr) {
			ctl_msg("doctor %s: no such device, or it has no bus device nictl "
				"manages", a->devs[i]);
			return -1;
		}
	}
	return 0;
}

static int read_devs(struct ctl_nl *nl, const struct doc_read_args *a, struct doc_sample *s,
		     const struct reading *r)
{
	unsigned int i;

	s->devs = calloc(r->list.nr ?: 1, sizeof(*s->devs));
	if (!s->devs) {
		ctl_msg("out of memory");
		return -1;
	}
	for (i = 0; i < r->list.nr; i++)
		if (wanted(a, r->list.devs[i].ifname) &&
		    read_dev(nl, &s->devs[s->nr_devs++], r, i))
			return -1;
	return 0;
}

static void read_irqbalance(struct doc_sample *s, struct reading *r)
{
	s->irqbalance = irqbalance_pid();
	s->bans_known = s->irqbalance && !irqbalance_bans(s->irqbalance, &r->bans);
}

static int read_cpu_sets(struct doc_sample *s)
{
	int err = topo_isolated_cpus(&s->isolated) ?: topo_reserved_cpus(&s->reserved);

	if (err)
		ctl_msg("cannot read the isolated CPUs from %s: %s", topo_root(), strerror(-err));
	return err ? -1 : 0;
}

/*
 * The CPUs irqbalance is told to keep free, from the sources the daemon
 * reads (its configuration may name the file, or ignore them). A source
 * that cannot be read is said and left out: the rest of the sample stands.
 */
static void read_banned(struct doc_sample *s, const struct reading *r)
{
	struct banned b;
	bool news;

	if (r->conf_ok && !r->conf.banned_cpus)
		return;
	banned_init(&b);
	banned_start(&b, r->conf_ok ? r->conf.banned_cpus_file : NULL, false);
	if (banned_refresh(&b, 0, &news)) {
		ctl_msg("cannot read the CPUs banned for other work: %s", b.error);
	} else {
		s->banned = b.cpus;
		s->banned_why = b.why;
		b.cpus = (struct cpuset)CPUSET_INIT;
		b.why = NULL;
	}
	banned_free(&b);
}

/* The devices, from the module or, without it, from sysfs with what bind kept. */
static int read_list(struct ctl_nl *nl, struct doc_sample *s, struct dev_list *list)
{
	struct module_absence why;
	unsigned int i;

	if (nl)
		return dev_exchange(nl, dev_request(nl, NICTL_CMD_DEV_GET, NULL), "doctor", NULL,
				    list);
	module_absence(&why);
	s->module_why = strdup(why.why);
	s->module_fix = strdup(why.fix);
	if (!s->module_why || !s->module_fix) {
		ctl_msg("out of memory");
		return -1;
	}
	if (direct_discover_said(NULL, list))
		return -1;
	for (i = 0; i < list->nr; i++)
		direct_saved_annotate(&list->devs[i]);
	return 0;
}

/*
 * Read one sample into @s: 0, or -1 after the one line (@s is then freed).
 * A missing or broken configuration file is no error: the devices are then
 * governed by no rule, which is a finding.
 */
int doc_sample_read(struct ctl_nl *nl, const struct doc_read_args *a, struct doc_sample *s)
{
	struct reading r = { .bans = IRQ_SET_INIT };
	struct timespec ts;
	char why[256];
	int err;

	memset(s, 0, sizeof(*s));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->now_ns = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	err = read_list(nl, s, &r.list);
	if (!err)
		err = check_names(a, &r.list) ?: steer_views_read(&r.list, &r.views);
	if (!err)
		err = read_cpus(nl, s, &r.views) ?: read_cpu_sets(s);
	if (!err) {
		r.conf_ok = !conf_load(a->conf, &r.conf, why, sizeof(why));
		s->rules_read = r.conf_ok;
		read_irqbalance(s, &r);
		read_banned(s, &r);
		read_sysctls(s);
		err = read_devs(nl, a, s, &r);
	}
	steer_views_free(&r.views);
	conf_free(&r.conf);
	irq_set_free(&r.bans);
	dev_list_free(&r.list);
	if (err)
		doc_sample_free(s);
	return err;
}

const struct doc_dev *doc_sample_dev(const struct doc_sample *s, unsigned int ifindex)
{
	unsigned int i;

	for (i = 0; i < s->nr_devs; i++)
		if (s->devs[i].ifindex == ifindex)
			return &s->devs[i];
	return NULL;
}

static void dev_free(struct doc_dev *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_irqs; i++)
		cpuset_free(&d->irqs[i].affinity);
	for (i = 0; i < d->nr_napis; i++)
		cpuset_free(&d->napis[i].cpus);
	for (i = 0; i < d->nr_drops; i++)
		free(d->drops[i].name);
	free(d->irqs);
	free(d->napis);
	free(d->drops);
	free(d->ifname);
	free(d->governor);
	cpuset_free(&d->rps_far);
	free(d->thread_far_name);
	cpuset_free(&d->thread_far);
}

void doc_sample_free(struct doc_sample *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_devs; i++)
		dev_free(&s->devs[i]);
	free(s->devs);
	free(s->cpus);
	cpuset_free(&s->isolated);
	cpuset_free(&s->reserved);
	cpuset_free(&s->banned);
	free(s->banned_why);
	free(s->module_why);
	free(s->module_fix);
	memset(s, 0, sizeof(*s));
}
