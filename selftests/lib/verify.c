// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "irqs.h"
#include "netdev.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

/* Bursts of frames to wait for before a deferred move counts as lost. */
#define TRAFFIC_ROUNDS	10

#define IRQ_ATTRS_ALWAYS (ATTR_BIT(NICTL_A_IRQ_NUM) | ATTR_BIT(NICTL_A_IRQ_NAME) | \
			  ATTR_BIT(NICTL_A_IRQ_QUEUE) | ATTR_BIT(NICTL_A_IRQ_KIND) | \
			  ATTR_BIT(NICTL_A_IRQ_AFFINITY) | ATTR_BIT(NICTL_A_IRQ_EFFECTIVE) | \
			  ATTR_BIT(NICTL_A_IRQ_FLAGS) | ATTR_BIT(NICTL_A_IRQ_NODE) | \
			  ATTR_BIT(NICTL_A_IRQ_GROUP) | ATTR_BIT(NICTL_A_IRQ_QUEUE_REF))

static bool cpus_match(const struct nictl_irq *irq, const char *what, const struct cpus *got,
		       const struct cpus *want)
{
	char a[CPUS_LIST_LEN], b[CPUS_LIST_LEN];

	if (cpus_equal(got, want))
		return true;
	cpus_format(got, a, sizeof(a));
	cpus_format(want, b, sizeof(b));
	fprintf(stderr, "# IRQ %u (%s): nictl says %s '%s', /proc says '%s'\n",
		irq->num, irq->name, what, a, b);
	return false;
}

static bool irq_matches_proc(const struct nictl_irq *irq, size_t mask_len)
{
	struct cpus mask, eff;
	int first, node;
	bool ok = true;

	if ((irq->present & IRQ_ATTRS_ALWAYS) != IRQ_ATTRS_ALWAYS) {
		fprintf(stderr, "# IRQ %u (%s): attributes missing (have %#llx)\n",
			irq->num, irq->name, (unsigned long long)irq->present);
		return false;
	}
	if (irq_affinity(irq->num, &mask, &eff)) {
		fprintf(stderr, "# IRQ %u (%s): /proc/irq/%u unreadable\n",
			irq->num, irq->name, irq->num);
		return false;
	}
	ok &= cpus_match(irq, "affinity", &irq->affinity, &mask);
	/*
	 * A pending move (x86 moves the IRQ at its next interrupt) may land
	 * between nictl's answer and this read: /proc then shows a CPU of the
	 * new mask, and nictl's effective affinity and node the CPU it left,
	 * which is what nictl saw. Under traffic that is common, not a fault.
	 */
	if ((irq->flags & NICTL_IRQ_F_PENDING) && !cpus_equal(&irq->effective, &eff) &&
	    cpus_subset(&eff, &mask)) {
		fprintf(stderr, "# IRQ %u (%s): its pending move happened since nictl answered\n",
			irq->num, irq->name);
		eff = irq->effective;
	}
	ok &= cpus_match(irq, "effective affinity", &irq->effective, &eff);
	if (irq->affinity_len != mask_len || irq->effective_len != mask_len) {
		fprintf(stderr, "# IRQ %u: bitmaps of %zu/%zu bytes, want %zu\n", irq->num,
			irq->affinity_len, irq->effective_len, mask_len);
		ok = false;
	}
	first = cpus_first(&eff);
	node = first < 0 ? -1 : cpu_node(first);
	if (irq->node != node) {
		fprintf(stderr, "# IRQ %u: node %d, but CPU %d is on node %d\n",
			irq->num, irq->node, first, node);
		ok = false;
	}
	return ok;
}

bool dev_matches_proc(const struct nictl_dev *dev)
{
	int nr_cpu_ids = sys_nr_cpu_ids();
	unsigned int i;
	bool ok = nr_cpu_ids > 0;

	for (i = 0; ok && i < dev->n_irqs; i++)
		ok &= irq_matches_proc(&dev->irqs[i], (nr_cpu_ids + 7) / 8);
	return ok;
}

