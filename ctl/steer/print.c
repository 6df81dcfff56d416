// SPDX-License-Identifier: GPL-2.0
/*
 * The steering plan as `bind --steer` prints it, after the device.
 *
 * TABLE: an empty line, then, indented by two spaces, a line naming the
 * steering CPUs and the RFS table size, a heading and one row per rx
 * queue, a heading and one row per tx queue (or the line "tx queues: no
 * XPS maps (one tx queue)"), and one line per run of rx queues saying why
 * RPS is on or off for them:
 *
 *   steering over CPUs 1-3: net.core.rps_sock_flow_entries 32768 (was 4096)
 *     RXQ  IRQ_CPU  NODE  CORES  RPS     RPS_CPUS  RPS_FLOW_CNT
 *     0    1        0     2      spread  1-3       32768
 *     TXQ  IRQ_CPU  XPS_CPUS
 *     0    1        1-3
 *   rx queue 0: 1 rx queues for 2 cores on node 0: RPS spreads each queue's work over them
 *
 * "(was N)" is "(kept)" when the size was not raised. IRQ_CPU and NODE are
 * "-" when unknown, an empty CPU list is "-".
 *
 * JSON: show's document with one more member in the device's object,
 * "steer", an object:
 *
 *   cpus, cpus_list      the steering CPUs, as show prints CPU sets
 *   rps_sock_flow_entries         integer, the size bind sets
 *   rps_sock_flow_entries_before  integer
 *   xps                  boolean, the device has XPS maps
 *   rx                   array, per rx queue: queue, irq_cpu (or null),
 *                        node, cores, rps ("spread" or "off"), why,
 *                        rps_cpus, rps_cpus_list, rps_flow_cnt
 *   tx                   array, per tx queue (empty without XPS maps):
 *                        queue, irq_cpu (or null), xps_cpus, xps_cpus_list
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "show.h"
#include "steer/knob.h"
#include "steer/part.h"
#include "steer/print.h"

#define WHY_LEN		160

/* A CPU or node number, "-" when negative. */
const char *steer_number(int n, char *buf, size_t len)
{
	if (n < 0)
		return "-";
	snprintf(buf, len, "%d", n);
	return buf;
}

static int print_cpus(FILE *f, const char *fmt, const struct cpuset *cpus)
{
	char *list = cpuset_format(cpus);

	if (!list)
		return -1;
	fprintf(f, fmt, *list ? list : "-");
	free(list);
	return 0;
}

static int print_rx(FILE *f, const struct steer_plan *plan)
{
	const struct steer_rxq *rxq;
	char cpu[16], node[16];
	unsigned int q;

	fprintf(f, "    %-5s%-9s%-6s%-7s%-8s%-10s%s\n", "RXQ", "IRQ_CPU", "NODE", "CORES", "RPS",
		"RPS_CPUS", "RPS_FLOW_CNT");
	for (q = 0; q < plan->rx_queues; q++) {
		rxq = &plan->rx[q];
		fprintf(f, "    %-5u%-9s%-6s%-7u%-8s", q,
			steer_number(rxq->irq_cpu, cpu, sizeof(cpu)),
			steer_number(rxq->node, node, sizeof(node)), rxq->cores,
			steer_rps_case_name(rxq->rps_case));
		if (print_cpus(f, "%-10s", &rxq->rps_cpus))
			return -1;
		fprintf(f, "%u\n", rxq->flow_cnt);
	}
	return 0;
}

static int print_tx(FILE *f, const struct steer_plan *plan, bool xps)
{
	char cpu[16];
	unsigned int q;

	if (!xps) {
		fprintf(f, "    tx queues: no XPS maps (one tx queue)\n");
		return 0;
	}
	fprintf(f, "    %-5s%-9s%s\n", "TXQ", "IRQ_CPU", "XPS_CPUS");
	for (q = 0; q < plan->tx_queues; q++) {
		fprintf(f, "    %-5u%-9s", q, steer_number(plan->tx[q].irq_cpu, cpu, sizeof(cpu)));
		if (print_cpus(f, "%s\n", &plan->tx[q].xps_cpus))
			return -1;
	}
	return 0;
}

/* One line per run of rx queues with the same reason, the queues as a list. */
static int print_why(FILE *f, const struct steer_plan *plan)
{
	char why[WHY_LEN], next[WHY_LEN];
	struct cpuset queues = CPUSET_INIT;
	unsigned int q;
	int err = 0;

	for (q = 0; q < plan->rx_queues && !err; q++) {
		steer_rps_why(plan, q, why, sizeof(why));
		err = cpuset_add(&queues, q);
		if (q + 1 < plan->rx_queues)
			steer_rps_why(plan, q + 1, next, sizeof(next));
		if (err || (q + 1 < plan->rx_queues && !strcmp(why, next)))
			continue;
		err = print_cpus(f, cpuset_weight(&queues) > 1 ? "  rx queues %s: " :
				 "  rx queue %s: ", &queues);
		fprintf(f, "%s\n", why);
		cpuset_free(&queues);
	}
	cpuset_free(&queues);
	return err;
}

