// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/genetlink.h>

#include "nictl.h"
#include "run.h"

/* Copy a validated string attribute, failing when it does not fit. */
static int get_str(const struct nlattr *attr, char *dst, size_t len)
{
	size_t n;

	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
		return -EPROTO;
	n = strlen(mnl_attr_get_str(attr)) + 1;
	if (n > len)
		return -EPROTO;
	memcpy(dst, mnl_attr_get_str(attr), n);
	return 0;
}

static int get_u32(const struct nlattr *attr, uint32_t *dst)
{
	if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
		return -EPROTO;
	*dst = mnl_attr_get_u32(attr);
	return 0;
}

static int get_s32(const struct nlattr *attr, int32_t *dst)
{
	uint32_t v;

	if (get_u32(attr, &v))
		return -EPROTO;
	*dst = (int32_t)v;
	return 0;
}

static int get_u8(const struct nlattr *attr, uint8_t *dst)
{
	if (mnl_attr_validate(attr, MNL_TYPE_U8) < 0)
		return -EPROTO;
	*dst = mnl_attr_get_u8(attr);
	return 0;
}

static int get_u64(const struct nlattr *attr, uint64_t *dst)
{
	if (mnl_attr_validate(attr, MNL_TYPE_U64) < 0)
		return -EPROTO;
	*dst = mnl_attr_get_u64(attr);
	return 0;
}

static int get_cpus(const struct nlattr *attr, struct cpus *dst, size_t *len)
{
	*len = mnl_attr_get_payload_len(attr);
	return cpus_from_bytes(dst, mnl_attr_get_payload(attr), *len) ? -EPROTO : 0;
}

/*
 * Record that an attribute of @type was parsed (@ret: how that went): an
 * attribute that failed to parse or came twice makes the reply malformed.
 */
static int seen_once(uint64_t *present, uint16_t type, int ret)
{
	if (ret || (*present & ATTR_BIT(type)))
		return MNL_CB_ERROR;
	*present |= ATTR_BIT(type);
	return MNL_CB_OK;
}

static int qref_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_qref_seen *ref = data;

	switch (mnl_attr_get_type(attr)) {
	case NICTL_A_QREF_QUEUE:
		return get_u32(attr, &ref->queue) ? MNL_CB_ERROR : MNL_CB_OK;
	case NICTL_A_QREF_KIND:
		return get_u32(attr, &ref->kind) ? MNL_CB_ERROR : MNL_CB_OK;
	default:
		return MNL_CB_ERROR;
	}
}

/* One more queue the IRQ serves; the only attribute of the nest that repeats. */
static int parse_qref(const struct nlattr *attr, struct nictl_irq *irq)
{
	struct nictl_qref_seen *ref;

	if (irq->n_queues >= NICTL_MAX_QREFS) {
		fprintf(stderr, "# IRQ %u serves more than %d queues\n", irq->num, NICTL_MAX_QREFS);
		return MNL_CB_ERROR;
	}
	ref = &irq->queues[irq->n_queues++];
	ref->queue = ref->kind = UINT32_MAX;
	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    mnl_attr_parse_nested(attr, qref_attr_cb, ref) < 0 ||
	    ref->queue == UINT32_MAX || ref->kind == UINT32_MAX)
		return MNL_CB_ERROR;
	irq->present |= ATTR_BIT(NICTL_A_IRQ_QUEUE_REF);
	return MNL_CB_OK;
}

