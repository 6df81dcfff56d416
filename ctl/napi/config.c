// SPDX-License-Identifier: GPL-2.0
/*
 * The per-NAPI settings of napi/config.h. The kept file: a "#" line naming
 * the device, then "ID DEFER GRO SUSPEND THREADED" per NAPI, -1 for a
 * setting nictl never set on it (a line of an older nictlctl without
 * THREADED reads as -1 there); a value kept stays (it is from before
 * nictl), a -1 is filled in when a later bind first sets that setting.
 *
 * $NICTL_FAULT_NAPI_SET=k makes the k-th NAPI_SET of a bind fail, without
 * setting, so a test can prove the rollback.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/errno.h>

#include "fault.h"
#include "napi/config.h"
#include "report.h"
#include "rundir.h"
#include "util.h"

const char *const napi_cfg_names[NAPI_CFG_NR] = {
	[NAPI_CFG_DEFER_HARD_IRQS] = "defer-hard-irqs",
	[NAPI_CFG_GRO_FLUSH_TIMEOUT] = "gro-flush-timeout",
	[NAPI_CFG_IRQ_SUSPEND_TIMEOUT] = "irq-suspend-timeout",
	[NAPI_CFG_THREADED] = "threaded",
};

/* The first kernel whose NAPI_GET shows each setting, for the refusal. */
static const char *const since[NAPI_CFG_NR] = {
	[NAPI_CFG_DEFER_HARD_IRQS] = "6.13",
	[NAPI_CFG_GRO_FLUSH_TIMEOUT] = "6.13",
	[NAPI_CFG_IRQ_SUSPEND_TIMEOUT] = "6.13",
	[NAPI_CFG_THREADED] = "6.17",
};

/* One NAPI's values: kept ones, or those to set. */
struct napi_values {
	unsigned int id;
	int64_t v[NAPI_CFG_NR];
};

int napi_threaded_parse(const char *s)
{
	static const char *const modes[] = {
		[NAPI_THREADED_OFF] = "off",
		[NAPI_THREADED_ON] = "on",
		[NAPI_THREADED_BUSY_POLL] = "busy-poll",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(modes); i++)
		if (!strcmp(s, modes[i]))
			return i;
	return -1;
}

bool napi_config_asked(const struct napi_config *c)
{
	unsigned int k;

	for (k = 0; k < NAPI_CFG_NR; k++)
		if (c->set[k])
			return true;
	return false;
}

static void dev_file(char *buf, size_t len, unsigned int ifindex)
{
	snprintf(buf, len, "%s/napicfg-%u", run_dir(), ifindex);
}

/* The NAPIs of @dev in *@napis; 0, or -1 after one line. */
static int read_napis(const struct nictl_dev *dev, struct napi_info **napis, unsigned int *n)
{
	int err = direct_napis(dev->ifindex, napis, n);

	if (err)
		ctl_msg("cannot read the NAPIs of %s: %s", dev->ifname, strerror(-err));
	return err ? -1 : 0;
}

int napi_config_check(const struct nictl_dev *dev, const struct napi_config *c)
{
	struct napi_info *napis;
	unsigned int n, i, k;
	int err;

	if (!napi_config_asked(c))
		return 0;
	if (dev->other_netns) {
		ctl_msg("cannot set NAPI settings of %s in another network namespace: bind it "
			"from there (ip netns exec)", dev->ifname);
		return -1;
	}
	if (read_napis(dev, &napis, &n))
		return -1;
	err = 0;
	for (k = 0; !err && k < NAPI_CFG_NR; k++) {
		for (i = 0; c->set[k] && i < n && napis[i].cfg[k] >= 0; i++)
			;
		if (c->set[k] && (!n || i < n)) {
			ctl_msg("cannot set %s on %s: %s; the kernel keeps it per NAPI from "
				"%s on (netdev-genl napi-set), else only the device's own in "
				"/sys/class/net/%s", napi_cfg_names[k], dev->ifname,
				n ? "this kernel does not show it per NAPI" : "it has no NAPI the "
				"kernel names", since[k], dev->ifname);
			err = -1;
		}
	}
	free(napis);
	return err;
}

static void remove_file(unsigned int ifindex)
{
	char path[4096];

	dev_file(path, sizeof(path), ifindex);
	unlink(path);
}

/* One line of the kept file into @e: 0, or -1 for a line that is not one. */
static int parse_line(const char *line, struct napi_values *e)
{
	unsigned int k;
	char *end;

	errno = 0;
	e->id = strtoul(line, &end, 10);
	if (errno || end == line)
		return -1;
	for (k = 0; k < NAPI_CFG_NR; k++) {
		line = end;
		e->v[k] = strtoll(line, &end, 10);
		if (end == line)
			break;
	}
	/* Every setting of the older three-column lines, or all of them. */
	if (k < NAPI_CFG_THREADED)
		return -1;
	for (; k < NAPI_CFG_NR; k++)
		e->v[k] = -1;
	return 0;
}

