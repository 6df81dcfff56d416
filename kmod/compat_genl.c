// SPDX-License-Identifier: GPL-2.0
/*
 * 6.1's genetlink header check for older kernels: a non-zero reserved field or netlink flags
 * without meaning are refused in the family's pre_doit and each dump's start, after the
 * permission and attribute checks 6.1 makes later (a request failing both is refused for either).
 */
#include <net/genetlink.h>

#include "nictl.h"

static int nictl_genl_header_check(const struct nlmsghdr *nlh, struct netlink_ext_ack *extack)
{
	const struct genlmsghdr *hdr = nlmsg_data(nlh);
	u16 flags = nlh->nlmsg_flags;

	if (hdr->reserved) {
		NL_SET_ERR_MSG(extack, "genlmsghdr.reserved field is not 0");
		return -EINVAL;
	}
	/* NLM_F_DUMP is two bits, which only mean a dump together. */
	if ((flags & NLM_F_DUMP) == NLM_F_DUMP)
		flags &= ~NLM_F_DUMP;
	if (flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO)) {
		NL_SET_ERR_MSG(extack, "ambiguous or reserved bits set in nlmsg_flags");
		return -EINVAL;
	}
	return 0;
}

int nictl_genl_pre_doit(const struct genl_ops *ops, struct sk_buff *skb, struct genl_info *info)
{
	return nictl_genl_header_check(info->nlhdr, info->extack);
}

/* Without a message: before 6.1 a dump's start has no extack. */
int nictl_genl_dump_start(struct netlink_callback *cb)
{
	return nictl_genl_header_check(cb->nlh, cb->extack);
}
