// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>

#include "engine.h"
#include "nictl.h"
#include "sys.h"

/*
 * Every answer is queued by the time sendmsg() returns, and a dump continues
 * on reads; only STATS_SET and STATS_RESET wait, for RCU grace periods, which
 * a debug kernel under emulation makes long. A lost answer still ends the run.
 */
#define ANSWER_TIMEOUT_MS	60000
/* Sockets a concurrent step opens at most. */
#define FUZZ_SOCKETS		16
/* Unexpected answers printed in full; the rest are only counted. */
#define UNEXPECTED_SHOWN	10

struct fuzz {
	const struct fuzz_opts *o;
	struct fuzz_summary *s;
	struct fuzz_ctx ctx;
	struct nl_client nl;
	struct nl_client events;
	uint64_t step;
	bool dead;		/* the family stopped answering: the run ends */
	int stats_enabled;	/* as found: -1 when unknown */
	int reply_cmd;		/* what a reply must carry, -1: any reply command */
	struct fuzz_msg msg;
	struct fuzz_batch batch;
	uint8_t rbuf[NL_RECV_SIZE];
	/* Where replies are parsed, only to check them. */
	struct nictl_dev dev;
	struct nictl_stats stats;
	struct nictl_napis napis;
};

static void unexpected(struct fuzz *f, const struct fuzz_msg *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void unexpected(struct fuzz *f, const struct fuzz_msg *m, const char *fmt, ...)
{
	char what[192];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!f->s->unexpected++)
		snprintf(f->s->first_unexpected, sizeof(f->s->first_unexpected), "step %llu: %s",
			 (unsigned long long)f->step, what);
	if (f->s->unexpected > UNEXPECTED_SHOWN)
		return;
	fprintf(stderr, "# nictl_fuzz: seed %llu step %llu: %s\n",
		(unsigned long long)f->o->seed, (unsigned long long)f->step, what);
	for (i = 0; m && i < m->len; i++)
		fprintf(stderr, "%s%02x%s", i % 32 ? "" : "#   ", m->buf[i],
			i % 32 == 31 || i + 1 == m->len ? "\n" : "");
}

/* The command a reply to a request of @cmd carries, -1 when none may come. */
static int reply_cmd_of(uint8_t cmd)
{
	/* Every reply carries its request's command. */
	switch (cmd) {
	case NICTL_CMD_DEV_GET:
	case NICTL_CMD_BIND:
	case NICTL_CMD_RESTORE:
	case NICTL_CMD_STATS_GET:
	case NICTL_CMD_NAPI_GET:
		return cmd;
	}
	return -1;
}

/* A data message answering a request: of the family, a command it may carry, well-formed. */
static int reply_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct fuzz *f = data;

	if (nlh->nlmsg_type != f->ctx.family || mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl))
		return -EPROTO;
	if (f->reply_cmd >= 0 && genl->cmd != f->reply_cmd)
		return -EPROTO;
	switch (genl->cmd) {
	case NICTL_CMD_DEV_GET:
	case NICTL_CMD_BIND:
	case NICTL_CMD_RESTORE:
		return nictl_parse_dev(nlh, &f->dev);
	case NICTL_CMD_STATS_GET:
		f->stats.n = 0;
		return nictl_stats_cb(nlh, &f->stats);
	case NICTL_CMD_NAPI_GET:
		return nictl_napis_cb(nlh, &f->napis);
	}
	return -EPROTO;
}

/* What the kernel may answer a malformed, refused or impossible request with. */
static bool errno_expected(int err)
{
	switch (err) {
	case 0:
	case EINVAL:
	case ERANGE:
	case ENODEV:
	case ENOENT:
	case ENODATA:
	case EPERM:
	case EOPNOTSUPP:
	/* An IRQ another device's binding holds, or one other handlers share. */
	case EBUSY:
	/* A netns-fd that is not open in the fuzzer. */
	case EBADF:
	/* A stacked device with more physical devices beneath it than a request takes. */
	case E2BIG:
		return true;
	}
	return false;
}

static void count_errno(struct fuzz *f, int err)
{
	f->s->by_errno[err < FUZZ_ERRNO_MAX ? err : FUZZ_ERRNO_MAX - 1]++;
}

