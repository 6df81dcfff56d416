/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fuzzing run against the loaded module: every step sends generated
 * messages (gen.h), alone or several in one datagram, interrupts dumps or
 * opens many sockets at once, and judges every answer; at the end, and
 * every FUZZ_RESTORE_EVERY steps, it restores every device and puts the
 * accounting switch back as it found it.
 */
#ifndef NICTL_FUZZ_ENGINE_H
#define NICTL_FUZZ_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/nictl.h>

#include "gen.h"

#define FUZZ_RESTORE_EVERY	256
/* Answers by errno; 0 is success. */
#define FUZZ_ERRNO_MAX		256
/* Messages by command: the family's numbers, then every unknown one. */
#define FUZZ_CMD_UNKNOWN	(NICTL_CMD_MAX + 1)

struct fuzz_opts {
	uint64_t seed;
	uint64_t start;		/* the first step */
	uint64_t count;		/* steps at most */
	double seconds;		/* and no longer than this, when > 0 */
	/* The caller dropped CAP_NET_ADMIN: no command that changes anything may succeed. */
	bool unprivileged;
	bool verbose;		/* print every message sent */
};

struct fuzz_summary {
	uint64_t seed;
	uint64_t start;
	bool unprivileged;
	uint64_t steps;
	uint64_t messages;			/* generated messages sent */
	uint64_t by_cmd[FUZZ_CMD_UNKNOWN + 1];
	uint64_t by_kind[__FUZZ_KIND_MAX];
	uint64_t by_errno[FUZZ_ERRNO_MAX];	/* errors, acks and dump ends */
	uint64_t unanswered;			/* none of those, and none was due */
	uint64_t replies;			/* data messages, all well-formed */
	uint64_t batches;			/* datagrams of several messages */
	uint64_t dumps_interrupted;
	uint64_t sockets;			/* opened by concurrent steps */
	uint64_t events;			/* heard on the events group */
	uint64_t restores;			/* devices restored by the fuzzer */
	uint64_t unexpected;
	char first_unexpected[256];
	double seconds;
};

/*
 * Run @o into @s: 0 once the run happened (s->unexpected says how it went),
 * or -errno when it could not start (the family is missing: -ENOENT).
 */
int fuzz_run(const struct fuzz_opts *o, struct fuzz_summary *s);
/* The summary for people, as "# " lines. */
void fuzz_print(FILE *f, const struct fuzz_summary *s);
/* The summary as one line of key=value words. */
void fuzz_print_line(FILE *f, const struct fuzz_summary *s);

#endif /* NICTL_FUZZ_ENGINE_H */
