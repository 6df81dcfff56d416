// SPDX-License-Identifier: GPL-2.0
/*
 * irqbalance rewrites the affinity of every IRQ it has not been told to
 * leave alone, every 10 seconds; left to itself it undoes each bind. Its
 * control socket accepts one command per connection, from root only (it
 * checks SCM_CREDENTIALS): "setup" answers "SLEEP s [IRQ n LOAD l DIFF d
 * CLASS c]... BANNED mask", listing the IRQs banned on its command line or
 * over the socket; "settings ban irqs n..." (or "... NONE") replaces that
 * list. So the daemon reads the list, keeps every ban that is not its own,
 * and sends it back with its IRQs added. An irqbalance without the socket
 * (before 1.2, or built without it) cannot be told, and is reported.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

#include "daemon/irqbalance.h"
#include "log.h"

#define SOCK_PREFIX	"irqbalance"
#define SOCK_SUFFIX	".sock"
/* irqbalance reads a command with one recvmsg() into a buffer this large. */
#define CMD_MAX		16384
/* A daemon that does not answer within this long is treated as absent. */
#define TIMEOUT_S	2

int irq_set_add(struct irq_set *s, unsigned int irq)
{
	unsigned int *irqs, i;

	for (i = 0; i < s->nr && s->irq[i] < irq; i++)
		;
	if (i < s->nr && s->irq[i] == irq)
		return 0;
	irqs = realloc(s->irq, (s->nr + 1) * sizeof(*irqs));
	if (!irqs)
		return -ENOMEM;
	memmove(irqs + i + 1, irqs + i, (s->nr - i) * sizeof(*irqs));
	irqs[i] = irq;
	s->irq = irqs;
	s->nr++;
	return 0;
}

bool irq_set_has(const struct irq_set *s, unsigned int irq)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->irq[i] == irq)
			return true;
	return false;
}

void irq_set_free(struct irq_set *s)
{
	free(s->irq);
	s->irq = NULL;
	s->nr = 0;
}

static bool irq_set_equal(const struct irq_set *a, const struct irq_set *b)
{
	return a->nr == b->nr && (!a->nr || !memcmp(a->irq, b->irq, a->nr * sizeof(*a->irq)));
}

/* The banned IRQs of a "setup" reply; -EPROTO when it is not one. */
int irqb_parse_setup(const char *reply, struct irq_set *banned)
{
	char *copy = strdup(reply), *save, *tok, *end;
	unsigned long irq;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	tok = strtok_r(copy, " \n", &save);
	if (!tok || strcmp(tok, "SLEEP"))
		err = -EPROTO;
	while (!err && (tok = strtok_r(NULL, " \n", &save)) && strcmp(tok, "BANNED")) {
		if (strcmp(tok, "IRQ"))
			continue;
		tok = strtok_r(NULL, " \n", &save);
		if (!tok || !isdigit((unsigned char)*tok))
			err = -EPROTO;
		else if ((irq = strtoul(tok, &end, 10)) > 0xffffffffUL || *end)
			err = -EPROTO;
		else
			err = irq_set_add(banned, irq);
	}
	if (!err && !tok)
		err = -EPROTO;	/* every reply ends with the banned CPUs */
	free(copy);
	return err;
}

/* The command that sets irqbalance's banned IRQs to @bans (malloc'ed). */
char *irqb_ban_command(const struct irq_set *bans)
{
	char *buf = NULL;
	size_t size = 0;
	unsigned int i;
	FILE *f;

	f = open_memstream(&buf, &size);
	if (!f)
		return NULL;
	fputs("settings ban irqs", f);
	for (i = 0; i < bans->nr; i++)
		fprintf(f, " %u", bans->irq[i]);
	if (!bans->nr)
		fputs(" NONE", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The bans to send: irqbalance's current @banned minus the bans nictl
 * @added earlier (IRQs it no longer binds, which may be gone or renumbered),
 * plus @ours. @now_added gets the IRQs of @ours irqbalance did not ban by
 * itself, the ones to take back later.
 */
int irqb_merge(const struct irq_set *banned, const struct irq_set *added,
	       const struct irq_set *ours, struct irq_set *bans, struct irq_set *now_added)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < banned->nr; i++)
		if (!irq_set_has(added, banned->irq[i]))
			err = irq_set_add(bans, banned->irq[i]);
	for (i = 0; !err && i < ours->nr; i++) {
		if (!irq_set_has(bans, ours->irq[i]))
			err = irq_set_add(now_added, ours->irq[i]);
		if (!err)
			err = irq_set_add(bans, ours->irq[i]);
	}
	return err;
}

