// SPDX-License-Identifier: GPL-2.0
/* What a bind asks for: a CPU set or a per-queue placement, and flags; sticky bindings copy it. */
#include <linux/slab.h>
#include <net/genetlink.h>

#include "nictl.h"

/* Exactly one way of saying where the queues go. */
static int nictl_request_check_target(const struct genl_info *info)
{
	struct nlattr *cpus = info->attrs[NICTL_A_CPUS];
	struct nlattr *placement = info->attrs[NICTL_A_QUEUE_CPU];

	if (cpus && placement) {
		NL_SET_ERR_MSG_ATTR(info->extack, placement,
				    "give a CPU set or a queue placement, not both");
		return -EINVAL;
	}
	if (!cpus && !placement) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, NICTL_A_CPUS);
		NL_SET_ERR_MSG(info->extack, "a CPU set or a queue placement is needed");
		return -EINVAL;
	}
	return 0;
}

/* The queue-cpu entries of @info, in order; the op's policy validated each. */
static int nictl_request_parse_places(const struct genl_info *info, struct nictl_request *req)
{
	struct nlattr *tb[NICTL_A_QUEUE_CPU_MAX + 1];
	const struct nlattr *entry;
	unsigned int n = 0;
	int rem, err;

	nlmsg_for_each_attr(entry, info->nlhdr, GENL_HDRLEN, rem)
		if (nla_type(entry) == NICTL_A_QUEUE_CPU)
			n++;
	req->place = kvcalloc(n, sizeof(*req->place), GFP_KERNEL);
	if (!req->place)
		return -ENOMEM;
	nlmsg_for_each_attr(entry, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(entry) != NICTL_A_QUEUE_CPU)
			continue;
		err = nla_parse_nested(tb, NICTL_A_QUEUE_CPU_MAX, entry, NULL, info->extack);
		if (err)
			return err;
		if (NL_REQ_ATTR_CHECK(info->extack, entry, tb, NICTL_A_QUEUE_CPU_QUEUE) ||
		    NL_REQ_ATTR_CHECK(info->extack, entry, tb, NICTL_A_QUEUE_CPU_CPU)) {
			NL_SET_ERR_MSG_ATTR(info->extack, entry,
					    "a queue-cpu entry needs a queue and a cpu");
			return -EINVAL;
		}
		req->place[req->n_place++] = (struct nictl_queue_place) {
			.queue = nla_get_u32(tb[NICTL_A_QUEUE_CPU_QUEUE]),
			.cpu = nla_get_u32(tb[NICTL_A_QUEUE_CPU_CPU]),
			.entry = entry,
			.cpu_attr = tb[NICTL_A_QUEUE_CPU_CPU],
			.queue_attr = tb[NICTL_A_QUEUE_CPU_QUEUE],
		};
	}
	return 0;
}

/**
 * nictl_request_parse() - read what a BIND request asks for
 * @info: the request
 * @req: filled in; free with nictl_request_free(), also on error
 *
 * Return: 0, -EINVAL with extack set, or -ENOMEM.
 */
int nictl_request_parse(const struct genl_info *info, struct nictl_request *req)
{
	struct nlattr *flags = info->attrs[NICTL_A_FLAGS];
	int err;

	memset(req, 0, sizeof(*req));
	req->flags = flags ? nla_get_u32(flags) : 0;
	req->extack = info->extack;
	req->portid = info->snd_portid;
	err = nictl_request_check_target(info);
	if (err)
		return err;
	if (!info->attrs[NICTL_A_CPUS])
		return nictl_request_parse_places(info, req);
	if (!zalloc_cpumask_var(&req->cpus, GFP_KERNEL))
		return -ENOMEM;
	req->has_cpus = true;
	req->cpus_attr = info->attrs[NICTL_A_CPUS];
	return nictl_nla_get_cpumask(req->cpus_attr, req->cpus, info->extack);
}

/**
 * nictl_request_copy() - keep a request beyond its message
 * @dst: filled with what @src asks for, without attributes, reply address, extack or DRY_RUN
 * @src: a parsed request
 *
 * Return: 0 or -ENOMEM (@dst then needs no freeing).
 */
int nictl_request_copy(struct nictl_request *dst, const struct nictl_request *src)
{
	unsigned int i;

	memset(dst, 0, sizeof(*dst));
	dst->flags = src->flags & ~NICTL_BIND_F_DRY_RUN;
	if (src->has_cpus) {
		if (!alloc_cpumask_var(&dst->cpus, GFP_KERNEL))
			return -ENOMEM;
		cpumask_copy(dst->cpus, src->cpus);
		dst->has_cpus = true;
		return 0;
	}
	dst->place = kvcalloc(src->n_place, sizeof(*dst->place), GFP_KERNEL);
	if (!dst->place)
		return -ENOMEM;
	for (i = 0; i < src->n_place; i++) {
		dst->place[i].queue = src->place[i].queue;
		dst->place[i].cpu = src->place[i].cpu;
	}
	dst->n_place = src->n_place;
	return 0;
}

/* @req parsed or copied, or all zero. */
void nictl_request_free(struct nictl_request *req)
{
	if (req->has_cpus)
		free_cpumask_var(req->cpus);
	kvfree(req->place);
	req->has_cpus = false;
	req->place = NULL;
	req->n_place = 0;
}
