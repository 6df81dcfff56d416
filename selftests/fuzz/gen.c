// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/nictl.h>

#include "gen.h"

/* Room for a CPU bitmap past NICTL_CPUMASK_MAX_BYTES, which must be refused. */
#define ATTR_DATA_MAX	(NICTL_CPUMASK_MAX_BYTES + 64)
#define ATTRS_MAX	12
#define PAYLOAD_OFF	(NLMSG_HDRLEN + GENL_HDRLEN)

struct attr {
	uint16_t type;		/* with NLA_F_NESTED and NLA_F_NET_BYTEORDER as sent */
	uint16_t len;
	uint8_t data[ATTR_DATA_MAX];
};

/* A request before it is laid out: its headers and its top-level attributes. */
struct req {
	uint8_t cmd;
	uint8_t version;
	uint16_t reserved;
	uint16_t flags;
	unsigned int n;
	struct attr a[ATTRS_MAX];
};

static void fill(struct prng *r, uint8_t *p, size_t len)
{
	while (len--)
		*p++ = prng_next(r);
}

static struct attr *add(struct req *q, uint16_t type, const void *data, size_t len)
{
	struct attr *a;

	if (q->n == ATTRS_MAX || len > ATTR_DATA_MAX)
		return NULL;
	a = &q->a[q->n++];
	a->type = type;
	a->len = len;
	memcpy(a->data, data, len);
	return a;
}

static void add_u32(struct req *q, uint16_t type, uint32_t v)
{
	add(q, type, &v, sizeof(v));
}

/* Append an attribute to the payload of the nest @a, padded as netlink pads. */
static void nest_put(struct attr *a, uint16_t type, const void *data, size_t len)
{
	struct nlattr nla = { .nla_len = NLA_HDRLEN + len, .nla_type = type };
	size_t total = NLA_ALIGN(nla.nla_len);

	if (a->len + total > ATTR_DATA_MAX)
		return;
	memcpy(a->data + a->len, &nla, sizeof(nla));
	memcpy(a->data + a->len + NLA_HDRLEN, data, len);
	memset(a->data + a->len + nla.nla_len, 0, total - nla.nla_len);
	a->len += total;
}

static void nest_put_u32(struct attr *a, uint16_t type, uint32_t v)
{
	nest_put(a, type, &v, sizeof(v));
}

/* The @n-th online CPU, wrapping around; CPU 0 when none is known. */
static unsigned int nth_online(const struct fuzz_ctx *ctx, unsigned int n)
{
	unsigned int count = cpus_count(&ctx->online);
	int cpu;

	if (!count)
		return 0;
	n %= count;
	for_each_cpu(cpu, &ctx->online)
		if (!n--)
			break;
	return cpu;
}

static unsigned int any_online(struct prng *r, const struct fuzz_ctx *ctx)
{
	return nth_online(ctx, prng_next(r));
}

static void add_dev(struct prng *r, const struct fuzz_ctx *ctx, struct req *q)
{
	unsigned int i = prng_below(r, ctx->n_devs);
	uint32_t how = prng_below(r, 4);

	if (!ctx->n_devs) {
		add_u32(q, NICTL_A_IFINDEX, 1);
		return;
	}
	if (how != 1)
		add_u32(q, NICTL_A_IFINDEX, ctx->dev[i].ifindex);
	if (how != 0)
		add(q, NICTL_A_IFNAME, ctx->dev[i].name, strlen(ctx->dev[i].name) + 1);
}

static void valid_cpus(struct prng *r, const struct fuzz_ctx *ctx, struct cpus *s)
{
	int cpu;

	cpus_zero(s);
	for_each_cpu(cpu, &ctx->online)
		if (prng_chance(r, 50))
			cpus_set(s, cpu);
	if (!cpus_count(s))
		cpus_set(s, any_online(r, ctx));
}