static int irq_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_irq *irq = data;
	uint16_t type = mnl_attr_get_type(attr);
	size_t len;
	int ret;

	switch (type) {
	case NICTL_A_IRQ_NUM:
		ret = get_u32(attr, &irq->num);
		break;
	case NICTL_A_IRQ_NAME:
		ret = get_str(attr, irq->name, sizeof(irq->name));
		break;
	case NICTL_A_IRQ_QUEUE:
		ret = get_u32(attr, &irq->queue);
		break;
	case NICTL_A_IRQ_KIND:
		ret = get_u32(attr, &irq->kind);
		break;
	case NICTL_A_IRQ_AFFINITY:
		ret = get_cpus(attr, &irq->affinity, &irq->affinity_len);
		break;
	case NICTL_A_IRQ_EFFECTIVE:
		ret = get_cpus(attr, &irq->effective, &irq->effective_len);
		break;
	case NICTL_A_IRQ_FLAGS:
		ret = get_u32(attr, &irq->flags);
		break;
	case NICTL_A_IRQ_NODE:
		ret = get_s32(attr, &irq->node);
		break;
	case NICTL_A_IRQ_TARGET_CPU:
		ret = get_u32(attr, &irq->target_cpu);
		break;
	case NICTL_A_IRQ_EXPECTED:
		ret = get_cpus(attr, &irq->expected, &len);
		break;
	case NICTL_A_IRQ_OLD_AFFINITY:
		ret = get_cpus(attr, &irq->old_affinity, &len);
		break;
	case NICTL_A_IRQ_QUEUE_REF:
		return parse_qref(attr, irq);
	case NICTL_A_IRQ_GROUP:
		ret = get_u32(attr, &irq->group);
		break;
	case NICTL_A_IRQ_OWNER:
		ret = get_u32(attr, &irq->owner);
		break;
	case NICTL_A_IRQ_DRIFTS:
		ret = get_u32(attr, &irq->drifts);
		break;
	case NICTL_A_IRQ_DRIFT_NS:
		ret = get_u64(attr, &irq->drift_ns);
		break;
	case NICTL_A_IRQ_PAD:
		return MNL_CB_OK;
	default:
		/* Not in our header: a reply may only carry what it defines. */
		return MNL_CB_ERROR;
	}
	return seen_once(&irq->present, type, ret);
}

int nictl_parse_irq(const struct nlattr *attr, struct nictl_irq *irq)
{
	memset(irq, 0, sizeof(*irq));
	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    mnl_attr_parse_nested(attr, irq_attr_cb, irq) < 0)
		return -EPROTO;
	return 0;
}

static int parse_irq(const struct nlattr *attr, struct nictl_dev *dev)
{
	if (dev->n_irqs >= NICTL_MAX_IRQS) {
		fprintf(stderr, "# reply has more than %d IRQs\n", NICTL_MAX_IRQS);
		return -EPROTO;
	}
	return nictl_parse_irq(attr, &dev->irqs[dev->n_irqs++]);
}

static int link_attr_cb(const struct nlattr *attr, void *data)
{
	uint64_t *present = data;
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_LINK_IFINDEX:
		ret = mnl_attr_validate(attr, MNL_TYPE_U32);
		break;
	case NICTL_A_LINK_IFNAME:
	case NICTL_A_LINK_KIND:
		ret = mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) ||
		      mnl_attr_get_payload_len(attr) > IFNAMSIZ ? -EPROTO : 0;
		break;
	default:
		return MNL_CB_ERROR;
	}
	return seen_once(present, type, ret);
}

int nictl_parse_link(const struct nlattr *attr, char *ifname)
{
	struct nlattr *name = NULL, *pos;
	uint64_t present = 0;

	if (mnl_attr_parse_nested(attr, link_attr_cb, &present) < 0 ||
	    !(present & ATTR_BIT(NICTL_A_LINK_IFINDEX)) ||
	    !(present & ATTR_BIT(NICTL_A_LINK_IFNAME)))
		return -EPROTO;
	mnl_attr_for_each_nested(pos, attr)
		if (mnl_attr_get_type(pos) == NICTL_A_LINK_IFNAME)
			name = pos;
	snprintf(ifname, IFNAMSIZ, "%s", mnl_attr_get_str(name));
	return 0;
}

static int lower_attr_cb(const struct nlattr *attr, void *data)
{
	return nictl_dev_attr(attr, data);
}

/*
 * A NICTL_A_LOWER nest, parsed as a device and kept in short; a nest with
 * the ifindex of the one before continues it (a device whose IRQs did not
 * fit one nest), and counts in dev->n_lower_parts.
 */
static int parse_lower(const struct nlattr *attr, struct nictl_dev *dev)
{
	struct nictl_lower *lower;
	struct nictl_dev *member;
	unsigned int i;
	int ret = -EPROTO;

	member = calloc(1, sizeof(*member));
	if (!member)
		return -ENOMEM;
	if (mnl_attr_parse_nested(attr, lower_attr_cb, member) < 0 ||
	    !(member->present & ATTR_BIT(NICTL_A_IFINDEX)))
		goto out;
	lower = dev->n_lowers ? &dev->lowers[dev->n_lowers - 1] : NULL;
	if (!lower || lower->ifindex != member->ifindex) {
		if (dev->n_lowers >= NICTL_MAX_LINKS)
			goto out;
		lower = &dev->lowers[dev->n_lowers++];
		lower->ifindex = member->ifindex;
		memcpy(lower->ifname, member->ifname, IFNAMSIZ);
		lower->dev_flags = member->dev_flags;
		lower->numa_node = member->numa_node;
		lower->n_irqs = 0;
	}
	dev->n_lower_parts++;
	if (lower->n_irqs + member->n_irqs > NICTL_MAX_IRQS)
		goto out;
	for (i = 0; i < member->n_irqs; i++, lower->n_irqs++) {
		lower->irq[lower->n_irqs] = member->irqs[i].num;
		lower->target_cpu[lower->n_irqs] =
			member->irqs[i].present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU) ?
			member->irqs[i].target_cpu : UINT32_MAX;
	}
	ret = 0;