static const char *sock_dir(void)
{
	const char *dir = getenv("NICTL_IRQBALANCE_DIR");

	return dir && *dir ? dir : "/run/irqbalance";
}

/* The pid of the live irqbalance whose socket is in sock_dir(), 0 if none. */
static pid_t socket_pid(void)
{
	size_t plen = strlen(SOCK_PREFIX), slen = strlen(SOCK_SUFFIX), len;
	DIR *d = opendir(sock_dir());
	struct dirent *e;
	pid_t pid = 0;
	char *end;
	long n;

	while (d && !pid && (e = readdir(d))) {
		len = strlen(e->d_name);
		if (len <= plen + slen || strncmp(e->d_name, SOCK_PREFIX, plen) ||
		    strcmp(e->d_name + len - slen, SOCK_SUFFIX))
			continue;
		n = strtol(e->d_name + plen, &end, 10);
		/* A socket left behind by a crashed irqbalance names a dead pid. */
		if (n > 0 && end == e->d_name + len - slen && (!kill(n, 0) || errno == EPERM))
			pid = n;
	}
	if (d)
		closedir(d);
	return pid;
}

/* The pid of a process named irqbalance, 0 if none runs. */
static pid_t process_pid(void)
{
	DIR *d = opendir("/proc");
	char path[300], comm[32];
	struct dirent *e;
	pid_t pid = 0;
	FILE *f;

	while (d && !pid && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "irqbalance\n"))
			pid = atoi(e->d_name);
		fclose(f);
	}
	if (d)
		closedir(d);
	return pid;
}

/*
 * Connect to irqbalance @pid: its socket file, else the abstract address
 * irqbalance falls back to when it cannot create the file (all zeroes, as
 * irqbalance-ui connects to it). Returns the fd or -errno.
 */