static void add_placement(struct prng *r, const struct fuzz_ctx *ctx, struct req *q)
{
	unsigned int n = 1 + prng_below(r, 2), queue;
	struct attr *a;

	for (queue = 0; queue < n; queue++) {
		a = add(q, NICTL_A_QUEUE_CPU | NLA_F_NESTED, NULL, 0);
		if (!a)
			return;
		nest_put_u32(a, NICTL_A_QUEUE_CPU_QUEUE, queue);
		nest_put_u32(a, NICTL_A_QUEUE_CPU_CPU, any_online(r, ctx));
	}
}

/* Every command, the event that must not be accepted, and unknown numbers. */
static uint8_t pick_cmd(struct prng *r)
{
	if (prng_chance(r, 90))
		return 1 + prng_below(r, NICTL_CMD_MAX);
	if (prng_chance(r, 30))
		return NICTL_CMD_UNSPEC;
	return NICTL_CMD_MAX + 1 + prng_below(r, 255 - NICTL_CMD_MAX);
}

/* The request of q->cmd as a correct client sends it. */
static void build_valid(struct prng *r, const struct fuzz_ctx *ctx, struct req *q)
{
	struct cpus s;
	uint8_t on;

	switch (q->cmd) {
	case NICTL_CMD_DEV_GET:
		if (prng_chance(r, 30))
			q->flags = NLM_F_REQUEST | NLM_F_DUMP;
		else
			add_dev(r, ctx, q);
		break;
	case NICTL_CMD_BIND:
		add_dev(r, ctx, q);
		if (prng_chance(r, 80))
			add_u32(q, NICTL_A_FLAGS, prng_below(r, NICTL_BIND_F_ALL + 1));
		if (prng_chance(r, 50)) {
			valid_cpus(r, ctx, &s);
			add(q, NICTL_A_CPUS, s.bits, cpus_nbytes(&s));
		} else {
			add_placement(r, ctx, q);
		}
		break;
	case NICTL_CMD_RESTORE:
	case NICTL_CMD_NAPI_GET:
		add_dev(r, ctx, q);
		break;
	case NICTL_CMD_STATS_GET:
		q->flags = NLM_F_REQUEST | NLM_F_DUMP;
		break;
	case NICTL_CMD_STATS_SET:
		on = prng_below(r, 2);
		add(q, NICTL_A_STATS_ENABLED, &on, sizeof(on));
		break;
	case NICTL_CMD_STATS_RESET:
		break;
	case NICTL_CMD_EVENT:
		add_u32(q, NICTL_A_EVENT, 1 + prng_below(r, __NICTL_EVENT_MAX - 1));
		add_dev(r, ctx, q);
		break;
	default:
		add_dev(r, ctx, q);
		break;
	}
}

/* CPU bitmaps at the edges: empty, all ones, too long, offline or missing CPUs. */
static void cpus_value(struct prng *r, const struct fuzz_ctx *ctx, struct attr *a)
{
	unsigned int nbytes = (ctx->nr_cpu_ids + 7) / 8, cpu;
	struct cpus s;

	memset(a->data, 0, sizeof(a->data));
	switch (prng_below(r, 7)) {
	case 0:		/* empty, of any length up to a few bytes */
		a->len = prng_below(r, nbytes + 3);
		break;
	case 1:		/* all ones, as long as the kernel's mask or longer */
		a->len = prng_chance(r, 50) ? nbytes : 1 + prng_below(r, ATTR_DATA_MAX);
		memset(a->data, 0xff, a->len);
		break;
	case 2:		/* one CPU around and past the last possible one */
		cpu = prng_chance(r, 50) ? ctx->nr_cpu_ids - 1 + prng_below(r, 3) :
					   prng_below(r, ATTR_DATA_MAX * 8);
		a->len = cpu / 8 + 1;
		a->data[cpu / 8] = 1U << (cpu % 8);
		break;
	case 3:		/* the possible CPUs that are offline, maybe with one online */
		for (cpu = 0; cpu < ctx->nr_cpu_ids; cpu++)
			if (!cpus_test(&ctx->online, cpu))
				a->data[cpu / 8] |= 1U << (cpu % 8);
		if (prng_chance(r, 50)) {
			cpu = any_online(r, ctx);
			a->data[cpu / 8] |= 1U << (cpu % 8);
		}
		a->len = nbytes;
		break;
	case 4:		/* a valid set, padded with zeros to the limit or past it */
		valid_cpus(r, ctx, &s);
		a->len = NICTL_CPUMASK_MAX_BYTES - 1 + prng_below(r, 3);
		memcpy(a->data, s.bits, cpus_nbytes(&s));
		break;
	case 5:		/* a valid set, padded anywhere */
		valid_cpus(r, ctx, &s);
		a->len = cpus_nbytes(&s) + prng_below(r, 16);
		memcpy(a->data, s.bits, cpus_nbytes(&s));
		break;
	default:
		a->len = prng_below(r, nbytes + 5);
		fill(r, a->data, a->len);
		break;
	}
}