/* The /proc side of one placed IRQ: its mask is exactly {target}. */
bool queue_irqs_match_proc(const struct nictl_dev *dev, const char *prefix)
{
	struct queue_irq want[NICTL_MAX_IRQS];
	const struct proc_irq *line;
	const struct nictl_irq *got;
	struct proc_irqs *proc = malloc(sizeof(*proc));
	unsigned int n = 0, served = 0, i;
	bool ok;

	ok = proc && !proc_interrupts(proc) &&
	     !proc_queue_irqs(proc, prefix, want, NICTL_MAX_IRQS, &n);
	if (!ok)
		fprintf(stderr, "# cannot read the queue IRQs of %s in /proc/interrupts\n", prefix);
	for (i = 0; ok && i < n; i++)
		served += want[i].kind == NICTL_QUEUE_KIND_COMBINED ? 2 : 1;
	/* Both directions of every queue: nothing to compare would prove nothing. */
	if (ok && (served != dev->rx_queues + dev->tx_queues || n != dev->n_irqs)) {
		fprintf(stderr, "# %s: %u IRQs in /proc/interrupts serve %u rx and tx queues; "
			"nictl lists %u IRQs for %u + %u queues\n", dev->ifname, n, served,
			dev->n_irqs, dev->rx_queues, dev->tx_queues);
		ok = false;
	}
	for (i = 0; ok && i < n; i++) {
		got = &dev->irqs[i];
		line = proc_irqs_find(proc, got->num);
		if (want[i].irq != got->num || strcmp(want[i].name, got->name) ||
		    want[i].queue != got->queue || want[i].kind != got->kind || !line ||
		    !proc_irq_has_name(line, got->name)) {
			fprintf(stderr, "# %s: nictl lists IRQ %u '%s' queue %u kind %u; "
				"/proc/interrupts has IRQ %u '%s' queue %u kind %u there\n",
				dev->ifname, got->num, got->name, got->queue, got->kind,
				want[i].irq, want[i].name, want[i].queue, want[i].kind);
			ok = false;
		}
	}
	free(proc);
	return ok;
}

static bool irq_placed(const struct nictl_irq *irq, const struct cpus *allowed)
{
	struct cpus mask, want;

	if (!(irq->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU)) ||
	    !(irq->flags & NICTL_IRQ_F_BOUND)) {
		fprintf(stderr, "# IRQ %u (%s) is not marked bound with a target CPU\n",
			irq->num, irq->name);
		return false;
	}
	if (!cpus_test(allowed, irq->target_cpu)) {
		fprintf(stderr, "# IRQ %u (%s) placed on CPU %u, outside the allowed set\n",
			irq->num, irq->name, irq->target_cpu);
		return false;
	}
	if (irq_affinity(irq->num, &mask, NULL))
		return false;
	cpus_zero(&want);
	cpus_set(&want, irq->target_cpu);
	return cpus_match(irq, "target (vs mask)", &want, &mask);
}

/*
 * Whether each IRQ's effective affinity in /proc is its target CPU. With
 * @fired (each IRQ's count before the traffic), each one that is not is
 * reported with whether it fired since: if not, its move still waits for
 * its next interrupt (see traffic.h); if so, the move itself went wrong.
 */
static bool effective_on_target(const struct nictl_dev *dev, const unsigned long long *fired)
{
	const struct nictl_irq *irq;
	struct cpus mask, eff, want;
	unsigned long long now;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < dev->n_irqs; i++) {
		irq = &dev->irqs[i];
		if (irq_affinity(irq->num, &mask, &eff))
			return false;
		cpus_zero(&want);
		cpus_set(&want, irq->target_cpu);
		if (cpus_equal(&want, &eff))
			continue;
		ok = false;
		if (!fired)
			continue;
		cpus_match(irq, "target (vs effective, after traffic)", &want, &eff);
		if (irq_count(irq->num, &now))
			continue;
		if (now == fired[i])
			fprintf(stderr, "# IRQ %u (%s) did not fire during the traffic, want at "
				"least once: its move waits for that\n", irq->num, irq->name);
		else
			fprintf(stderr, "# IRQ %u (%s) fired %llu times during the traffic, yet "
				"did not move\n", irq->num, irq->name, now - fired[i]);
	}
	return ok;
}

bool effective_follows(const struct nictl_dev *dev)
{
	unsigned long long fired[NICTL_MAX_IRQS];
	unsigned int i;
	int round;

	for (i = 0; i < dev->n_irqs; i++)
		if (irq_count(dev->irqs[i].num, &fired[i]))
			fired[i] = 0;
	for (round = 0; round < TRAFFIC_ROUNDS; round++) {
		if (effective_on_target(dev, NULL))
			return true;
		if (traffic_burst(test_nics))
			break;
	}
	return effective_on_target(dev, fired);
}

