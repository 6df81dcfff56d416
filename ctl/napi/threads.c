// SPDX-License-Identifier: GPL-2.0
/*
 * The NAPI threads `show` prints after each device's IRQs.
 *
 * TABLE: indented by two spaces, when the device polls in threads, a heading
 * and one row per thread, then one "warning:" line per thread that may run
 * on a CPU of another node than its IRQ's:
 *
 *   napi threads:
 *     IRQ  NAPI  PID  THREAD            CPUS
 *     45   8193  312  napi/vnode1-8193  0-7
 *   warning: irq 45 interrupts CPU 4 of node 1, its NAPI thread napi/vnode1-8193 may run on ...
 *
 * IRQ is "-" for a thread nothing ties to an IRQ of the device. Where the
 * device polls in threads but the kernel names none (before 6.9: no
 * netdev-genl NAPI_GET), the one line "napi threads: polled in threads the
 * kernel does not tie to queues (no netdev-genl NAPI_GET)".
 *
 * JSON: a member "napi_threads" of the device's object (none for a device of
 * another network namespace, whose threads this one cannot name), an object:
 *
 *   unknown   boolean, the device polls in threads the kernel names none of
 *   threads   array, per thread: napi_id, irq (null when tied to none),
 *             pid, name, cpus and cpus_list (where it may run), irq_cpu
 *             (the CPU its IRQ interrupts, null when not one), off_node
 *             (it may run on a CPU of another node than irq_cpu)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "napi/threads.h"
#include "report.h"
#include "show.h"
#include "topology.h"

/* The IRQ of @dev that serves receive queue @q (a combined one too), 0 for none. */
static unsigned int rx_irq(const struct nictl_dev *dev, int q)
{
	const struct nictl_irq *irq = q < 0 ? NULL : dev_queue_irq(dev, q, true);

	return irq ? irq->irq : 0;
}

static int by_id(const void *a, const void *b)
{
	const struct napi_info *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int napi_threads_tie(const struct nictl_dev *dev, const struct napi_info *napis, unsigned int n,
		     bool dev_threaded, struct napi_threads *out)
{
	struct napi_info *sorted = malloc((n ?: 1) * sizeof(*sorted));
	bool linked = false;
	unsigned int i, irq;

	*out = (struct napi_threads){ .looked = true };
	out->t = calloc(n ?: 1, sizeof(*out->t));
	if (!sorted || !out->t) {
		free(sorted);
		free(out->t);
		out->t = NULL;
		return -ENOMEM;
	}
	memcpy(sorted, napis, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_id);
	for (i = 0; i < n; i++)
		linked |= sorted[i].irq || sorted[i].rx_queue >= 0;
	for (i = 0; i < n; i++) {
		if (!sorted[i].pid || !(sorted[i].threaded < 0 ? dev_threaded : sorted[i].threaded))
			continue;
		if (dev_find_irq(dev, sorted[i].irq))
			irq = sorted[i].irq;
		else
			irq = rx_irq(dev, linked ? sorted[i].rx_queue : (int)i);
		out->t[out->n++] = (struct napi_thread){
			.napi_id = sorted[i].id,
			.irq = irq,
			.pid = sorted[i].pid,
			.cpus = CPUSET_INIT,
		};
	}
	free(sorted);
	return 0;
}

/* Read @f, a file of /proc/@pid, into @buf without its newline; 0 or -errno. */
static int proc_line(unsigned int pid, const char *f, char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%u/%s", proc_root(), pid, f);
	return topo_first_line(path, buf, len);
}

int napi_thread_comm(unsigned int pid, char *buf, size_t len)
{
	return proc_line(pid, "comm", buf, len) ? -ENOENT : 0;
}

/* A thread's name and CPUs; -ENOENT when it ended since the dump. */
static int thread_read(struct napi_thread *t)
{
	char path[256], line[4096];
	FILE *f;
	int err = -ENOENT;

	if (napi_thread_comm(t->pid, t->name, sizeof(t->name)))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%u/status", proc_root(), t->pid);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			line[strcspn(line, "\n")] = '\0';
			err = cpuset_parse(&t->cpus, line + 18 + strspn(line + 18, " \t"));
			break;
		}
	fclose(f);
	return err;
}

