/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stats command's data: a sample is what the kernel and procfs said at
 * one moment (counters that only grow), a view is what one sample or the
 * difference of two means (shares, rates, averages) and is what the printers
 * print. The formats are documented in stats.c.
 */
#ifndef NICTLCTL_STATS_H
#define NICTLCTL_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/nictl.h>

#include "cpuset.h"
#include "dev.h"
#include "nl.h"

/* One softirq vector on one CPU, as NICTL_A_SOFTIRQ carries it. */
struct stats_vec {
	uint64_t count;
	uint64_t time_ns;
	uint64_t max_ns;
	uint64_t hist[NICTL_HIST_BUCKETS];
};

/* One kind of NAPI poll on one CPU, as NICTL_A_POLL carries it. */
struct stats_poll {
	uint64_t polls;
	uint64_t packets;
	uint64_t time_ns;
	uint64_t untimed;
	uint64_t busy_polls;		/* polls of busy-poll loops, outside NET_RX */
	uint64_t busy_ns;
};

/* The times of one NAPI instance on one CPU (NICTL_A_NAPI in STATS_GET). */
struct stats_napi_time {
	unsigned int id;
	uint64_t time_ns;
	uint64_t busy_ns;
};

/* One CPU's row of /proc/net/softnet_stat. */
struct softnet_row {
	bool present;			/* the file has a row for this CPU */
	bool has_rps;			/* the row has received_rps (all kernels since 2.6.35) */
	uint32_t processed;		/* the kernel's counters are 32 bits wide */
	uint32_t dropped;
	uint32_t time_squeeze;
	uint32_t received_rps;		/* times an RPS IPI woke the CPU's backlog */
};

struct stats_cpu {
	unsigned int cpu;
	uint64_t start_ns;		/* CLOCK_MONOTONIC */
	uint64_t now_ns;
	uint64_t napi_unattributed;
	struct stats_vec vec[__NICTL_SOFTIRQ_MAX];
	struct stats_poll poll[__NICTL_POLL_MAX];
	struct stats_napi_time *napi_times;	/* every NAPI polled on the CPU */
	unsigned int nr_napi_times;
	struct softnet_row softnet;
	bool has_softirq_ns;		/* from /proc/stat, without the module */
	uint64_t softirq_ns;		/* time in softirqs of every vector, since boot */
};

struct stats_napi {
	unsigned int id;
	unsigned int ifindex;		/* its device's: with a stacked DEV, one beneath it */
	int queue;			/* -1 when the kernel did not say */
	uint64_t polls;
	uint64_t packets;
	uint64_t time_ns;
	uint64_t busy_ns;		/* busy polling's, outside NET_RX */
	struct cpuset cpus;		/* where it was polled since the start */
	unsigned int thread_pid;	/* the thread that polls it, 0 in NET_RX */
	uint64_t thread_ns;		/* that thread's CPU time since it started */
	struct cpuset thread_cpus;	/* where it may run */
};

/*
 * Everything read at one moment; the device part only with DEV. A stacked
 * DEV (a bond, VLAN) is @ifname, and @napis are those of the physical
 * devices beneath it, in @dev.
 */
struct stats_sample {
	bool via_proc;			/* module nictl is not loaded: procfs only (stats_proc.c) */
	bool enabled;
	struct stats_cpu *cpus;		/* ascending CPU numbers */
	unsigned int nr_cpus;
	struct cpuset online;		/* empty when sysfs could not be read */
	bool has_dev;
	unsigned int ifindex;
	char *ifname;
	struct stats_napi *napis;
	unsigned int nr_napis;
	struct dev_list dev;		/* the device's queue IRQs, from DEV_GET */
};

/* One vector on one CPU over the view's span. */
struct vec_view {
	uint64_t count;			/* runs in the span */
	uint64_t time_ns;
	uint64_t max_ns;		/* longest run since the counters started */
	bool max_new;			/* interval only: max_ns was reached in it */
	uint64_t hist[NICTL_HIST_BUCKETS];
	double pct;			/* time_ns as a share of the span */
	double per_sec;
	uint64_t avg_ns;		/* 0 without runs */
};

/* One kind of NAPI poll on one CPU over the view's span. */
struct poll_view {
	uint64_t polls;
	uint64_t packets;
	uint64_t time_ns;
	uint64_t untimed;
	uint64_t busy_polls;
	uint64_t busy_ns;
	double pct;			/* time_ns as a share of the span */
	double busy_pct;		/* busy_ns as a share of the span */
	double packets_per_sec;
};

/*
 * NET_RX time of one CPU split three ways, as shares of the span that add
 * up to NET_RX's: polling device NAPIs (with DEV, that device's only),
 * polling the RPS backlog, and the rest (the softirq's own work, and with
 * DEV other devices' NAPIs).
 */
struct rx_split {
	uint64_t napi_ns;
	uint64_t backlog_ns;
	uint64_t other_ns;
	double napi_pct;
	double backlog_pct;
	double other_pct;
};

