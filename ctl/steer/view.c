// SPDX-License-Identifier: GPL-2.0
/*
 * The steering `show` prints after each device's IRQs.
 *
 * TABLE: indented by two spaces, a line with the host-wide RFS table size,
 * a heading and one row per rx queue, a heading and one row per tx queue,
 * then one "warning:" line per contradiction steer/check.c finds:
 *
 *   steering: net.core.rps_sock_flow_entries 32768
 *     RXQ  IRQ_CPU  NODE  RPS_CPUS  RPS_FLOW_CNT
 *     0    4        1     0-3       16384
 *     TXQ  IRQ_CPU  NODE  XPS_CPUS
 *     0    4        1     4
 *   warning: rx queue 0: rps_cpus has CPUs 0-3 of another node than its IRQ's CPU 4 ...
 *
 * IRQ_CPU is the CPU nictl placed the queue's IRQ on, else its effective
 * CPU when that is one; NODE is that CPU's. Both are "-" when unknown. An
 * empty CPU list is "-"; so are RPS_CPUS and RPS_FLOW_CNT without RPS
 * (no rps_cpus in sysfs: CONFIG_RPS off) and XPS_CPUS without XPS maps (one
 * tx queue). A device without queues of a kind has no heading for it.
 *
 * JSON: a member "steering" of the device's object, an object:
 *
 *   rps_sock_flow_entries  integer, the host-wide RFS table size
 *   rx         array, per rx queue: queue, irq_cpu (or null), node (-1
 *              when unknown), rps_cpus, rps_cpus_list and rps_flow_cnt
 *              (each null without RPS)
 *   tx         array, per tx queue: queue, irq_cpu, node, xps_cpus and
 *              xps_cpus_list (null without XPS maps)
 *   warnings   array, per contradiction: what ("rps-other-node",
 *              "xps-other-node" or "rfs-no-table"), queue, and message
 *              (the text of the table's warning line)
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "show.h"
#include "steer/input.h"
#include "steer/knob.h"
#include "steer/now.h"
#include "steer/print.h"
#include "steer/view.h"
#include "topology.h"

/*
 * Read the steering of every device of @list and check it. 0, or -1 after
 * saying what failed; free @views either way.
 */
int steer_views_read(const struct dev_list *list, struct steer_views *views)
{
	unsigned int i;
	int err;

	*views = (struct steer_views){ .nr = list->nr };
	views->now = calloc(list->nr ?: 1, sizeof(*views->now));
	views->warnings = calloc(list->nr ?: 1, sizeof(*views->warnings));
	if (!views->now || !views->warnings) {
		ctl_msg("out of memory");
		return -1;
	}
	/* Without the nodes the values can still be shown, just not judged. */
	err = steer_topo_read(&views->topo, &views->nr_topo);
	if (err)
		ctl_msg("cannot read the CPUs' nodes from %s: %s; steering is shown unchecked",
			topo_root(), strerror(-err));
	for (i = 0; i < list->nr; i++) {
		if (steer_now_read(&list->devs[i], &views->now[i]))
			return -1;
		if (steer_check(&views->now[i], views->topo, views->nr_topo,
				&views->warnings[i])) {
			ctl_msg("out of memory");
			return -1;
		}
	}
	return 0;
}

void steer_views_free(struct steer_views *views)
{
	unsigned int i;

	for (i = 0; i < views->nr; i++) {
		if (views->now)
			steer_now_free(&views->now[i]);
		if (views->warnings)
			steer_warnings_free(&views->warnings[i]);
	}
	free(views->now);
	free(views->warnings);
	free(views->topo);
	*views = (struct steer_views){ NULL };
}

static int node_of(const struct steer_views *views, int cpu)
{
	return cpu >= 0 && (unsigned int)cpu < views->nr_topo ? views->topo[cpu].node : -1;
}

static void free_lists(char **lists, unsigned int n)
{
	while (n--)
		free(lists[n]);
	free(lists);
}

/* Each queue's CPU list, "-" when empty or when the device has no such file. */
static char **cpu_lists(const struct steer_queue *queues, unsigned int n, bool present)
{
	char **lists = calloc(n ?: 1, sizeof(*lists));
	unsigned int q;

	for (q = 0; lists && q < n; q++) {
		lists[q] = present ? cpuset_format(&queues[q].cpus) : strdup("-");
		if (lists[q] && !*lists[q]) {
			free(lists[q]);
			lists[q] = strdup("-");
		}
		if (!lists[q]) {
			free_lists(lists, q);
			return NULL;
		}
	}
	return lists;
}

/* The widest of @lists and @heading. */
static int width(char *const *lists, unsigned int n, const char *heading)
{
	size_t w = strlen(heading);

	while (n--)
		if (strlen(lists[n]) > w)
			w = strlen(lists[n]);
	return w;
}

