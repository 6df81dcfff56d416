// SPDX-License-Identifier: GPL-2.0
/*
 * The stats requests: STATS_GET (a dump of one message per possible CPU),
 * DEV_GET about one device and NAPI_GET (a dump too; one per device beneath
 * a stacked one), and the two switches STATS_SET and STATS_RESET. Replies
 * are validated like dev.c does: one nictlctl cannot read is -EPROTO,
 * never half shown.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "report.h"
#include "stats/stats.h"
#include "topology.h"


static const struct nla_policy cpu_policy[NICTL_A_MAX + 1] = {
	[NICTL_A_CPU]			= { .type = NLA_U32 },
	[NICTL_A_STATS_ENABLED]		= { .type = NLA_U8 },
	[NICTL_A_STATS_START_NS]	= { .type = NLA_U64 },
	[NICTL_A_STATS_NOW_NS]		= { .type = NLA_U64 },
	[NICTL_A_SOFTIRQ]		= { .type = NLA_NESTED },
	[NICTL_A_NAPI_UNATTRIBUTED]	= { .type = NLA_U64 },
	[NICTL_A_NAPI]			= { .type = NLA_NESTED },
	[NICTL_A_POLL]			= { .type = NLA_NESTED },
};

static const struct nla_policy poll_policy[NICTL_A_POLL_MAX + 1] = {
	[NICTL_A_POLL_KIND]		= { .type = NLA_U32 },
	[NICTL_A_POLL_POLLS]		= { .type = NLA_U64 },
	[NICTL_A_POLL_PACKETS]		= { .type = NLA_U64 },
	[NICTL_A_POLL_TIME_NS]		= { .type = NLA_U64 },
	[NICTL_A_POLL_UNTIMED]		= { .type = NLA_U64 },
	[NICTL_A_POLL_BUSY_POLLS]	= { .type = NLA_U64 },
	[NICTL_A_POLL_BUSY_NS]		= { .type = NLA_U64 },
};

static const struct nla_policy softirq_policy[NICTL_A_SOFTIRQ_MAX + 1] = {
	[NICTL_A_SOFTIRQ_VEC]		= { .type = NLA_U32 },
	[NICTL_A_SOFTIRQ_COUNT]		= { .type = NLA_U64 },
	[NICTL_A_SOFTIRQ_TIME_NS]	= { .type = NLA_U64 },
	[NICTL_A_SOFTIRQ_MAX_NS]	= { .type = NLA_U64 },
	[NICTL_A_SOFTIRQ_HIST]		= { .type = NLA_NESTED },
};

static const struct nla_policy hist_bucket_policy[NICTL_A_HIST_BUCKET_MAX + 1] = {
	[NICTL_A_HIST_BUCKET_LOW_NS]	= { .type = NLA_U32 },
	[NICTL_A_HIST_BUCKET_HIGH_NS]	= { .type = NLA_U32 },
	[NICTL_A_HIST_BUCKET_COUNT]	= { .type = NLA_U64 },
};

static const struct nla_policy napi_dev_policy[NICTL_A_MAX + 1] = {
	[NICTL_A_IFINDEX]	= { .type = NLA_U32 },
	[NICTL_A_IFNAME]	= { .type = NLA_STRING },
	[NICTL_A_NAPI]		= { .type = NLA_NESTED },
};

static const struct nla_policy napi_policy[NICTL_A_NAPI_MAX + 1] = {
	[NICTL_A_NAPI_ID]	= { .type = NLA_U32 },
	[NICTL_A_NAPI_QUEUE]	= { .type = NLA_U32 },
	[NICTL_A_NAPI_POLLS]	= { .type = NLA_U64 },
	[NICTL_A_NAPI_PACKETS]	= { .type = NLA_U64 },
	[NICTL_A_NAPI_CPUS]	= { .type = NLA_BINARY, .maxlen = NICTL_CPUMASK_MAX_BYTES },
	[NICTL_A_NAPI_TIME_NS]	= { .type = NLA_U64 },
	[NICTL_A_NAPI_BUSY_NS]	= { .type = NLA_U64 },
};

static uint64_t get_u64(struct nlattr *attr)
{
	return attr ? nla_get_u64(attr) : 0;
}

/*
 * The buckets in order, each with the bounds the labels of --hist and of the
 * metrics name (NICTL_HIST_BUCKETS): a module bucketing otherwise is refused
 * rather than shown under the wrong labels.
 */
