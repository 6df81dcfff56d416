// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>

#include "run.h"
#include "sys.h"

/* CAP_NET_ADMIN in the effective (@permitted: permitted) set. */
static bool has_cap_bit(bool permitted)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };
	__u32 set;

	if (syscall(SYS_capget, &hdr, data))
		return true;	/* cannot tell: assume the worst */
	set = permitted ? data[CAP_TO_INDEX(CAP_NET_ADMIN)].permitted :
			  data[CAP_TO_INDEX(CAP_NET_ADMIN)].effective;
	return set & CAP_TO_MASK(CAP_NET_ADMIN);
}

int drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(UNPRIV_ID, UNPRIV_ID, UNPRIV_ID) ||
	    setresuid(UNPRIV_ID, UNPRIV_ID, UNPRIV_ID))
		return -errno;
	if (has_cap_bit(false) || has_cap_bit(true)) {
		fprintf(stderr, "# CAP_NET_ADMIN survived the switch to uid %d\n", UNPRIV_ID);
		return -EPERM;
	}
	return 0;
}

/* Map id 0 of the new user namespace to @outer, in /proc/self/@file. */
static int map_root(const char *file, unsigned int outer)
{
	char path[64], line[32];

	snprintf(path, sizeof(path), "/proc/self/%s", file);
	snprintf(line, sizeof(line), "0 %u 1", outer);
	return write_str(path, line);
}

/*
 * Become root of a new user namespace, as `unshare -Ur` does: uid and gid
 * 0 there are the caller's ids outside, and every capability is ours
 * there, in particular CAP_NET_ADMIN, which the initial namespace must not
 * honour.
 */
static int enter_user_ns(bool unpriv)
{
	uid_t uid;
	gid_t gid;
	int ret;

	/*
	 * Dropping root made the process non-dumpable, which hands its
	 * /proc/self files to root: the maps below could not be written.
	 */
	if (unpriv && (drop_privileges() || prctl(PR_SET_DUMPABLE, 1)))
		return -EPERM;
	uid = geteuid();
	gid = getegid();
	if (unshare(CLONE_NEWUSER)) {
		ret = -errno;
		fprintf(stderr, "# unshare(CLONE_NEWUSER): %s\n", strerror(errno));
		return ret;
	}
	ret = write_str("/proc/self/setgroups", "deny") ?: map_root("uid_map", uid) ?:
	      map_root("gid_map", gid);
	if (ret) {
		fprintf(stderr, "# mapping root of the user namespace: %s\n", strerror(-ret));
		return ret;
	}
	if (getuid() || !has_cap_bit(false)) {
		fprintf(stderr, "# not root with CAP_NET_ADMIN in the new user namespace\n");
		return -EPERM;
	}
	return 0;
}

static int enter_unprivileged(bool unpriv)
{
	return unpriv ? drop_privileges() : 0;
}

pid_t fork_flushed(void)
{
	fflush(stdout);
	fflush(stderr);
	return fork();
}

/* Fork, @enter(@unpriv) in the child, then call @fn(@arg) there; wait. */
static int run_in_child(int (*enter)(bool unpriv), bool unpriv, void (*fn)(void *arg),
			void *arg)
{
	int status;
	pid_t pid;

	pid = fork_flushed();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (enter(unpriv))
			_exit(1);
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	if (!WIFEXITED(status))
		return -EINTR;
	return WEXITSTATUS(status) ? -EPERM : 0;
}

int run_unprivileged(void (*fn)(void *arg), void *arg)
{
	return run_in_child(enter_unprivileged, true, fn, arg);
}

int run_in_user_ns(bool unpriv, void (*fn)(void *arg), void *arg)
{
	return run_in_child(enter_user_ns, unpriv, fn, arg);
}

