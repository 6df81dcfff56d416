// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery without the module, step for step as kmod/discover.c does it:
 * the PCI function above the device (through virtio and auxiliary parts,
 * never through USB or another bus), its MSI vectors (msi_irqs/), each
 * vector's first action name (/sys/kernel/irq/N/actions) classified and
 * grouped by the module's own code. What the kernel keeps to itself stays
 * unknown here: whether an IRQ is managed, and the queue -> NAPI -> IRQ
 * links (netdev-genl), so a device whose vectors are not named after its
 * queues shows none. A pending move is told by an effective CPU outside the
 * affinity, which is how it shows on x86 without interrupt remapping.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "direct/discover.h"
#include "direct/links.h"
#include "kmod/classify.h"
#include "kmod/qirq.h"
#include "procirq.h"
#include "report.h"
#include "topology.h"
#include "util.h"

/* @src into @dst, cut to fit as the kernel's strscpy() cuts IRQ names. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static __printf(3, 4) char *path_of(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

/* The last component of the link @dir/@name points to, in @buf; "" if none. */
static void link_base(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n = readlink(path_of(path, sizeof(path), "%s/%s", dir, name), target,
			     sizeof(target) - 1);
	const char *base;

	buf[0] = '\0';
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	copy_str(buf, len, base ? base + 1 : target);
}

/* The PCI function @dev sits on, through virtio and auxiliary parts of it. */
static bool pci_function(const char *dev, char *pci, size_t len)
{
	char bus[64];

	snprintf(pci, len, "%s", dev);
	for (;;) {
		link_base(pci, "subsystem", bus, sizeof(bus));
		if (!strcmp(bus, "pci"))
			return true;
		if ((strcmp(bus, "virtio") && strcmp(bus, "auxiliary")) || !strrchr(pci, '/'))
			return false;
		*strrchr(pci, '/') = '\0';
	}
}

/* The first NUMA node from @dev up, as the kernel's dev_to_node() walk finds it. */
static int numa_node(const char *dev)
{
	char d[PATH_MAX], path[PATH_MAX], line[32], *slash;
	size_t root = strlen(topo_root());

	snprintf(d, sizeof(d), "%s", dev);
	for (;;) {
		if (!topo_first_line(path_of(path, sizeof(path), "%s/numa_node", d), line,
				     sizeof(line)) && atoi(line) >= 0)
			return atoi(line);
		slash = strrchr(d, '/');
		if (!slash || (size_t)(slash - d) <= root)
			return -1;
		*slash = '\0';
	}
}

static unsigned int count_queues(const char *ifname, const char *prefix)
{
	char path[PATH_MAX];
	struct dirent *e;
	unsigned int n = 0;
	DIR *d = opendir(path_of(path, sizeof(path), "%s/class/net/%s/queues", topo_root(),
				 ifname));

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, prefix, 3);
	if (d)
		closedir(d);
	return n;
}

/* The active queue pairs: the larger of the receive and transmit counts. */
static unsigned int queue_pairs(const struct nictl_dev *dev)
{
	return dev->rx_queues > dev->tx_queues ? dev->rx_queues : dev->tx_queues;
}

/* Vectors of queues beyond the active counts (after ethtool -L) are idle. */
static bool queue_active(const struct nictl_dev *dev, unsigned int kind, unsigned int queue)
{
	if (kind == NICTL_QUEUE_KIND_RX)
		return queue < dev->rx_queues;
	if (kind == NICTL_QUEUE_KIND_TX)
		return queue < dev->tx_queues;
	return queue < queue_pairs(dev);
}

/* @irq's first action's name, and whether it has more; false when it has none. */
static bool irq_name(unsigned int irq, char *name, size_t len, bool *shared)
{
	char path[PATH_MAX], actions[1024];

	if (topo_first_line(path_of(path, sizeof(path), "%s/kernel/irq/%u/actions", topo_root(),
				    irq), actions, sizeof(actions)) || !actions[0])
		return false;
	*shared = strchr(actions, ',');
	actions[strcspn(actions, ",")] = '\0';
	copy_str(name, len, actions);
	return true;
}

static bool subset(const struct cpuset *a, const struct cpuset *b)
{
	int cpu;

	cpuset_for_each(cpu, a)
		if (!cpuset_has(b, cpu))
			return false;
	return true;
}