/* A queue's "RXQ IRQ_CPU NODE " or "TXQ ..." cells. */
static void print_irq_cells(FILE *f, const struct steer_views *views, unsigned int q, int cpu)
{
	char cpu_buf[16], node_buf[16];

	fprintf(f, "    %-5u%-9s%-6s", q, steer_number(cpu, cpu_buf, sizeof(cpu_buf)),
		steer_number(node_of(views, cpu), node_buf, sizeof(node_buf)));
}

static int print_rx(FILE *f, const struct steer_views *views, const struct steer_now *now)
{
	char **lists = cpu_lists(now->rx, now->rx_queues, now->rps);
	char count[16];
	unsigned int q;
	int w;

	if (!lists)
		return -1;
	w = width(lists, now->rx_queues, "RPS_CPUS");
	if (now->rx_queues)
		fprintf(f, "    %-5s%-9s%-6s%-*s  RPS_FLOW_CNT\n", "RXQ", "IRQ_CPU", "NODE", w,
			"RPS_CPUS");
	for (q = 0; q < now->rx_queues; q++) {
		print_irq_cells(f, views, q, now->rx[q].irq_cpu);
		snprintf(count, sizeof(count), "%u", now->rx[q].flow_cnt);
		fprintf(f, "%-*s  %s\n", w, lists[q], now->rps ? count : "-");
	}
	free_lists(lists, now->rx_queues);
	return 0;
}

static int print_tx(FILE *f, const struct steer_views *views, const struct steer_now *now)
{
	char **lists = cpu_lists(now->tx, now->tx_queues, now->xps);
	unsigned int q;

	if (!lists)
		return -1;
	if (now->tx_queues)
		fprintf(f, "    %-5s%-9s%-6s%s\n", "TXQ", "IRQ_CPU", "NODE", "XPS_CPUS");
	for (q = 0; q < now->tx_queues; q++) {
		print_irq_cells(f, views, q, now->tx[q].irq_cpu);
		fprintf(f, "%s\n", lists[q]);
	}
	free_lists(lists, now->tx_queues);
	return 0;
}

/* The steering of device @i of the list @views was read for, in the table format. */
int steer_view_table(FILE *f, const struct steer_views *views, unsigned int i)
{
	const struct steer_warnings *ws = &views->warnings[i];
	const struct steer_now *now = &views->now[i];
	unsigned int k;
	char *text;

	fprintf(f, "  steering: " FLOW_ENTRIES_NAME " %u\n", now->flow_entries);
	if (print_rx(f, views, now) || print_tx(f, views, now))
		return -1;
	for (k = 0; k < ws->nr; k++) {
		text = steer_warning_text(&ws->w[k]);
		if (!text)
			return -1;
		fprintf(f, "  warning: %s\n", text);
		free(text);
	}
	return 0;
}

/* The "rx" or "tx" array: the queues' values, null where sysfs has no such file. */
static int json_queues(struct json *j, const struct steer_views *views,
		       const struct steer_now *now, bool rx)
{
	const struct steer_queue *queues = rx ? now->rx : now->tx;
	unsigned int q, n = rx ? now->rx_queues : now->tx_queues;
	const char *key = rx ? "rps_cpus" : "xps_cpus";
	const char *list_key = rx ? "rps_cpus_list" : "xps_cpus_list";
	bool present = rx ? now->rps : now->xps;

	json_arr_begin(j, rx ? "rx" : "tx");
	for (q = 0; q < n; q++) {
		json_obj_begin(j, NULL);
		json_int(j, "queue", q);
		steer_json_cpu(j, "irq_cpu", queues[q].irq_cpu);
		json_int(j, "node", node_of(views, queues[q].irq_cpu));
		if (!present) {
			json_null(j, key);
			json_null(j, list_key);
		} else if (show_json_cpus(j, key, list_key, &queues[q].cpus)) {
			return -1;
		}
		if (rx && present)
			json_int(j, "rps_flow_cnt", queues[q].flow_cnt);
		else if (rx)
			json_null(j, "rps_flow_cnt");
		json_obj_end(j);
	}
	json_arr_end(j);
	return 0;
}

static int json_warnings(struct json *j, const struct steer_warnings *ws)
{
	unsigned int k;
	char *text;

	json_arr_begin(j, "warnings");
	for (k = 0; k < ws->nr; k++) {
		text = steer_warning_text(&ws->w[k]);
		if (!text)
			return -1;
		json_obj_begin(j, NULL);
		json_str(j, "what", steer_warning_name(ws->w[k].kind));
		json_int(j, "queue", ws->w[k].queue);
		json_str(j, "message", text);
		json_obj_end(j);
		free(text);
	}
	json_arr_end(j);
	return 0;
}

/* The "steering" member of device @i's object. */
int steer_view_json(struct json *j, const struct steer_views *views, unsigned int i)
{
	const struct steer_now *now = &views->now[i];

	json_obj_begin(j, "steering");
	json_int(j, "rps_sock_flow_entries", now->flow_entries);
	if (json_queues(j, views, now, true) || json_queues(j, views, now, false) ||
	    json_warnings(j, &views->warnings[i]))
		return -1;
	json_obj_end(j);
	return 0;
}
