// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's /metrics page. Names follow Prometheus' conventions and
 * start with nictl_, clear of node_exporter's node_softnet_*: the per-CPU
 * and NAPI families are those of `nictlctl stats --prometheus`
 * (stats_prom.c), the rest are the daemon's. A scrape reads STATS_GET,
 * which takes no lock a bind holds, and /proc/irq; what DEV_GET and
 * NAPI_GET say (they take rtnl) comes from the copy metrics_refresh()
 * keeps, at most METRICS_REFRESH_MS old.
 */
#include <stdlib.h>
#include <string.h>

#include "daemon/metrics.h"
#include "log.h"
#include "netns.h"
#include "procirq.h"
#include "report.h"
#include "show.h"
#include "topology.h"

void metrics_init(struct daemon_metrics *m, struct keeper *k, const bool *attached)
{
	memset(m, 0, sizeof(*m));
	m->server.listen_fd = -1;
	m->k = k;
	m->attached = attached;
}

/*
 * Serve on @spec (NULL: off), as the configuration now says. A listener
 * that cannot start is logged, and the daemon goes on without it: keeping
 * IRQs placed matters more than the page; a reload tries again.
 */
void metrics_configure(struct daemon_metrics *m, const char *spec)
{
	struct metrics_addr a;
	char err[256];

	if (m->serving && spec && !strcmp(m->serving, spec))
		return;
	if (m->serving)
		metrics_server_stop(&m->server);
	free(m->serving);
	m->serving = NULL;
	if (!spec)
		return;
	if (metrics_addr_parse(spec, &a, err, sizeof(err)) ||
	    metrics_server_start(&m->server, &a, metrics_render, m, err, sizeof(err))) {
		log_err("cannot serve /metrics on %s: %s; running without it until a reload",
			spec, err);
		return;
	}
	m->serving = strdup(spec);
	if (!m->serving) {
		metrics_server_stop(&m->server);
		log_err("out of memory; not serving /metrics");
		return;
	}
	log_info("serving /metrics on %s", spec);
	m->next_refresh_ms = 0;
}

/* Milliseconds until the server or the refresh has work, or -1. */
int metrics_timeout(const struct daemon_metrics *m, long long now_ms)
{
	int t = metrics_server_timeout(&m->server);
	int r;

	if (!m->serving || !*m->attached)
		return t;
	r = m->next_refresh_ms > now_ms ? (int)(m->next_refresh_ms - now_ms) : 0;
	return t < 0 || r < t ? r : t;
}

/* Drop the copy: the module went away, or the devices are not the same. */
void metrics_forget(struct daemon_metrics *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_kept; i++) {
		dev_list_free(&m->kept[i].list);
		stats_sample_free(&m->kept[i].napis);
	}
	free(m->kept);
	m->kept = NULL;
	m->nr_kept = 0;
	m->next_refresh_ms = 0;
}

/* Read kept device @key into @kd: 0, or -1 when it is gone or unreadable. */
static int read_kept(struct keeper *k, dev_key key, struct kept_dev *kd)
{
	struct dev_ref ref = { .ifindex = dev_key_ifindex(key) };
	unsigned int i;
	int err;

	memset(kd, 0, sizeof(*kd));
	ctl_netns_select_id(dev_key_netns(key));
	err = dev_exchange(&k->nl, dev_request(&k->nl, NICTL_CMD_DEV_GET, &ref), "metrics",
			   NULL, &kd->list);
	for (i = 0; !err && i < kd->list.nr; i++)
		err = stats_read_napis(&k->nl, &kd->list.devs[i], &kd->napis);
	ctl_netns_select_none();
	if (err) {
		dev_list_free(&kd->list);
		stats_sample_free(&kd->napis);
	}
	return err ? -1 : 0;
}

/* Read the kept devices again when it is time; what fails is left out. */
void metrics_refresh(struct daemon_metrics *m, long long now_ms)
{
	struct keeper *k = m->k;
	struct kept_dev *kept;
	unsigned int i, n = 0;

	if (!m->serving || !*m->attached || now_ms < m->next_refresh_ms)
		return;
	metrics_forget(m);
	m->next_refresh_ms = now_ms + METRICS_REFRESH_MS;
	kept = calloc(k->nr_owned ?: 1, sizeof(*kept));
	if (!kept) {
		log_err("out of memory; /metrics shows no device until the next refresh");
		return;
	}
	for (i = 0; i < k->nr_owned; i++)
		if (k->owned[i].irqs.nr && !read_kept(k, k->owned[i].key, &kept[n]))
			n++;
	m->kept = kept;
	m->nr_kept = n;
}

static void counter(FILE *f, const char *name, const char *help, unsigned long long v)
{
	prom_family(f, name, "counter", help);
	fprintf(f, "%s %llu\n", name, v);
}

