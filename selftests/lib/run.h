/* SPDX-License-Identifier: GPL-2.0 */
/* Running nictlctl and jq, as root or as an unprivileged user. */
#ifndef NICTL_TEST_RUN_H
#define NICTL_TEST_RUN_H

#include <stdbool.h>

#define RUN_OUT_LEN	65536
#define RUN_ERR_LEN	4096

struct run_result {
	int status;	/* exit code, or 128 + signal */
	char out[RUN_OUT_LEN];
	char err[RUN_ERR_LEN];
};

/* nobody/nogroup: the user tests drop to. */
#define UNPRIV_ID	65534

/*
 * Switch this process to UNPRIV_ID with no supplementary groups and check
 * that CAP_NET_ADMIN went with root: 0 or -errno (-EPERM if it stayed).
 */
int drop_privileges(void);

/*
 * Run @argv (argv[0] looked up in PATH) with @input on its stdin (NULL: an
 * empty stdin), as UNPRIV_ID when @unpriv, collecting its output in @r.
 * Returns 0 once it ran (whatever its status) or -errno.
 */
int run_cmd(struct run_result *r, bool unpriv, const char *input, const char *const argv[]);
/* Lines in @s: a one-line message is "text\n". */
unsigned int count_lines(const char *s);

#endif /* NICTL_TEST_RUN_H */