bool napi_dev_threaded(const char *ifname)
{
	char path[512], value[16];

	snprintf(path, sizeof(path), "%s/class/net/%s/threaded", topo_root(), ifname);
	return !topo_first_line(path, value, sizeof(value)) && strcmp(value, "0");
}

/* The device's switch @dev_threaded, or the own switch of one of its @n @napis. */
static bool some_threaded(bool dev_threaded, const struct napi_info *napis, unsigned int n)
{
	unsigned int i;

	for (i = 0; !dev_threaded && i < n; i++)
		dev_threaded = napis[i].threaded > 0;
	return dev_threaded;
}

bool napi_some_threaded(unsigned int ifindex, const char *ifname)
{
	struct napi_info *napis;
	unsigned int n;
	bool some;

	if (napi_dev_threaded(ifname))
		return true;
	if (direct_napis(ifindex, &napis, &n))
		return false;
	some = some_threaded(false, napis, n);
	free(napis);
	return some;
}

void napi_threads_fill(struct napi_threads *threads)
{
	unsigned int i, kept = 0;

	for (i = 0; i < threads->n; i++) {
		if (thread_read(&threads->t[i])) {
			cpuset_free(&threads->t[i].cpus);
			continue;
		}
		threads->t[kept++] = threads->t[i];
	}
	threads->n = kept;
}

int napi_threads_of(const struct nictl_dev *dev, struct napi_threads *out)
{
	struct napi_info *napis;
	unsigned int n;
	bool threaded = napi_dev_threaded(dev->ifname);
	int err;

	*out = (struct napi_threads){ .looked = true };
	err = direct_napis(dev->ifindex, &napis, &n) ?:
	      napi_threads_tie(dev, napis, n, threaded, out);
	out->threaded = !err && some_threaded(threaded, napis, n);
	free(napis);
	if (err)
		return err;
	napi_threads_fill(out);
	out->untied_threaded = !n && threaded;
	return 0;
}

int napi_threads_read(const struct dev_list *list, struct napi_threads **out)
{
	unsigned int i;

	*out = calloc(list->nr ?: 1, sizeof(**out));
	if (!*out) {
		ctl_msg("out of memory");
		return -1;
	}
	for (i = 0; i < list->nr; i++) {
		/* Another namespace's ifindex means nothing to this one's netdev-genl. */
		if (list->devs[i].other_netns)
			continue;
		if (napi_threads_of(&list->devs[i], &(*out)[i])) {
			ctl_msg("out of memory");
			return -1;
		}
	}
	return 0;
}

void napi_threads_release(struct napi_threads *threads)
{
	unsigned int k;

	for (k = 0; k < threads->n; k++)
		cpuset_free(&threads->t[k].cpus);
	free(threads->t);
	*threads = (struct napi_threads){ 0 };
}

void napi_threads_free(struct napi_threads *threads, unsigned int nr)
{
	unsigned int i;

	for (i = 0; threads && i < nr; i++)
		napi_threads_release(&threads[i]);
	free(threads);
}

/* The CPU @irq of @dev interrupts, as steering judges it (dev_irq_cpu()), -1 for none. */
static int irq_cpu_of(const struct nictl_dev *dev, unsigned int irq)
{
	const struct nictl_irq *found = dev_find_irq(dev, irq);

	return found ? dev_irq_cpu(found) : -1;
}

/* The CPUs of @t off the node of @cpu, in @far; 0, or -ENOENT when the node is not known. */
static int off_node(const struct napi_thread *t, int cpu, struct cpuset *far)
{
	struct cpuset node = CPUSET_INIT;
	int n = cpu < 0 ? -1 : topo_cpu_node(cpu);
	int err;

	if (n < 0)
		return -ENOENT;
	err = topo_node_cpus(n, &node) ?: cpuset_or(far, &t->cpus);
	cpuset_andnot(far, &node);
	cpuset_free(&node);
	return err;
}