static void gauge(FILE *f, const char *name, const char *help, long long v)
{
	prom_family(f, name, "gauge", help);
	fprintf(f, "%s %lld\n", name, v);
}

/* The loaded module's version as a label value, "" without the module. */
static void module_version(FILE *f)
{
	char path[256], line[64] = "";
	FILE *v;

	snprintf(path, sizeof(path), "%s/module/nictl/version", topo_root());
	v = fopen(path, "r");
	if (v && fgets(line, sizeof(line), v))
		line[strcspn(line, "\n")] = '\0';
	if (v)
		fclose(v);
	prom_label(f, line);
}

static void daemon_families(FILE *f, const struct daemon_metrics *m)
{
	const struct daemon_counts *c = &m->counts;
	unsigned int i, irqs = 0;

	for (i = 0; i < m->k->nr_owned; i++)
		irqs += m->k->owned[i].irqs.nr;
	prom_family(f, "nictl_build_info", "gauge",
		    "The running nictlctl's version and the loaded module's, as labels.");
	fputs("nictl_build_info{version=", f);
	prom_label(f, NICTL_VERSION);
	fputs(",module_version=", f);
	module_version(f);
	fputs("} 1\n", f);
	gauge(f, "nictl_module_loaded", "1 while the nictl module is loaded, else 0.",
	      *m->attached);
	gauge(f, "nictl_daemon_rules", "Rules in the daemon's configuration.",
	      m->k->conf.nr_rules);
	gauge(f, "nictl_daemon_kept_devices", "Devices a rule of the daemon keeps placed.",
	      m->k->nr_owned);
	gauge(f, "nictl_daemon_kept_irqs", "Queue IRQs the daemon keeps bound.", irqs);
	counter(f, "nictl_daemon_resyncs_total",
		"Times every rule was applied to every device: start, reload, module back, "
		"lost events, banned CPUs changed.", c->resyncs);
	counter(f, "nictl_daemon_applies_total",
		"Times one device's rule was applied after an event.", c->applies);
	counter(f, "nictl_daemon_apply_failures_total",
		"Times a rule could not be applied to a device.", c->apply_failures);
	counter(f, "nictl_daemon_drifts_total",
		"Times a kept IRQ was moved behind nictl's back (then re-applied).", c->drifts);
	counter(f, "nictl_daemon_foreign_binds_total",
		"Times another program bound or restored a kept device (then re-applied).",
		c->foreign);
	counter(f, "nictl_daemon_backoffs_total",
		"Times a re-apply was undone at once and the next waited longer.", c->backoffs);
	counter(f, "nictl_daemon_events_missed_total",
		"Events of the module the daemon never read (gaps in their sequence numbers).",
		c->events_missed);
	counter(f, "nictl_daemon_event_overflows_total",
		"Times the events socket overran and events were lost.", c->event_overflows);
	gauge(f, "nictl_daemon_config_last_reload_successful",
	      "1 when the last reading of the configuration (start or reload) was taken, 0 "
	      "when it was refused and the rules before it stay.", c->last_reload_ok);
	gauge(f, "nictl_daemon_config_last_reload_success_timestamp_seconds",
	      "When the configuration in force was read, in seconds since the epoch.",
	      c->last_reload_ok_s);
}

/* The CPU @irq interrupts now: the first of its effective affinity, or -1. */
static int irq_cpu(unsigned int irq)
{
	struct cpuset s = CPUSET_INIT;
	int cpu = procirq_cpus(irq, "effective_affinity_list", &s) ? -1 : cpuset_next(&s, -1);

	cpuset_free(&s);
	return cpu;
}

/*
 * Whether @irq's mask is now other than its target CPU alone. The mask, not
 * the effective affinity: on x86 an IRQ moves at its next interrupt, and an
 * idle queue's would look off target until then.
 */
static bool irq_off_target(const struct nictl_irq *irq)
{
	struct cpuset s = CPUSET_INIT;
	bool off = procirq_cpus(irq->irq, "smp_affinity_list", &s) ||
		   !cpuset_is_only(&s, irq->target_cpu);

	cpuset_free(&s);
	return off;
}

/* Device, queue and kind: not the IRQ number, which a driver reload changes. */
static void irq_labels(FILE *f, const char *name, const struct nictl_dev *dev,
		       const struct nictl_irq *irq)
{
	fprintf(f, "%s{device=", name);
	prom_label(f, dev->ifname);
	fprintf(f, ",queue=\"%u\",kind=\"%s\"} ", irq->queue, show_kind_name(irq->kind));
}

/* The samples of family @name that one kept device gives. */
typedef void (*dev_samples_fn)(FILE *f, const char *name, const struct nictl_dev *dev);