/* How the kernel answered one message. */
struct answer {
	bool ended;		/* by an error, an ack or NLMSG_DONE */
	int err;		/* then: its errno */
	unsigned int replies;
};

/* A message of a step, and how it was answered. */
struct sent {
	const struct fuzz_msg *m;
	uint32_t seq;
	/* A dump request after another in its datagram, whose dump may still run. */
	bool busy_ok;
	struct answer a;
};

/*
 * Judge one message of the answer to @seq: 1 while more may come, 0 once it
 * ended, -EPROTO when it was malformed (@a->ended then set too).
 */
static int judge(struct fuzz *f, const struct nlmsghdr *nlh, uint32_t seq, struct answer *a)
{
	struct nl_result res;
	int ret;

	if (a->ended)
		return -EPROTO;
	memset(&res, 0, sizeof(res));
	ret = nl_parse_buf(nlh, nlh->nlmsg_len, seq, reply_cb, f, &res);
	if (ret > 0) {
		a->replies++;
		return 1;
	}
	a->ended = true;
	a->err = res.err;
	return ret < 0 && !res.err ? -EPROTO : 0;
}

static bool admin_cmd(uint8_t cmd)
{
	return cmd == NICTL_CMD_BIND || cmd == NICTL_CMD_RESTORE ||
	       cmd == NICTL_CMD_STATS_SET || cmd == NICTL_CMD_STATS_RESET;
}

/*
 * Count the answer to @s, and fail it when it carries an errno the header
 * does not name, lets an unprivileged user change something, or accepts a
 * command the family has no operation for.
 */
static void check_answer(struct fuzz *f, const struct sent *s)
{
	const struct fuzz_msg *m = s->m;
	const struct answer *a = &s->a;
	uint8_t cmd = fuzz_msg_cmd(m);
	bool success = (a->ended && !a->err) || a->replies;

	f->s->replies += a->replies;
	if (a->ended) {
		count_errno(f, a->err);
		if (!errno_expected(a->err) && !(s->busy_ok && a->err == EBUSY))
			unexpected(f, m, "answered with errno %d (%s)", a->err, strerror(a->err));
	} else {
		f->s->unanswered++;
	}
	if (!fuzz_msg_is_request(m))
		return;
	if (f->o->unprivileged && admin_cmd(cmd) && success)
		unexpected(f, m, "an unprivileged command %u succeeded", cmd);
	if (reply_cmd_of(cmd) < 0 && !admin_cmd(cmd) && success)
		unexpected(f, m, "command %u was accepted", cmd);
}

/* The probe that follows every message: DEV_GET of lo, which must always work. */
static int send_probe(struct fuzz *f)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(&f->nl, buf, NICTL_CMD_DEV_GET, 0);

	mnl_attr_put_u32(nlh, NICTL_A_IFINDEX, 1);
	return mnl_socket_sendto(f->nl.sock, nlh, nlh->nlmsg_len) < 0 ? -errno : 0;
}

static int send_msg(struct nl_client *c, const struct fuzz_msg *m)
{
	return mnl_socket_sendto(c->sock, m->buf, m->len) < 0 ? -errno : 0;
}

static void count_msg(struct fuzz *f, const struct fuzz_msg *m)
{
	uint8_t cmd = fuzz_msg_cmd(m);

	f->s->messages++;
	f->s->by_cmd[cmd <= NICTL_CMD_MAX ? cmd : FUZZ_CMD_UNKNOWN]++;
	f->s->by_kind[m->kind]++;
	if (f->o->verbose)
		fprintf(stderr, "# step %llu: kind %d cmd %u len %zu\n",
			(unsigned long long)f->step, m->kind, cmd, m->len);
}

static bool all_ended(const struct sent *sent, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (sent[i].m->expect_end && !sent[i].a.ended)
			return false;
	return true;
}

static struct sent *find_sent(struct sent *sent, unsigned int n, uint32_t seq)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (sent[i].seq == seq)
			return &sent[i];
	return NULL;
}

/*
 * Read the answers to the @n messages @sent and to the probe after them
 * until all are complete: every message belongs to one of them, and the
 * probe gets its reply and its ack. What belongs to none is shown with the
 * message when there is only one.
 */
