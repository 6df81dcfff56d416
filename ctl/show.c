// SPDX-License-Identifier: GPL-2.0
/*
 * The show command, and the two formats in which show, bind and restore
 * print devices. Both formats are stable: tests and scripts rely on them.
 *
 * TABLE (default; on stdout)
 *
 * Per device a header line, then a column heading and one row per queue IRQ
 * (each IRQ once) in the kernel's order (lowest queue served, rx before tx
 * before combined), each indented by two spaces; devices are separated by an
 * empty line:
 *
 *   vnode1 (ifindex 3): driver virtio_net, bus 0000:00:04.0, node 1, queues rx 4 tx 4, up,
 *   bound, irqs from napi                        (one line, wrapped here)
 *     QUEUE  KIND      IRQ  NAME             CPUS  EFFECTIVE  NODE  TARGET  FLAGS
 *     0      combined  45   virtio0-input.0  4     4          1     4       bound
 *     1      combined  46   virtio0-input.1  5     5          1     5       bound
 *
 * Header: "<ifname> (ifindex <n>[, netns [<name> ]id <id>]): driver <driver>,
 * bus <bus address>, node <node>, queues rx <n> tx <n>, <up|down>, <bound|not bound>,
 * [sticky as <id>, ][under <uppers>, ]irqs from <msi|napi|msi+napi|none>[ via sysfs]",
 * where a missing driver or bus address is "-" and an unknown node "?";
 * "sticky as" names the identity the kernel keeps the device's sticky
 * binding under; "under" the devices stacked on it (a bond, VLAN); "netns"
 * the namespace of a device outside the initial one, by its name under
 * /run/netns (else as -n or --netns named it) and its id. "via sysfs": the
 * module is not loaded, and show found the IRQs itself (see "via" below). A stacked device
 * named by the user shows as the line "<name> is stacked on <n> physical
 * device(s):" and a blank line, then each of them.
 * Columns are left-aligned and separated by at least two spaces. QUEUE is
 * the queues the IRQ serves, as a list such as 0 or 0,4 or 0-1. KIND is rx,
 * tx or combined (an IRQ that serves both). CPUS (the affinity) and
 * EFFECTIVE (the effective affinity) are cpulists such as 4-5,7, "-" when
 * empty. NODE is "?" when unknown. TARGET is the CPU nictl placed the IRQ
 * on, "-" if none. FLAGS joins with commas those of "managed", "bound",
 * "pending" (the IRQ moves at its next interrupt; EFFECTIVE is still the
 * old CPU), "shared" (other handlers share the IRQ), "off-target" (nictl
 * placed the IRQ on TARGET, but CPUS is not that CPU alone now: something
 * moved it, or its driver requested it anew, and nothing has put it back
 * yet), "held:<ifname>" (the
 * binding of that other device holds the IRQ), "drifts:<n>" (something
 * else moved the bound IRQ off its target n times) and "fighting" (it did
 * so at least twice, the last time less than FIGHT_WINDOW_S ago: irqbalance
 * or another tool is moving it back and forth) that apply, or is "-".
 * Only NAME can contain spaces
 * (if the driver put some in the IRQ name).
 * A device without queue IRQs has, instead of heading and rows, the line
 * "  no queue IRQs", or "  no queue IRQs; is the device down?" when it is
 * down, or, when it is up and its driver is one whose IRQs nictl cannot
 * tell by name (docs/irq-names.md), "  no queue IRQs: <driver> <why>", e.g.
 * "  no queue IRQs: gve names no IRQ after a queue, and the kernel links
 * no queue to one". When a dump finds no device at all, show prints the line
 * "no network devices with a bus parent".
 * `show` (not bind or restore) prints after each device's rows (or its
 * "no queue IRQs" line) the threads that poll its NAPIs, as
 * napi/threads.c documents, then its steering, as steer/view.c does.
 *
 * JSON (-j; on stdout, one line)
 *
 * One document: an array with one object per device (exactly one for show
 * DEV, bind and restore). Members, in this order:
 *
 *   ifname     string
 *   ifindex    integer
 *   driver     string, or null when the kernel sent none
 *   bus_addr   string, or null when the device is not on PCI
 *   numa_node  integer, -1 when unknown
 *   rx_queues  integer
 *   tx_queues  integer
 *   up         boolean
 *   bound      boolean, nictl holds affinities to restore
 *   sticky_id  string, the identity the kernel keeps the device's sticky
 *              binding under ("pci:0000:01:00.0"), or null when it has none
 *   source     "none", "napi", "msi" or "msi+napi": how the queue IRQs
 *              were found (IRQ names, NAPI links, or names first and links
 *              for the queues no name covers)
 *   via        "module", or "sysfs" where the module is not loaded: show
 *              then reads sysfs, /proc and netdev-genl's NAPI links itself
 *              (direct/discover.c), with the module's classifier, and cannot
 *              know managed IRQs; bound and target_cpu are what a bind
 *              without the module kept in /run/nictl
 *   uppers     array of strings, the devices stacked on it
 *              (["bond0", "bond0.100"]), empty when none is
 *   netns_id   integer, only for a device outside the initial network
 *              namespace: the id the initial namespace has for its own
 *   netns      string or null, with netns_id: the namespace's name under
 *              /run/netns, else what -n or --netns named
 *   irqs       array of objects, one per queue IRQ, in table order:
 *     queue           integer, the lowest queue it serves
 *     kind            "rx", "tx" or "combined"
 *     queues          array of objects, every queue it serves, by queue:
 *       queue         integer
 *       kind          "rx", "tx" or "combined"
 *     group           integer, its placement group: IRQs of one group
 *                     always go to one CPU
 *     irq             integer
 *     name            string, or null when the kernel sent none
 *     affinity        array of CPU numbers, ascending
 *     affinity_list   the same as a cpulist string ("" when empty)
 *     effective       array of CPU numbers, ascending
 *     effective_list  the same as a cpulist string ("" when empty)
 *     node            integer, -1 when unknown
 *     managed         boolean
 *     bound           boolean
 *     pending         boolean, the IRQ moves at its next interrupt
 *     shared          boolean, other handlers share the IRQ
 *     off_target      boolean, as the flag
 *     owner_ifindex   integer, the other device whose binding holds the
 *                     IRQ, or null
 *     drifts          integer, times moved off its target
 *     fighting        boolean, as the flag
 *     target_cpu      integer, or null when nictl placed the IRQ nowhere
 *   napi_threads  object, from `show` only, not for a device of another
 *              network namespace: see napi/threads.c
 *   steering   object, from `show` only: see steer/view.c
 *
 * A kind or source this nictlctl does not know is shown as "unknown".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/nictl.h>

#include "commands.h"
#include "dev.h"
#include "direct/apply.h"
#include "direct/bind.h"
#include "direct/discover.h"
#include "json.h"
#include "napi/threads.h"
#include "netns.h"
#include "report.h"
#include "show.h"
#include "steer/view.h"
#include "util.h"

static const char *const kind_names[__NICTL_QUEUE_KIND_MAX] = {
	[NICTL_QUEUE_KIND_RX]		= "rx",
	[NICTL_QUEUE_KIND_TX]		= "tx",
	[NICTL_QUEUE_KIND_COMBINED]	= "combined",
};

static const char *const source_names[] = {
	[NICTL_IRQ_SOURCE_NONE]	= "none",
	[NICTL_IRQ_SOURCE_NAPI]	= "napi",
	[NICTL_IRQ_SOURCE_MSI]	= "msi",
	[NICTL_IRQ_SOURCE_MSI_NAPI] = "msi+napi",
};

/* "rx", "tx" or "combined": the word every output uses for a queue kind. */
const char *show_kind_name(unsigned int kind)
{
	return kind < __NICTL_QUEUE_KIND_MAX ? kind_names[kind] : "unknown";
}

