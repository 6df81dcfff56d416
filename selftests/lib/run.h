/* SPDX-License-Identifier: GPL-2.0 */
/* Running nictlctl and jq, as root or as an unprivileged user. */
#ifndef NICTL_TEST_RUN_H
#define NICTL_TEST_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
 * fork() after flushing stdout and stderr, so that what this process buffered
 * is printed once, by it, and not again by the child when the child exits.
 */
pid_t fork_flushed(void);

/*
 * Call @fn(@arg) in a child process that dropped to UNPRIV_ID, and wait for
 * it: 0 once @fn returned there, -EPERM when the child could not drop root,
 * -errno when it could not run. A test's @fn reports through EXPECT_*()
 * only: an ASSERT_*() would unwind into the harness's teardown in the child.
 */
int run_unprivileged(void (*fn)(void *arg), void *arg);
/*
 * The same in a child that is root of a new user namespace, as `unshare
 * -Ur` makes one (from UNPRIV_ID when @unpriv): all capabilities there,
 * none in the initial user namespace, the caller's network namespace.
 * -errno when the namespace could not be made.
 */
int run_in_user_ns(bool unpriv, void (*fn)(void *arg), void *arg);

/*
 * Run @argv (argv[0] looked up in PATH) with @input on its stdin (NULL: an
 * empty stdin), as UNPRIV_ID when @unpriv, collecting its output in @r.
 * Returns 0 once it ran (whatever its status) or -errno.
 */
int run_cmd(struct run_result *r, bool unpriv, const char *input, const char *const argv[]);

/*
 * Run @argv as root, as run_cmd() does: its exit status (what failed
 * printed with its stderr), or -errno.
 */
int run_sh(const char *const argv[]);
#define SH(...)	run_sh((const char *const []){ __VA_ARGS__, NULL })
/*
 * Run $NICTL_CTL with the NULL-terminated @args into @r, as UNPRIV_ID when
 * @unpriv, behind the NULL-terminated command @wrap (or none), printing the
 * command line, its exit status and stderr. Returns the exit status, or
 * -errno when it could not run.
 */
int run_ctl(struct run_result *r, bool unpriv, const char *const *wrap, const char *const *args);
/* A command left running, its stdout and stderr on pipes. */
struct spawned {
	pid_t pid;
	int out;
	int err;
};

/* Start $NICTL_CTL with the NULL-terminated @args in the background: 0 or -errno. */
int spawn_ctl(struct spawned *s, const char *const *args);
/*
 * Append what @fd gives within @timeout_ms to the NUL-terminated text in
 * @buf (@len bytes): the bytes added, 0 when nothing came (or end of file),
 * or -errno.
 */
int read_more(int fd, char *buf, size_t len, int timeout_ms);
/*
 * Send @sig (0: none, just wait) and wait up to @timeout_ms for the command
 * to end: its exit code or 128 + signal, or -ETIMEDOUT after killing it.
 * Closes the pipes.
 */
int spawn_stop(struct spawned *s, int sig, int timeout_ms);

/* jq -r @filter over @input into @r: its exit status (what failed printed), or -errno. */
int run_jq(struct run_result *r, const char *input, const char *filter);
/*
 * $NICTL_CTL with @args (its -j output), then jq -r @filter over it: the
 * first line jq printed in @out ("" when nictlctl failed), and the first
 * failing exit status (printed), or -errno.
 */
int run_ctl_jq(struct run_result *r, struct run_result *jq, const char *const *args,
	       const char *filter, char *out, size_t len);
#define JSON_CHECK_WORDS	32
/*
 * Validate nictlctl -j output against the JSON Schemas, in one run of
 * scripts/json-check.py: @args is a COMMAND with @input its output, or
 * COMMAND, FILE pairs (NULL-terminated, at most JSON_CHECK_WORDS words).
 * 0, its exit status with what did not match printed, or -E2BIG.
 */
int run_json_check(struct run_result *r, const char *const *args, const char *input);
/* Lines in @s: a one-line message is "text\n". */
unsigned int count_lines(const char *s);
/* @r's stderr is one line that contains @what. */
bool one_line_error(const struct run_result *r, const char *what);

#endif /* NICTL_TEST_RUN_H */