static int parse_hist(struct stats_vec *v, struct nlattr *softirq)
{
	struct nlattr *tb[NICTL_A_HIST_BUCKET_MAX + 1], *attr;
	unsigned int b = 0;
	uint32_t low;
	int rem;

	nla_for_each_nested(attr, softirq, rem) {
		if (nla_type(attr) != NICTL_A_SOFTIRQ_HIST)
			continue;
		low = b ? (1U << (b - 1)) * 1000 : 0;
		if (b == NICTL_HIST_BUCKETS ||
		    nla_parse_nested(tb, NICTL_A_HIST_BUCKET_MAX, attr, hist_bucket_policy) ||
		    !tb[NICTL_A_HIST_BUCKET_LOW_NS] || !tb[NICTL_A_HIST_BUCKET_COUNT] ||
		    nla_get_u32(tb[NICTL_A_HIST_BUCKET_LOW_NS]) != low)
			return -EPROTO;
		v->hist[b++] = nla_get_u64(tb[NICTL_A_HIST_BUCKET_COUNT]);
	}
	return b && b != NICTL_HIST_BUCKETS ? -EPROTO : 0;
}

static int parse_softirq(struct stats_cpu *c, struct nlattr *nest)
{
	struct nlattr *tb[NICTL_A_SOFTIRQ_MAX + 1];
	struct stats_vec *v;
	unsigned int vec;

	if (nla_parse_nested(tb, NICTL_A_SOFTIRQ_MAX, nest, softirq_policy) ||
	    !tb[NICTL_A_SOFTIRQ_VEC])
		return -EPROTO;
	vec = nla_get_u32(tb[NICTL_A_SOFTIRQ_VEC]);
	if (vec >= __NICTL_SOFTIRQ_MAX)
		return 0;	/* a vector a newer module accounts: not ours to show */
	v = &c->vec[vec];
	v->count = get_u64(tb[NICTL_A_SOFTIRQ_COUNT]);
	v->time_ns = get_u64(tb[NICTL_A_SOFTIRQ_TIME_NS]);
	v->max_ns = get_u64(tb[NICTL_A_SOFTIRQ_MAX_NS]);
	return parse_hist(v, nest);
}

static int parse_poll(struct stats_cpu *c, struct nlattr *nest)
{
	struct nlattr *tb[NICTL_A_POLL_MAX + 1];
	struct stats_poll *p;
	unsigned int kind;

	if (nla_parse_nested(tb, NICTL_A_POLL_MAX, nest, poll_policy) || !tb[NICTL_A_POLL_KIND])
		return -EPROTO;
	kind = nla_get_u32(tb[NICTL_A_POLL_KIND]);
	if (kind >= __NICTL_POLL_MAX)
		return 0;	/* a kind a newer module tells apart: not ours to show */
	p = &c->poll[kind];
	p->polls = get_u64(tb[NICTL_A_POLL_POLLS]);
	p->packets = get_u64(tb[NICTL_A_POLL_PACKETS]);
	p->time_ns = get_u64(tb[NICTL_A_POLL_TIME_NS]);
	p->untimed = get_u64(tb[NICTL_A_POLL_UNTIMED]);
	p->busy_polls = get_u64(tb[NICTL_A_POLL_BUSY_POLLS]);
	p->busy_ns = get_u64(tb[NICTL_A_POLL_BUSY_NS]);
	return 0;
}

/* One NAPI instance's time on the CPU; c->napi_times has room for it. */
static int parse_napi_time(struct stats_cpu *c, struct nlattr *nest)
{
	struct nlattr *tb[NICTL_A_NAPI_MAX + 1];
	struct stats_napi_time *t = &c->napi_times[c->nr_napi_times];

	if (nla_parse_nested(tb, NICTL_A_NAPI_MAX, nest, napi_policy) || !tb[NICTL_A_NAPI_ID])
		return -EPROTO;
	t->id = nla_get_u32(tb[NICTL_A_NAPI_ID]);
	t->time_ns = get_u64(tb[NICTL_A_NAPI_TIME_NS]);
	t->busy_ns = get_u64(tb[NICTL_A_NAPI_BUSY_NS]);
	c->nr_napi_times++;
	return 0;
}

