/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmicrohttpd, loaded when the daemon first starts its /metrics server:
 * every other command, and a daemon without metrics, never maps it nor the
 * TLS stack it brings (GnuTLS and its dependencies).
 */
#ifndef NICTLCTL_METRICS_MHD_H
#define NICTLCTL_METRICS_MHD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* The library's soname on Debian 12 and later (libmicrohttpd12). */
#define MHD_SONAME	"libmicrohttpd.so.12"

/* The functions server.c calls, with the library's own prototypes. */
struct mhd_api {
	__typeof__(&MHD_start_daemon) start_daemon;
	__typeof__(&MHD_stop_daemon) stop_daemon;
	__typeof__(&MHD_run) run;
	__typeof__(&MHD_get_timeout) get_timeout;
	__typeof__(&MHD_get_daemon_info) get_daemon_info;
	__typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
	__typeof__(&MHD_add_response_header) add_response_header;
	__typeof__(&MHD_queue_response) queue_response;
	__typeof__(&MHD_destroy_response) destroy_response;
};

extern struct mhd_api mhd;

int mhd_load(char *err, size_t errlen);

#endif /* NICTLCTL_METRICS_MHD_H */