static void ifname_value(struct prng *r, const struct fuzz_ctx *ctx, struct attr *a)
{
	unsigned int i;

	switch (prng_below(r, 5)) {
	case 0:		/* empty */
		a->len = 1;
		a->data[0] = '\0';
		break;
	case 1:		/* the longest name, or one byte longer */
		a->len = IFNAMSIZ + prng_below(r, 2);
		memset(a->data, 'f', a->len - 1);
		a->data[a->len - 1] = '\0';
		break;
	case 2:		/* a real name without its NUL, or with bytes after it */
		i = prng_below(r, ctx->n_devs);
		a->len = strlen(ctx->dev[i].name);
		memcpy(a->data, ctx->dev[i].name, a->len);
		if (prng_chance(r, 50))
			a->len += 1 + prng_below(r, 4);
		break;
	case 3:		/* a real one */
		i = prng_below(r, ctx->n_devs);
		a->len = strlen(ctx->dev[i].name) + 1;
		memcpy(a->data, ctx->dev[i].name, a->len);
		break;
	default:
		a->len = prng_below(r, 24);
		fill(r, a->data, a->len);
		break;
	}
}

static uint32_t u32_edge(struct prng *r, uint32_t real)
{
	static const uint32_t edges[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xffff };

	if (prng_chance(r, 30))
		return real;
	if (prng_chance(r, 30))
		return prng_next(r);
	return edges[prng_below(r, sizeof(edges) / sizeof(edges[0]))];
}

/* A queue-cpu entry with edge values, a child missing, repeated or unknown. */
static void queue_cpu_value(struct prng *r, const struct fuzz_ctx *ctx, struct attr *a)
{
	unsigned int n = prng_below(r, 4), i;

	a->len = 0;
	for (i = 0; i < n; i++)
		nest_put_u32(a, prng_below(r, NICTL_A_QUEUE_CPU_MAX + 2),
			     u32_edge(r, i ? any_online(r, ctx) : prng_below(r, 3)));
}

static void set_u32(struct attr *a, uint32_t v)
{
	a->len = sizeof(v);
	memcpy(a->data, &v, sizeof(v));
}

/* Change @a's value to one at an edge of what its type accepts. */
static void set_value(struct prng *r, const struct fuzz_ctx *ctx, struct attr *a)
{
	switch (a->type & NLA_TYPE_MASK) {
	case NICTL_A_IFINDEX:
		set_u32(a, u32_edge(r, ctx->n_devs ? ctx->dev[prng_below(r, ctx->n_devs)].ifindex : 1));
		break;
	case NICTL_A_IFNAME:
		ifname_value(r, ctx, a);
		break;
	case NICTL_A_CPUS:
		cpus_value(r, ctx, a);
		break;
	case NICTL_A_FLAGS:
		set_u32(a, prng_chance(r, 50) ? NICTL_BIND_F_ALL + 1 + prng_below(r, 8) :
						prng_next(r));
		break;
	case NICTL_A_QUEUE_CPU:
		queue_cpu_value(r, ctx, a);
		break;
	case NICTL_A_STATS_ENABLED:
		a->len = 1;
		a->data[0] = prng_chance(r, 50) ? 2 + prng_below(r, 254) : prng_below(r, 2);
		break;
	default:
		a->len = prng_below(r, 17);
		fill(r, a->data, a->len);
		break;
	}
}