/* Family @name, with the samples @fn gives for each kept device. */
static void kept_family(FILE *f, const struct daemon_metrics *m, const char *name,
			const char *help, dev_samples_fn fn)
{
	unsigned int i, j;

	prom_family(f, name, "gauge", help);
	for (i = 0; i < m->nr_kept; i++)
		for (j = 0; j < m->kept[i].list.nr; j++)
			fn(f, name, &m->kept[i].list.devs[j]);
}

static void irq_cpu_samples(FILE *f, const char *name, const struct nictl_dev *dev)
{
	unsigned int q;
	int cpu;

	for (q = 0; q < dev->nr_irqs; q++) {
		cpu = irq_cpu(dev->irqs[q].irq);
		if (cpu < 0)
			continue;
		irq_labels(f, name, dev, &dev->irqs[q]);
		fprintf(f, "%d\n", cpu);
	}
}

static void irq_target_samples(FILE *f, const char *name, const struct nictl_dev *dev)
{
	unsigned int q;

	for (q = 0; q < dev->nr_irqs; q++) {
		if (dev->irqs[q].target_cpu < 0)
			continue;
		irq_labels(f, name, dev, &dev->irqs[q]);
		fprintf(f, "%d\n", dev->irqs[q].target_cpu);
	}
}

/* A device's bound IRQs not on their target CPU now: 0 as it should be. */
static void off_target_sample(FILE *f, const char *name, const struct nictl_dev *dev)
{
	unsigned int q, off = 0;

	for (q = 0; q < dev->nr_irqs; q++)
		off += dev->irqs[q].target_cpu >= 0 && irq_off_target(&dev->irqs[q]);
	fprintf(f, "%s{device=", name);
	prom_label(f, dev->ifname);
	fprintf(f, "} %u\n", off);
}

static void irq_families(FILE *f, const struct daemon_metrics *m)
{
	kept_family(f, m, "nictl_irq_cpu",
		    "The CPU a kept queue IRQ interrupts now (its effective affinity's first).",
		    irq_cpu_samples);
	kept_family(f, m, "nictl_irq_target_cpu", "The CPU nictl bound a kept queue IRQ to.",
		    irq_target_samples);
	kept_family(f, m, "nictl_irqs_off_target",
		    "Kept queue IRQs whose affinity is not their target CPU now; alert above 0.",
		    off_target_sample);
}

/* The name of the device with @ifindex among the kept ones, or "?". */
static const char *kept_name(const struct daemon_metrics *m, unsigned int ifindex)
{
	unsigned int i, j;

	for (i = 0; i < m->nr_kept; i++)
		for (j = 0; j < m->kept[i].list.nr; j++)
			if (m->kept[i].list.devs[j].ifindex == ifindex)
				return m->kept[i].list.devs[j].ifname;
	return "?";
}

/* The kept devices' NAPI counters, in the families of stats --prometheus. */
static int napi_families(FILE *f, const struct daemon_metrics *m)
{
	const struct stats_napi *n;
	struct queue_view *q;
	unsigned int i, j, nr = 0;

	for (i = 0; i < m->nr_kept; i++)
		nr += m->kept[i].napis.nr_napis;
	q = calloc(nr ?: 1, sizeof(*q));
	if (!q)
		return -1;
	for (i = 0, nr = 0; i < m->nr_kept; i++)
		for (j = 0; j < m->kept[i].napis.nr_napis; j++, nr++) {
			n = &m->kept[i].napis.napis[j];
			q[nr] = (struct queue_view){ .dev = kept_name(m, n->ifindex),
						     .napi_id = n->id, .queue = n->queue,
						     .polls = n->polls, .packets = n->packets,
						     .time_ns = n->time_ns };
		}
	stats_prom_napis(f, q, nr);
	free(q);
	return 0;
}

/* The module's per-CPU counters, read now; without it, procfs's runs (stats_proc.c). */
static int cpu_families(FILE *f, struct keeper *k, bool module)
{
	struct stats_sample s;
	struct stats_view v;
	int err;

	if (module ? stats_read(&k->nl, NULL, &s) : stats_read_proc(&s))
		return -1;
	err = stats_view_make(&v, NULL, &s);
	if (!err)
		stats_prom_cpus(f, &v);
	stats_view_free(&v);
	stats_sample_free(&s);
	return err ? -1 : 0;
}

/*
 * The page: the daemon's families always, the module's while it is there;
 * without it, the per-CPU runs procfs has, saying so (nictl_stats_source).
 */
int metrics_render(FILE *f, void *arg)
{
	struct daemon_metrics *m = arg;

	daemon_families(f, m);
	if (cpu_families(f, m->k, *m->attached))
		return -1;
	if (!*m->attached)
		return 0;
	irq_families(f, m);
	return napi_families(f, m);
}

void metrics_free(struct daemon_metrics *m)
{
	metrics_server_stop(&m->server);
	metrics_forget(m);
	free(m->serving);
	m->serving = NULL;
}