out:
	free(member);
	return ret;
}

int nictl_dev_attr(const struct nlattr *attr, struct nictl_dev *dev)
{
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_IFINDEX:
		ret = get_u32(attr, &dev->ifindex);
		break;
	case NICTL_A_IFNAME:
		ret = get_str(attr, dev->ifname, sizeof(dev->ifname));
		break;
	case NICTL_A_DRIVER:
		ret = get_str(attr, dev->driver, sizeof(dev->driver));
		break;
	case NICTL_A_BUS_ADDR:
		ret = get_str(attr, dev->bus_addr, sizeof(dev->bus_addr));
		break;
	case NICTL_A_PERM_ADDR:
		dev->perm_addr_len = mnl_attr_get_payload_len(attr);
		ret = dev->perm_addr_len && dev->perm_addr_len <= sizeof(dev->perm_addr) ? 0 :
		      -EPROTO;
		if (!ret)
			memcpy(dev->perm_addr, mnl_attr_get_payload(attr), dev->perm_addr_len);
		break;
	case NICTL_A_NUMA_NODE:
		ret = get_s32(attr, &dev->numa_node);
		break;
	case NICTL_A_RX_QUEUES:
		ret = get_u32(attr, &dev->rx_queues);
		break;
	case NICTL_A_TX_QUEUES:
		ret = get_u32(attr, &dev->tx_queues);
		break;
	case NICTL_A_DEV_FLAGS:
		ret = get_u32(attr, &dev->dev_flags);
		break;
	case NICTL_A_SOURCE:
		ret = get_u32(attr, &dev->source);
		break;
	case NICTL_A_STICKY_ID:
		ret = get_str(attr, dev->sticky_id, sizeof(dev->sticky_id));
		break;
	case NICTL_A_KIND:
		ret = get_str(attr, dev->kind, sizeof(dev->kind));
		break;
	case NICTL_A_NETNS_ID:
		ret = get_s32(attr, &dev->netns_id);
		break;
	case NICTL_A_IRQ:
		/* Repeated by design, so it skips the duplicate check. */
		dev->present |= ATTR_BIT(type);
		return parse_irq(attr, dev) ? MNL_CB_ERROR : MNL_CB_OK;
	case NICTL_A_UPPER:
		dev->present |= ATTR_BIT(type);
		if (dev->n_uppers >= NICTL_MAX_LINKS)
			return MNL_CB_ERROR;
		return nictl_parse_link(attr, dev->uppers[dev->n_uppers++]) ? MNL_CB_ERROR :
									       MNL_CB_OK;
	case NICTL_A_LOWER:
		dev->present |= ATTR_BIT(type);
		return parse_lower(attr, dev) ? MNL_CB_ERROR : MNL_CB_OK;
	default:
		/* Request-only or unknown attributes have no place in a reply. */
		return MNL_CB_ERROR;
	}
	return seen_once(&dev->present, type, ret);
}

static int dev_attr_cb(const struct nlattr *attr, void *data)
{
	return nictl_dev_attr(attr, data);
}

int nictl_parse_dev(const struct nlmsghdr *nlh, struct nictl_dev *dev)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);

	memset(dev, 0, sizeof(*dev));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl))
		return -EPROTO;
	dev->cmd = genl->cmd;
	dev->version = genl->version;
	if (mnl_attr_parse(nlh, sizeof(*genl), dev_attr_cb, dev) < 0) {
		fprintf(stderr, "# malformed nictl reply (attribute type, length or repeat)\n");
		return -EPROTO;
	}
	return 0;
}

int nictl_dev_cb(const struct nlmsghdr *nlh, void *data)
{
	return nictl_parse_dev(nlh, data);
}