static const char *source_name(unsigned int source)
{
	return source < ARRAY_SIZE(source_names) ? source_names[source] : "unknown";
}

/*
 * Drivers whose IRQ names do not tell one queue of one netdev from another
 * (the module's classifier says "not a queue" for all of them), with why,
 * for the line of a device that is up and has no queue IRQs: nictl finds
 * its queues only where the kernel links them to IRQs.
 */
static const struct {
	const char *driver;
	const char *why;
} nameless_drivers[] = {
	{ "gve", "names no IRQ after a queue, and the kernel links no queue to one" },
	{ "mana", "shares its IRQs between its netdevs, and the kernel links no queue to one" },
	{ "hv_netvsc", "has no IRQ of its own: its channels interrupt through VMBus" },
	{ "mlx5_core.sf", "shares its IRQs between subfunctions, and the kernel links no queue "
			  "to one" },
};

/* Why an up device of @driver has no queue IRQs, if nictl knows; NULL if not. */
static const char *no_irqs_why(const char *driver)
{
	unsigned int i;

	for (i = 0; driver && i < ARRAY_SIZE(nameless_drivers); i++)
		if (!strcmp(driver, nameless_drivers[i].driver))
			return nameless_drivers[i].why;
	return NULL;
}

enum column {
	COL_QUEUE, COL_KIND, COL_IRQ, COL_NAME, COL_CPUS, COL_EFFECTIVE, COL_NODE, COL_TARGET,
	COL_FLAGS, NR_COLS
};

