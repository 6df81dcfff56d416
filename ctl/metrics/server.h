/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An HTTP server of one page, GET /metrics, on libmicrohttpd, run by the
 * daemon's own poll loop: no thread, and no call that waits on a client.
 */
#ifndef NICTLCTL_METRICS_SERVER_H
#define NICTLCTL_METRICS_SERVER_H

#include <stdio.h>

#include "metrics/addr.h"

/* Write the page to @f: 0, or -1 for a 500 (the reason is the renderer's to log). */
typedef int (*metrics_render_fn)(FILE *f, void *arg);

struct metrics_server {
	struct MHD_Daemon *mhd;
	int listen_fd;
	struct metrics_addr addr;	/* a unix socket's file goes when the server stops */
	metrics_render_fn render;
	void *arg;
	unsigned long long scrapes;	/* pages served, failed ones too */
};

/* At most this many clients at once; a client silent this long is dropped. */
#define METRICS_MAX_CLIENTS	16
#define METRICS_CLIENT_TIMEOUT_S	10

int metrics_server_start(struct metrics_server *s, const struct metrics_addr *a,
			 metrics_render_fn render, void *arg, char *err, size_t errlen);
int metrics_server_fd(const struct metrics_server *s);
int metrics_server_timeout(const struct metrics_server *s);
void metrics_server_run(struct metrics_server *s);
void metrics_server_stop(struct metrics_server *s);

#endif /* NICTLCTL_METRICS_SERVER_H */