/* The nests of a STATS_GET message: vectors, poll kinds and NAPI times. */
static int parse_cpu_nests(struct stats_cpu *c, struct genlmsghdr *gnlh)
{
	struct nlattr *attr;
	unsigned int n = 0;
	int rem, err = 0;

	nla_for_each_attr(attr, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem)
		n += nla_type(attr) == NICTL_A_NAPI;
	if (n) {
		c->napi_times = calloc(n, sizeof(*c->napi_times));
		if (!c->napi_times)
			return -ENOMEM;
	}
	nla_for_each_attr(attr, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(attr) == NICTL_A_SOFTIRQ)
			err = parse_softirq(c, attr);
		else if (nla_type(attr) == NICTL_A_POLL)
			err = parse_poll(c, attr);
		else if (nla_type(attr) == NICTL_A_NAPI)
			err = parse_napi_time(c, attr);
		if (err)
			return err;
	}
	return 0;
}

/* Insert a slot for @cpu keeping the array sorted; NULL when out of memory. */
struct stats_cpu *stats_add_cpu(struct stats_sample *s, unsigned int cpu)
{
	struct stats_cpu *cpus;
	unsigned int i;

	cpus = realloc(s->cpus, (s->nr_cpus + 1) * sizeof(*cpus));
	if (!cpus)
		return NULL;
	s->cpus = cpus;
	/* The kernel dumps in CPU order; the loop only guards against surprises. */
	for (i = s->nr_cpus; i > 0 && cpus[i - 1].cpu > cpu; i--)
		;
	memmove(&cpus[i + 1], &cpus[i], (s->nr_cpus - i) * sizeof(*cpus));
	s->nr_cpus++;
	memset(&cpus[i], 0, sizeof(*cpus));
	cpus[i].cpu = cpu;
	return &cpus[i];
}

/* A ctl_nl_reply_fn: add the CPU a STATS_GET message describes to @arg, a sample. */
int stats_parse_cpu(struct nlmsghdr *hdr, void *arg)
{
	struct nlattr *tb[NICTL_A_MAX + 1];
	struct stats_sample *s = arg;
	struct stats_cpu *c;
	unsigned int cpu;

	if (genlmsg_parse(hdr, 0, tb, NICTL_A_MAX, cpu_policy) || !tb[NICTL_A_CPU] ||
	    !tb[NICTL_A_STATS_START_NS] || !tb[NICTL_A_STATS_NOW_NS])
		return -EPROTO;
	cpu = nla_get_u32(tb[NICTL_A_CPU]);
	if (cpu >= CPUSET_MAX_CPUS)
		return -EPROTO;
	c = stats_add_cpu(s, cpu);
	if (!c)
		return -ENOMEM;
	/* Every message carries the switch; the last one read wins. */
	s->enabled = tb[NICTL_A_STATS_ENABLED] && nla_get_u8(tb[NICTL_A_STATS_ENABLED]);
	c->start_ns = nla_get_u64(tb[NICTL_A_STATS_START_NS]);
	c->now_ns = nla_get_u64(tb[NICTL_A_STATS_NOW_NS]);
	c->napi_unattributed = get_u64(tb[NICTL_A_NAPI_UNATTRIBUTED]);
	return parse_cpu_nests(c, nlmsg_data(hdr));
}