/* A temporary file in /tmp, already unlinked. */
static int tmpfile_fd(void)
{
	char path[] = "/tmp/nictl-run.XXXXXX";
	int fd = mkostemp(path, O_CLOEXEC);

	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

static int slurp(int fd, char *buf, size_t len)
{
	ssize_t n, used = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	while ((size_t)used < len - 1 && (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += n;
	buf[used] = '\0';
	return n < 0 ? -errno : 0;
}

static void child(int in, int out, int err, bool unpriv, const char *const argv[])
{
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	if (unpriv && drop_privileges())
		_exit(126);
	execvp(argv[0], (char *const *)argv);
	fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int run_cmd(struct run_result *r, bool unpriv, const char *input, const char *const argv[])
{
	int fds[3], i, status, ret = 0;
	pid_t pid;

	for (i = 0; i < 3; i++) {
		fds[i] = tmpfile_fd();
		if (fds[i] < 0) {
			ret = fds[i];
			while (i--)
				close(fds[i]);
			return ret;
		}
	}
	if (input && write(fds[0], input, strlen(input)) != (ssize_t)strlen(input))
		ret = -EIO;
	if (!ret && lseek(fds[0], 0, SEEK_SET) < 0)
		ret = -errno;
	pid = ret ? -1 : fork_flushed();
	if (pid == 0)
		child(fds[0], fds[1], fds[2], unpriv, argv);
	if (pid > 0 && waitpid(pid, &status, 0) == pid) {
		r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		ret = slurp(fds[1], r->out, sizeof(r->out)) ?: slurp(fds[2], r->err, sizeof(r->err));
	} else if (!ret) {
		ret = -errno;
	}
	for (i = 0; i < 3; i++)
		close(fds[i]);
	return ret;
}

int run_ctl(struct run_result *r, bool unpriv, const char *const *wrap, const char *const *args)
{
	const char *argv[16], *ctl = getenv("NICTL_CTL");
	unsigned int i, n = 0;
	int ret;

	if (!ctl) {
		fprintf(stderr, "# NICTL_CTL is not set\n");
		return -EINVAL;
	}
	fprintf(stderr, "# %s", unpriv ? "(uid 65534) " : "");
	for (i = 0; wrap && wrap[i]; i++) {
		argv[n++] = wrap[i];
		fprintf(stderr, "%s ", wrap[i]);
	}
	argv[n++] = ctl;
	fprintf(stderr, "nictlctl");
	for (i = 0; args[i] && n + 1 < sizeof(argv) / sizeof(argv[0]); i++) {
		argv[n++] = args[i];
		fprintf(stderr, " %s", args[i]);
	}
	argv[n] = NULL;
	ret = run_cmd(r, unpriv, NULL, argv);
	fprintf(stderr, " -> %d\n# stderr: %s", r->status, r->err[0] ? r->err : "(empty)\n");
	return ret ?: r->status;
}

int spawn_ctl(struct spawned *s, const char *const *args)
{
	const char *argv[16], *ctl = getenv("NICTL_CTL");
	int out[2], err[2], devnull;
	unsigned int n = 0;

	if (!ctl)
		return -EINVAL;
	argv[n++] = ctl;
	while (*args && n + 1 < sizeof(argv) / sizeof(argv[0]))
		argv[n++] = *args++;
	argv[n] = NULL;
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0)
		return -errno;
	if (pipe2(out, O_CLOEXEC)) {
		close(devnull);
		return -errno;
	}
	if (pipe2(err, O_CLOEXEC)) {
		close(devnull);
		close(out[0]);
		close(out[1]);
		return -errno;
	}
	s->pid = fork_flushed();
	if (!s->pid)
		child(devnull, out[1], err[1], false, argv);
	close(devnull);
	close(out[1]);
	close(err[1]);
	s->out = out[0];
	s->err = err[0];
	if (s->pid < 0) {
		close(s->out);
		close(s->err);
		return -errno;
	}
	return 0;
}

int read_more(int fd, char *buf, size_t len, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t used = strlen(buf);
	ssize_t n;

	if (used + 1 >= len)
		return -ENOSPC;
	n = poll(&pfd, 1, timeout_ms);
	if (n <= 0)
		return n < 0 ? -errno : 0;
	n = read(fd, buf + used, len - 1 - used);
	if (n < 0)
		return -errno;
	buf[used + n] = '\0';
	return n;
}

int spawn_stop(struct spawned *s, int sig, int timeout_ms)
{
	bool timed_out = false;
	int status, waited;
	pid_t got = 0;

	if (sig)
		kill(s->pid, sig);
	for (waited = 0; !got && waited <= timeout_ms; waited += 50) {
		got = waitpid(s->pid, &status, WNOHANG);
		if (!got)
			usleep(50 * 1000);
	}
	if (!got) {
		timed_out = true;
		kill(s->pid, SIGKILL);
		got = waitpid(s->pid, &status, 0);
	}
	close(s->out);
	close(s->err);
	if (got != s->pid)
		return -errno;
	if (timed_out)
		return -ETIMEDOUT;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_jq(struct run_result *r, const char *input, const char *filter)
{
	const char *argv[] = { "jq", "-r", filter, NULL };
	int ret = run_cmd(r, false, input, argv);

	if (!ret && r->status)
		fprintf(stderr, "# jq failed (%d): %s", r->status, r->err);
	return ret ?: r->status;
}

int run_ctl_jq(struct run_result *r, struct run_result *jq, const char *const *args,
	       const char *filter, char *out, size_t len)
{
	int err = run_ctl(r, false, NULL, args);

	out[0] = '\0';
	if (err)
		return err;
	err = run_jq(jq, r->out, filter);
	snprintf(out, len, "%.*s", (int)strcspn(jq->out, "\n"), jq->out);
	return err;
}

int run_json_check(struct run_result *r, const char *const *args, const char *input)
{
	const char *argv[JSON_CHECK_WORDS + 3] = { "python3" };
	char script[PATH_MAX];
	unsigned int n = 2;
	int ret;

	snprintf(script, sizeof(script), "%s/scripts/json-check.py", getenv("NICTL_REPO") ?: ".");
	argv[1] = script;
	while (*args && n < JSON_CHECK_WORDS + 2)
		argv[n++] = *args++;
	/* Outputs left unchecked would pass unseen. */
	if (*args) {
		fprintf(stderr, "# run_json_check: more than %d words\n", JSON_CHECK_WORDS);
		return -E2BIG;
	}
	argv[n] = NULL;
	ret = run_cmd(r, false, input, argv);
	if (!ret && r->status)
		fprintf(stderr, "# -j output that does not match its schema:\n%s", r->err);
	return ret ?: r->status;
}

unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

bool one_line_error(const struct run_result *r, const char *what)
{
	if (count_lines(r->err) == 1 && strstr(r->err, what))
		return true;
	fprintf(stderr, "# want one line with '%s' on stderr\n", what);
	return false;
}

int run_sh(const char *const argv[])
{
	struct run_result *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	ret = run_cmd(r, false, NULL, argv);
	if (!ret && r->status)
		fprintf(stderr, "# %s %s ... -> %d: %s", argv[0], argv[1], r->status, r->err);
	ret = ret ?: r->status;
	free(r);
	return ret;
}
