// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor's two formats. Text: the local time, the sequence number, the
 * event and the device's name, then what changed:
 *
 *   12:00:01.250 seq 7 down eth0 ifindex 3, e1000e at 0000:00:1f.6, mac 52:54:00:12:34:56, node 0, queues 1/1
 *   12:00:02.001 seq 8 renamed lan0 from eth0
 *   12:00:03.500 seq 9 queues-changed lan0 queues 2/2 -> 1/1, irqs 24,25,26,27 -> 24,25
 *   12:00:04.000 seq 10 drift lan0 irq 45 expected 6 found 0-7
 *   12:00:05.000 seq 11 bound lan0 by pid 123 uid 0: irq 45 0-7 -> 6, irq 46 0-7 -> 7
 *   12:00:06.000 seq 12 restored lan0 by port 4242: irq 45 6 -> 0-7, irq 46 7 -> 0-7
 *   12:00:07.000 seq 13 sticky-applied lan0 as pci:0000:01:00.0: irq 50 0-7 -> 6
 *   12:00:08.000 seq 14 sticky-failed lan0 as pci:0000:01:00.0: CPU 6 is offline (EINVAL)
 *   12:00:09.000 seq 15 linked lan0 under bond0
 *   12:00:09.500 seq 16 linked lan0 under bond0.100, under bond0,bond0.100 now
 *   12:00:10.000 seq 17 unlinked lan0 from bond0
 *   12:00:11.000 seq 18 registered vf0 in netns pod (id 0) ifindex 2, igbvf at 0000:02:10.0, ...
 *
 * A device outside the initial network namespace has " in netns NAME (id
 * ID)" after its name, or " in netns id ID" when /run/netns names none.
 * (pid and uid for root, who hears the audit group; the requester's
 * netlink port id for everyone else.)
 *
 * JSON: one object per event, with "time" (UTC, ISO 8601), "seq", "event",
 * "time_ns" (the module's CLOCK_MONOTONIC), the device members of `show -j`
 * ("netns_id" and "netns" among them)
 * and "perm_addr", then "irqs" (objects as in `show -j`, with "expected" in a
 * drift and "old_affinity" in a bind, restore or sticky apply), and as the
 * event has them "old_ifname", "old_rx_queues", "old_tx_queues", "old_irqs",
 * "portid", "pid", "uid", "errno" (the name, such as "EINVAL"), "message" and
 * "link" (the upper device of a linked or unlinked).
 */
/* strerrorname_np() */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "event_fmt.h"
#include "json.h"
#include "netns.h"
#include "show.h"

/* "52:54:00:12:34:56" into @buf (3 bytes per address byte), "" when none. */
static const char *mac_text(const struct ctl_event *ev, char *buf)
{
	unsigned int i;
	char *p = buf;

	*p = '\0';
	for (i = 0; i < ev->perm_addr_len; i++)
		p += sprintf(p, "%s%02x", i ? ":" : "", ev->perm_addr[i]);
	return buf;
}

static void print_device(FILE *f, const struct nictl_dev *dev, const struct ctl_event *ev)
{
	char mac[3 * sizeof(ev->perm_addr)];

	fprintf(f, " ifindex %u, %s", dev->ifindex, dev->driver && *dev->driver ? dev->driver :
		"no driver");
	if (dev->bus_addr)
		fprintf(f, " at %s", dev->bus_addr);
	if (ev->perm_addr_len)
		fprintf(f, ", mac %s", mac_text(ev, mac));
	fprintf(f, ", node %d, queues %u/%u", dev->numa_node, dev->rx_queues, dev->tx_queues);
}

/* "irq 45 0-7 -> 6" (@arrow) or "irq 45 expected 6 found 0-7". */
static int print_irq_change(FILE *f, const struct nictl_irq *irq, const struct cpuset *was,
			    bool arrow)
{
	char *before = cpuset_format(was), *now = cpuset_format(&irq->affinity);
	int err = before && now ? 0 : -1;

	if (!err && arrow)
		fprintf(f, "irq %u %s -> %s", irq->irq, before, now);
	else if (!err)
		fprintf(f, "irq %u expected %s found %s", irq->irq, before, now);
	free(before);
	free(now);
	return err;
}

static void print_queues(FILE *f, const struct ctl_event *ev, const struct nictl_dev *dev)
{
	unsigned int i;

	fprintf(f, " queues %d/%d -> %u/%u, irqs ", ev->old_rx_queues, ev->old_tx_queues,
		dev->rx_queues, dev->tx_queues);
	for (i = 0; i < ev->nr_old_irqs; i++)
		fprintf(f, "%s%u", i ? "," : "", ev->old_irqs[i]);
	fprintf(f, "%s ->%s", ev->nr_old_irqs ? "" : "none", dev->nr_irqs ? " " : " none");
	for (i = 0; i < dev->nr_irqs; i++)
		fprintf(f, "%s%u", i ? "," : "", dev->irqs[i].irq);
}

/* " in netns pod (id 3)" for a device outside the initial namespace. */
static void print_netns(FILE *f, const struct nictl_dev *dev)
{
	const char *name;
	char buf[256];

	if (!dev->other_netns)
		return;
	name = ctl_netns_name_for(dev->netns_id, buf, sizeof(buf));
	if (name)
		fprintf(f, " in netns %s (id %d)", name, dev->netns_id);
	else
		fprintf(f, " in netns id %d", dev->netns_id);
}

int event_print_text(FILE *f, const struct ctl_event *ev, const struct timespec *when)
{
	const struct nictl_dev *dev = &ev->dev.devs[0];
	char stamp[16];
	unsigned int i;
	struct tm tm;
	int err = 0;

	localtime_r(&when->tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	fprintf(f, "%s.%03ld seq %" PRIu64 " %s %s", stamp, when->tv_nsec / 1000000, ev->seq,
		ctl_event_name(ev->type), dev->ifname);
	print_netns(f, dev);
	switch (ev->type) {
	case NICTL_EVENT_RENAMED:
		fprintf(f, " from %s", ev->old_ifname ?: "(unknown)");
		break;
	case NICTL_EVENT_QUEUES_CHANGED:
		print_queues(f, ev, dev);
		break;
	case NICTL_EVENT_STICKY_FAILED:
		fprintf(f, " as %s: %s (%s)", dev->sticky_id ?: "?", ev->message ?: "",
			strerrorname_np(ev->err) ?: "?");
		break;
	case NICTL_EVENT_LINKED:
	case NICTL_EVENT_UNLINKED:
		fprintf(f, " %s %s", ev->type == NICTL_EVENT_LINKED ? "under" : "from",
			ev->link ?: "?");
		if (dev->uppers && (!ev->link || strcmp(dev->uppers, ev->link)))
			fprintf(f, ", under %s now", dev->uppers);
		break;
	case NICTL_EVENT_DRIFT:
	case NICTL_EVENT_BOUND:
	case NICTL_EVENT_RESTORED:
	case NICTL_EVENT_STICKY_APPLIED:
		if (ev->type == NICTL_EVENT_STICKY_APPLIED)
			fprintf(f, " as %s:", dev->sticky_id ?: "?");
		else if (ev->type != NICTL_EVENT_DRIFT && ev->who)
			fprintf(f, " by pid %u uid %u:", ev->pid, ev->uid);
		else if (ev->type != NICTL_EVENT_DRIFT)
			fprintf(f, " by port %u:", ev->portid);
		for (i = 0; i < dev->nr_irqs && !err; i++) {
			fputs(i ? ", " : " ", f);
			err = print_irq_change(f, &dev->irqs[i], &ev->was[i],
					       ev->type != NICTL_EVENT_DRIFT);
		}
		break;
	default:
		print_device(f, dev, ev);
	}
	fputc('\n', f);
	return err;
}

/* The members only some events have. */
static void json_extras(struct json *j, const struct ctl_event *ev)
{
	unsigned int i;

	if (ev->type == NICTL_EVENT_RENAMED)
		json_str(j, "old_ifname", ev->old_ifname);
	if (ev->type == NICTL_EVENT_QUEUES_CHANGED) {
		json_int(j, "old_rx_queues", ev->old_rx_queues);
		json_int(j, "old_tx_queues", ev->old_tx_queues);
		json_arr_begin(j, "old_irqs");
		for (i = 0; i < ev->nr_old_irqs; i++)
			json_int(j, NULL, ev->old_irqs[i]);
		json_arr_end(j);
	}
	if (ev->type == NICTL_EVENT_BOUND || ev->type == NICTL_EVENT_RESTORED)
		json_int(j, "portid", ev->portid);
	if (ev->who) {
		json_int(j, "pid", ev->pid);
		json_int(j, "uid", ev->uid);
	}
	if (ev->type == NICTL_EVENT_STICKY_FAILED) {
		json_str(j, "errno", strerrorname_np(ev->err));
		json_str(j, "message", ev->message);
	}
	if (ev->link)
		json_str(j, "link", ev->link);
}

static int json_irqs(struct json *j, const struct ctl_event *ev)
{
	const struct nictl_dev *dev = &ev->dev.devs[0];
	bool drift = ev->type == NICTL_EVENT_DRIFT;
	bool changed = drift || ev->type == NICTL_EVENT_BOUND ||
		       ev->type == NICTL_EVENT_RESTORED || ev->type == NICTL_EVENT_STICKY_APPLIED;
	unsigned int i;

	json_arr_begin(j, "irqs");
	for (i = 0; i < dev->nr_irqs; i++) {
		json_obj_begin(j, NULL);
		if (show_json_irq_fields(j, &dev->irqs[i]) ||
		    (changed && show_json_cpus(j, drift ? "expected" : "old_affinity",
					       drift ? "expected_list" : "old_affinity_list",
					       &ev->was[i])))
			return -1;
		json_obj_end(j);
	}
	json_arr_end(j);
	return 0;
}

struct json_event {
	const struct ctl_event *ev;
	const struct timespec *when;
};

static int json_event(struct json *j, const void *arg)
{
	const struct json_event *je = arg;
	const struct ctl_event *ev = je->ev;
	char stamp[40], mac[3 * sizeof(ev->perm_addr)];
	struct tm tm;

	gmtime_r(&je->when->tv_sec, &tm);
	strftime(stamp, 24, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(stamp + 19, sizeof(stamp) - 19, ".%03ldZ", je->when->tv_nsec / 1000000);
	json_obj_begin(j, NULL);
	json_str(j, "time", stamp);
	json_int(j, "seq", ev->seq);
	json_str(j, "event", ctl_event_name(ev->type));
	json_int(j, "time_ns", ev->time_ns);
	show_json_dev_fields(j, &ev->dev.devs[0]);
	json_str(j, "perm_addr", ev->perm_addr_len ? mac_text(ev, mac) : NULL);
	json_extras(j, ev);
	if (json_irqs(j, ev))
		return -1;
	json_obj_end(j);
	return 0;
}

int event_print_json(FILE *f, const struct ctl_event *ev, const struct timespec *when)
{
	const struct json_event je = { ev, when };

	return json_print_doc(f, json_event, &je);
}