static const char *const col_names[NR_COLS] = {
	"QUEUE", "KIND", "IRQ", "NAME", "CPUS", "EFFECTIVE", "NODE", "TARGET", "FLAGS"
};

/* A malloc'ed cell; NULL when out of memory, checked once the row is done. */
static __printf(1, 2) char *cell(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

static char *cpus_cell(const struct cpuset *cpus)
{
	char *list = cpuset_format(cpus);
	char *s = list && *list ? cell("%s", list) : cell("-");

	free(list);
	return s;
}

/*
 * Drifts closer together than this, the last one this recent, are someone
 * fighting nictl (irqbalance re-balances every 10 s), not a one-off move.
 */
#define FIGHT_WINDOW_S	300

bool show_irq_fighting(const struct nictl_irq *irq, uint64_t now_ns)
{
	return irq->drifts >= 2 && now_ns - irq->drift_ns < FIGHT_WINDOW_S * 1000000000ULL;
}

static bool irq_fighting(const struct nictl_irq *irq)
{
	struct timespec now;

	return !clock_gettime(CLOCK_MONOTONIC, &now) &&
	       show_irq_fighting(irq, (uint64_t)now.tv_sec * 1000000000ULL + now.tv_nsec);
}

/* QUEUE: the distinct queues an IRQ serves, as "0", "0,4" or "0-3". */
static char *queues_cell(const struct nictl_irq *irq)
{
	unsigned int k, q, first = 0, last = 0;
	bool open = false;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (k = 0; k <= irq->nr_queues; k++) {
		q = k < irq->nr_queues ? irq->queues[k].queue : 0;
		if (open && k < irq->nr_queues && (q == last || q == last + 1)) {
			last = q;
			continue;
		}
		if (open)
			fprintf(f, last == first ? "%s%u" : "%s%u-%u", ftell(f) ? "," : "", first,
				last);
		first = last = q;
		open = true;
	}
	if (fclose(f))
		return NULL;
	return text;
}

/* FLAGS: the names of the IRQ's flags joined by commas, or "-". */
static char *flags_cell(const struct nictl_irq *irq)
{
	static const struct {
		unsigned int flag;
		const char *name;
	} names[] = {
		{ NICTL_IRQ_F_MANAGED, "managed" },
		{ NICTL_IRQ_F_BOUND, "bound" },
		{ NICTL_IRQ_F_PENDING, "pending" },
		{ NICTL_IRQ_F_SHARED, "shared" },
	};
	char owner[IF_NAMESIZE];
	char *text = NULL;
	size_t i, len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (irq->flags & names[i].flag)
			fprintf(f, "%s%s", ftell(f) ? "," : "", names[i].name);
	if (dev_irq_off_target(irq))
		fprintf(f, "%soff-target", ftell(f) ? "," : "");
	if (irq->owner_ifindex && if_indextoname(irq->owner_ifindex, owner))
		fprintf(f, "%sheld:%s", ftell(f) ? "," : "", owner);
	else if (irq->owner_ifindex)
		fprintf(f, "%sheld:ifindex-%u", ftell(f) ? "," : "", irq->owner_ifindex);
	if (irq->drifts)
		fprintf(f, "%sdrifts:%u", ftell(f) ? "," : "", irq->drifts);
	if (irq_fighting(irq))
		fprintf(f, "%sfighting", ftell(f) ? "," : "");
	if (!ftell(f))
		fputc('-', f);
	if (fclose(f))
		return NULL;
	return text;
}

/* Fill @row with the cells of @irq; false when out of memory. */
static bool fill_row(char **row, const struct nictl_irq *irq)
{
	int i;

	row[COL_QUEUE] = queues_cell(irq);
	row[COL_KIND] = cell("%s", show_kind_name(irq->kind));
	row[COL_IRQ] = cell("%u", irq->irq);
	row[COL_NAME] = cell("%s", irq->name ?: "-");
	row[COL_CPUS] = cpus_cell(&irq->affinity);
	row[COL_EFFECTIVE] = cpus_cell(&irq->effective);
	row[COL_NODE] = irq->node < 0 ? cell("?") : cell("%d", irq->node);
	row[COL_TARGET] = irq->target_cpu < 0 ? cell("-") : cell("%d", irq->target_cpu);
	row[COL_FLAGS] = flags_cell(irq);
	for (i = 0; i < NR_COLS; i++)
		if (!row[i])
			return false;
	return true;
}

static void print_row(FILE *f, const char *const *row, const int *width)
{
	int i;

	fputs("  ", f);
	for (i = 0; i < NR_COLS - 1; i++)
		fprintf(f, "%-*s  ", width[i], row[i]);
	fprintf(f, "%s\n", row[NR_COLS - 1]);
}

static int print_irqs(FILE *f, const struct nictl_dev *dev)
{
	char **rows = calloc((size_t)dev->nr_irqs * NR_COLS, sizeof(*rows));
	int width[NR_COLS], i, err = 0;
	unsigned int r;

	if (!rows)
		return -1;
	for (i = 0; i < NR_COLS; i++)
		width[i] = strlen(col_names[i]);
	for (r = 0; r < dev->nr_irqs && !err; r++) {
		if (!fill_row(rows + r * NR_COLS, &dev->irqs[r]))
			err = -1;
		for (i = 0; i < NR_COLS && !err; i++)
			if ((int)strlen(rows[r * NR_COLS + i]) > width[i])
				width[i] = strlen(rows[r * NR_COLS + i]);
	}
	if (!err) {
		print_row(f, col_names, width);
		for (r = 0; r < dev->nr_irqs; r++)
			print_row(f, (const char *const *)rows + r * NR_COLS, width);
	}
	for (r = 0; r < dev->nr_irqs * NR_COLS; r++)
		free(rows[r]);
	free(rows);
	return err;
}

static int print_dev(FILE *f, const struct nictl_dev *dev)
{
	bool up = dev->flags & NICTL_DEV_F_UP;

	char ns[256];
	const char *ns_name = dev->other_netns ?
			      ctl_netns_name_for(dev->netns_id, ns, sizeof(ns)) : NULL;

	fprintf(f, "%s (ifindex %u", dev->ifname, dev->ifindex);
	if (ns_name)
		fprintf(f, ", netns %s id %d", ns_name, dev->netns_id);
	else if (dev->other_netns)
		fprintf(f, ", netns id %d", dev->netns_id);
	fprintf(f, "): driver %s, bus %s, ", dev->driver ?: "-", dev->bus_addr ?: "-");
	if (dev->numa_node < 0)
		fputs("node ?, ", f);
	else
		fprintf(f, "node %d, ", dev->numa_node);
	fprintf(f, "queues rx %u tx %u, %s, %s, ", dev->rx_queues, dev->tx_queues,
		up ? "up" : "down", dev->flags & NICTL_DEV_F_BOUND ? "bound" : "not bound");
	if (dev->sticky_id)
		fprintf(f, "sticky as %s, ", dev->sticky_id);
	if (dev->uppers)
		fprintf(f, "under %s, ", dev->uppers);
	fprintf(f, "irqs from %s%s\n", source_name(dev->source), dev->direct ? " via sysfs" : "");
	if (!dev->nr_irqs) {
		const char *why = up ? no_irqs_why(dev->driver) : NULL;

		if (why)
			fprintf(f, "  no queue IRQs: %s %s\n", dev->driver, why);
		else
			fprintf(f, "  no queue IRQs%s\n", up ? "" : "; is the device down?");
		return 0;
	}
	return print_irqs(f, dev);
}

/* What `show` prints after each device's IRQs: its NAPI threads and steering. */
struct show_extras {
	struct napi_threads *threads;
	struct steer_views views;
};

/*
 * The table format, each device's NAPI threads and steering after its IRQs
 * when @extras is not NULL; -1 after saying so when out of memory.
 */
static int table(FILE *f, const struct dev_list *list, const struct show_extras *extras)
{
	unsigned int i;

	if (list->stacked)
		fprintf(f, "%s is stacked on %u physical device%s:\n\n", list->stacked, list->nr,
			list->nr == 1 ? "" : "s");
	for (i = 0; i < list->nr; i++) {
		if (i)
			fputc('\n', f);
		if (print_dev(f, &list->devs[i]) ||
		    (extras && (napi_threads_table(f, &list->devs[i], &extras->threads[i]) ||
				steer_view_table(f, &extras->views, i)))) {
			ctl_msg("out of memory");
			return -1;
		}
	}
	return 0;
}

int show_table(FILE *f, const struct dev_list *list)
{
	return table(f, list, NULL);
}

/* @cpus as an array of numbers @key and a cpulist @list_key; -1 when out of memory. */
int show_json_cpus(struct json *j, const char *key, const char *list_key,
		   const struct cpuset *cpus)
{
	char *list = cpuset_format(cpus);
	int cpu;

	if (!list)
		return -1;
	json_arr_begin(j, key);
	cpuset_for_each(cpu, cpus)
		json_int(j, NULL, cpu);
	json_arr_end(j);
	json_str(j, list_key, list);
	free(list);
	return 0;
}

/* The members of an IRQ's object; -1 when out of memory. */
int show_json_irq_fields(struct json *j, const struct nictl_irq *irq)
{
	unsigned int k;

	json_int(j, "queue", irq->queue);
	json_str(j, "kind", show_kind_name(irq->kind));
	json_arr_begin(j, "queues");
	for (k = 0; k < irq->nr_queues; k++) {
		json_obj_begin(j, NULL);
		json_int(j, "queue", irq->queues[k].queue);
		json_str(j, "kind", show_kind_name(irq->queues[k].kind));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_int(j, "group", irq->group);
	json_int(j, "irq", irq->irq);
	json_str(j, "name", irq->name);
	if (show_json_cpus(j, "affinity", "affinity_list", &irq->affinity) ||
	    show_json_cpus(j, "effective", "effective_list", &irq->effective))
		return -1;
	json_int(j, "node", irq->node);
	json_bool(j, "managed", irq->flags & NICTL_IRQ_F_MANAGED);
	json_bool(j, "bound", irq->flags & NICTL_IRQ_F_BOUND);
	json_bool(j, "pending", irq->flags & NICTL_IRQ_F_PENDING);
	json_bool(j, "shared", irq->flags & NICTL_IRQ_F_SHARED);
	json_bool(j, "off_target", dev_irq_off_target(irq));
	if (irq->owner_ifindex)
		json_int(j, "owner_ifindex", irq->owner_ifindex);
	else
		json_null(j, "owner_ifindex");
	json_int(j, "drifts", irq->drifts);
	json_bool(j, "fighting", irq_fighting(irq));
	if (irq->target_cpu < 0)
		json_null(j, "target_cpu");
	else
		json_int(j, "target_cpu", irq->target_cpu);
	return 0;
}

static int json_irq(struct json *j, const struct nictl_irq *irq)
{
	json_obj_begin(j, NULL);
	if (show_json_irq_fields(j, irq))
		return -1;
	json_obj_end(j);
	return 0;
}

/* The names of the comma-joined list @names as an array, empty for NULL. */
static void json_names(struct json *j, const char *key, const char *names)
{
	char *name;
	size_t len;

	json_arr_begin(j, key);
	while (names && *names) {
		len = strcspn(names, ",");
		name = strndup(names, len);
		json_str(j, NULL, name ?: "?");
		free(name);
		names += len + !!names[len];
	}
	json_arr_end(j);
}

/* The members of a device's object, but its IRQs. */
void show_json_dev_fields(struct json *j, const struct nictl_dev *dev)
{
	json_str(j, "ifname", dev->ifname);
	json_int(j, "ifindex", dev->ifindex);
	json_str(j, "driver", dev->driver);
	json_str(j, "bus_addr", dev->bus_addr);
	json_int(j, "numa_node", dev->numa_node);
	json_int(j, "rx_queues", dev->rx_queues);
	json_int(j, "tx_queues", dev->tx_queues);
	json_bool(j, "up", dev->flags & NICTL_DEV_F_UP);
	json_bool(j, "bound", dev->flags & NICTL_DEV_F_BOUND);
	json_str(j, "sticky_id", dev->sticky_id);
	json_str(j, "source", source_name(dev->source));
	json_str(j, "via", dev->direct ? "sysfs" : "module");
	json_names(j, "uppers", dev->uppers);
	if (dev->other_netns) {
		char ns[256];

		json_int(j, "netns_id", dev->netns_id);
		json_str(j, "netns", ctl_netns_name_for(dev->netns_id, ns, sizeof(ns)));
	}
}

/* The members of a device's object, its IRQs too; -1 when out of memory. */
int show_json_dev_members(struct json *j, const struct nictl_dev *dev)
{
	unsigned int i;

	show_json_dev_fields(j, dev);
	json_arr_begin(j, "irqs");
	for (i = 0; i < dev->nr_irqs; i++)
		if (json_irq(j, &dev->irqs[i]))
			return -1;
	json_arr_end(j);
	return 0;
}

/* The devices, and what show prints after their IRQs when @extras is not NULL. */
struct json_devs_arg {
	const struct dev_list *list;
	const struct show_extras *extras;
};

/* The devices as a JSON array. */
static int json_devs(struct json *j, const void *arg)
{
	const struct json_devs_arg *a = arg;
	unsigned int i;

	json_arr_begin(j, NULL);
	for (i = 0; i < a->list->nr; i++) {
		json_obj_begin(j, NULL);
		if (show_json_dev_members(j, &a->list->devs[i]) ||
		    (a->extras &&
		     (napi_threads_json(j, &a->list->devs[i], &a->extras->threads[i]) ||
		      steer_view_json(j, &a->extras->views, i))))
			return -1;
		json_obj_end(j);
	}
	json_arr_end(j);
	return 0;
}

/* The JSON format; -1 after saying so when out of memory. */
int show_json(FILE *f, const struct dev_list *list)
{
	struct json_devs_arg arg = { list, NULL };

	return json_print_doc(f, json_devs, &arg);
}

/* Print @list on stdout in the format the user chose, with @extras if not NULL. */
static int print_devs(const struct dev_list *list, const struct show_extras *extras, bool json)
{
	struct json_devs_arg arg = { list, extras };

	return json ? json_print_doc(stdout, json_devs, &arg) : table(stdout, list, extras);
}

int show_devs(const struct dev_list *list, bool json)
{
	return print_devs(list, NULL, json);
}

/*
 * Parse the options of a command that takes only -j and -h. Returns -1 when
 * the command should go on, else the exit status (after printing @usage for
 * -h).
 */
int show_opts(int argc, char **argv, const char *usage, bool *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *shortopts = ":jh";
	int c;

	*json = false;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			*json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_SUCCESS;
		default:
			return ctl_bad_option(argv[0], shortopts, c, argv);
		}
	}
	return -1;
}

