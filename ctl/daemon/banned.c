// SPDX-License-Identifier: GPL-2.0
/*
 * The banned CPUs, from irqbalance's environment files and from
 * /proc/irq/default_smp_affinity, read again whenever inotify says a file's
 * folder changed (the runtimes replace the file by a rename) and once a
 * second for procfs, which sends no inotify events.
 *
 * Both variables count when both are set, and so does the default affinity:
 * irqbalance would take one of the two variables, but a CPU any source keeps
 * free is one a runtime meant to keep free. A file that cannot be read as
 * irqbalance reads it changes nothing: the CPUs banned before stay banned.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/inotify.h>

#include "daemon/banned.h"
#include "topology.h"

#define VAR_LIST	"IRQBALANCE_BANNED_CPULIST"
#define VAR_MASK	"IRQBALANCE_BANNED_CPUS"

void banned_env_free(struct banned_env *env)
{
	cpuset_free(&env->list);
	cpuset_free(&env->mask);
	free(env->list_text);
	free(env->mask_text);
	*env = (struct banned_env){ CPUSET_INIT, CPUSET_INIT, NULL, NULL };
}

/*
 * The value of an assignment as a shell or systemd's EnvironmentFile= reads
 * it: quotes around it go, and so does a comment after an unquoted one.
 */
static char *env_value(char *v)
{
	char *end;

	if ((*v == '"' || *v == '\'') && (end = strchr(v + 1, *v))) {
		*end = '\0';
		return v + 1;
	}
	for (end = v; *end && !isspace((unsigned char)*end); end++)
		;
	*end = '\0';
	return v;
}

/* One variable's value into @cpus and @text; -1 with @err set when it is not one. */
static int env_var(const char *name, const char *v, struct cpuset *cpus, char **text,
		   char *err, size_t errlen, unsigned int line)
{
	bool mask = !strcmp(name, VAR_MASK);
	int ret;

	cpuset_free(cpus);
	free(*text);
	*text = NULL;
	if (!*v)
		return 0;	/* empty: irqbalance bans nothing either */
	ret = mask ? cpuset_parse_mask(cpus, v) : cpuset_parse(cpus, v);
	if (ret) {
		snprintf(err, errlen, "line %u: %s='%s' is not a %s", line, name, v,
			 mask ? "hex CPU mask" : "CPU list");
		return -1;
	}
	*text = strdup(v);
	return *text ? 0 : -1;
}

/*
 * Read irqbalance's environment file @f into @env: the last assignment of
 * each variable counts, an "export " before it is allowed, other variables
 * are skipped. 0, or -1 with @err saying which line is wrong.
 */
int banned_parse_env(FILE *f, struct banned_env *env, char *err, size_t errlen)
{
	char *buf = NULL, *s, *eq;
	unsigned int line = 0;
	size_t size = 0;
	int ret = 0;

	*env = (struct banned_env){ CPUSET_INIT, CPUSET_INIT, NULL, NULL };
	while (!ret && getline(&buf, &size, f) >= 0) {
		line++;
		for (s = buf; isspace((unsigned char)*s); s++)
			;
		if (!strncmp(s, "export", 6) && isspace((unsigned char)s[6]))
			for (s += 7; isspace((unsigned char)*s); s++)
				;
		eq = strchr(s, '=');
		if (*s == '#' || !eq)
			continue;
		*eq = '\0';
		if (!strcmp(s, VAR_LIST))
			ret = env_var(s, env_value(eq + 1), &env->list, &env->list_text, err,
				      errlen, line);
		else if (!strcmp(s, VAR_MASK))
			ret = env_var(s, env_value(eq + 1), &env->mask, &env->mask_text, err,
				      errlen, line);
	}
	free(buf);
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "read error");
		ret = -1;
	}
	if (ret)
		banned_env_free(env);
	return ret;
}

void banned_init(struct banned *b)
{
	*b = (struct banned){ .cpus = CPUSET_INIT, .inotify_fd = -1 };
}

/* Watch the folder of each file: a rename into it replaces the file. */
static int watch(struct banned *b)
{
	char dir[4096];
	unsigned int i;

	b->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (b->inotify_fd < 0)
		return -errno;
	for (i = 0; i < 2 && b->paths[i]; i++) {
		snprintf(dir, sizeof(dir), "%s", b->paths[i]);
		/* A folder that does not exist holds no file to read. */
		if (inotify_add_watch(b->inotify_fd, dirname(dir), IN_CLOSE_WRITE | IN_MOVED_TO |
				      IN_MOVED_FROM | IN_CREATE | IN_DELETE) < 0 &&
		    errno != ENOENT)
			return -errno;
	}
	return 0;
}

/*
 * Read @file (NULL: both of irqbalance's usual files) and, with @watch,
 * notice its changes; banned_refresh() reads the sources. 0 or -errno.
 */
int banned_start(struct banned *b, const char *file, bool watch_files)
{
	b->paths[0] = file ?: BANNED_ENV_DEBIAN;
	b->paths[1] = file ? NULL : BANNED_ENV_REDHAT;
	return watch_files ? watch(b) : 0;
}

/*
 * A reading of every source: the CPUs banned, where each comes from, and
 * what went wrong.
 */
