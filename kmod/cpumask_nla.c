// SPDX-License-Identifier: GPL-2.0
/* CPU sets on the wire: CPU n is bit n % 8 of byte n / 8, whatever the word size or byte order. */
#include <net/netlink.h>

#include "nictl.h"

static unsigned int nictl_cpumask_bytes(void)
{
	return DIV_ROUND_UP(nr_cpu_ids, BITS_PER_BYTE);
}

size_t nictl_nla_cpumask_size(void)
{
	return nla_total_size(nictl_cpumask_bytes());
}

int nictl_nla_put_cpumask(struct sk_buff *skb, int attrtype, const struct cpumask *mask)
{
	unsigned int len = nictl_cpumask_bytes(), cpu;
	struct nlattr *attr;
	u8 *bytes;

	attr = nla_reserve(skb, attrtype, len);
	if (!attr)
		return -EMSGSIZE;
	bytes = nla_data(attr);
	memset(bytes, 0, len);
	for_each_cpu(cpu, mask)
		bytes[cpu / BITS_PER_BYTE] |= BIT(cpu % BITS_PER_BYTE);
	return 0;
}

/**
 * nictl_nla_get_cpumask() - read a CPU set from a request
 * @attr: the attribute
 * @mask: receives the CPUs
 * @extack: names the first CPU that does not exist, or an empty set
 *
 * Return: 0 or -EINVAL.
 */
int nictl_nla_get_cpumask(const struct nlattr *attr, struct cpumask *mask,
			  struct netlink_ext_ack *extack)
{
	unsigned int nbits = nla_len(attr) * BITS_PER_BYTE, cpu;
	const u8 *bytes = nla_data(attr);

	cpumask_clear(mask);
	for (cpu = 0; cpu < nbits; cpu++) {
		if (!(bytes[cpu / BITS_PER_BYTE] & BIT(cpu % BITS_PER_BYTE)))
			continue;
		if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
			NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "CPU %u does not exist", cpu);
			return -EINVAL;
		}
		cpumask_set_cpu(cpu, mask);
	}
	if (cpumask_empty(mask)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "the CPU set is empty");
		return -EINVAL;
	}
	return 0;
}