/*
 * Without the module: @ref's devices, or all, from sysfs and /proc
 * (direct/discover.c), after one line that says why the module is absent;
 * 1 after one line that says why that failed.
 */
static int show_direct(const struct dev_ref *ref, struct dev_list *list)
{
	unsigned int i;

	if (ctl_netns_selected()) {
		ctl_nl_module_absent("Without it, show reads this network namespace only: "
				     "run it there (ip netns exec NAME nictlctl show)");
		return 1;
	}
	if (direct_discover_said(ref, list))
		return 1;
	for (i = 0; i < list->nr; i++)
		direct_saved_annotate(&list->devs[i]);
	ctl_nl_module_absent("Shown from sysfs, /proc and the NAPI links of netdev-genl, "
			     "without managed flags");
	return 0;
}

/* Does a bind without the module keep affinities of @ifindex under /run/nictl? */
static bool kept_without_module(unsigned int ifindex)
{
	struct direct_write *w;
	unsigned int n;

	if (direct_saved_load(ifindex, &w, &n))
		return false;
	direct_writes_free(w, n);
	return n;
}

/*
 * RESTORE with the module loaded, of a device a bind made before it loaded
 * (through /proc/irq) still holds: the module restores its own binding
 * first, when it has one (its originals are that bind's targets), then
 * the affinities kept under /run/nictl go back. Any other device: the
 * module's RESTORE alone.
 */
