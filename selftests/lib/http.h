/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal HTTP/1.0 client for the tests that scrape the daemon's
 * /metrics and ask Prometheus' HTTP API: what a scraper sends, nothing more.
 */
#ifndef NICTL_TEST_HTTP_H
#define NICTL_TEST_HTTP_H

#include <stddef.h>

/*
 * GET @path from @addr, "IPV4:PORT" or "unix:/PATH", within @timeout_ms:
 * the HTTP status, with the body in @body (NUL-terminated, cut to @len);
 * or -errno when there was no answer.
 */
int http_get(const char *addr, const char *path, char *body, size_t len, int timeout_ms);

/* Connect to @addr as http_get() does, and send nothing: the socket, or -errno. */
int http_connect(const char *addr);

/* @s with every byte but [A-Za-z0-9-._~] %-encoded, for a query string. */
void url_encode(const char *s, char *out, size_t len);

#endif /* NICTL_TEST_HTTP_H */