static int irq_masks(struct nictl_irq *irq)
{
	int err, eff;

	/* A vector freed since msi_irqs/ listed it has no masks left to show. */
	err = procirq_cpus(irq->irq, "smp_affinity_list", &irq->affinity);
	if (err == -ENOENT)
		return 0;
	/*
	 * effective_affinity_list: 4.15+, and only where the chip keeps one; a
	 * file that cannot be read is none, one that cannot be parsed an error.
	 */
	eff = err ? 0 : procirq_cpus(irq->irq, "effective_affinity_list", &irq->effective);
	if (eff == -EINVAL || eff == -ERANGE || eff == -ENOMEM)
		err = eff;
	/* As the module says it: the node of the first effective CPU. */
	irq->node = cpuset_empty(&irq->effective) ? -1 :
		    topo_cpu_node(cpuset_next(&irq->effective, -1));
	/* The kernel's flag is not in /proc; an effective CPU outside the affinity is. */
	if (!err && !cpuset_empty(&irq->effective) && !cpuset_empty(&irq->affinity) &&
	    !subset(&irq->effective, &irq->affinity))
		irq->flags |= NICTL_IRQ_F_PENDING;
	return err;
}

/* The IRQ numbers of @pci's MSI and MSI-X vectors, ascending, in a new *@irqs. */
static int msi_vectors(const char *pci, unsigned int **irqs, unsigned int *n)
{
	char path[PATH_MAX];
	struct dirent **names;
	int count, i;

	*irqs = NULL;
	*n = 0;
	count = scandir(path_of(path, sizeof(path), "%s/msi_irqs", pci), &names, NULL,
			versionsort);
	if (count < 0)
		return errno == ENOENT ? 0 : -errno;
	*irqs = calloc(count ?: 1, sizeof(**irqs));
	for (i = 0; i < count; i++) {
		if (*irqs && names[i]->d_name[0] != '.')
			(*irqs)[(*n)++] = strtoul(names[i]->d_name, NULL, 10);
		free(names[i]);
	}
	free(names);
	return *irqs ? 0 : -ENOMEM;
}

/* Classify @pci's vectors for @dev, as nictl_discover_msi() does, into @q. */
static unsigned int classify_vectors(const struct nictl_dev *dev, const char *parent,
				     const unsigned int *irqs, unsigned int n, struct nictl_qirq *q)
{
	struct nictl_irq_ident id = {
		.ifname = dev->ifname,
		.driver = dev->driver,
		.parent = parent,
		.bus_addr = dev->bus_addr,
		.rx_queues = dev->rx_queues,
	};
	char name[NICTL_IRQ_NAME_LEN];
	enum nictl_queue_kind kind;
	unsigned int i, queue, found = 0;
	bool shared;

	for (i = 0; i < n; i++) {
		if (!irq_name(irqs[i], name, sizeof(name), &shared) ||
		    !nictl_classify_irq(&id, name, &kind, &queue) || !queue_active(dev, kind, queue))
			continue;
		q[found] = (struct nictl_qirq){ .irq = irqs[i], .queue = queue, .kind = kind,
						.shared = shared, .target_cpu = -1, .plan_cpu = -1 };
		copy_str(q[found].name, sizeof(q[found].name), name);
		found++;
	}
	return nictl_qirqs_drop_contested(q, found);
}

/* @dev's IRQs from the grouped @q (with @refs), each with its masks. */
static int fill_irqs(struct nictl_dev *dev, const struct nictl_qirq *q, unsigned int n,
		     const struct nictl_qref *refs)
{
	struct nictl_irq *irq;
	unsigned int i, k;
	int err = 0;

	dev->irqs = calloc(n ?: 1, sizeof(*dev->irqs));
	if (!dev->irqs)
		return -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		irq = &dev->irqs[dev->nr_irqs++];
		*irq = (struct nictl_irq){ .irq = q[i].irq, .queue = q[i].queue, .kind = q[i].kind,
					   .group = q[i].group, .target_cpu = -1,
					   .flags = q[i].shared ? NICTL_IRQ_F_SHARED : 0 };
		irq->name = strdup(q[i].name);
		irq->queues = calloc(q[i].n_refs ?: 1, sizeof(*irq->queues));
		if (!irq->name || !irq->queues)
			return -ENOMEM;
		for (k = 0; k < q[i].n_refs; k++)
			irq->queues[irq->nr_queues++] = (struct irq_queue){
				refs[q[i].first_ref + k].queue, refs[q[i].first_ref + k].kind
			};
		err = irq_masks(irq);
	}
	return err;
}