static int restore_with_module(struct ctl_nl *nl, const struct dev_ref *ref,
			       struct dev_list *list)
{
	unsigned int ifindex = ref->ifindex ?: if_nametoindex(ref->name);
	const char *name = ref->name;
	struct dev_list found;
	bool module_holds;
	int err;

	*list = (struct dev_list){ NULL, 0, NULL, 0 };
	if (ctl_netns_selected() || !ifindex || !kept_without_module(ifindex) ||
	    dev_exchange(nl, dev_request(nl, NICTL_CMD_DEV_GET, ref), "restore", name, &found))
		return dev_exchange(nl, dev_request(nl, NICTL_CMD_RESTORE, ref), "restore", name,
				    list);
	/* A stacked device's members are the module's to restore, as one. */
	module_holds = found.stacked || found.devs[0].flags & NICTL_DEV_F_BOUND;
	err = module_holds ? dev_exchange(nl, dev_request(nl, NICTL_CMD_RESTORE, ref), "restore",
					  name, list) : 0;
	if (!err && !found.stacked) {
		dev_list_free(list);
		err = direct_restore_dev(&found.devs[0]) ?:
		      dev_exchange(nl, dev_request(nl, NICTL_CMD_DEV_GET, ref), "restore", name,
				   list);
		if (!err)
			ctl_msg("%s: put back the affinities a bind without the module kept under "
				"/run/nictl", found.devs[0].ifname);
	}
	dev_list_free(&found);
	return err;
}