/* Append the IRQs of @more, a continuation message of @dev, to @dev. */
static int append_irqs(struct nictl_dev *dev, const struct nictl_dev *more)
{
	if (dev->n_irqs + more->n_irqs > NICTL_MAX_IRQS) {
		fprintf(stderr, "# %s has more than %d IRQs\n", dev->ifname, NICTL_MAX_IRQS);
		return -EPROTO;
	}
	memcpy(&dev->irqs[dev->n_irqs], more->irqs, more->n_irqs * sizeof(more->irqs[0]));
	dev->n_irqs += more->n_irqs;
	return 0;
}

/*
 * A device whose IRQs do not fit one dump message continues in the next,
 * which repeats its attributes: same ifindex as the last entry, append.
 */
int nictl_devs_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nictl_devs *devs = data;
	struct nictl_dev *dev;
	int ret;

	if (devs->n >= NICTL_MAX_DEVS) {
		fprintf(stderr, "# dump has more than %d devices\n", NICTL_MAX_DEVS);
		return -EPROTO;
	}
	dev = &devs->dev[devs->n];
	ret = nictl_parse_dev(nlh, dev);
	if (ret)
		return ret;
	if (devs->n && devs->dev[devs->n - 1].ifindex == dev->ifindex)
		return append_irqs(&devs->dev[devs->n - 1], dev);
	devs->n++;
	return 0;
}

/* One bucket's bounds and count, as the uapi's NICTL_HIST_BUCKETS says. */
struct hist_bucket {
	uint64_t present;
	uint32_t low_ns, high_ns;
	uint64_t count;
};

static int hist_bucket_cb(const struct nlattr *attr, void *data)
{
	struct hist_bucket *hb = data;
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_HIST_BUCKET_LOW_NS:
		ret = get_u32(attr, &hb->low_ns);
		break;
	case NICTL_A_HIST_BUCKET_HIGH_NS:
		ret = get_u32(attr, &hb->high_ns);
		break;
	case NICTL_A_HIST_BUCKET_COUNT:
		ret = get_u64(attr, &hb->count);
		break;
	case NICTL_A_HIST_BUCKET_PAD:
		return MNL_CB_OK;
	default:
		return MNL_CB_ERROR;
	}
	return seen_once(&hb->present, type, ret);
}

/* Bucket b of [2^(b-1), 2^b) us, the first from 0, the last unbounded. */
static int parse_hist_bucket(const struct nlattr *attr, struct nictl_softirq *si)
{
	unsigned int b = si->n_hist;
	uint32_t low = b ? (1U << (b - 1)) * 1000 : 0;
	bool last = b == NICTL_HIST_BUCKETS - 1;
	struct hist_bucket hb = { 0 };

	if (b == NICTL_HIST_BUCKETS || mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    mnl_attr_parse_nested(attr, hist_bucket_cb, &hb) < 0)
		return MNL_CB_ERROR;
	if (hb.low_ns != low || !(hb.present & ATTR_BIT(NICTL_A_HIST_BUCKET_COUNT)) ||
	    !!(hb.present & ATTR_BIT(NICTL_A_HIST_BUCKET_HIGH_NS)) == last ||
	    (!last && hb.high_ns != low * 2 + !b * 1000)) {
		fprintf(stderr, "# bucket %u: [%u, %u) ns, expected [%u, %u)\n", b, hb.low_ns,
			hb.high_ns, low, last ? 0 : low * 2 + !b * 1000);
		return MNL_CB_ERROR;
	}
	si->hist[si->n_hist++] = hb.count;
	si->present |= ATTR_BIT(NICTL_A_SOFTIRQ_HIST);
	return MNL_CB_OK;
}

static int softirq_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_softirq *si = data;
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_SOFTIRQ_VEC:
		ret = get_u32(attr, &si->vec);
		break;
	case NICTL_A_SOFTIRQ_COUNT:
		ret = get_u64(attr, &si->count);
		break;
	case NICTL_A_SOFTIRQ_TIME_NS:
		ret = get_u64(attr, &si->time_ns);
		break;
	case NICTL_A_SOFTIRQ_MAX_NS:
		ret = get_u64(attr, &si->max_ns);
		break;
	case NICTL_A_SOFTIRQ_HIST:
		return parse_hist_bucket(attr, si);
	case NICTL_A_SOFTIRQ_PAD:
		/* Alignment filler the kernel may put before a u64. */
		return MNL_CB_OK;
	default:
		return MNL_CB_ERROR;
	}
	return seen_once(&si->present, type, ret);
}