static int connect_irqbalance(pid_t pid)
{
	struct timeval tv = { .tv_sec = TIMEOUT_S };
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, err;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/" SOCK_PREFIX "%d" SOCK_SUFFIX,
		 sock_dir(), pid);
	if (!connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
		return fd;
	memset(addr.sun_path, 0, sizeof(addr.sun_path));
	if (!connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
		return fd;
	err = -errno;
	close(fd);
	return err;
}

/* Send @cmd with our credentials, which irqbalance requires to be root's. */
static int send_cmd(int fd, const char *cmd)
{
	struct ucred cred = { .pid = getpid(), .uid = getuid(), .gid = getgid() };
	union {
		char buf[CMSG_SPACE(sizeof(cred))];
		struct cmsghdr align;
	} ctl = { .buf = { 0 } };	/* the padding goes to the kernel too */
	struct iovec iov = { .iov_base = (void *)cmd, .iov_len = strlen(cmd) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	if (iov.iov_len >= CMD_MAX)
		return -E2BIG;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_CREDENTIALS;
	cm->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(cm), &cred, sizeof(cred));
	return sendmsg(fd, &msg, MSG_NOSIGNAL) == (ssize_t)iov.iov_len ? 0 : -errno ?: -EIO;
}

/* Run one command; with @reply, read the answer until irqbalance closes. */
static int request(pid_t pid, const char *cmd, char **reply)
{
	char *buf = NULL, *grown;
	size_t len = 0;
	ssize_t n = 1;
	int fd, err;

	fd = connect_irqbalance(pid);
	if (fd < 0)
		return fd;
	err = send_cmd(fd, cmd);
	while (!err && reply && n > 0) {
		grown = realloc(buf, len + 4096 + 1);
		if (!grown) {
			err = -ENOMEM;
			break;
		}
		buf = grown;
		n = recv(fd, buf + len, 4096, 0);
		if (n < 0)
			err = -errno;
		else
			len += n;
	}
	close(fd);
	if (reply && !err) {
		buf[len] = '\0';
		*reply = buf;
	} else {
		free(buf);
	}
	return err;
}

static void warn_no_socket(struct irqbalance *ib, pid_t pid, int err)
{
	if (ib->warned == pid)
		return;
	ib->warned = pid;
	log_err("irqbalance (pid %d) is running but nictl cannot reach its control socket "
		"(%s; irqbalance older than 1.2, or built without it): it WILL move the IRQs "
		"nictl binds back every 10 s; ban them with IRQBALANCE_ARGS=--banirq=N or "
		"stop irqbalance", pid, strerror(-err));
}

static void log_bans(pid_t pid, const struct irq_set *ours, const struct irq_set *bans)
{
	char list[1024];
	size_t n = 0;
	unsigned int i;

	list[0] = '\0';
	for (i = 0; i < ours->nr && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%u", i ? " " : "", ours->irq[i]);
	log_info("irqbalance (pid %d): banned IRQs %s (%u of its own bans kept)", pid,
		 ours->nr ? list : "none", bans->nr - ours->nr);
}

/* The IRQs irqbalance @pid bans now, into @banned: 0 or -errno. */
int irqbalance_bans(pid_t pid, struct irq_set *banned)
{
	char *reply = NULL;
	int err;

	err = request(pid, "setup", &reply);
	if (!err)
		err = irqb_parse_setup(reply, banned);
	free(reply);
	return err;
}

/* Ask irqbalance @pid to ban exactly its own bans plus @ours. */
static int sync_bans(struct irqbalance *ib, pid_t pid, const struct irq_set *ours)
{
	struct irq_set banned = IRQ_SET_INIT, bans = IRQ_SET_INIT, added = IRQ_SET_INIT;
	char *cmd = NULL;
	int err;

	err = irqbalance_bans(pid, &banned);
	if (!err)
		err = irqb_merge(&banned, &ib->added, ours, &bans, &added);
	if (!err && !irq_set_equal(&bans, &banned)) {
		cmd = irqb_ban_command(&bans);
		err = cmd ? request(pid, cmd, NULL) : -ENOMEM;
		if (!err)
			log_bans(pid, ours, &bans);
	}
	if (!err) {
		irq_set_free(&ib->added);
		ib->added = added;
		added = (struct irq_set)IRQ_SET_INIT;
		ib->warned = 0;
	}
	free(cmd);
	irq_set_free(&banned);
	irq_set_free(&bans);
	irq_set_free(&added);
	return err;
}

/* The pid of the irqbalance that runs, 0 if none. */
pid_t irqbalance_pid(void)
{
	return socket_pid() ?: process_pid();
}

/*
 * Make a running irqbalance leave @ours alone (and forget the IRQs nictl
 * asked it to ban before and no longer binds). Nothing to do when no
 * irqbalance runs; one loud message when one runs that cannot be told.
 * Returns 0, or -1 when irqbalance runs and was not told.
 */
int irqbalance_sync(struct irqbalance *ib, const struct irq_set *ours)
{
	pid_t pid = irqbalance_pid();
	int err;

	if (!pid)
		return 0;
	err = sync_bans(ib, pid, ours);
	if (err == -EPROTO)
		log_err("irqbalance (pid %d) answered its setup command in a way nictl does not "
			"know; it may move the IRQs nictl binds", pid);
	else if (err)
		warn_no_socket(ib, pid, err);
	return err ? -1 : 0;
}

void irqbalance_free(struct irqbalance *ib)
{
	irq_set_free(&ib->added);
}