/* NICTL_FAULT_DISCOVERY_SOURCE: 1 links only, 2 names only, as the module's fault parameter. */
static unsigned int fault_source(void)
{
	const char *source = getenv(DIRECT_FAULT_SOURCE_ENV);

	return source ? strtoul(source, NULL, 10) : 0;
}

/* Does one of the @n named entries serve @queue's receive (@rx) or transmit side? */
static bool named(const struct nictl_qirq *q, unsigned int n, unsigned int queue, bool rx)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (q[i].queue == queue &&
		    q[i].kind != (rx ? NICTL_QUEUE_KIND_TX : NICTL_QUEUE_KIND_RX))
			return true;
	return false;
}

static unsigned int link_irq(const struct queue_link *l, unsigned int n, unsigned int queue,
			     bool rx)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (l[i].queue == queue && l[i].rx == rx)
			return l[i].irq;
	return 0;
}

static void add_linked(struct nictl_qirq *q, unsigned int *n, unsigned int irq,
		       unsigned int queue, unsigned int kind)
{
	char name[NICTL_IRQ_NAME_LEN] = "";
	bool shared = false;

	irq_name(irq, name, sizeof(name), &shared);
	q[*n] = (struct nictl_qirq){ .irq = irq, .queue = queue, .kind = kind, .shared = shared,
				     .target_cpu = -1, .plan_cpu = -1 };
	copy_str(q[(*n)++].name, sizeof(q->name), name);
}

/*
 * After the @found named entries of @q, the linked IRQs of the active
 * queues they miss, as the module's nictl_discover_links() adds them;
 * returns how many. Links are the running kernel's: none are read for a
 * sysfs that is not its (NICTL_SYSFS, in tests).
 */
static int add_links(const struct nictl_dev *dev, struct nictl_qirq *q, unsigned int found,
		     unsigned int *added)
{
	unsigned int queue, rx, tx, n = found, nl;
	struct queue_link *l;
	int err;

	*added = 0;
	if (strcmp(topo_root(), "/sys") || fault_source() == 2)
		return 0;
	err = direct_queue_links(dev->ifindex, &l, &nl);
	for (queue = 0; !err && nl && queue < queue_pairs(dev); queue++) {
		rx = queue < dev->rx_queues && !named(q, found, queue, true) ?
		     link_irq(l, nl, queue, true) : 0;
		tx = queue < dev->tx_queues && !named(q, found, queue, false) ?
		     link_irq(l, nl, queue, false) : 0;
		if (rx && rx == tx) {
			add_linked(q, &n, rx, queue, NICTL_QUEUE_KIND_COMBINED);
			continue;
		}
		if (rx)
			add_linked(q, &n, rx, queue, NICTL_QUEUE_KIND_RX);
		if (tx)
			add_linked(q, &n, tx, queue, NICTL_QUEUE_KIND_TX);
	}
	free(l);
	*added = n - found;
	return err;
}

/*
 * Find, classify and group @dev's queue IRQs: the vectors of the PCI
 * function @pci (NULL: none) by name, then the queues' NAPI links.
 */
static int discover_irqs(struct nictl_dev *dev, const char *pci, const char *parent)
{
	unsigned int *irqs = NULL, n = 0, found = 0, linked, groups, room;
	unsigned long long *scratch = NULL;
	struct nictl_qref *refs = NULL;
	struct nictl_qirq *q = NULL;
	int err;

	err = pci && fault_source() != 1 ? msi_vectors(pci, &irqs, &n) : 0;
	/* Each active queue may add a receive and a transmit IRQ by its links. */
	room = n + 2 * queue_pairs(dev);
	if (err || !room)
		goto out;
	q = calloc(room, sizeof(*q));
	refs = calloc(room, sizeof(*refs));
	scratch = calloc(room, sizeof(*scratch));
	err = q && refs && scratch ? 0 : -ENOMEM;
	if (!err)
		found = classify_vectors(dev, parent, irqs, n, q);
	err = err ?: add_links(dev, q, found, &linked);
	if (err || !(found + linked))
		goto out;
	dev->source = nictl_qirqs_source(found, linked);
	found = nictl_qirqs_merge(q, found + linked, refs, scratch, &groups);
	err = fill_irqs(dev, q, found, refs);
out:
	free(scratch);
	free(refs);
	free(q);
	free(irqs);
	return err;
}