/* A NICTL_A_SOFTIRQ nest goes to the slot of its vector, which it must name. */
static int parse_softirq(const struct nlattr *attr, struct nictl_cpu_stats *st)
{
	struct nictl_softirq si = { 0 };

	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    mnl_attr_parse_nested(attr, softirq_attr_cb, &si) < 0)
		return -EPROTO;
	if (!(si.present & ATTR_BIT(NICTL_A_SOFTIRQ_VEC)) || si.vec >= __NICTL_SOFTIRQ_MAX ||
	    st->vec[si.vec].present || (si.n_hist && si.n_hist != NICTL_HIST_BUCKETS)) {
		fprintf(stderr, "# CPU %u: softirq nest without a vector, one twice, or %u buckets\n",
			st->cpu, si.n_hist);
		return -EPROTO;
	}
	st->vec[si.vec] = si;
	return 0;
}

static int poll_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_poll *p = data;
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_POLL_KIND:
		ret = get_u32(attr, &p->kind);
		break;
	case NICTL_A_POLL_POLLS:
		ret = get_u64(attr, &p->polls);
		break;
	case NICTL_A_POLL_PACKETS:
		ret = get_u64(attr, &p->packets);
		break;
	case NICTL_A_POLL_TIME_NS:
		ret = get_u64(attr, &p->time_ns);
		break;
	case NICTL_A_POLL_UNTIMED:
		ret = get_u64(attr, &p->untimed);
		break;
	case NICTL_A_POLL_BUSY_POLLS:
		ret = get_u64(attr, &p->busy_polls);
		break;
	case NICTL_A_POLL_BUSY_NS:
		ret = get_u64(attr, &p->busy_ns);
		break;
	case NICTL_A_POLL_PAD:
		return MNL_CB_OK;
	default:
		return MNL_CB_ERROR;
	}
	return seen_once(&p->present, type, ret);
}

/* A NICTL_A_POLL nest goes to the slot of its kind, which it must name. */
static int parse_poll(const struct nlattr *attr, struct nictl_cpu_stats *st)
{
	struct nictl_poll p = { 0 };

	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    mnl_attr_parse_nested(attr, poll_attr_cb, &p) < 0)
		return -EPROTO;
	if (!(p.present & ATTR_BIT(NICTL_A_POLL_KIND)) || p.kind >= __NICTL_POLL_MAX ||
	    st->poll[p.kind].present) {
		fprintf(stderr, "# CPU %u: poll nest without a kind, or one twice\n", st->cpu);
		return -EPROTO;
	}
	st->poll[p.kind] = p;
	return 0;
}

static int napi_time_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_napi_time *t = data;
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_NAPI_ID:
		ret = get_u32(attr, &t->id);
		break;
	case NICTL_A_NAPI_TIME_NS:
		ret = get_u64(attr, &t->time_ns);
		break;
	case NICTL_A_NAPI_BUSY_NS:
		ret = get_u64(attr, &t->busy_ns);
		break;
	case NICTL_A_NAPI_PAD:
		return MNL_CB_OK;
	default:
		/* STATS_GET carries a NAPI's id and times only. */
		return MNL_CB_ERROR;
	}
	return seen_once(&t->present, type, ret);
}

static int parse_napi_time(const struct nlattr *attr, struct nictl_cpu_stats *st)
{
	struct nictl_napi_time *t;

	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
		return -EPROTO;
	if (st->n_napi_times >= NICTL_MAX_NAPI_TIMES) {
		fprintf(stderr, "# CPU %u: more than %d NAPIs\n", st->cpu, NICTL_MAX_NAPI_TIMES);
		return -EPROTO;
	}
	t = &st->napi_time[st->n_napi_times++];
	memset(t, 0, sizeof(*t));
	return mnl_attr_parse_nested(attr, napi_time_attr_cb, t) < 0 ? -EPROTO : 0;
}