/* Drop, repeat, add, resize, nest, flatten, retype and change attributes. */
static void mutate_attrs(struct prng *r, const struct fuzz_ctx *ctx, struct req *q)
{
	unsigned int rounds = 1 + prng_below(r, 3), i;
	struct attr *a, inner;

	while (rounds--) {
		i = prng_below(r, q->n);
		a = q->n ? &q->a[i] : NULL;
		switch (a ? prng_below(r, 10) : 2) {
		case 0:
			memmove(a, a + 1, (q->n - i - 1) * sizeof(*a));
			q->n--;
			break;
		case 1:
			add(q, a->type, a->data, a->len);
			break;
		case 2:
			a = add(q, prng_below(r, NICTL_A_MAX + 4), NULL, 0);
			if (a)
				set_value(r, ctx, a);
			break;
		case 3:
			if (prng_chance(r, 50)) {
				a->len = prng_below(r, a->len + 1);
			} else {
				i = prng_below(r, ATTR_DATA_MAX - a->len + 1);
				fill(r, a->data + a->len, i);
				a->len += i;
			}
			break;
		case 4:		/* nested where flat is expected */
			inner = *a;
			a->type = (a->type & NLA_TYPE_MASK) | NLA_F_NESTED;
			a->len = 0;
			nest_put(a, prng_chance(r, 50) ? inner.type : prng_below(r, 4),
				 inner.data, inner.len);
			break;
		case 5:
			a->type ^= NLA_F_NESTED;
			break;
		case 6:
			a->type ^= NLA_F_NET_BYTEORDER;
			break;
		case 7:
			a->type = (a->type & ~NLA_TYPE_MASK) | prng_below(r, NICTL_A_MAX + 4);
			break;
		default:
			set_value(r, ctx, a);
			break;
		}
	}
}

/* Flags of every kind (a dump of a do-only command, no ack), version, command. */
static void mutate_header(struct prng *r, struct req *q)
{
	switch (prng_below(r, 4)) {
	case 0:
		q->flags = prng_next(r);
		break;
	case 1:
		q->flags ^= NLM_F_DUMP;
		break;
	case 2:
		q->flags &= ~NLM_F_ACK;
		break;
	default:
		q->flags |= 1U << prng_below(r, 16);
		break;
	}
	if (prng_chance(r, 10))
		q->version = prng_next(r);
	if (prng_chance(r, 10))
		q->reserved = prng_next(r);
	if (prng_chance(r, 10))
		q->cmd = pick_cmd(r);
}

static void layout(const struct fuzz_ctx *ctx, const struct req *q, uint32_t seq,
		   struct fuzz_msg *m)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	struct genlmsghdr *genl = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);
	size_t off = PAYLOAD_OFF, total;
	struct nlattr nla;
	unsigned int i;

	memset(m->buf, 0, sizeof(m->buf));
	for (i = 0; i < q->n; i++) {
		total = NLA_ALIGN(NLA_HDRLEN + q->a[i].len);
		if (off + total > FUZZ_MSG_MAX)
			break;
		nla.nla_len = NLA_HDRLEN + q->a[i].len;
		nla.nla_type = q->a[i].type;
		memcpy(m->buf + off, &nla, sizeof(nla));
		memcpy(m->buf + off + NLA_HDRLEN, q->a[i].data, q->a[i].len);
		off += total;
	}
	nlh->nlmsg_len = off;
	nlh->nlmsg_type = ctx->family;
	nlh->nlmsg_flags = q->flags;
	nlh->nlmsg_seq = seq;
	genl->cmd = q->cmd;
	genl->version = q->version;
	genl->reserved = q->reserved;
	m->len = off;
}

/* Offsets of the top-level attributes of @m, as laid out: how many. */
static unsigned int attr_offsets(const struct fuzz_msg *m, size_t *offs, unsigned int max)
{
	size_t off = PAYLOAD_OFF;
	unsigned int n = 0;
	struct nlattr nla;

	while (n < max && off + NLA_HDRLEN <= m->len) {
		memcpy(&nla, m->buf + off, sizeof(nla));
		offs[n++] = off;
		off += NLA_ALIGN(nla.nla_len);
	}
	return n;
}