static void collect(struct fuzz *f, struct sent *sent, unsigned int n, uint32_t probe)
{
	const struct fuzz_msg *shown = n == 1 ? sent[0].m : NULL;
	const struct nlmsghdr *nlh;
	struct answer p = { 0 };
	struct sent *s;
	unsigned int i;
	int rem, ret;
	ssize_t len;

	while (!p.ended || !all_ended(sent, n)) {
		len = nl_recv_timeout(&f->nl, f->rbuf, sizeof(f->rbuf), ANSWER_TIMEOUT_MS);
		if (len <= 0) {
			unexpected(f, shown, "%s", len ? strerror(-len) : "no answer within 60 s");
			f->dead = true;
			return;
		}
		nlh = (const struct nlmsghdr *)f->rbuf;
		for (rem = len; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
			s = find_sent(sent, n, nlh->nlmsg_seq);
			if (nlh->nlmsg_seq == probe) {
				f->reply_cmd = NICTL_CMD_DEV_GET;
				ret = judge(f, nlh, probe, &p);
			} else if (s) {
				f->reply_cmd = reply_cmd_of(fuzz_msg_cmd(s->m));
				ret = judge(f, nlh, s->seq, &s->a);
			} else {
				ret = -EPROTO;
			}
			if (ret < 0)
				unexpected(f, s ? s->m : shown,
					   "malformed or stray answer (type %u, seq %u)",
					   nlh->nlmsg_type, nlh->nlmsg_seq);
		}
		if (rem)
			unexpected(f, shown, "a datagram with %d bytes of no message", rem);
	}
	if (p.err || !p.replies) {
		unexpected(f, shown, "the family no longer answers DEV_GET of lo: %s",
			   strerror(p.err ?: EPROTO));
		f->dead = true;
	}
	for (i = 0; i < n; i++)
		check_answer(f, &sent[i]);
}

/* Send @len bytes of @buf, then the probe: 0, or the run is over. */
static int send_with_probe(struct fuzz *f, const void *buf, size_t len,
			   const struct fuzz_msg *shown)
{
	int ret = mnl_socket_sendto(f->nl.sock, buf, len) < 0 ? -errno : 0;

	ret = ret ?: send_probe(f);
	if (ret) {
		unexpected(f, shown, "send: %s", strerror(-ret));
		f->dead = true;
	}
	return ret;
}

static void one_message(struct fuzz *f, struct prng *r)
{
	struct sent s = { .m = &f->msg, .seq = ++f->nl.seq };

	fuzz_gen(r, &f->ctx, s.seq, &f->msg);
	count_msg(f, &f->msg);
	if (!send_with_probe(f, f->msg.buf, f->msg.len, &f->msg))
		collect(f, &s, 1, f->nl.seq);
}

/*
 * Several messages in one datagram: the kernel reads on past errors, starts
 * a dump and goes on with the next message while the dump waits for reads.
 */
static void batch(struct fuzz *f, struct prng *r)
{
	struct sent s[FUZZ_BATCH_MAX];
	bool dump_before = false, dump;
	unsigned int i;

	fuzz_gen_batch(r, &f->ctx, f->nl.seq + 1, &f->batch);
	for (i = 0; i < f->batch.n; i++) {
		dump = fuzz_msg_is_dump(&f->batch.msg[i]);
		s[i] = (struct sent){
			.m = &f->batch.msg[i],
			.seq = ++f->nl.seq,
			.busy_ok = dump_before && dump,
		};
		dump_before |= dump;
		count_msg(f, s[i].m);
	}
	f->s->batches++;
	if (!send_with_probe(f, f->batch.buf, f->batch.len, NULL))
		collect(f, s, f->batch.n, f->nl.seq);
}

/*
 * Check what one read of a socket that is being abandoned brought: only
 * answers to its own requests (sequence numbers 1 to @c->seq), well-formed.
 */