int napi_thread_far(const struct nictl_dev *dev, const struct napi_thread *t, struct cpuset *far)
{
	int cpu = irq_cpu_of(dev, t->irq);

	return off_node(t, cpu, far) || cpuset_empty(far) ? -1 : cpu;
}

static int print_warning(FILE *f, const struct nictl_dev *dev, const struct napi_thread *t)
{
	struct cpuset far = CPUSET_INIT;
	int cpu = napi_thread_far(dev, t, &far);
	char *list;

	if (cpu < 0) {
		cpuset_free(&far);
		return 0;
	}
	list = cpuset_format(&far);
	cpuset_free(&far);
	if (!list)
		return -1;
	fprintf(f, "  warning: irq %u interrupts CPU %d of node %d, its NAPI thread %s (pid %u) "
		"may run on CPUs %s of another node\n", t->irq, cpu, topo_cpu_node(cpu), t->name,
		t->pid, list);
	free(list);
	return 0;
}

int napi_threads_table(FILE *f, const struct nictl_dev *dev, const struct napi_threads *threads)
{
	int w_irq = 3, w_napi = 4, w_pid = 3, w_name = 6, len;
	char buf[32], *cpus;
	unsigned int i;

	if (threads->untied_threaded)
		fputs("  napi threads: polled in threads the kernel does not tie to queues "
		      "(no netdev-genl NAPI_GET)\n", f);
	if (!threads->n)
		return 0;
	for (i = 0; i < threads->n; i++) {
		const struct napi_thread *t = &threads->t[i];

		len = snprintf(buf, sizeof(buf), "%u", t->irq);
		w_irq = len > w_irq ? len : w_irq;
		len = snprintf(buf, sizeof(buf), "%u", t->napi_id);
		w_napi = len > w_napi ? len : w_napi;
		len = snprintf(buf, sizeof(buf), "%u", t->pid);
		w_pid = len > w_pid ? len : w_pid;
		len = strlen(t->name);
		w_name = len > w_name ? len : w_name;
	}
	fprintf(f, "  napi threads:\n    %-*s  %-*s  %-*s  %-*s  CPUS\n", w_irq, "IRQ", w_napi,
		"NAPI", w_pid, "PID", w_name, "THREAD");
	for (i = 0; i < threads->n; i++) {
		const struct napi_thread *t = &threads->t[i];

		cpus = cpuset_format(&t->cpus);
		if (!cpus)
			return -1;
		if (t->irq)
			snprintf(buf, sizeof(buf), "%u", t->irq);
		else
			strcpy(buf, "-");
		fprintf(f, "    %-*s  %-*u  %-*u  %-*s  %s\n", w_irq, buf, w_napi, t->napi_id,
			w_pid, t->pid, w_name, t->name, *cpus ? cpus : "-");
		free(cpus);
	}
	for (i = 0; i < threads->n; i++)
		if (print_warning(f, dev, &threads->t[i]))
			return -1;
	return 0;
}

int napi_threads_json(struct json *j, const struct nictl_dev *dev,
		      const struct napi_threads *threads)
{
	struct cpuset far = CPUSET_INIT;
	unsigned int i;
	int cpu;

	if (!threads->looked)
		return 0;
	json_obj_begin(j, "napi_threads");
	json_bool(j, "unknown", threads->untied_threaded);
	json_arr_begin(j, "threads");
	for (i = 0; i < threads->n; i++) {
		const struct napi_thread *t = &threads->t[i];

		cpu = irq_cpu_of(dev, t->irq);
		json_obj_begin(j, NULL);
		json_int(j, "napi_id", t->napi_id);
		if (t->irq)
			json_int(j, "irq", t->irq);
		else
			json_null(j, "irq");
		json_int(j, "pid", t->pid);
		json_str(j, "name", t->name);
		if (show_json_cpus(j, "cpus", "cpus_list", &t->cpus))
			return -1;
		if (cpu < 0)
			json_null(j, "irq_cpu");
		else
			json_int(j, "irq_cpu", cpu);
		json_bool(j, "off_node", napi_thread_far(dev, t, &far) >= 0);
		cpuset_free(&far);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	return 0;
}
