/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `nictlctl daemon` under test: started with its log in a file (a pipe
 * nobody reads would fill and stop it), stopped, and judged by where the
 * devices it governs are placed, as /proc/irq shows them.
 */
#ifndef NICTL_TEST_DAEMON_H
#define NICTL_TEST_DAEMON_H

#include <stdbool.h>
#include <sys/types.h>

#include "nictl.h"

/* TCG is slow, and the drift check runs once a second: be generous. */
#define DAEMON_WAIT_S	90

/* A device the configuration governs and what its rule promises. */
struct governed {
	const char *ifname;
	int node;		/* its CPUs: the online ones of this node but CPU 0 */
	unsigned int n_irqs;	/* as the guest has them: 2 queues x rx/tx, 1 x rx/tx */
	bool distinct_cores;	/* allow-siblings unset */
	bool quiet;		/* some IRQs may not fire: judge masks (masks_placed()) */
	const struct cpus *banned;	/* CPUs it may not use, NULL: none */
};

/* Write @text to @path, created or truncated: 0 or -errno. */
int write_file(const char *path, const char *text);
/* Write the configuration @conf from @rules, whose one %s is @ifname's MAC: 0 or -errno. */
int write_conf_mac(const char *conf, const char *ifname, const char *rules);

/* Whether a line of the daemon's @log contains @what; quiet, so it can be polled. */
bool daemon_log_has(const char *log, const char *what);
/* Wait up to @seconds for a line of @log with @what; says so on stderr when none came. */
bool daemon_log_wait(const char *log, const char *what, unsigned int seconds);
/* Run `nictlctl daemon -c @conf --foreground` with stderr appended to @log: its pid, or -1. */
pid_t daemon_start(const char *conf, const char *log);
/*
 * The same as pid 1 of a new PID namespace, so that its own pid is not the
 * one the module sees: its pid here, or -1.
 */
pid_t daemon_start_pidns(const char *conf, const char *log);
/* Stop it: 0 when it exited 0 on SIGTERM, its status otherwise, or -errno. */
int daemon_stop(pid_t pid);
/*
 * Show the daemon's @log in the test's output, so failures can be read:
 * the number of its lines that contain @what (NULL: none).
 */
unsigned int daemon_dump_log(const char *log, const char *what);

/* The CPUs a rule on @node may use: its online CPUs, CPU 0 kept out. */
void allowed_cpus(int node, struct cpus *s);
/* The CPUs @g may use: allowed_cpus() of its node, without its banned ones. */
void governed_cpus(const struct governed *g, struct cpus *s);
/*
 * Whether @g is placed as its rule says, judged without a word of output
 * (it is polled): bound, every queue IRQ's /proc mask exactly its target
 * CPU, an allowed one, the IRQs of a queue together and queues apart.
 */
bool in_policy(struct nl_client *nl, const struct governed *g, struct nictl_dev *dev);
/*
 * Wait up to DAEMON_WAIT_S until @g is back in its policy and placed by
 * placement_ok(), which also makes each IRQ fire and follow (masks_placed()
 * for a quiet one): true once it is.
 */
bool back_in_policy(struct nl_client *nl, const struct governed *g);

#endif /* NICTL_TEST_DAEMON_H */