static int cpu_stats_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_cpu_stats *st = data;
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_CPU:
		ret = get_u32(attr, &st->cpu);
		break;
	case NICTL_A_STATS_ENABLED:
		ret = get_u8(attr, &st->enabled);
		break;
	case NICTL_A_STATS_START_NS:
		ret = get_u64(attr, &st->start_ns);
		break;
	case NICTL_A_STATS_NOW_NS:
		ret = get_u64(attr, &st->now_ns);
		break;
	case NICTL_A_NAPI_UNATTRIBUTED:
		ret = get_u64(attr, &st->napi_unattributed);
		break;
	case NICTL_A_SOFTIRQ:
		/* One per vector, which parse_softirq() checks. */
		st->present |= ATTR_BIT(type);
		return parse_softirq(attr, st) ? MNL_CB_ERROR : MNL_CB_OK;
	case NICTL_A_POLL:
		st->present |= ATTR_BIT(type);
		return parse_poll(attr, st) ? MNL_CB_ERROR : MNL_CB_OK;
	case NICTL_A_NAPI:
		st->present |= ATTR_BIT(type);
		return parse_napi_time(attr, st) ? MNL_CB_ERROR : MNL_CB_OK;
	case NICTL_A_PAD:
		return MNL_CB_OK;
	default:
		return MNL_CB_ERROR;
	}
	return seen_once(&st->present, type, ret);
}

int nictl_stats_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct nictl_stats *stats = data;
	struct nictl_cpu_stats *st;

	if (stats->n >= NICTL_MAX_CPUS) {
		fprintf(stderr, "# dump has more than %d CPUs\n", NICTL_MAX_CPUS);
		return -EPROTO;
	}
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl) || genl->cmd != NICTL_CMD_STATS_GET) {
		fprintf(stderr, "# STATS_GET dump carries a message of another command\n");
		return -EPROTO;
	}
	st = &stats->cpu[stats->n++];
	memset(st, 0, sizeof(*st));
	if (mnl_attr_parse(nlh, sizeof(*genl), cpu_stats_attr_cb, st) < 0) {
		fprintf(stderr, "# malformed STATS_GET reply (attribute type, length or repeat)\n");
		return -EPROTO;
	}
	return 0;
}

static int napi_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_napi *napi = data;
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_NAPI_ID:
		ret = get_u32(attr, &napi->id);
		break;
	case NICTL_A_NAPI_QUEUE:
		ret = get_u32(attr, &napi->queue);
		break;
	case NICTL_A_NAPI_POLLS:
		ret = get_u64(attr, &napi->polls);
		break;
	case NICTL_A_NAPI_PACKETS:
		ret = get_u64(attr, &napi->packets);
		break;
	case NICTL_A_NAPI_CPUS:
		ret = get_cpus(attr, &napi->cpus, &napi->cpus_len);
		break;
	case NICTL_A_NAPI_TIME_NS:
		ret = get_u64(attr, &napi->time_ns);
		break;
	case NICTL_A_NAPI_BUSY_NS:
		ret = get_u64(attr, &napi->busy_ns);
		break;
	case NICTL_A_NAPI_PAD:
		return MNL_CB_OK;
	default:
		return MNL_CB_ERROR;
	}
	return seen_once(&napi->present, type, ret);
}

static int parse_napi(const struct nlattr *attr, struct nictl_napis *napis)
{
	struct nictl_napi *napi;

	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
		return -EPROTO;
	if (napis->n >= NICTL_MAX_NAPIS) {
		fprintf(stderr, "# reply has more than %d NAPIs\n", NICTL_MAX_NAPIS);
		return -EPROTO;
	}
	napi = &napis->napi[napis->n++];
	memset(napi, 0, sizeof(*napi));
	return mnl_attr_parse_nested(attr, napi_attr_cb, napi) < 0 ? -EPROTO : 0;
}

static int napis_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_napis *napis = data;
	uint16_t type = mnl_attr_get_type(attr);
	int ret;

	switch (type) {
	case NICTL_A_IFINDEX:
		ret = get_u32(attr, &napis->ifindex);
		break;
	case NICTL_A_IFNAME:
		ret = get_str(attr, napis->ifname, sizeof(napis->ifname));
		break;
	case NICTL_A_NAPI:
		napis->present |= ATTR_BIT(type);
		return parse_napi(attr, napis) ? MNL_CB_ERROR : MNL_CB_OK;
	case NICTL_A_PAD:
		return MNL_CB_OK;
	default:
		return MNL_CB_ERROR;
	}
	return seen_once(&napis->present, type, ret);
}

int nictl_napis_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct nictl_napis *napis = data;

	memset(napis, 0, sizeof(*napis));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl))
		return -EPROTO;
	napis->cmd = genl->cmd;
	if (mnl_attr_parse(nlh, sizeof(*genl), napis_attr_cb, napis) < 0) {
		fprintf(stderr, "# malformed NAPI_GET reply (attribute type, length or repeat)\n");
		return -EPROTO;
	}
	return 0;
}

