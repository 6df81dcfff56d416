// SPDX-License-Identifier: GPL-2.0
/* Steering values from sysfs, and the check of them against the plan. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nictl.h"
#include "steering.h"
#include "sys.h"

/* The smallest table nictl's steering asks for (ctl/steer/plan.h). */
#define PLAN_FLOW_ENTRIES	32768

int queue_file(char *path, size_t len, const char *ifname, const char *dir, unsigned int q,
	       const char *file)
{
	return pathf(path, len, "/sys/class/net/%s/queues/%s-%u/%s", ifname, dir, q, file);
}

unsigned int count_queues(const char *ifname, const char *dir)
{
	char path[256];
	unsigned int n = 0;

	while (!queue_file(path, sizeof(path), ifname, dir, n, "") && !access(path, F_OK))
		n++;
	return n;
}

int steering_read(const char *ifname, struct steering *s)
{
	char path[256];
	unsigned int q;
	int err = 0;

	memset(s, 0, sizeof(*s));
	s->rx = count_queues(ifname, "rx");
	s->tx = count_queues(ifname, "tx");
	if (!s->rx || s->rx > MAX_QUEUES || s->tx > MAX_QUEUES)
		return -ERANGE;
	for (q = 0; q < s->rx && !err; q++) {
		err = queue_file(path, sizeof(path), ifname, "rx", q, "rps_cpus") ?:
		      read_str(path, s->rps_cpus[q], MASK_LEN) ?:
		      queue_file(path, sizeof(path), ifname, "rx", q, "rps_flow_cnt") ?:
		      read_str(path, s->flow_cnt[q], MASK_LEN);
	}
	s->xps = s->tx > 1;
	for (q = 0; s->xps && q < s->tx && !err; q++)
		err = queue_file(path, sizeof(path), ifname, "tx", q, "xps_cpus") ?:
		      read_str(path, s->xps_cpus[q], MASK_LEN);
	return err;
}

int mask_cpus(const char *mask, struct cpus *s)
{
	unsigned int bit = 0;
	const char *p;
	int digit, b;

	cpus_zero(s);
	for (p = mask + strlen(mask); p-- > mask;) {
		if (*p == ',')
			continue;
		if (!isxdigit((unsigned char)*p))
			return -EINVAL;
		digit = isdigit((unsigned char)*p) ? *p - '0' : (*p | 0x20) - 'a' + 10;
		for (b = 0; b < 4; b++, bit++)
			if (digit & (1 << b))
				cpus_set(s, bit);
	}
	return 0;
}

long flow_entries(void)
{
	long v = -1;

	read_long(FLOW_ENTRIES, &v);
	return v;
}


static bool same_value(const char *ifname, const char *what, unsigned int q, const char *want,
		       const char *got)
{
	if (!strcmp(want, got))
		return true;
	fprintf(stderr, "# %s %s of queue %u: want '%s', got '%s'\n", ifname, what, q, want,
		got);
	return false;
}

bool steering_is(const char *ifname, const struct steering *want)
{
	struct steering now;
	unsigned int q;
	bool ok;

	if (steering_read(ifname, &now)) {
		fprintf(stderr, "# cannot read the steering of %s\n", ifname);
		return false;
	}
	ok = now.rx == want->rx && now.tx == want->tx;
	for (q = 0; q < want->rx && ok; q++) {
		ok &= same_value(ifname, "rps_cpus", q, want->rps_cpus[q], now.rps_cpus[q]);
		ok &= same_value(ifname, "rps_flow_cnt", q, want->flow_cnt[q], now.flow_cnt[q]);
	}
	for (q = 0; want->xps && q < want->tx && ok; q++)
		ok &= same_value(ifname, "xps_cpus", q, want->xps_cpus[q], now.xps_cpus[q]);
	return ok;
}

/* How many physical cores the CPUs of @cpus span. */
static unsigned int cores_of(const struct cpus *cpus)
{
	struct cpus seen, core;
	unsigned int n = 0;
	int cpu, sib;

	cpus_zero(&seen);
	for_each_cpu(cpu, cpus) {
		if (cpus_test(&seen, cpu))
			continue;
		n++;
		cpus_set(&seen, cpu);
		if (!cpu_core(cpu, &core))
			for_each_cpu(sib, &core)
				cpus_set(&seen, sib);
	}
	return n;
}