/* Every device stacked on @ifname, depth first, joined by commas into *@uppers. */
static int add_uppers(const char *ifname, char **uppers)
{
	char path[PATH_MAX], *grown;
	struct dirent *e;
	size_t used;
	int err = 0;
	DIR *d = opendir(path_of(path, sizeof(path), "%s/class/net/%s", topo_root(), ifname));

	while (!err && d && (e = readdir(d))) {
		if (strncmp(e->d_name, "upper_", 6))
			continue;
		used = *uppers ? strlen(*uppers) : 0;
		grown = realloc(*uppers, used + strlen(e->d_name + 6) + 2);
		if (!grown) {
			err = -ENOMEM;
			break;
		}
		*uppers = grown;
		sprintf(grown + used, "%s%s", used ? "," : "", e->d_name + 6);
		err = add_uppers(e->d_name + 6, uppers);
	}
	if (d)
		closedir(d);
	return err;
}

/* Describe @ifname, whose device link resolves to @devpath, or NULL without a bus parent. */
static int describe(const char *ifname, const char *devpath, struct nictl_dev *dev)
{
	char path[PATH_MAX], line[64], pci[PATH_MAX], parent[NAME_MAX + 1];
	int err;

	err = topo_first_line(path_of(path, sizeof(path), "%s/class/net/%s/ifindex", topo_root(),
				      ifname), line, sizeof(line));
	if (err)
		return err;
	dev->ifindex = strtoul(line, NULL, 10);
	if (!topo_first_line(path_of(path, sizeof(path), "%s/class/net/%s/flags", topo_root(),
				     ifname), line, sizeof(line)) && (strtoul(line, NULL, 0) & IFF_UP))
		dev->flags |= NICTL_DEV_F_UP;
	dev->rx_queues = count_queues(ifname, "rx-");
	dev->tx_queues = count_queues(ifname, "tx-");
	dev->direct = true;
	dev->ifname = strdup(ifname);
	err = dev->ifname ? add_uppers(ifname, &dev->uppers) : -ENOMEM;
	if (err || !devpath)
		return err;
	link_base(devpath, "driver", line, sizeof(line));
	dev->driver = strdup(line);
	if (!dev->driver)
		return -ENOMEM;
	if (pci_function(devpath, pci, sizeof(pci))) {
		dev->bus_addr = strdup(strrchr(pci, '/') + 1);
		if (!dev->bus_addr)
			return -ENOMEM;
	}
	dev->numa_node = numa_node(devpath);
	copy_str(parent, sizeof(parent), strrchr(devpath, '/') + 1);
	return discover_irqs(dev, dev->bus_addr ? pci : NULL, parent);
}

/* Where @ifname's device link leads, in @devpath; false when it has no bus parent. */
static bool bus_parent(const char *ifname, char *devpath)
{
	char path[PATH_MAX];

	return realpath(path_of(path, sizeof(path), "%s/class/net/%s/device", topo_root(), ifname),
			devpath);
}

/* Describe @ifname at the end of @out; -ENOENT (nothing added) when it went away meanwhile. */
static int append(struct dev_list *out, const char *ifname, const char *devpath)
{
	struct nictl_dev *devs = realloc(out->devs, (out->nr + 1) * sizeof(*devs));
	int err;

	if (!devs)
		return -ENOMEM;
	out->devs = devs;
	devs[out->nr] = (struct nictl_dev){ .numa_node = -1 };
	err = describe(ifname, devpath, &devs[out->nr]);
	if (err == -ENOENT)
		dev_release(&devs[out->nr]);
	else
		out->nr++;
	return err;
}

static bool listed(const struct dev_list *out, const char *ifname)
{
	unsigned int i;

	for (i = 0; i < out->nr; i++)
		if (!strcmp(out->devs[i].ifname, ifname))
			return true;
	return false;
}

/* The devices stacked beneath @ifname, by name, in a new NULL-terminated array. */
static char **lowers_of(const char *ifname)
{
	char path[PATH_MAX], **names = calloc(1, sizeof(*names)), **grown;
	unsigned int n = 0;
	struct dirent *e;
	DIR *d = opendir(path_of(path, sizeof(path), "%s/class/net/%s", topo_root(), ifname));

	while (names && d && (e = readdir(d))) {
		if (strncmp(e->d_name, "lower_", 6))
			continue;
		grown = realloc(names, (n + 2) * sizeof(*names));
		if (!grown || !(grown[n] = strdup(e->d_name + 6))) {
			names = grown;
			break;
		}
		names = grown;
		names[++n] = NULL;
	}
	if (d)
		closedir(d);
	return names;
}

