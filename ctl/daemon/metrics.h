/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's /metrics page (docs/metrics.md): the module's per-CPU
 * counters, read at each scrape; the kept devices' IRQs and NAPI counters,
 * from a copy the daemon's loop refreshes, because reading them takes rtnl
 * and a scrape must never wait on it; and the daemon's own counters.
 */
#ifndef NICTLCTL_DAEMON_METRICS_H
#define NICTLCTL_DAEMON_METRICS_H

#include <stdbool.h>

#include "daemon/apply.h"
#include "dev.h"
#include "metrics/server.h"
#include "stats/stats.h"

/* The kept devices are read again this often while metrics are served. */
#define METRICS_REFRESH_MS	10000

/* What the daemon did since it started. */
struct daemon_counts {
	unsigned long long resyncs;		/* every rule applied to every device */
	unsigned long long applies;		/* one device's rule applied after an event */
	unsigned long long apply_failures;
	unsigned long long drifts;		/* a kept IRQ moved behind nictl's back */
	unsigned long long foreign;		/* a kept device bound or restored by another */
	unsigned long long backoffs;		/* a fight began: re-applies wait longer */
	unsigned long long events_missed;	/* by the sequence numbers' gaps */
	unsigned long long event_overflows;	/* the events socket overran */
	bool last_reload_ok;			/* the last reading of the file was taken */
	long long last_reload_ok_s;		/* when the file in force was read (epoch) */
};

/* A kept device as the last refresh read it: its IRQs, its NAPI counters. */
struct kept_dev {
	struct dev_list list;		/* a stacked device's: those beneath it */
	struct stats_sample napis;
};

struct daemon_metrics {
	struct metrics_server server;
	char *serving;			/* the address as configured; NULL while off */
	struct keeper *k;
	const bool *attached;		/* the module is there */
	struct kept_dev *kept;
	unsigned int nr_kept;
	long long next_refresh_ms;
	struct daemon_counts counts;
};

void metrics_init(struct daemon_metrics *m, struct keeper *k, const bool *attached);
void metrics_configure(struct daemon_metrics *m, const char *spec);
int metrics_timeout(const struct daemon_metrics *m, long long now_ms);
void metrics_refresh(struct daemon_metrics *m, long long now_ms);
void metrics_forget(struct daemon_metrics *m);
int metrics_render(FILE *f, void *arg);
void metrics_free(struct daemon_metrics *m);

#endif /* NICTLCTL_DAEMON_METRICS_H */
