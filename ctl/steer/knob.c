// SPDX-License-Identifier: GPL-2.0
/*
 * Read and write one steering value. Errors are -errno for the caller to
 * word. The sysfs root is topo_root(), which host unit tests point at a fake
 * tree; the sysctl is always the running kernel's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "steer/knob.h"
#include "topology.h"

#define FLOW_ENTRIES_PATH	"/proc/sys/net/core/rps_sock_flow_entries"

int knob_path(char *buf, size_t len, const char *ifname, const char *name)
{
	size_t n = snprintf(buf, len, "%s/class/net/%s/queues/%s", topo_root(), ifname, name);

	return n < len ? 0 : -ENAMETOOLONG;
}

/* The first line of @path, without its newline, malloc'ed into @value. */
static int read_value(const char *path, char **value)
{
	size_t size = 0;
	ssize_t n;
	FILE *f;
	int err = 0;

	*value = NULL;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = getline(value, &size, f);
	if (n < 0) {
		err = ferror(f) ? -errno : -ENODATA;
		free(*value);
		*value = NULL;
	} else {
		(*value)[strcspn(*value, "\n")] = '\0';
	}
	fclose(f);
	return err;
}

/*
 * Write @value in one write(2): sysfs and procfs take a value in one piece.
 * O_TRUNC is what `echo >` does; kernfs ignores it, a fake tree needs it.
 */
int sysfs_write(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int knob_read(const char *ifname, const char *name, char **value)
{
	char path[4096];
	int err = knob_path(path, sizeof(path), ifname, name);

	return err ?: read_value(path, value);
}

int knob_write(const char *ifname, const char *name, const char *value)
{
	char path[4096];
	int err = knob_path(path, sizeof(path), ifname, name);

	return err ?: sysfs_write(path, value);
}

/* 0 when the value can be written, else why not: -EROFS for a read-only sysfs. */
int knob_writable(const char *ifname, const char *name)
{
	char path[4096];
	int err = knob_path(path, sizeof(path), ifname, name);

	if (!err && access(path, W_OK))
		err = -errno;
	return err;
}

int knobs_add(struct knob_list *list, const char *name, const char *value)
{
	struct knob *knobs, *k;

	if (strlen(name) >= KNOB_NAME_LEN)
		return -ENAMETOOLONG;
	knobs = realloc(list->knobs, (list->nr + 1) * sizeof(*knobs));
	if (!knobs)
		return -ENOMEM;
	list->knobs = knobs;
	k = &knobs[list->nr];
	k->value = strdup(value);
	if (!k->value)
		return -ENOMEM;
	strcpy(k->name, name);
	list->nr++;
	return 0;
}

const struct knob *knobs_find(const struct knob_list *list, const char *name)
{
	unsigned int i;

	for (i = 0; i < list->nr; i++)
		if (!strcmp(list->knobs[i].name, name))
			return &list->knobs[i];
	return NULL;
}

void knobs_free(struct knob_list *list)
{
	unsigned int i;

	for (i = 0; i < list->nr; i++)
		free(list->knobs[i].value);
	free(list->knobs);
	*list = (struct knob_list){ NULL, 0 };
}

int flow_entries_read(unsigned int *entries)
{
	char *value, *end;
	int err;

	err = read_value(FLOW_ENTRIES_PATH, &value);
	if (err)
		return err;
	errno = 0;
	*entries = strtoul(value, &end, 10);
	if (end == value || *end || errno)
		err = -EINVAL;
	free(value);
	return err;
}

int flow_entries_write(unsigned int entries)
{
	char value[16];

	snprintf(value, sizeof(value), "%u", entries);
	return sysfs_write(FLOW_ENTRIES_PATH, value);
}

/*
 * Write back the values of the first @nr knobs of @list, the last first, as
 * an undo goes; past a failure too, to put back as much as can be. A queue
 * gone since (ethtool -L), or an XPS map gone with all tx queues but one
 * (ENOENT), took its value with it: nothing to put back. The first error,
 * with the name of its knob in @failed.
 */
int knobs_put_back(const char *ifname, const struct knob_list *list, unsigned int nr,
		   const char **failed)
{
	int err, first = 0;

	while (nr--) {
		err = knob_write(ifname, list->knobs[nr].name, list->knobs[nr].value);
		if (err && err != -ENOENT && !first) {
			first = err;
			*failed = list->knobs[nr].name;
		}
	}
	return first;
}

/* -EROFS, -EACCES... when the sysctl cannot be written; 0 when it can. */
int flow_entries_writable(void)
{
	return access(FLOW_ENTRIES_PATH, W_OK) ? -errno : 0;
}

/*
 * Put the RFS table size nictl raised to @raised back to @before, unless
 * someone set another since: that value is theirs to keep. 0 when put back,
 * 1 when left, or -errno.
 */
int flow_entries_put_back(unsigned int before, unsigned int raised)
{
	unsigned int now;
	int err = flow_entries_read(&now);

	if (err)
		return err;
	return now == raised ? flow_entries_write(before) : 1;
}
