// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of steer/check.h. A queue whose IRQ's CPU or node is unknown
 * is not checked for nodes, nor is a CPU sysfs places on no node: nictl
 * warns about what it knows to be wrong, never about what it cannot tell.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "steer/check.h"
#include "steer/knob.h"

static int node_of(const struct steer_cpu *topo, unsigned int nr_topo, int cpu)
{
	return cpu >= 0 && (unsigned int)cpu < nr_topo ? topo[cpu].node : -1;
}

static int add(struct steer_warnings *ws, const struct steer_warning *w)
{
	struct steer_warning *grown = realloc(ws->w, (ws->nr + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	ws->w = grown;
	ws->w[ws->nr++] = *w;
	return 0;
}

/*
 * Warn with @kind about queue @q when its set holds CPUs of another node
 * than its IRQ's CPU.
 */
static int check_node(struct steer_warnings *ws, enum steer_warning_kind kind, unsigned int q,
		      const struct steer_queue *sq, const struct steer_cpu *topo,
		      unsigned int nr_topo)
{
	struct steer_warning w = {
		.kind = kind,
		.queue = q,
		.irq_cpu = sq->irq_cpu,
		.node = node_of(topo, nr_topo, sq->irq_cpu),
		.far = CPUSET_INIT,
	};
	int cpu, node, err = 0;

	if (w.node < 0)
		return 0;
	cpuset_for_each(cpu, &sq->cpus) {
		node = node_of(topo, nr_topo, cpu);
		if (node >= 0 && node != w.node)
			err = err ?: cpuset_add(&w.far, cpu);
	}
	if (!err && !cpuset_empty(&w.far)) {
		err = add(ws, &w);
		if (!err)
			return 0;	/* @ws owns w.far now */
	}
	cpuset_free(&w.far);
	return err;
}

/* RFS counts on a queue do nothing while the host-wide table has no entry. */
static int check_rfs(struct steer_warnings *ws, unsigned int q, const struct steer_queue *sq,
		     unsigned int flow_entries)
{
	struct steer_warning w = {
		.kind = STEER_WARN_RFS_TABLE,
		.queue = q,
		.irq_cpu = sq->irq_cpu,
		.node = -1,
		.far = CPUSET_INIT,
		.flow_cnt = sq->flow_cnt,
	};

	return sq->flow_cnt && !flow_entries ? add(ws, &w) : 0;
}

/*
 * Every contradiction in @now, the steering of a device, on the machine
 * @topo describes (its first @nr_topo CPUs), into @out: per rx queue RPS
 * then RFS, then per tx queue XPS. 0 or -ENOMEM; free @out either way.
 */
int steer_check(const struct steer_now *now, const struct steer_cpu *topo, unsigned int nr_topo,
		struct steer_warnings *out)
{
	unsigned int q;
	int err = 0;

	*out = (struct steer_warnings){ NULL, 0 };
	for (q = 0; now->rps && q < now->rx_queues && !err; q++)
		err = check_node(out, STEER_WARN_RPS_NODE, q, &now->rx[q], topo, nr_topo) ?:
		      check_rfs(out, q, &now->rx[q], now->flow_entries);
	for (q = 0; now->xps && q < now->tx_queues && !err; q++)
		err = check_node(out, STEER_WARN_XPS_NODE, q, &now->tx[q], topo, nr_topo);
	return err;
}

void steer_warnings_free(struct steer_warnings *ws)
{
	unsigned int i;

	for (i = 0; i < ws->nr; i++)
		cpuset_free(&ws->w[i].far);
	free(ws->w);
	*ws = (struct steer_warnings){ NULL, 0 };
}

/* The kind as JSON names it. */
const char *steer_warning_name(enum steer_warning_kind kind)
{
	switch (kind) {
	case STEER_WARN_RPS_NODE:
		return "rps-other-node";
	case STEER_WARN_XPS_NODE:
		return "xps-other-node";
	case STEER_WARN_RFS_TABLE:
		return "rfs-no-table";
	}
	return "unknown";
}

/* The warning as one line, what to do included; malloc'ed, NULL when out of memory. */
char *steer_warning_text(const struct steer_warning *w)
{
	char *far = cpuset_format(&w->far), *text = NULL;
	int n = -1;

	if (!far)
		return NULL;
	switch (w->kind) {
	case STEER_WARN_RPS_NODE:
		n = asprintf(&text, "rx queue %u: rps_cpus has CPUs %s of another node than its "
			     "IRQ's CPU %d (node %d): RPS moves its packets across nodes; steer it "
			     "to node %d (bind --steer)", w->queue, far, w->irq_cpu, w->node,
			     w->node);
		break;
	case STEER_WARN_XPS_NODE:
		n = asprintf(&text, "tx queue %u: xps_cpus has CPUs %s of another node than its "
			     "IRQ's CPU %d (node %d): they send on a far queue; map them to a "
			     "queue of their node (bind --steer)", w->queue, far, w->irq_cpu,
			     w->node);
		break;
	case STEER_WARN_RFS_TABLE:
		n = asprintf(&text, "rx queue %u: rps_flow_cnt is %u but " FLOW_ENTRIES_NAME
			     " is 0: RFS cannot work; raise it (bind --steer sets %u)", w->queue,
			     w->flow_cnt, STEER_FLOW_ENTRIES);
		break;
	}
	free(far);
	return n < 0 ? NULL : text;
}