/* Two IRQs of @dev: one queue shares a CPU, different queues keep apart. */
static bool pair_ok(const struct nictl_irq *x, const struct nictl_irq *y, bool distinct_cores)
{
	struct cpus core;

	if (x->queue == y->queue) {
		if (x->target_cpu == y->target_cpu)
			return true;
		fprintf(stderr, "# queue %u is split over CPUs %u and %u\n", x->queue,
			x->target_cpu, y->target_cpu);
		return false;
	}
	if (x->target_cpu == y->target_cpu) {
		fprintf(stderr, "# queues %u and %u share CPU %u\n", x->queue, y->queue,
			x->target_cpu);
		return false;
	}
	if (!distinct_cores)
		return true;
	if (cpu_core(x->target_cpu, &core))
		return false;
	if (!cpus_test(&core, y->target_cpu))
		return true;
	fprintf(stderr, "# queues %u and %u share a core (CPUs %u, %u)\n", x->queue, y->queue,
		x->target_cpu, y->target_cpu);
	return false;
}

bool masks_placed(const struct nictl_dev *dev, const struct cpus *allowed, bool distinct_cores)
{
	unsigned int i, j;
	bool ok = dev->n_irqs > 0;

	if (!ok)
		fprintf(stderr, "# %s: no queue IRQs to place\n", dev->ifname);
	for (i = 0; i < dev->n_irqs; i++)
		ok &= irq_placed(&dev->irqs[i], allowed);
	for (i = 0; ok && i < dev->n_irqs; i++)
		for (j = i + 1; j < dev->n_irqs; j++)
			ok &= pair_ok(&dev->irqs[i], &dev->irqs[j], distinct_cores);
	return ok;
}

bool placement_ok(const struct nictl_dev *dev, const struct cpus *allowed, bool distinct_cores)
{
	return masks_placed(dev, allowed, distinct_cores) && effective_follows(dev);
}

bool dev_unbound(const struct nictl_dev *dev)
{
	unsigned int i;
	bool ok = !(dev->dev_flags & NICTL_DEV_F_BOUND);

	for (i = 0; i < dev->n_irqs; i++)
		ok &= !(dev->irqs[i].flags & NICTL_IRQ_F_BOUND) &&
		      !(dev->irqs[i].present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU));
	if (!ok)
		fprintf(stderr, "# %s is still reported as bound\n", dev->ifname);
	return ok;
}

bool same_targets(const struct nictl_dev *a, const struct nictl_dev *b)
{
	unsigned int i;

	if (a->n_irqs != b->n_irqs) {
		fprintf(stderr, "# %u IRQs vs %u\n", a->n_irqs, b->n_irqs);
		return false;
	}
	for (i = 0; i < a->n_irqs; i++) {
		if (a->irqs[i].num == b->irqs[i].num &&
		    a->irqs[i].target_cpu == b->irqs[i].target_cpu &&
		    (a->irqs[i].present & b->irqs[i].present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU)))
			continue;
		fprintf(stderr, "# IRQ %u -> CPU %u vs IRQ %u -> CPU %u\n", a->irqs[i].num,
			a->irqs[i].target_cpu, b->irqs[i].num, b->irqs[i].target_cpu);
		return false;
	}
	return true;
}

void target_cpus(const struct nictl_dev *dev, struct cpus *s)
{
	unsigned int i;

	cpus_zero(s);
	for (i = 0; i < dev->n_irqs; i++)
		if (dev->irqs[i].present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU))
			cpus_set(s, dev->irqs[i].target_cpu);
}

bool refused(int ret, const struct nl_result *res, int err, bool need_msg,
	     const struct irq_snapshot *before)
{
	bool ok = true;
	int changed;

	if (ret != -err || res->err != err) {
		fprintf(stderr, "# want %s from the kernel, got %d (kernel errno %d, '%s')\n",
			strerror(err), ret, res->err, res->msg);
		ok = false;
	}
	if (need_msg && !res->msg[0]) {
		fprintf(stderr, "# no extack message with %s\n", strerror(err));
		ok = false;
	}
	changed = irq_snapshot_changes(before);
	if (changed < 0)
		fprintf(stderr, "# cannot read the IRQ affinities: %s\n", strerror(-changed));
	else if (changed)
		fprintf(stderr, "# the request changed %d IRQs\n", changed);
	return ok && !changed;
}

bool points_at(const struct nl_result *res, const struct nlmsghdr *nlh, const struct nlattr *attr)
{
	if (res->has_offs && res->offs == nl_attr_offset(nlh, attr))
		return true;
	fprintf(stderr, "# error offset %s%u, the attribute is at %u\n",
		res->has_offs ? "" : "(none) ", res->offs, nl_attr_offset(nlh, attr));
	return false;
}

bool mentions_number(const char *msg, unsigned long n)
{
	const char *p = msg;
	char *end;

	while (*p) {
		if (!isdigit((unsigned char)*p)) {
			p++;
			continue;
		}
		if (strtoul(p, &end, 10) == n && (p == msg || !isdigit((unsigned char)p[-1])))
			return true;
		p = end;
	}
	return false;
}