static void read_once(struct fuzz *f, struct nl_client *c)
{
	const struct nlmsghdr *nlh;
	struct answer a;
	ssize_t n;
	int rem;

	n = nl_recv_timeout(c, f->rbuf, sizeof(f->rbuf), 0);
	if (n < 0)
		unexpected(f, NULL, "receive: %s", strerror(-n));
	if (n <= 0)
		return;
	f->reply_cmd = -1;
	nlh = (const struct nlmsghdr *)f->rbuf;
	for (rem = n; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
		memset(&a, 0, sizeof(a));
		if (!nlh->nlmsg_seq || nlh->nlmsg_seq > c->seq ||
		    judge(f, nlh, nlh->nlmsg_seq, &a) < 0) {
			unexpected(f, NULL, "malformed or stray answer (type %u, seq %u)",
				   nlh->nlmsg_type, nlh->nlmsg_seq);
			continue;
		}
		f->s->replies += a.replies;
		if (!a.ended)
			continue;
		count_errno(f, a.err);
		/* A second dump on a socket whose first has not finished. */
		if (!errno_expected(a.err) && a.err != EBUSY)
			unexpected(f, NULL, "answered with errno %d (%s)", a.err, strerror(a.err));
	}
}

static int open_client(struct fuzz *f, struct nl_client *c)
{
	int ret = nl_open(c, NICTL_FAMILY_NAME);

	if (ret) {
		unexpected(f, NULL, "opening a socket: %s", strerror(-ret));
		f->dead = true;
		return ret;
	}
	/* Sequence numbers are part of the bytes: count from 0, not from the time. */
	c->seq = 0;
	return 0;
}

/* A valid dump request of DEV_GET or STATS_GET, sent on @c. */
static void send_dump(struct fuzz *f, struct prng *r, struct nl_client *c)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)f->msg.buf;

	fuzz_gen_valid(r, &f->ctx, prng_chance(r, 50) ? NICTL_CMD_DEV_GET : NICTL_CMD_STATS_GET,
		       ++c->seq, &f->msg);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	count_msg(f, &f->msg);
	if (send_msg(c, &f->msg))
		unexpected(f, &f->msg, "send: %s", strerror(errno));
}

/*
 * Start a dump, and abandon it: close the socket at once, after one read,
 * or after starting another dump or a request on the same socket.
 */
static void interrupted_dump(struct fuzz *f, struct prng *r)
{
	uint32_t how = prng_below(r, 4);
	struct nl_client c;

	if (open_client(f, &c))
		return;
	send_dump(f, r, &c);
	if (how >= 1)
		read_once(f, &c);
	if (how == 2)
		send_dump(f, r, &c);
	if (how == 3) {
		fuzz_gen_valid(r, &f->ctx, NICTL_CMD_DEV_GET, ++c.seq, &f->msg);
		count_msg(f, &f->msg);
		if (send_msg(&c, &f->msg))
			unexpected(f, &f->msg, "send: %s", strerror(errno));
	}
	if (how >= 2)
		read_once(f, &c);
	nl_close(&c);
	f->s->dumps_interrupted++;
}

/* Many sockets at once, each with a message or a dump, read a little and closed in any order. */
static void concurrent(struct fuzz *f, struct prng *r)
{
	unsigned int n = 2 + prng_below(r, FUZZ_SOCKETS - 1), i, left;
	struct nl_client c[FUZZ_SOCKETS];

	for (i = 0; i < n; i++) {
		if (open_client(f, &c[i])) {
			n = i;
			break;
		}
		if (prng_chance(r, 50)) {
			send_dump(f, r, &c[i]);
			continue;
		}
		fuzz_gen(r, &f->ctx, ++c[i].seq, &f->msg);
		count_msg(f, &f->msg);
		if (send_msg(&c[i], &f->msg))
			unexpected(f, &f->msg, "send: %s", strerror(errno));
	}
	for (left = prng_below(r, n + 1); left; left--)
		read_once(f, &c[prng_below(r, n)]);
	for (left = n; left; left--) {
		i = prng_below(r, left);
		nl_close(&c[i]);
		c[i] = c[left - 1];
	}
	f->s->sockets += n;
}

/* Events are only built while someone listens: this listener makes them. */
static void drain_events(struct fuzz *f)
{
	const struct nlmsghdr *nlh;
	const struct genlmsghdr *genl;
	ssize_t n;
	int rem;

	while ((n = nl_recv_timeout(&f->events, f->rbuf, sizeof(f->rbuf), 0))) {
		if (n == -ENOBUFS)
			continue;	/* overrun: the events in between are lost, fine here */
		if (n < 0) {
			unexpected(f, NULL, "events: %s", strerror(-n));
			return;
		}
		nlh = (const struct nlmsghdr *)f->rbuf;
		for (rem = n; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
			genl = mnl_nlmsg_get_payload(nlh);
			if (nlh->nlmsg_type != f->ctx.family || genl->cmd != NICTL_CMD_EVENT)
				unexpected(f, NULL, "not an event on the events group");
			f->s->events++;
		}
	}
}