static int parse_napi(struct stats_napi *n, unsigned int ifindex, struct nlattr *nest)
{
	struct nlattr *tb[NICTL_A_NAPI_MAX + 1];
	int err;

	if (nla_parse_nested(tb, NICTL_A_NAPI_MAX, nest, napi_policy) || !tb[NICTL_A_NAPI_ID])
		return -EPROTO;
	n->id = nla_get_u32(tb[NICTL_A_NAPI_ID]);
	n->ifindex = ifindex;
	n->queue = -1;
	if (tb[NICTL_A_NAPI_QUEUE] && nla_get_u32(tb[NICTL_A_NAPI_QUEUE]) <= INT32_MAX)
		n->queue = nla_get_u32(tb[NICTL_A_NAPI_QUEUE]);
	n->polls = get_u64(tb[NICTL_A_NAPI_POLLS]);
	n->packets = get_u64(tb[NICTL_A_NAPI_PACKETS]);
	n->time_ns = get_u64(tb[NICTL_A_NAPI_TIME_NS]);
	n->busy_ns = get_u64(tb[NICTL_A_NAPI_BUSY_NS]);
	if (!tb[NICTL_A_NAPI_CPUS])
		return 0;
	err = cpuset_from_bytes(&n->cpus, nla_data(tb[NICTL_A_NAPI_CPUS]),
				nla_len(tb[NICTL_A_NAPI_CPUS]));
	return err == -ERANGE ? -EPROTO : err;
}

/*
 * A ctl_nl_reply_fn: the device and its NAPI instances from one message of
 * a NAPI_GET dump, into @arg, a sample; each message's instances are
 * appended to those of the messages before, each knowing its device. The
 * first message names the sample's device unless it is named already.
 */