struct nlmsghdr *nictl_msg(struct nl_client *c, void *buf, uint8_t cmd, uint16_t flags)
{
	return nl_msg_start(buf, c->family, cmd, NICTL_FAMILY_VERSION, flags, ++c->seq);
}

struct nlattr *nictl_put_cpus(struct nlmsghdr *nlh, uint16_t type, const struct cpus *s)
{
	struct nlattr *attr = mnl_nlmsg_get_payload_tail(nlh);

	mnl_attr_put(nlh, type, cpus_nbytes(s), s->bits);
	return attr;
}

struct nlmsghdr *nictl_bind_msg(struct nl_client *c, void *buf, const struct nictl_bind_args *a)
{
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_BIND, 0);
	struct nlattr *nest;
	unsigned int i;

	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, a->ifname);
	mnl_attr_put_u32(nlh, NICTL_A_FLAGS, a->flags);
	if (a->cpus)
		nictl_put_cpus(nlh, NICTL_A_CPUS, a->cpus);
	for (i = 0; i < a->n_place; i++) {
		nest = mnl_attr_nest_start(nlh, NICTL_A_QUEUE_CPU);
		mnl_attr_put_u32(nlh, NICTL_A_QUEUE_CPU_QUEUE, a->place[i].queue);
		mnl_attr_put_u32(nlh, NICTL_A_QUEUE_CPU_CPU, a->place[i].cpu);
		mnl_attr_nest_end(nlh, nest);
	}
	return nlh;
}

/*
 * Run a do request whose reply is one message, which it must carry: @cb
 * parses it into @data and sets *@present.
 */
static int reply_transact(struct nl_client *c, struct nlmsghdr *nlh, nl_reply_cb cb, void *data,
			  uint64_t *present, struct nl_result *res)
{
	int ret;

	*present = 0;
	ret = nl_transact(c, nlh, cb, data, res);
	if (!ret && !*present) {
		fprintf(stderr, "# nictl acked without a reply message\n");
		return -EPROTO;
	}
	return ret;
}

static int dev_transact(struct nl_client *c, struct nlmsghdr *nlh, struct nictl_dev *dev,
			struct nl_result *res)
{
	return reply_transact(c, nlh, nictl_dev_cb, dev, &dev->present, res);
}

/* nl_reply_cb of the commands that answer with an ack alone. */
static int no_reply_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)data;
	fprintf(stderr, "# a message (type %u) where only an ack belongs\n", nlh->nlmsg_type);
	return -EPROTO;
}

int nictl_dev_get(struct nl_client *c, const char *ifname, struct nictl_dev *dev,
		  struct nl_result *res)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_DEV_GET, 0);

	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, ifname);
	return dev_transact(c, nlh, dev, res);
}

int nictl_dev_get_in(struct nl_client *c, const char *ifname, int netns_fd,
		     struct nictl_dev *dev, struct nl_result *res)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_DEV_GET, 0);

	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, ifname);
	mnl_attr_put_u32(nlh, NICTL_A_NETNS_FD, netns_fd);
	return dev_transact(c, nlh, dev, res);
}

int nictl_dev_get_index(struct nl_client *c, uint32_t ifindex, struct nictl_dev *dev,
			struct nl_result *res)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_DEV_GET, 0);

	mnl_attr_put_u32(nlh, NICTL_A_IFINDEX, ifindex);
	return dev_transact(c, nlh, dev, res);
}

int nictl_dev_dump(struct nl_client *c, struct nictl_devs *devs, struct nl_result *res)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_DEV_GET, NLM_F_DUMP);

	devs->n = 0;
	return nl_transact(c, nlh, nictl_devs_cb, devs, res);
}

int nictl_bind(struct nl_client *c, const struct nictl_bind_args *a, struct nictl_dev *reply,
	       struct nl_result *res)
{
	char buf[NL_REQ_SIZE];

	return dev_transact(c, nictl_bind_msg(c, buf, a), reply, res);
}

int nictl_restore(struct nl_client *c, const char *ifname, struct nictl_dev *reply,
		  struct nl_result *res)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_RESTORE, 0);

	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, ifname);
	return dev_transact(c, nlh, reply, res);
}

int nictl_stats_get(struct nl_client *c, struct nictl_stats *stats, struct nl_result *res)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_STATS_GET, NLM_F_DUMP);

	stats->n = 0;
	return nl_transact(c, nlh, nictl_stats_cb, stats, res);
}