static void free_names(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

/* The physical devices beneath @ifname, each once; -ENOENT for a leaf without a bus parent. */
static int add_lowers(const char *ifname, struct dev_list *out)
{
	char devpath[PATH_MAX], **lowers, **p;
	int err = 0;

	if (bus_parent(ifname, devpath))
		return listed(out, ifname) ? 0 : append(out, ifname, devpath);
	lowers = lowers_of(ifname);
	if (!lowers)
		return -ENOMEM;
	if (!lowers[0])
		err = -ENOENT;
	for (p = lowers; !err && *p; p++)
		err = add_lowers(*p, out);
	free_names(lowers);
	return err;
}

static int by_ifindex(const void *a, const void *b)
{
	const struct nictl_dev *x = a, *y = b;

	return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
}

/* The name of the device @ref names, in @name; -ENODEV if there is none. */
static int resolve(const struct dev_ref *ref, char *name, size_t len)
{
	char path[PATH_MAX], line[32];
	struct dirent *e;
	int err = -ENODEV;
	DIR *d;

	if (!ref->ifindex) {
		copy_str(name, len, ref->name);
		return access(path_of(path, sizeof(path), "%s/class/net/%s", topo_root(), name),
			      F_OK) ? -ENODEV : 0;
	}
	d = opendir(path_of(path, sizeof(path), "%s/class/net", topo_root()));
	while (err && d && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    topo_first_line(path_of(path, sizeof(path), "%s/class/net/%s/ifindex",
					    topo_root(), e->d_name), line, sizeof(line)) ||
		    strtoul(line, NULL, 10) != ref->ifindex)
			continue;
		copy_str(name, len, e->d_name);
		err = 0;
	}
	if (d)
		closedir(d);
	return err;
}

static int discover_all(struct dev_list *out)
{
	char path[PATH_MAX], devpath[PATH_MAX];
	struct dirent *e;
	int err = 0;
	DIR *d = opendir(path_of(path, sizeof(path), "%s/class/net", topo_root()));

	if (!d)
		return errno == ENOENT ? 0 : -errno;	/* no network device at all */
	/* A device unregistered meanwhile is left out, as a later dump would. */
	while ((!err || err == -ENOENT) && (e = readdir(d)))
		if (e->d_name[0] != '.' && bus_parent(e->d_name, devpath))
			err = append(out, e->d_name, devpath);
	closedir(d);
	return err == -ENOENT ? 0 : err;
}

/* @ref alone, or the physical devices beneath it when it is stacked (a bond, a VLAN). */
static int discover_one(const struct dev_ref *ref, struct dev_list *out)
{
	char name[IFNAMSIZ + 1], devpath[PATH_MAX], **lowers;
	bool stacked;
	int err;

	err = resolve(ref, name, sizeof(name));
	if (!err && bus_parent(name, devpath))
		err = append(out, name, devpath);
	if (err || out->nr)
		return err == -ENOENT ? -ENODEV : err;
	lowers = lowers_of(name);
	stacked = lowers && lowers[0];
	free_names(lowers);
	if (!stacked)
		return append(out, name, NULL) == -ENOENT ? -ENODEV : 0;
	out->stacked = strdup(name);
	err = out->stacked ? add_lowers(name, out) : -ENOMEM;
	return err;
}

int direct_discover(const struct dev_ref *ref, struct dev_list *out)
{
	int err;

	*out = (struct dev_list){ NULL, 0, NULL, 0 };
	err = ref ? discover_one(ref, out) : discover_all(out);
	if (!err)
		qsort(out->devs, out->nr, sizeof(*out->devs), by_ifindex);
	if (err)
		dev_list_free(out);
	return err;
}

int direct_discover_said(const struct dev_ref *ref, struct dev_list *out)
{
	int err = direct_discover(ref, out);

	if (err == -ENODEV)
		ctl_msg("no such device: %s", ref->name ?: "?");
	else if (err == -ENOENT)
		ctl_msg("%s is stacked on a device without a bus parent and queue IRQs", ref->name);
	else if (err)
		ctl_msg("module nictl is not loaded, and sysfs could not be read: %s",
			strerror(-err));
	return err ? -1 : 0;
}
