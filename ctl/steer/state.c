// SPDX-License-Identifier: GPL-2.0
/*
 * The files of steer/state.h. A device's file is named after its ifindex,
 * which a rename keeps and a driver reload changes: a reloaded device
 * starts with the kernel's defaults, and the values of the device that went
 * must not be put on it. Each file is written whole (rundir.h).
 *
 * A device's file: "name value" lines, one per queue value, in the order
 * bind wrote them, after a "#" comment line naming the device:
 *
 *   # vnode1: steering values before nictlctl bind --steer
 *   rx-0/rps_flow_cnt 0
 *   rx-0/rps_cpus 00
 *   tx-0/xps_cpus 10
 *
 * The sysctl's file, "rps_sock_flow_entries": "<before> <raised to>".
 */
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundir.h"
#include "steer/state.h"

#define STATE_PREFIX	"steer-"
#define FLOW_FILE	"rps_sock_flow_entries"


static void dev_file(char *buf, size_t len, unsigned int ifindex)
{
	snprintf(buf, len, "%s/" STATE_PREFIX "%u", run_dir(), ifindex);
}

static void flow_file(char *buf, size_t len)
{
	snprintf(buf, len, "%s/" FLOW_FILE, run_dir());
}

int state_save(unsigned int ifindex, const char *ifname, const struct knob_list *old)
{
	char path[4096], *text = NULL;
	size_t size = 0;
	unsigned int i;
	FILE *mem;
	int err;

	mem = open_memstream(&text, &size);
	if (!mem)
		return -ENOMEM;
	fprintf(mem, "# %s: steering values before nictlctl bind --steer\n", ifname);
	for (i = 0; i < old->nr; i++)
		fprintf(mem, "%s %s\n", old->knobs[i].name, old->knobs[i].value);
	if (fclose(mem)) {
		free(text);
		return -ENOMEM;
	}
	dev_file(path, sizeof(path), ifindex);
	err = run_file_write(path, text);
	free(text);
	return err;
}

/* Add the "name value" line @line to @old; -EINVAL when it is not one. */
static int parse_line(char *line, struct knob_list *old)
{
	char *value;

	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '#')
		return 0;
	value = strchr(line, ' ');
	if (!value || value == line)
		return -EINVAL;
	*value++ = '\0';
	return knobs_add(old, line, value);
}

/* The values @ifindex's file holds into @old: 0, -ENOENT, -EINVAL, -ENOMEM. */
int state_load(unsigned int ifindex, struct knob_list *old)
{
	char path[4096], *line = NULL;
	size_t size = 0;
	FILE *f;
	int err = 0;

	*old = (struct knob_list){ NULL, 0 };
	dev_file(path, sizeof(path), ifindex);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (!err && getline(&line, &size, f) >= 0)
		err = parse_line(line, old);
	free(line);
	fclose(f);
	if (err)
		knobs_free(old);
	return err;
}

/*
 * Keep @old for `restore`: each value the file of @ifindex does not hold
 * yet (a part steered for the first time, a queue that came since); one it
 * holds is from before nictl and stays. @created says the file is new, for
 * a rollback to remove.
 */
int state_keep(unsigned int ifindex, const char *ifname, const struct knob_list *old,
	       bool *created)
{
	struct knob_list kept;
	unsigned int i, added = 0;
	int err;

	*created = false;
	err = state_load(ifindex, &kept);
	if (err == -ENOENT) {
		err = state_save(ifindex, ifname, old);
		*created = !err;
		return err;
	}
	for (i = 0; !err && i < old->nr; i++) {
		if (knobs_find(&kept, old->knobs[i].name))
			continue;
		err = knobs_add(&kept, old->knobs[i].name, old->knobs[i].value);
		added++;
	}
	if (!err && added)
		err = state_save(ifindex, ifname, &kept);
	knobs_free(&kept);
	return err;
}

int state_remove(unsigned int ifindex)
{
	char path[4096];

	dev_file(path, sizeof(path), ifindex);
	return unlink(path) ? -errno : 0;
}

/* Whether a device other than @ifindex, still there, has steering to restore. */
bool state_others(unsigned int ifindex)
{
	char name[IF_NAMESIZE];
	struct dirent *e;
	unsigned int other;
	bool found = false;
	DIR *dir;

	dir = opendir(run_dir());
	while (dir && !found && (e = readdir(dir))) {
		if (sscanf(e->d_name, STATE_PREFIX "%u", &other) == 1 && !strchr(e->d_name, '.'))
			found = other != ifindex && if_indextoname(other, name);
	}
	if (dir)
		closedir(dir);
	return found;
}

int state_flow_save(unsigned int before, unsigned int raised)
{
	char path[4096], text[32];

	flow_file(path, sizeof(path));
	snprintf(text, sizeof(text), "%u %u\n", before, raised);
	return run_file_write(path, text);
}

int state_flow_load(unsigned int *before, unsigned int *raised)
{
	char path[4096];
	FILE *f;
	int n;

	flow_file(path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fscanf(f, "%u %u", before, raised);
	fclose(f);
	return n == 2 ? 0 : -EINVAL;
}

int state_flow_remove(void)
{
	char path[4096];

	flow_file(path, sizeof(path));
	return unlink(path) ? -errno : 0;
}
