// SPDX-License-Identifier: GPL-2.0
/* The file of napi/kept.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "napi/kept.h"
#include "rundir.h"

static void dev_file(char *buf, size_t len, unsigned int ifindex)
{
	snprintf(buf, len, "%s/napi-%u", run_dir(), ifindex);
}

void napi_moved_free(struct napi_moved *m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		cpuset_free(&m[i].before);
	free(m);
}

/* Append the "PID NAME CPULIST" line @line to *@m; -EINVAL when it is not one. */
static int parse_line(char *line, struct napi_moved **m, unsigned int *n)
{
	struct napi_moved e = { .before = CPUSET_INIT }, *grown;
	char name[64], list[4096];

	if (line[0] == '#')
		return 0;
	if (sscanf(line, "%u %63s %4095s", &e.pid, name, list) != 3 ||
	    cpuset_parse(&e.before, list))
		return -EINVAL;
	grown = realloc(*m, (*n + 1) * sizeof(**m));
	if (!grown) {
		cpuset_free(&e.before);
		return -ENOMEM;
	}
	snprintf(e.name, sizeof(e.name), "%s", name);
	grown[(*n)++] = e;
	*m = grown;
	return 0;
}

int napi_kept_load(unsigned int ifindex, struct napi_moved **m, unsigned int *n)
{
	char path[4096], *line = NULL;
	size_t size = 0;
	int err = 0;
	FILE *f;

	*m = NULL;
	*n = 0;
	dev_file(path, sizeof(path), ifindex);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!err && getline(&line, &size, f) >= 0)
		err = parse_line(line, m, n);
	free(line);
	fclose(f);
	if (err) {
		napi_moved_free(*m, *n);
		*m = NULL;
		*n = 0;
	}
	return err;
}

static bool holds(const struct napi_moved *m, unsigned int n, const struct napi_moved *e)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (m[i].pid == e->pid && !strcmp(m[i].name, e->name))
			return true;
	return false;
}

static int print_line(FILE *f, const struct napi_moved *e)
{
	char *list = cpuset_format(&e->before);

	if (!list)
		return -ENOMEM;
	fprintf(f, "%u %s %s\n", e->pid, e->name, list);
	free(list);
	return 0;
}

int napi_kept_add(unsigned int ifindex, const char *ifname, const struct napi_moved *m,
		  unsigned int n, bool *created)
{
	struct napi_moved *kept;
	unsigned int nr_kept, i, added = 0;
	char path[4096], *text = NULL;
	size_t size = 0;
	FILE *mem;
	int err;

	*created = false;
	err = napi_kept_load(ifindex, &kept, &nr_kept);
	if (err && err != -ENOENT)
		return err;
	*created = err == -ENOENT;
	mem = open_memstream(&text, &size);
	if (!mem) {
		napi_moved_free(kept, nr_kept);
		return -ENOMEM;
	}
	fprintf(mem, "# %s: NAPI thread CPUs before nictlctl bind\n", ifname);
	for (i = 0, err = 0; !err && i < nr_kept; i++)
		err = print_line(mem, &kept[i]);
	for (i = 0; !err && i < n; i++) {
		if (holds(kept, nr_kept, &m[i]))
			continue;
		err = print_line(mem, &m[i]);
		added++;
	}
	if (fclose(mem) && !err)
		err = -ENOMEM;
	dev_file(path, sizeof(path), ifindex);
	if (!err && added)
		err = run_file_write(path, text);
	free(text);
	napi_moved_free(kept, nr_kept);
	*created &= !err && added;
	return err;
}

int napi_kept_remove(unsigned int ifindex)
{
	char path[4096];

	dev_file(path, sizeof(path), ifindex);
	return unlink(path) ? -errno : 0;
}