/*
 * Corrupt lengths and bytes of the laid-out message. Whatever is left after
 * the netlink message itself stays shorter than a netlink header, so the
 * kernel never reads it as a second message, to this family or another.
 */
static void mutate_bytes(struct prng *r, struct fuzz_msg *m)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	size_t offs[ATTRS_MAX], end;
	unsigned int n, i;
	uint16_t len;

	switch (prng_below(r, 6)) {
	case 0:		/* one attribute's length past the message, odd, or tiny */
		n = attr_offsets(m, offs, ATTRS_MAX);
		if (!n)
			break;
		i = prng_below(r, n);
		memcpy(&len, m->buf + offs[i], sizeof(len));
		switch (prng_below(r, 4)) {
		case 0:
			len = m->len - offs[i] + 1 + prng_below(r, 64);
			break;
		case 1:
			len ^= 1 + prng_below(r, 3);
			break;
		case 2:
			len = prng_below(r, NLA_HDRLEN);
			break;
		default:
			len = 0xffff;
			break;
		}
		memcpy(m->buf + offs[i], &len, sizeof(len));
		break;
	case 1:		/* flip bits of the payload */
		if (m->len == PAYLOAD_OFF)
			break;
		for (i = 1 + prng_below(r, 4); i; i--)
			m->buf[PAYLOAD_OFF + prng_below(r, m->len - PAYLOAD_OFF)] ^=
				1U << prng_below(r, 8);
		break;
	case 2:		/* cut anywhere, even into the genl header */
		m->len = NLMSG_HDRLEN + prng_below(r, m->len - NLMSG_HDRLEN + 1);
		nlh->nlmsg_len = m->len;
		break;
	case 3:		/* claims more than was sent: the kernel drops it */
		nlh->nlmsg_len = m->len + 1 + prng_below(r, 64);
		break;
	case 4:		/* claims less than was sent */
		nlh->nlmsg_len = NLMSG_HDRLEN + prng_below(r, m->len - NLMSG_HDRLEN + 1);
		end = NLMSG_ALIGN(nlh->nlmsg_len) + prng_below(r, NLMSG_HDRLEN);
		if (end < m->len)
			m->len = end;
		break;
	default:	/* an odd length: a partial attribute header at the end */
		i = 1 + prng_below(r, NLA_HDRLEN - 1);
		if (m->len + i > FUZZ_MSG_MAX)
			break;
		fill(r, m->buf + m->len, i);
		m->len += i;
		nlh->nlmsg_len = m->len;
		break;
	}
}

/* Random attributes, or random bytes, after valid headers. */
static void build_random(struct prng *r, const struct fuzz_ctx *ctx, uint32_t seq,
			 struct fuzz_msg *m)
{
	struct req q = {
		.cmd = pick_cmd(r),
		.version = NICTL_FAMILY_VERSION,
		.flags = prng_chance(r, 80) ? NLM_F_REQUEST | NLM_F_ACK : prng_next(r),
	};
	unsigned int n = prng_below(r, ATTRS_MAX + 1), i;
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	struct attr *a;

	if (prng_chance(r, 50)) {
		for (i = 0; i < n; i++) {
			a = add(&q, prng_below(r, NICTL_A_MAX + 4) | (prng_next(r) & 0xc000), NULL, 0);
			a->len = prng_below(r, 65);
			fill(r, a->data, a->len);
		}
		layout(ctx, &q, seq, m);
		return;
	}
	layout(ctx, &q, seq, m);
	n = prng_below(r, 257);
	fill(r, m->buf + m->len, n);
	m->len += n;
	nlh->nlmsg_len = m->len;
}

uint8_t fuzz_msg_cmd(const struct fuzz_msg *m)
{
	return m->len > NLMSG_HDRLEN ? m->buf[NLMSG_HDRLEN] : 0;
}