struct reading {
	struct cpuset cpus;
	FILE *why;
	char err[4608];	/* a path and what is wrong with it */
};

/* Add @add to the reading and say so as "WHAT (CPUS)". */
static int add_source(struct reading *r, const char *what, const struct cpuset *add)
{
	char *list;

	if (cpuset_empty(add))
		return 0;
	list = cpuset_format(add);
	if (!list || cpuset_or(&r->cpus, add)) {
		free(list);
		snprintf(r->err, sizeof(r->err), "out of memory");
		return -1;
	}
	fprintf(r->why, "%s%s (%s)", ftell(r->why) ? ", " : "", what, list);
	free(list);
	return 0;
}

/* The variables of one environment file; a file that does not exist bans nothing. */
static int read_env(const char *path, struct reading *r)
{
	struct banned_env env;
	char err[256], what[4200];
	FILE *f = fopen(path, "r");
	int ret;

	if (!f && errno == ENOENT)
		return 0;
	if (!f) {
		snprintf(r->err, sizeof(r->err), "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = banned_parse_env(f, &env, err, sizeof(err));
	fclose(f);
	if (ret) {
		snprintf(r->err, sizeof(r->err), "%s: %s", path, err);
		return -1;
	}
	snprintf(what, sizeof(what), VAR_LIST "=%s in %s", env.list_text ?: "", path);
	ret = add_source(r, what, &env.list);
	snprintf(what, sizeof(what), VAR_MASK "=%s in %s", env.mask_text ?: "", path);
	if (!ret)
		ret = add_source(r, what, &env.mask);
	banned_env_free(&env);
	return ret;
}

/* The online CPUs /proc/irq/default_smp_affinity leaves out. */
static int read_default_affinity(struct reading *r)
{
	struct cpuset allowed = CPUSET_INIT, off = CPUSET_INIT;
	char path[4096], *line = NULL, what[4200];
	size_t size = 0;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/irq/default_smp_affinity", proc_root());
	f = fopen(path, "r");
	if (!f && errno == ENOENT)
		return 0;
	if (!f) {
		snprintf(r->err, sizeof(r->err), "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = getline(&line, &size, f) < 0 ? -EIO : 0;
	fclose(f);
	if (!ret) {
		line[strcspn(line, "\n")] = '\0';
		ret = cpuset_parse_mask(&allowed, line);
	}
	if (!ret)
		ret = topo_online_cpus(&off);
	if (ret)
		snprintf(r->err, sizeof(r->err), "%s: %s", path,
			 ret == -EINVAL ? "not a hex CPU mask" : strerror(-ret));
	cpuset_andnot(&off, &allowed);
	if (!ret) {
		snprintf(what, sizeof(what), "not in %s=%s", path, line);
		ret = add_source(r, what, &off);
	}
	free(line);
	cpuset_free(&allowed);
	cpuset_free(&off);
	return ret ? -1 : 0;
}

/* Keep @text as b->error, and tell whether it is news; it is consumed. */
static bool new_error(struct banned *b, char *text)
{
	bool news = !text || !b->error || strcmp(b->error, text);

	free(b->error);
	b->error = text;
	return news;
}

/*
 * Read every source again. 0 with @news set when the banned CPUs differ
 * from before (b->cpus; b->why says where each comes from); or -1, the CPUs
 * banned before kept, with @news set when the error (b->error) is not the
 * one of the previous read, so that a file that stays broken is logged once.
 */
int banned_refresh(struct banned *b, long long now_ms, bool *news)
{
	struct reading r = { .cpus = CPUSET_INIT };
	char *why = NULL;
	size_t len = 0;
	unsigned int i;
	int err = 0;

	*news = false;
	b->next_read_ms = now_ms + BANNED_READ_PERIOD_MS;
	r.why = open_memstream(&why, &len);
	if (!r.why)
		return -1;
	for (i = 0; !err && i < 2 && b->paths[i]; i++)
		err = read_env(b->paths[i], &r);
	if (!err)
		err = read_default_affinity(&r);
	fclose(r.why);
	if (err) {
		*news = new_error(b, strdup(r.err));
	} else {
		free(b->error);
		b->error = NULL;
		*news = !cpuset_equal(&r.cpus, &b->cpus);
	}
	if (*news && !err) {
		cpuset_free(&b->cpus);
		free(b->why);
		b->cpus = r.cpus;
		b->why = why;
		r.cpus = (struct cpuset)CPUSET_INIT;
		why = NULL;
	}
	cpuset_free(&r.cpus);
	free(why);
	return err;
}

/* Milliseconds until the next read of procfs, for poll(). */
int banned_timeout(const struct banned *b, long long now_ms)
{
	if (!b->paths[0])
		return -1;
	return b->next_read_ms > now_ms ? (int)(b->next_read_ms - now_ms) : 0;
}

/* Empty the inotify queue: which file changed does not matter, all are read again. */
void banned_drain(struct banned *b)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));

	while (read(b->inotify_fd, buf, sizeof(buf)) > 0)
		;
}

void banned_free(struct banned *b)
{
	if (b->inotify_fd >= 0)
		close(b->inotify_fd);
	cpuset_free(&b->cpus);
	free(b->why);
	free(b->error);
	banned_init(b);
}