/* The plan in the table format, after show's table of the device. */
int steer_print_table(FILE *f, const struct steer_plan *plan, bool xps)
{
	int err;

	fputc('\n', f);
	err = print_cpus(f, "  steering over CPUs %s: ", &plan->cpus);
	fprintf(f, FLOW_ENTRIES_NAME " %u ", plan->flow_entries);
	if (plan->flow_entries > plan->flow_entries_before)
		fprintf(f, "(was %u)\n", plan->flow_entries_before);
	else
		fprintf(f, "(kept)\n");
	err = err ?: print_rx(f, plan);
	err = err ?: print_tx(f, plan, xps);
	err = err ?: print_why(f, plan);
	if (err)
		ctl_msg("out of memory");
	return err;
}

static int describe_rx(FILE *f, const struct steer_plan *plan, unsigned int parts)
{
	unsigned int q;

	if (parts & STEER_RPS) {
		fprintf(f, "rps");
		for (q = 0; q < plan->rx_queues; q++)
			if (print_cpus(f, q ? ", %s" : " %s", &plan->rx[q].rps_cpus))
				return -1;
	}
	if (parts & STEER_RFS)
		fprintf(f, "%srfs %u per rx queue (" FLOW_ENTRIES_NAME " %u)",
			parts & STEER_RPS ? "; " : "",
			plan->rx_queues ? plan->rx[0].flow_cnt : 0, plan->flow_entries);
	return 0;
}

/*
 * The @parts of @plan that were set, on one line for a log: "rps 4-7;
 * rfs 32768 per rx queue (net.core.rps_sock_flow_entries 32768); xps 4-5,
 * 6-7", the masks in queue order, "-" for an empty one (RPS off).
 */
int steer_describe(FILE *f, const struct steer_plan *plan, unsigned int parts, bool xps)
{
	unsigned int q;

	if (describe_rx(f, plan, parts))
		return -1;
	if (!(parts & STEER_XPS))
		return 0;
	fprintf(f, "%sxps", parts & (STEER_RPS | STEER_RFS) ? "; " : "");
	if (!xps)
		fprintf(f, ": no maps (one tx queue)");
	for (q = 0; xps && q < plan->tx_queues; q++)
		if (print_cpus(f, q ? ", %s" : " %s", &plan->tx[q].xps_cpus))
			return -1;
	return 0;
}

/* A CPU number, null when negative. */
void steer_json_cpu(struct json *j, const char *key, int cpu)
{
	if (cpu < 0)
		json_null(j, key);
	else
		json_int(j, key, cpu);
}

static int json_rx(struct json *j, const struct steer_plan *plan)
{
	const struct steer_rxq *rxq;
	char why[WHY_LEN];
	unsigned int q;

	json_arr_begin(j, "rx");
	for (q = 0; q < plan->rx_queues; q++) {
		rxq = &plan->rx[q];
		steer_rps_why(plan, q, why, sizeof(why));
		json_obj_begin(j, NULL);
		json_int(j, "queue", q);
		steer_json_cpu(j, "irq_cpu", rxq->irq_cpu);
		json_int(j, "node", rxq->node);
		json_int(j, "cores", rxq->cores);
		json_str(j, "rps", steer_rps_case_name(rxq->rps_case));
		json_str(j, "why", why);
		if (show_json_cpus(j, "rps_cpus", "rps_cpus_list", &rxq->rps_cpus))
			return -1;
		json_int(j, "rps_flow_cnt", rxq->flow_cnt);
		json_obj_end(j);
	}
	json_arr_end(j);
	return 0;
}

static int json_tx(struct json *j, const struct steer_plan *plan, bool xps)
{
	unsigned int q;

	json_arr_begin(j, "tx");
	for (q = 0; xps && q < plan->tx_queues; q++) {
		json_obj_begin(j, NULL);
		json_int(j, "queue", q);
		steer_json_cpu(j, "irq_cpu", plan->tx[q].irq_cpu);
		if (show_json_cpus(j, "xps_cpus", "xps_cpus_list", &plan->tx[q].xps_cpus))
			return -1;
		json_obj_end(j);
	}
	json_arr_end(j);
	return 0;
}

struct json_arg {
	const struct nictl_dev *dev;
	const struct steer_plan *plan;
	bool xps;
};

static int json_doc(struct json *j, const void *arg)
{
	const struct json_arg *a = arg;

	json_arr_begin(j, NULL);
	json_obj_begin(j, NULL);
	if (show_json_dev_members(j, a->dev))
		return -1;
	json_obj_begin(j, "steer");
	if (show_json_cpus(j, "cpus", "cpus_list", &a->plan->cpus))
		return -1;
	json_int(j, "rps_sock_flow_entries", a->plan->flow_entries);
	json_int(j, "rps_sock_flow_entries_before", a->plan->flow_entries_before);
	json_bool(j, "xps", a->xps);
	if (json_rx(j, a->plan) || json_tx(j, a->plan, a->xps))
		return -1;
	json_obj_end(j);
	json_obj_end(j);
	json_arr_end(j);
	return 0;
}

/* show's JSON document of @dev, with the plan in it. */
int steer_print_json(FILE *f, const struct nictl_dev *dev, const struct steer_plan *plan,
		     bool xps)
{
	struct json_arg arg = { dev, plan, xps };

	return json_print_doc(f, json_doc, &arg);
}
