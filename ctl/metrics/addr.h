/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the daemon serves /metrics: the [daemon] key metrics, "off",
 * "IPV4:PORT", "[IPV6]:PORT" (numeric addresses) or "unix:/ABSOLUTE/PATH".
 */
#ifndef NICTLCTL_METRICS_ADDR_H
#define NICTLCTL_METRICS_ADDR_H

#include <stddef.h>
#include <sys/socket.h>

struct metrics_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

int metrics_addr_parse(const char *text, struct metrics_addr *a, char *err, size_t errlen);
int metrics_addr_listen(const struct metrics_addr *a, char *err, size_t errlen);
int metrics_addr_port(int fd);

#endif /* NICTLCTL_METRICS_ADDR_H */