/* Undo every binding the messages may have made; devices nictl never bound say so. */
static void restore_all(struct fuzz *f)
{
	struct nl_result res;
	unsigned int i;

	for (i = 0; i < f->ctx.n_devs && !f->dead; i++) {
		if (!nictl_restore(&f->nl, f->ctx.dev[i].name, &f->dev, &res))
			f->s->restores++;
		else if (res.err != ENODATA)
			unexpected(f, NULL, "restore %s: %s (%s)", f->ctx.dev[i].name,
				   strerror(res.err ?: EPROTO), res.msg);
	}
}

static void step(struct fuzz *f, uint64_t i)
{
	struct prng r = prng_step(f->o->seed, i);
	uint32_t what = prng_below(&r, 100);

	f->step = i;
	if (what < 5)
		interrupted_dump(f, &r);
	else if (what < 8)
		concurrent(f, &r);
	else if (what < 13)
		batch(f, &r);
	else
		one_message(f, &r);
	drain_events(f);
	if (!f->o->unprivileged && (i + 1) % FUZZ_RESTORE_EVERY == 0)
		restore_all(f);
}

static int ctx_init(struct fuzz *f)
{
	struct if_nameindex *ifs, *i;
	struct fuzz_ctx *ctx = &f->ctx;
	int nr = sys_nr_cpu_ids(), ret;

	if (nr <= 0)
		return nr ?: -EINVAL;
	ret = sys_online_cpus(&ctx->online);
	if (ret)
		return ret;
	ctx->nr_cpu_ids = nr;
	ctx->family = f->nl.family;
	ifs = if_nameindex();
	if (!ifs)
		return -errno;
	for (i = ifs; i->if_index && ctx->n_devs < FUZZ_MAX_DEVS; i++) {
		ctx->dev[ctx->n_devs].ifindex = i->if_index;
		snprintf(ctx->dev[ctx->n_devs].name, IFNAMSIZ, "%s", i->if_name);
		ctx->n_devs++;
	}
	if_freenameindex(ifs);
	return 0;
}

/* Remember whether accounting is on, to switch it back at the end. */
static int stats_save(struct fuzz *f)
{
	struct nl_result res;
	int ret;

	f->stats_enabled = -1;
	if (f->o->unprivileged)
		return 0;
	ret = nictl_stats_get(&f->nl, &f->stats, &res);
	if (!ret && f->stats.n)
		f->stats_enabled = f->stats.cpu[0].enabled;
	return ret;
}