int stats_parse_napi(struct nlmsghdr *hdr, void *arg)
{
	struct nlattr *tb[NICTL_A_MAX + 1], *attr;
	struct genlmsghdr *gnlh = nlmsg_data(hdr);
	struct stats_sample *s = arg;
	struct stats_napi *napis;
	unsigned int n = 0;
	int rem, err;

	if (genlmsg_parse(hdr, 0, tb, NICTL_A_MAX, napi_dev_policy) || !tb[NICTL_A_IFINDEX] ||
	    !tb[NICTL_A_IFNAME])
		return -EPROTO;
	if (!s->ifname) {
		s->ifindex = nla_get_u32(tb[NICTL_A_IFINDEX]);
		s->ifname = strdup(nla_get_string(tb[NICTL_A_IFNAME]));
		if (!s->ifname)
			return -ENOMEM;
	}
	nla_for_each_attr(attr, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem)
		n += nla_type(attr) == NICTL_A_NAPI;
	if (!n)
		return 0;
	napis = realloc(s->napis, (s->nr_napis + n) * sizeof(*napis));
	if (!napis)
		return -ENOMEM;
	s->napis = napis;
	nla_for_each_attr(attr, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(attr) != NICTL_A_NAPI)
			continue;
		/* Counted before parsing, so that stats_sample_free() frees its CPUs. */
		memset(&napis[s->nr_napis], 0, sizeof(*napis));
		err = parse_napi(&napis[s->nr_napis++], nla_get_u32(tb[NICTL_A_IFINDEX]), attr);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The slot of @cpu in @s (NULL for no sample), or NULL. Not const: the
 * sample's readers only look, its builders (softnet_parse) fill it.
 */
struct stats_cpu *stats_find_cpu(const struct stats_sample *s, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; s && i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

const struct stats_napi_time *stats_find_napi_time(const struct stats_cpu *c, unsigned int id)
{
	unsigned int i;

	for (i = 0; c && i < c->nr_napi_times; i++)
		if (c->napi_times[i].id == id)
			return &c->napi_times[i];
	return NULL;
}

void stats_sample_free(struct stats_sample *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_napis; i++) {
		cpuset_free(&s->napis[i].cpus);
		cpuset_free(&s->napis[i].thread_cpus);
	}
	for (i = 0; i < s->nr_cpus; i++)
		free(s->cpus[i].napi_times);
	free(s->napis);
	free(s->cpus);
	free(s->ifname);
	cpuset_free(&s->online);
	dev_list_free(&s->dev);
	memset(s, 0, sizeof(*s));
}

/* Send @msg (NULL: it could not be built); report a failure as the stats command's on @dev. */
static int exchange(struct ctl_nl *nl, struct nl_msg *msg, ctl_nl_reply_fn fn, void *arg,
		    const char *dev)
{
	struct ctl_nl_error e = { .err = -ENOMEM, .msg = "" };

	if (msg)
		ctl_nl_transact(nl, msg, fn, arg, &e);
	if (!e.err)
		return 0;
	ctl_nl_report("stats", dev, &e);
	return -1;
}

/* NAPI_GET as a dump: a device with many NAPIs needs several messages. */
static struct nl_msg *napi_dump(struct nl_msg *msg)
{
	if (msg)
		nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_DUMP;
	return msg;
}

/*
 * The NAPI instances of @ref's device. A stacked device has none of its own
 * (the kernel's NAPI_GET on a bond finds none): it names the sample, and
 * the instances are those of each physical device beneath it, asked for by
 * ifindex, which a rename cannot change between the two requests, in the
 * device's own namespace.
 */
static int read_napis(struct ctl_nl *nl, const struct dev_ref *ref, struct stats_sample *s)
{
	unsigned int i;
	int err = 0;

	if (!s->dev.stacked)
		return exchange(nl, napi_dump(dev_request(nl, NICTL_CMD_NAPI_GET, ref)),
				stats_parse_napi, s, ref->name);
	s->ifindex = s->dev.stacked_ifindex;
	s->ifname = strdup(s->dev.stacked);
	if (!s->ifname) {
		ctl_msg("out of memory");
		return -1;
	}
	for (i = 0; !err && i < s->dev.nr; i++)
		err = stats_read_napis(nl, &s->dev.devs[i], s);
	return err;
}

/*
 * Append the NAPI instances of the physical device @dev, asked for by
 * ifindex in its own namespace, to @s. 0, or -1 after printing why.
 */
int stats_read_napis(struct ctl_nl *nl, const struct nictl_dev *dev, struct stats_sample *s)
{
	return exchange(nl, napi_dump(dev_request_of(nl, NICTL_CMD_NAPI_GET, dev)),
			stats_parse_napi, s, dev->ifname);
}

/*
 * Read one sample: the per-CPU counters, then, with @ref, the device's IRQs
 * and NAPI instances (a stacked device's: those of the devices beneath it),
 * then softnet_stat. The kernel's readings come first and close together
 * because their NOW_NS times every rate. On failure print the one line and
 * return -1; @s is then freed.
 */
int stats_read(struct ctl_nl *nl, const struct dev_ref *ref, struct stats_sample *s)
{
	const char *name = ref ? ref->name : NULL;
	int err;

	memset(s, 0, sizeof(*s));
	err = exchange(nl, ctl_nl_msg(nl, NICTL_CMD_STATS_GET, NLM_F_DUMP), stats_parse_cpu, s,
		       NULL);
	if (!err && !s->nr_cpus) {
		ctl_msg("stats: the module reported no CPUs");
		err = -1;
	}
	if (!err && ref) {
		s->has_dev = true;
		err = dev_exchange(nl, dev_request(nl, NICTL_CMD_DEV_GET, ref), "stats", name,
				   &s->dev);
		if (!err)
			err = read_napis(nl, ref, s) ?: stats_read_threads(s);
		if (!err && !s->ifname) {
			ctl_msg("stats %s: the module's NAPI reply names no device", name);
			err = -1;
		}
	}
	/* Only to tell offline CPUs from idle ones: without it every CPU is shown. */
	if (!err && topo_online_cpus(&s->online))
		cpuset_free(&s->online);
	if (!err)
		err = softnet_read(s);
	if (err)
		stats_sample_free(s);
	return err;
}

static int ignore_reply(struct nlmsghdr *hdr, void *arg)
{
	(void)hdr;
	(void)arg;
	return 0;
}

/*
 * STATS_RESET, or STATS_SET switching accounting on (@enable 1) or off (0).
 * Returns 0, or -1 after printing the one line.
 */
int stats_request(struct ctl_nl *nl, uint8_t cmd, int enable)
{
	struct nl_msg *msg = ctl_nl_msg(nl, cmd, 0);

	if (msg && cmd == NICTL_CMD_STATS_SET && nla_put_u8(msg, NICTL_A_STATS_ENABLED, enable)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return exchange(nl, msg, ignore_reply, NULL, NULL);
}