bool fuzz_msg_is_request(const struct fuzz_msg *m)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)m->buf;

	return m->len >= NLMSG_HDRLEN && nlh->nlmsg_len >= NLMSG_HDRLEN &&
	       nlh->nlmsg_len <= m->len && (nlh->nlmsg_flags & NLM_F_REQUEST);
}

bool fuzz_msg_is_dump(const struct fuzz_msg *m)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)m->buf;

	return fuzz_msg_is_request(m) && (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
}

/*
 * The kernel answers a message it accepts as netlink with an error or an
 * ack when it fails or asks for one, and ends every dump it starts with
 * NLMSG_DONE; a message it drops, or that succeeds without asking for an
 * ack, may get no answer of that kind.
 */
static void set_expect_end(struct fuzz_msg *m)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)m->buf;
	bool framed = m->len >= NLMSG_HDRLEN && nlh->nlmsg_len >= NLMSG_HDRLEN &&
		      nlh->nlmsg_len <= m->len;

	m->expect_end = framed && ((nlh->nlmsg_flags & NLM_F_ACK) || fuzz_msg_is_dump(m));
}

void fuzz_gen_valid(struct prng *r, const struct fuzz_ctx *ctx, uint8_t cmd, uint32_t seq,
		    struct fuzz_msg *m)
{
	struct req q = {
		.cmd = cmd,
		.version = NICTL_FAMILY_VERSION,
		.flags = NLM_F_REQUEST | NLM_F_ACK,
	};

	build_valid(r, ctx, &q);
	layout(ctx, &q, seq, m);
	m->kind = FUZZ_VALID;
	set_expect_end(m);
}

void fuzz_gen(struct prng *r, const struct fuzz_ctx *ctx, uint32_t seq, struct fuzz_msg *m)
{
	struct req q = { .version = NICTL_FAMILY_VERSION, .flags = NLM_F_REQUEST | NLM_F_ACK };
	uint32_t pick = prng_below(r, 100);

	if (pick < 20) {
		fuzz_gen_valid(r, ctx, pick_cmd(r), seq, m);
		return;
	}
	if (pick >= 85) {
		build_random(r, ctx, seq, m);
		m->kind = FUZZ_RANDOM;
		set_expect_end(m);
		return;
	}
	q.cmd = pick_cmd(r);
	build_valid(r, ctx, &q);
	if (prng_chance(r, 40))
		mutate_header(r, &q);
	if (prng_chance(r, 80))
		mutate_attrs(r, ctx, &q);
	layout(ctx, &q, seq, m);
	if (prng_chance(r, 40))
		mutate_bytes(r, m);
	m->kind = FUZZ_MUTATED;
	set_expect_end(m);
}

/* A message that ends exactly where its header says: what follows it is read as the next. */
static bool framed_exactly(const struct fuzz_msg *m)
{
	return ((const struct nlmsghdr *)m->buf)->nlmsg_len == m->len;
}

/* Draws for a message framed exactly, before the batch ends with the one that is not. */
#define BATCH_TRIES	8

void fuzz_gen_batch(struct prng *r, const struct fuzz_ctx *ctx, uint32_t seq,
		    struct fuzz_batch *b)
{
	unsigned int i, tries;
	struct fuzz_msg *m;

	b->n = 2 + prng_below(r, FUZZ_BATCH_MAX - 1);
	b->len = 0;
	for (i = 0; i < b->n; i++) {
		m = &b->msg[i];
		/* About one message in ten claims a length of its own. */
		tries = 0;
		do
			fuzz_gen(r, ctx, seq + i, m);
		while (i + 1 < b->n && !framed_exactly(m) && ++tries < BATCH_TRIES);
		memcpy(b->buf + b->len, m->buf, m->len);
		b->len += m->len;
		if (!framed_exactly(m)) {
			b->n = i + 1;
			break;
		}
		if (i + 1 < b->n) {
			memset(b->buf + b->len, 0, NLMSG_ALIGN(m->len) - m->len);
			b->len = NLMSG_ALIGN(b->len);
		}
	}
}