/* @ok; when not and @loud, says why on stderr. */
static bool __attribute__((format(printf, 3, 4))) check(bool ok, bool loud, const char *fmt, ...)
{
	va_list ap;

	if (!ok && loud) {
		fputs("# ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	return ok;
}

/* A mask that is @want; says which is not. */
static bool mask_matches(const char *ifname, const char *what, unsigned int q, const char *mask,
			 const struct cpus *want, bool loud)
{
	char list[CPUS_LIST_LEN];
	struct cpus got;

	if (!mask_cpus(mask, &got) && cpus_equal(&got, want))
		return true;
	cpus_format(want, list, sizeof(list));
	return check(false, loud, "%s: %s of queue %u is '%s', want CPUs '%s'", ifname, what, q,
		     mask, list);
}

static bool rx_follows(const char *ifname, const struct steering *s, const struct cpus *cpus,
		       bool loud)
{
	long entries = flow_entries(), per_queue;
	struct cpus rps = *cpus;
	char want[32];
	unsigned int q;
	bool ok;

	if (s->rx >= cores_of(cpus))
		cpus_zero(&rps);
	per_queue = entries / s->rx;
	/* The kernel rounds a queue's flow count up to a power of two. */
	while (per_queue & (per_queue - 1))
		per_queue += per_queue & -per_queue;
	snprintf(want, sizeof(want), "%ld", per_queue);
	ok = check(entries >= PLAN_FLOW_ENTRIES, loud, "net.core.rps_sock_flow_entries is %ld, "
		   "want %d or more", entries, PLAN_FLOW_ENTRIES);
	for (q = 0; q < s->rx; q++) {
		ok &= mask_matches(ifname, "rps_cpus", q, s->rps_cpus[q], &rps, loud);
		ok &= check(!strcmp(s->flow_cnt[q], want), loud, "%s: rps_flow_cnt of queue %u "
			    "is '%s', want %s", ifname, q, s->flow_cnt[q], want);
	}
	return ok;
}

/* Each CPU of @cpus in exactly one tx queue's map, each queue's IRQ CPU in its own. */
static bool tx_follows(const char *ifname, const struct steering *s, const struct nictl_dev *dev,
		       const struct cpus *cpus, bool loud)
{
	char got[CPUS_LIST_LEN], want[CPUS_LIST_LEN];
	struct cpus all, map;
	unsigned int q, i;
	bool ok = true;
	int cpu;

	cpus_zero(&all);
	for (q = 0; q < s->tx; q++) {
		ok &= check(!mask_cpus(s->xps_cpus[q], &map) && !cpus_intersects(&map, &all), loud,
			    "%s: xps_cpus of queue %u is '%s': not a mask, or CPUs of another "
			    "queue's", ifname, q, s->xps_cpus[q]);
		for (i = 0; i < dev->n_irqs; i++)
			if (dev->irqs[i].kind != NICTL_QUEUE_KIND_RX && dev->irqs[i].queue == q)
				ok &= check(cpus_test(&map, dev->irqs[i].target_cpu), loud,
					    "%s: xps_cpus of queue %u is '%s', without its IRQ's "
					    "CPU %u", ifname, q, s->xps_cpus[q],
					    dev->irqs[i].target_cpu);
		for_each_cpu(cpu, &map)
			cpus_set(&all, cpu);
	}
	cpus_format(&all, got, sizeof(got));
	cpus_format(cpus, want, sizeof(want));
	return check(cpus_equal(&all, cpus), loud, "%s: the XPS maps hold CPUs '%s', want '%s'",
		     ifname, got, want) && ok;
}

bool steering_follows(struct nl_client *nl, const char *ifname, const struct cpus *cpus,
		      bool loud)
{
	struct nictl_dev dev;
	struct nl_result res;
	struct steering s;
	bool rx_ok;

	if (!check(!nictl_dev_get(nl, ifname, &dev, &res) && !steering_read(ifname, &s), loud,
		   "%s: cannot read its IRQs or its steering", ifname))
		return false;
	rx_ok = rx_follows(ifname, &s, cpus, loud);
	return (!s.xps || tx_follows(ifname, &s, &dev, cpus, loud)) && rx_ok;
}