int nictl_stats_set(struct nl_client *c, bool on, struct nl_result *res)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_STATS_SET, 0);

	mnl_attr_put_u8(nlh, NICTL_A_STATS_ENABLED, on);
	return nl_transact(c, nlh, no_reply_cb, NULL, res);
}

int nictl_stats_reset(struct nl_client *c, struct nl_result *res)
{
	char buf[NL_REQ_SIZE];

	return nl_transact(c, nictl_msg(c, buf, NICTL_CMD_STATS_RESET, 0), no_reply_cb, NULL, res);
}

int nictl_napi_get(struct nl_client *c, const char *ifname, struct nictl_napis *napis,
		   struct nl_result *res)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(c, buf, NICTL_CMD_NAPI_GET, 0);

	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, ifname);
	return reply_transact(c, nlh, nictl_napis_cb, napis, &napis->present, res);
}

/* A NAPI_GET dump being gathered: every message's NAPIs, and how many messages. */
struct napi_dump {
	struct nictl_napis *all;
	struct nictl_napis part;
	unsigned int msgs;
};

static int napi_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct napi_dump *d = data;
	unsigned int i;
	int ret;

	ret = nictl_napis_cb(nlh, &d->part);
	if (ret)
		return ret;
	if (!(d->part.present & ATTR_BIT(NICTL_A_IFINDEX)) ||
	    !(d->part.present & ATTR_BIT(NICTL_A_IFNAME))) {
		fprintf(stderr, "# NAPI_GET message %u does not name its device\n", d->msgs);
		return -EPROTO;
	}
	if (!d->msgs++) {
		*d->all = d->part;
		return 0;
	}
	if (d->part.ifindex != d->all->ifindex || strcmp(d->part.ifname, d->all->ifname)) {
		fprintf(stderr, "# NAPI_GET message %u is about %s (%u), the first about %s (%u)\n",
			d->msgs, d->part.ifname, d->part.ifindex, d->all->ifname,
			d->all->ifindex);
		return -EPROTO;
	}
	if (d->all->n + d->part.n > NICTL_MAX_NAPIS) {
		fprintf(stderr, "# dump has more than %d NAPIs\n", NICTL_MAX_NAPIS);
		return -EPROTO;
	}
	for (i = 0; i < d->part.n; i++)
		d->all->napi[d->all->n++] = d->part.napi[i];
	d->all->present |= d->part.present;
	return 0;
}

int nictl_napi_dump(struct nl_client *c, const char *ifname, struct nictl_napis *napis,
		    unsigned int *msgs, struct nl_result *res)
{
	struct napi_dump *d = calloc(1, sizeof(*d));
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	int ret;

	if (!d)
		return -ENOMEM;
	memset(napis, 0, sizeof(*napis));
	d->all = napis;
	nlh = nictl_msg(c, buf, NICTL_CMD_NAPI_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, ifname);
	ret = nl_transact(c, nlh, napi_dump_cb, d, res);
	if (!ret && !d->msgs) {
		fprintf(stderr, "# NAPI_GET dump of %s ended without a message\n", ifname);
		ret = -EPROTO;
	}
	*msgs = d->msgs;
	free(d);
	return ret;
}

const struct nictl_dev *nictl_devs_find(const struct nictl_devs *devs, const char *ifname)
{
	unsigned int i;

	for (i = 0; i < devs->n; i++)
		if (!strcmp(devs->dev[i].ifname, ifname))
			return &devs->dev[i];
	return NULL;
}

int nictl_open(struct nl_client *c)
{
	return nl_open(c, NICTL_FAMILY_NAME);
}

const struct nictl_irq *nictl_dev_irq(const struct nictl_dev *dev, uint32_t num)
{
	unsigned int i;

	for (i = 0; i < dev->n_irqs; i++)
		if (dev->irqs[i].num == num)
			return &dev->irqs[i];
	return NULL;
}

/* Run @op(@nl) in a child with its own client; it exits 0 when @op returned 0. */
pid_t nictl_fork_op(int (*op)(struct nl_client *nl))
{
	struct nl_client nl;
	pid_t pid = fork_flushed();

	if (pid)
		return pid;
	if (nictl_open(&nl))
		_exit(2);
	_exit(op(&nl) ? 1 : 0);
}

int nictl_op_reset(struct nl_client *nl)
{
	struct nl_result res;
	int ret = nictl_stats_reset(nl, &res);

	if (ret)
		fprintf(stderr, "# STATS_RESET: %s (%s)\n", strerror(-ret), res.msg);
	return ret;
}