/*
 * Send @cmd (named @name for messages) about @ref, or a dump of all devices
 * when @ref is NULL, and print the devices of the reply, with their NAPI
 * threads and steering as the kernel has them now when @extras. Returns the
 * exit status.
 */
int show_run(uint8_t cmd, const char *name, const struct dev_ref *ref, bool json, bool extras)
{
	struct show_extras more = { NULL, { NULL } };
	struct dev_list list;
	struct ctl_nl nl;
	int err;

	err = ctl_nl_open_or_absent(&nl);
	if (err > 0 && cmd == NICTL_CMD_DEV_GET) {
		err = show_direct(ref, &list);
	} else if (err > 0 && cmd == NICTL_CMD_RESTORE && !ctl_netns_selected()) {
		err = direct_restore(ref, &list);
	} else if (err > 0) {
		ctl_nl_module_absent(NULL);
	} else if (!err && cmd == NICTL_CMD_RESTORE) {
		err = restore_with_module(&nl, ref, &list);
		ctl_nl_close(&nl);
	} else if (!err) {
		err = dev_exchange(&nl, dev_request(&nl, cmd, ref), name, ref ? ref->name : NULL,
				   &list);
		ctl_nl_close(&nl);
	}
	if (err)
		return EXIT_FAILURE;
	if (extras)
		err = napi_threads_read(&list, &more.threads) ?: steer_views_read(&list, &more.views);
	if (!err && !list.nr && !json)
		puts("no network devices with a bus parent");
	else if (!err)
		err = print_devs(&list, extras ? &more : NULL, json);
	napi_threads_free(more.threads, list.nr);
	steer_views_free(&more.views);
	dev_list_free(&list);
	return err ? EXIT_FAILURE : EXIT_SUCCESS;
}