static void stats_put_back(struct fuzz *f)
{
	struct nl_result res;

	if (f->stats_enabled >= 0 && !f->dead &&
	    nictl_stats_set(&f->nl, f->stats_enabled, &res))
		unexpected(f, NULL, "switching accounting back: %s", strerror(res.err ?: EPROTO));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fuzz_setup(struct fuzz *f)
{
	int ret;

	ret = nl_open(&f->nl, NICTL_FAMILY_NAME);
	if (ret)
		return ret;
	f->nl.seq = 0;
	ret = ctx_init(f) ?: stats_save(f) ?: nl_open(&f->events, NICTL_FAMILY_NAME);
	if (!ret)
		ret = nl_join_group(&f->events, NICTL_FAMILY_NAME, NICTL_MCGRP_EVENTS);
	return ret;
}

int fuzz_run(const struct fuzz_opts *o, struct fuzz_summary *s)
{
	struct fuzz *f = calloc(1, sizeof(*f));
	double start = now();
	uint64_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	s->seed = o->seed;
	s->start = o->start;
	s->unprivileged = o->unprivileged;
	if (!f)
		return -ENOMEM;
	f->o = o;
	f->s = s;
	ret = fuzz_setup(f);
	for (i = o->start; !ret && !f->dead && i - o->start < o->count; i++) {
		if (o->seconds > 0 && now() - start >= o->seconds)
			break;
		step(f, i);
		s->steps++;
	}
	if (!ret && !o->unprivileged) {
		restore_all(f);
		stats_put_back(f);
	}
	s->seconds = now() - start;
	nl_close(&f->events);
	nl_close(&f->nl);
	free(f);
	return ret;
}

/* "EINVAL" for EINVAL, "ok" for 0, "errno-N" for what has no name. */
static const char *errno_name(int err, char *buf, size_t len)
{
	const char *name = err ? strerrorname_np(err) : "ok";

	if (name)
		return name;
	snprintf(buf, len, "errno-%d", err);
	return buf;
}

static const char *const cmd_names[] = {
	"unspec", "dev_get", "bind", "restore", "stats_get", "stats_set", "stats_reset",
	"napi_get", "event", "unknown",
};

_Static_assert(sizeof(cmd_names) / sizeof(cmd_names[0]) == FUZZ_CMD_UNKNOWN + 1,
	       "a name for every command of the header");

static const char *const kind_names[] = { "valid", "mutated", "random" };

/* The key=value words of the counts, each preceded by @sep. */
static void print_counts(FILE *out, const struct fuzz_summary *s, const char *sep,
			 bool by_cmd, bool by_kind, bool by_errno)
{
	char buf[32];
	int i;

	for (i = 0; by_cmd && i <= FUZZ_CMD_UNKNOWN; i++)
		fprintf(out, "%s%s=%llu", sep, cmd_names[i], (unsigned long long)s->by_cmd[i]);
	for (i = 0; by_kind && i < __FUZZ_KIND_MAX; i++)
		fprintf(out, "%s%s=%llu", sep, kind_names[i], (unsigned long long)s->by_kind[i]);
	for (i = 0; by_errno && i < FUZZ_ERRNO_MAX; i++)
		if (s->by_errno[i])
			fprintf(out, "%s%s=%llu", sep, errno_name(i, buf, sizeof(buf)),
				(unsigned long long)s->by_errno[i]);
	if (by_errno)
		fprintf(out, "%snone=%llu", sep, (unsigned long long)s->unanswered);
}

void fuzz_print(FILE *out, const struct fuzz_summary *s)
{
	fprintf(out, "# nictl_fuzz: seed %llu, steps %llu-%llu, as %s: %llu messages in %.1f s "
		"(%.0f/s)\n", (unsigned long long)s->seed, (unsigned long long)s->start,
		(unsigned long long)(s->start + s->steps - !!s->steps),
		s->unprivileged ? "nobody" : "root", (unsigned long long)s->messages, s->seconds,
		s->seconds > 0 ? s->messages / s->seconds : 0);
	fprintf(out, "# by command:");
	print_counts(out, s, " ", true, false, false);
	fprintf(out, "\n# by kind:");
	print_counts(out, s, " ", false, true, false);
	fprintf(out, "\n# answers:");
	print_counts(out, s, " ", false, false, true);
	fprintf(out, "\n# replies %llu, batches %llu, dumps interrupted %llu, "
		"concurrent sockets %llu, events heard %llu, devices restored %llu\n",
		(unsigned long long)s->replies, (unsigned long long)s->batches,
		(unsigned long long)s->dumps_interrupted, (unsigned long long)s->sockets,
		(unsigned long long)s->events, (unsigned long long)s->restores);
	fprintf(out, "# unexpected: %llu%s%s\n", (unsigned long long)s->unexpected,
		s->unexpected ? ", first: " : "", s->first_unexpected);
}

void fuzz_print_line(FILE *out, const struct fuzz_summary *s)
{
	fprintf(out, "seed=%llu start=%llu steps=%llu user=%s messages=%llu seconds=%.1f "
		"unexpected=%llu replies=%llu batches=%llu dumps_interrupted=%llu sockets=%llu "
		"events=%llu",
		(unsigned long long)s->seed, (unsigned long long)s->start,
		(unsigned long long)s->steps, s->unprivileged ? "nobody" : "root",
		(unsigned long long)s->messages, s->seconds, (unsigned long long)s->unexpected,
		(unsigned long long)s->replies, (unsigned long long)s->batches,
		(unsigned long long)s->dumps_interrupted,
		(unsigned long long)s->sockets, (unsigned long long)s->events);
	print_counts(out, s, " ", true, true, true);
	fputc('\n', out);
}