struct cpu_view {
	unsigned int cpu;
	struct vec_view vec[__NICTL_SOFTIRQ_MAX];
	struct poll_view poll[__NICTL_POLL_MAX];
	struct rx_split split;
	uint64_t napi_unattributed;
	struct softnet_row softnet;	/* totals in a snapshot, deltas in an interval */
	double processed_per_sec;	/* interval only */
	double rps_per_sec;		/* interval only */
	bool has_softirq;		/* without the module: softirq time of every vector */
	uint64_t softirq_ns;
	double softirq_pct;
};

struct queue_view {
	const char *dev;		/* its device's name (a stacked DEV's: one beneath it) */
	unsigned int dev_index;		/* that device's place in the sample's dev list */
	unsigned int napi_id;
	int queue;			/* -1 when unknown */
	uint64_t polls;
	uint64_t packets;
	uint64_t time_ns;
	uint64_t busy_ns;		/* busy polling's, outside NET_RX */
	struct cpuset busy_cpus;	/* where tasks busy-polled it */
	double polls_per_sec;
	double packets_per_sec;
	double share_pct;		/* of the device's packets in the span */
	struct cpuset irq_cpus;		/* affinity of the queue's IRQs */
	struct cpuset napi_cpus;
	struct cpuset outside;		/* napi_cpus not in irq_cpus */
	unsigned int thread_pid;	/* its NAPI thread, 0 when polled in NET_RX */
	uint64_t thread_ns;		/* that thread's CPU time in the span */
	struct cpuset thread_cpus;
};

struct stats_view {
	bool interval;			/* two samples, else one since the start */
	bool via_proc;			/* procfs only: runs, no times, no NAPI polls */
	bool enabled;
	uint64_t span_ns;		/* interval_ns or since_ns */
	struct cpu_view *cpus;
	unsigned int nr_cpus;
	bool has_dev;
	unsigned int ifindex;
	const char *ifname;		/* points into the sample */
	const struct dev_list *lower;	/* a stacked DEV's physical devices, else NULL */
	struct queue_view *queues;	/* by device (a stacked DEV's), queue, then NAPI id */
	unsigned int nr_queues;
	uint64_t packets;		/* the device's, in the span */
	int hot_cpu;			/* cpus index of the highest NET_RX % (softirq % via
					 * procfs), -1 if none */
	int uneven;			/* index into queues of the largest share, -1 if none */
	uint64_t backlog_untimed;	/* backlog polls outside NET_RX on all CPUs */
};

/* stats_nl.c: asking the module. */
int stats_read(struct ctl_nl *nl, const struct dev_ref *ref, struct stats_sample *s);
int stats_request(struct ctl_nl *nl, uint8_t cmd, int enable);
int stats_parse_cpu(struct nlmsghdr *hdr, void *sample);
int stats_parse_napi(struct nlmsghdr *hdr, void *sample);
int stats_read_napis(struct ctl_nl *nl, const struct nictl_dev *dev, struct stats_sample *s);
struct stats_cpu *stats_find_cpu(const struct stats_sample *s, unsigned int cpu);
/* The times of NAPI @id on @c (NULL: none), or NULL when it was not polled there. */
const struct stats_napi_time *stats_find_napi_time(const struct stats_cpu *c, unsigned int id);
struct stats_cpu *stats_add_cpu(struct stats_sample *s, unsigned int cpu);
void stats_sample_free(struct stats_sample *s);

/*
 * stats_threads.c: the NAPI threads of the sample's devices, with their
 * CPU time from /proc/PID/schedstat. 0, or -1 after saying why.
 */
int stats_read_threads(struct stats_sample *s);

/* stats_softnet.c: /proc/net/softnet_stat, under $NICTL_PROCFS (default /proc). */
int softnet_parse(FILE *f, const struct cpuset *online, struct stats_sample *s);
int softnet_read(struct stats_sample *s);

/*
 * stats_proc.c: without the module, runs per CPU from /proc/softirqs and the
 * softirq time of every vector from /proc/stat, under $NICTL_PROCFS. 0, or
 * -1 after the one line (@s freed).
 */
int stats_read_proc(struct stats_sample *s);

/* stats_calc.c */
bool stats_restarted(const struct stats_sample *prev, const struct stats_sample *cur);
int stats_view_make(struct stats_view *v, const struct stats_sample *prev,
		    const struct stats_sample *cur);
void stats_view_free(struct stats_view *v);

/* stats_table.c */
int stats_table(FILE *f, const struct stats_view *v, bool hist, bool all);
char *stats_fmt_ns(char *buf, size_t size, uint64_t ns, bool has_value);
extern const char *const stats_bucket_labels[NICTL_HIST_BUCKETS];
extern const char *const stats_vec_names[__NICTL_SOFTIRQ_MAX];
extern const char *const stats_poll_names[__NICTL_POLL_MAX];

/* stats_json.c */
int stats_json(FILE *f, const struct stats_view *v);

/* stats_prom.c */
int stats_prom(FILE *f, const struct stats_view *v);
void stats_prom_cpus(FILE *f, const struct stats_view *v);
void stats_prom_napis(FILE *f, const struct queue_view *queues, unsigned int n);
/* A family's # HELP and # TYPE lines; a label value, quoted and escaped. */
void prom_family(FILE *f, const char *name, const char *type, const char *help);
void prom_label(FILE *f, const char *s);

#endif /* NICTLCTL_STATS_H */