static const char show_usage[] =
	"Usage: " PROG_NAME " show [DEV] [-j|--json]\n"
	"\n"
	"Show network devices and how their queue IRQs are spread over the CPUs:\n"
	"every device with a bus parent, or only DEV (an interface name or ifindex).\n"
	"Per queue, the RPS, RFS and XPS steering next to its IRQ's CPU, with a\n"
	"warning for steering onto another node than the IRQ's, and for RFS counts\n"
	"without net.core.rps_sock_flow_entries.\n"
	"\n"
	"Options:\n"
	"  -j, --json    print one JSON document (an array of devices)\n"
	"  -h, --help    show this help\n";

int cmd_show(int argc, char **argv)
{
	struct dev_ref ref;
	bool json;
	int ret;

	ret = show_opts(argc, argv, show_usage, &json);
	if (ret >= 0)
		return ret;
	if (argc - optind > 1)
		return ctl_usage("show", "unexpected argument '%s'", argv[optind + 1]);
	if (optind == argc)
		return show_run(NICTL_CMD_DEV_GET, "show", NULL, json, !ctl_netns_selected());
	ret = dev_ref_parse("show", argv[optind], &ref);
	/* Steering is read from sysfs, which shows the initial namespace's devices. */
	return ret ?: show_run(NICTL_CMD_DEV_GET, "show", &ref, json, !ctl_netns_selected());
}