static int load(unsigned int ifindex, struct napi_values **kept, unsigned int *n)
{
	char path[4096], line[256];
	struct napi_values e, *grown;
	FILE *f;

	*kept = NULL;
	*n = 0;
	dev_file(path, sizeof(path), ifindex);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || parse_line(line, &e))
			continue;
		grown = realloc(*kept, (*n + 1) * sizeof(**kept));
		if (!grown) {
			fclose(f);
			return -ENOMEM;
		}
		*kept = grown;
		(*kept)[(*n)++] = e;
	}
	fclose(f);
	return 0;
}

static struct napi_values *find(struct napi_values *e, unsigned int n, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (e[i].id == id)
			return &e[i];
	return NULL;
}

/* Keep what @napis have of @c's settings, where the file holds no earlier value. */
static int keep(const struct nictl_dev *dev, const struct napi_info *napis, unsigned int n,
		const struct napi_config *c, bool *created)
{
	struct napi_values *kept, *e, *grown;
	unsigned int nr, i, k;
	char path[4096], *text = NULL;
	size_t size = 0;
	FILE *mem;
	int err;

	err = load(dev->ifindex, &kept, &nr);
	*created = err == -ENOENT;
	if (err && err != -ENOENT)
		return err;
	for (i = 0, err = 0; !err && i < n; i++) {
		e = find(kept, nr, napis[i].id);
		if (!e) {
			grown = realloc(kept, (nr + 1) * sizeof(*kept));
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			kept = grown;
			e = &kept[nr++];
			e->id = napis[i].id;
			for (k = 0; k < NAPI_CFG_NR; k++)
				e->v[k] = -1;
		}
		for (k = 0; k < NAPI_CFG_NR; k++)
			if (c->set[k] && e->v[k] < 0)
				e->v[k] = napis[i].cfg[k];
	}
	mem = err ? NULL : open_memstream(&text, &size);
	if (!err && !mem)
		err = -ENOMEM;
	if (mem) {
		fprintf(mem, "# %s: NAPI settings before nictlctl bind\n", dev->ifname);
		for (i = 0; i < nr; i++) {
			fprintf(mem, "%u", kept[i].id);
			for (k = 0; k < NAPI_CFG_NR; k++)
				fprintf(mem, " %" PRId64, kept[i].v[k]);
			fputc('\n', mem);
		}
		err = fclose(mem) ? -ENOMEM : 0;
	}
	dev_file(path, sizeof(path), dev->ifindex);
	if (!err)
		err = run_file_write(path, text);
	free(text);
	free(kept);
	*created &= !err;
	return err;
}

/* @c's settings out of @from (-1 for the others), as direct_napi_set() takes them. */
static void asked(const struct napi_config *c, const int64_t *from, int64_t *v)
{
	unsigned int k;

	for (k = 0; k < NAPI_CFG_NR; k++)
		v[k] = c->set[k] ? from[k] : -1;
}

int napi_config_apply(const struct nictl_dev *dev, const struct napi_config *c)
{
	unsigned int n, i, fault = fault_at(NAPI_SET_FAULT_ENV);
	struct napi_info *napis;
	int64_t want[NAPI_CFG_NR], old[NAPI_CFG_NR];
	bool created;
	int err;

	if (!napi_config_asked(c))
		return 0;
	if (read_napis(dev, &napis, &n))
		return -1;
	err = keep(dev, napis, n, c, &created);
	if (err) {
		ctl_msg("cannot keep %s's NAPI settings under /run/nictl: %s", dev->ifname,
			strerror(-err));
		free(napis);
		return -1;
	}
	asked(c, c->v, want);
	for (i = 0; !err && i < n; i++)
		err = i + 1 == fault ? -NLE_FAILURE : direct_napi_set(napis[i].id, want);
	if (err) {
		ctl_msg("cannot set the NAPI settings of %s's NAPI %u: %s; put back those set",
			dev->ifname, napis[i - 1].id, nl_geterror(err));
		for (i--; i--;) {
			asked(c, napis[i].cfg, old);
			if (direct_napi_set(napis[i].id, old))
				ctl_msg("could not put back the settings of NAPI %u", napis[i].id);
		}
		if (created)
			remove_file(dev->ifindex);
	}
	free(napis);
	return err ? -1 : 0;
}

int napi_config_restore(unsigned int ifindex)
{
	struct napi_values *kept;
	unsigned int n, i;
	int err;

	err = load(ifindex, &kept, &n);
	if (err == -ENOENT)
		return 0;
	if (err) {
		ctl_msg("cannot read the NAPI settings kept under /run/nictl: %s", strerror(-err));
		return -1;
	}
	for (i = 0; !err && i < n; i++) {
		err = direct_napi_set(kept[i].id, kept[i].v);
		/* A NAPI gone with its device has nothing to put back. */
		if (err == -NLE_OBJ_NOTFOUND || err == -NLE_NODEV)
			err = 0;
	}
	if (err)
		ctl_msg("cannot put back the settings of NAPI %u: %s; run restore again",
			kept[i - 1].id, nl_geterror(err));
	else
		remove_file(ifindex);
	free(kept);
	return err ? -1 : 0;
}
