// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration file, line by line. Every rejection names the file, the
 * line and what is wrong with it, because an operator reads it in a journal
 * after a reload that did not take.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/match.h"
#include "metrics/addr.h"
#include "util.h"

/* The bounded wait for a device's queue IRQs, when [daemon] sets none. */
#define IRQ_WAIT_DEFAULT_MS	10000
#define IRQ_WAIT_MAX_S		600
/* How often a balanced rule may move queues, and the gain worth a move. */
#define BALANCE_INTERVAL_DEFAULT_S	60
#define BALANCE_INTERVAL_MAX_S		86400
#define BALANCE_THRESHOLD_DEFAULT_PCT	10

enum key_id {
	KEY_CPUS = NR_RULE_MATCH,	/* after the match keys, which share their ids */
	KEY_EXCLUDE,
	KEY_ALLOW_SIBLINGS,
	KEY_STEER,
	KEY_RPS,
	KEY_RFS,
	KEY_XPS,
	KEY_STICKY,
	KEY_DEFER_HARD_IRQS,		/* one per &enum napi_cfg, in its order */
	KEY_GRO_FLUSH_TIMEOUT,
	KEY_IRQ_SUSPEND_TIMEOUT,
	KEY_THREADED,
	KEY_BALANCE,
	KEY_BALANCE_INTERVAL,
	KEY_BALANCE_THRESHOLD,
	KEY_IRQ_WAIT,
	KEY_IRQBALANCE,
	KEY_BANNED_CPUS,
	KEY_BANNED_CPUS_FILE,
	KEY_METRICS,
	NR_KEYS,
};

static const struct {
	const char *name;
	bool daemon;	/* a key of [daemon], else of [rule NAME] */
} keys[NR_KEYS] = {
	[RULE_MATCH_NAME]	= { "match-name", false },
	[RULE_MATCH_PCI]	= { "match-pci", false },
	[RULE_MATCH_MAC]	= { "match-mac", false },
	[RULE_MATCH_DRIVER]	= { "match-driver", false },
	[RULE_MATCH_NETNS]	= { "match-netns", false },
	[KEY_CPUS]		= { "cpus", false },
	[KEY_EXCLUDE]		= { "exclude", false },
	[KEY_ALLOW_SIBLINGS]	= { "allow-siblings", false },
	[KEY_STEER]		= { "steer", false },
	[KEY_RPS]		= { "rps", false },
	[KEY_RFS]		= { "rfs", false },
	[KEY_XPS]		= { "xps", false },
	[KEY_STICKY]		= { "sticky", false },
	[KEY_DEFER_HARD_IRQS]	= { "defer-hard-irqs", false },
	[KEY_GRO_FLUSH_TIMEOUT]	= { "gro-flush-timeout", false },
	[KEY_IRQ_SUSPEND_TIMEOUT] = { "irq-suspend-timeout", false },
	[KEY_THREADED]		= { "threaded", false },
	[KEY_BALANCE]		= { "balance", false },
	[KEY_BALANCE_INTERVAL]	= { "balance-interval", false },
	[KEY_BALANCE_THRESHOLD]	= { "balance-threshold", false },
	[KEY_IRQ_WAIT]		= { "irq-wait", true },
	[KEY_IRQBALANCE]	= { "irqbalance", true },
	[KEY_BANNED_CPUS]	= { "banned-cpus", true },
	[KEY_BANNED_CPUS_FILE]	= { "banned-cpus-file", true },
	[KEY_METRICS]		= { "metrics", true },
};

struct parser {
	const char *path;
	unsigned int line;
	struct conf *conf;
	bool in_section;	/* a section header was seen */
	bool in_daemon;		/* ... and it was [daemon] (else the last rule's) */
	bool seen_daemon;
	unsigned int seen;	/* keys of the current section, a bit per enum key_id */
	bool steer_auto;	/* the current rule says steer = auto */
	char *err;
	size_t errlen;
};

/* Say "PATH:LINE: what" in the caller's buffer; returns -1. */
static __printf(2, 3) int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "%s:%u: ", p->path, p->line);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static struct rule *cur_rule(struct parser *p)
{
	return &p->conf->rules[p->conf->nr_rules - 1];
}

/* steer = auto asks for each part its own key does not turn off. */
static void steer_defaults(struct parser *p, struct rule *r)
{
	static const struct {
		enum key_id key;
		unsigned int part;
	} own[] = { { KEY_RPS, STEER_RPS }, { KEY_RFS, STEER_RFS }, { KEY_XPS, STEER_XPS } };
	unsigned int i;

	for (i = 0; p->steer_auto && i < ARRAY_SIZE(own); i++)
		if (!(p->seen & (1U << own[i].key)))
			r->steer |= own[i].part;
}

/* The section that just ended must be complete. */
static int end_section(struct parser *p)
{
	struct rule *r;
	unsigned int line = p->line;
	int i, err = -1;

	if (!p->in_section || p->in_daemon)
		return 0;
	r = cur_rule(p);
	steer_defaults(p, r);
	for (i = 0; i < NR_RULE_MATCH && err; i++)
		if (r->match[i])
			err = 0;
	p->line = r->line;
	if (err)
		fail(p, "rule '%s' matches no device: give at least one of match-name, match-pci, "
		     "match-mac, match-driver and match-netns", r->name);
	/* Steering is set in sysfs, which shows the initial namespace's devices. */
	else if (r->match[RULE_MATCH_NETNS] && r->steer)
		err = fail(p, "rule '%s': steer, rps, rfs and xps do not reach a device in "
			   "another network namespace (match-netns)", r->name);
	/* Steering is planned from the IRQs a bind places, not from a balance's moves. */
	else if (r->balance && r->steer)
		err = fail(p, "rule '%s': balance does not go with steer, rps, rfs or xps; "
			   "steer the device with a rule of its own, without balance", r->name);
	else if (!r->balance && (p->seen & (1U << KEY_BALANCE_INTERVAL |
					      1U << KEY_BALANCE_THRESHOLD)))
		err = fail(p, "rule '%s': balance-interval and balance-threshold need "
			   "balance = yes", r->name);
	p->line = line;
	return err;
}

static bool valid_rule_name(const char *name)
{
	return *name && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_.-") == strlen(name);
}

static int new_rule(struct parser *p, const char *name)
{
	struct conf *c = p->conf;
	struct rule *rules;
	unsigned int i;

	if (!valid_rule_name(name))
		return fail(p, "rule name '%s': use letters, digits, '_', '.' and '-'", name);
	for (i = 0; i < c->nr_rules; i++)
		if (!strcmp(c->rules[i].name, name))
			return fail(p, "a rule named '%s' already starts at %s:%u", name,
				    c->rules[i].file, c->rules[i].line);
	rules = realloc(c->rules, (c->nr_rules + 1) * sizeof(*rules));
	if (!rules)
		return fail(p, "out of memory");
	c->rules = rules;
	rules[c->nr_rules] = (struct rule){
		.line = p->line,
		.policy.req = { .source = CPUS_ONLINE, .given = CPUSET_INIT,
				.exclude = CPUSET_INIT, .exclude_name = "exclude" },
		/* The kernel keeps the binding through reloads the daemon may miss. */
		.policy.sticky = true,
		.balance_interval_s = BALANCE_INTERVAL_DEFAULT_S,
		.balance_threshold_pct = BALANCE_THRESHOLD_DEFAULT_PCT,
	};
	rules[c->nr_rules].name = strdup(name);
	rules[c->nr_rules].file = strdup(p->path);
	c->nr_rules++;	/* counted before the check, so conf_free() frees it */
	return rules[c->nr_rules - 1].name && rules[c->nr_rules - 1].file ? 0 :
	       fail(p, "out of memory");
}

/* "[rule NAME]" or "[daemon]"; @s is the line without its brackets' outside. */
static int parse_section(struct parser *p, char *s)
{
	size_t len = strlen(s);
	char *inner;

	if (s[len - 1] != ']')
		return fail(p, "a section header ends with ']'");
	s[len - 1] = '\0';
	inner = trim(s + 1);
	if (end_section(p))
		return -1;
	p->in_section = true;
	p->seen = 0;
	p->steer_auto = false;
	if (!strcmp(inner, "daemon")) {
		if (p->seen_daemon)
			return fail(p, "[daemon] may appear only once");
		p->in_daemon = p->seen_daemon = true;
		return 0;
	}
	p->in_daemon = false;
	if (strncmp(inner, "rule", 4) || !isspace((unsigned char)inner[4]))
		return fail(p, "unknown section [%s]; the sections are [rule NAME] and [daemon]",
			    inner);
	return new_rule(p, trim(inner + 4));
}

/*
 * Every boolean-like key takes yes and no the same way, also spelt true,
 * on, 1 and false, off, 0; a key whose "on" lets the plan decide (steer,
 * rps) takes auto as yes too.
 */
static int parse_bool(struct parser *p, const char *key, const char *v, bool takes_auto,
		      bool *out)
{
	static const char *const words[2][4] = {
		{ "no", "false", "off", "0" }, { "yes", "true", "on", "1" },
	};
	unsigned int on, i;

	for (on = 0; on < 2; on++)
		for (i = 0; i < ARRAY_SIZE(words[on]); i++)
			if (!strcmp(v, words[on][i])) {
				*out = on;
				return 0;
			}
	if (takes_auto && !strcmp(v, "auto")) {
		*out = true;
		return 0;
	}
	return fail(p, "%s: '%s' is neither %syes nor no", key, v, takes_auto ? "auto, " : "");
}

/* The steering @part into @parts when @v says so. */
static int parse_part(struct parser *p, const char *key, const char *v, bool takes_auto,
		      unsigned int part, unsigned int *parts)
{
	bool set;

	if (parse_bool(p, key, v, takes_auto, &set))
		return -1;
	if (set)
		*parts |= part;
	return 0;
}

static int parse_cpulist(struct parser *p, const char *key, const char *v, struct cpuset *out)
{
	int err = cpuset_parse(out, v);

	if (err == -ERANGE)
		return fail(p, "%s: CPU numbers go up to %d", key, CPUSET_MAX_CPUS - 1);
	if (err == -ENOMEM)
		return fail(p, "out of memory");
	if (err)
		return fail(p, "%s: '%s' is not a CPU list; write one like 0-3,8,10-11", key, v);
	return 0;
}

/* A decimal number in [@min, @max]. */
static int parse_uint(struct parser *p, const char *key, const char *v, unsigned int min,
		      unsigned int max, unsigned int *out)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!isdigit((unsigned char)*v) || *end || errno || n < min || n > max)
		return fail(p, "%s: '%s' is not a number from %u to %u", key, v, min, max);
	*out = n;
	return 0;
}

/* cpus = numa-local | node N | all | LIST */
static int parse_cpus(struct parser *p, const char *v, struct bind_policy *pol)
{
	unsigned int node;

	if (!strcmp(v, "numa-local")) {
		pol->numa_local = true;
		pol->req.source = CPUS_NODE;
		return 0;
	}
	if (!strcmp(v, "all"))
		return 0;
	if (!strncmp(v, "node", 4) && isspace((unsigned char)v[4])) {
		pol->req.source = CPUS_NODE;
		if (parse_uint(p, "cpus = node", trim((char *)v + 4), 0, 1 << 16, &node))
			return -1;
		pol->req.node = node;
		return 0;
	}
	if (!isdigit((unsigned char)*v))
		return fail(p, "cpus: '%s' is none of numa-local, node N, all and a CPU list "
			    "such as 4-7,12", v);
	pol->req.source = CPUS_GIVEN;
	return parse_cpulist(p, "cpus", v, &pol->req.given);
}

static int set_rule_key(struct parser *p, enum key_id id, const char *v)
{
	struct rule *r = cur_rule(p);
	unsigned int k, n;
	char err[256];

	switch (id) {
	case KEY_CPUS:
		return parse_cpus(p, v, &r->policy);
	case KEY_EXCLUDE:
		return parse_cpulist(p, "exclude", v, &r->policy.req.exclude);
	case KEY_ALLOW_SIBLINGS:
		return parse_bool(p, "allow-siblings", v, false, &r->policy.allow_siblings);
	case KEY_STEER:
		return parse_bool(p, "steer", v, true, &p->steer_auto);
	case KEY_RPS:
		return parse_part(p, "rps", v, true, STEER_RPS, &r->steer);
	case KEY_RFS:
		return parse_part(p, "rfs", v, false, STEER_RFS, &r->steer);
	case KEY_XPS:
		return parse_part(p, "xps", v, false, STEER_XPS, &r->steer);
	case KEY_STICKY:
		return parse_bool(p, "sticky", v, false, &r->policy.sticky);
	case KEY_DEFER_HARD_IRQS:
	case KEY_GRO_FLUSH_TIMEOUT:
	case KEY_IRQ_SUSPEND_TIMEOUT:
		k = id - KEY_DEFER_HARD_IRQS;
		if (parse_uint(p, napi_cfg_names[k], v, 0, INT32_MAX, &n))
			return -1;
		r->policy.napi.set[k] = true;
		r->policy.napi.v[k] = n;
		return 0;
	case KEY_THREADED:
		r->policy.napi.set[NAPI_CFG_THREADED] = true;
		r->policy.napi.v[NAPI_CFG_THREADED] = napi_threaded_parse(v);
		if (r->policy.napi.v[NAPI_CFG_THREADED] >= 0)
			return 0;
		return fail(p, "threaded: '%s' is neither off, on nor busy-poll", v);
	case KEY_BALANCE:
		return parse_bool(p, "balance", v, false, &r->balance);
	case KEY_BALANCE_INTERVAL:
		return parse_uint(p, "balance-interval", v, 1, BALANCE_INTERVAL_MAX_S,
				  &r->balance_interval_s);
	case KEY_BALANCE_THRESHOLD:
		return parse_uint(p, "balance-threshold", v, 0, 100, &r->balance_threshold_pct);
	default:
		r->match[id] = match_parse((enum rule_key)id, v, err, sizeof(err));
		return r->match[id] ? 0 : fail(p, "%s: %s", keys[id].name, err);
	}
}

static int set_daemon_key(struct parser *p, enum key_id id, const char *v)
{
	struct metrics_addr addr;
	char err[256];
	unsigned int s;

	switch (id) {
	case KEY_IRQ_WAIT:
		if (parse_uint(p, "irq-wait", v, 1, IRQ_WAIT_MAX_S, &s))
			return -1;
		p->conf->irq_wait_ms = s * 1000;
		return 0;
	case KEY_IRQBALANCE:
		if (strcmp(v, "ban") && strcmp(v, "ignore"))
			return fail(p, "irqbalance: '%s' is neither ban nor ignore", v);
		p->conf->irqbalance_ban = !strcmp(v, "ban");
		return 0;
	case KEY_BANNED_CPUS:
		if (strcmp(v, "irqbalance") && strcmp(v, "ignore"))
			return fail(p, "banned-cpus: '%s' is neither irqbalance nor ignore", v);
		p->conf->banned_cpus = !strcmp(v, "irqbalance");
		return 0;
	case KEY_METRICS:
		if (!strcmp(v, "off"))
			return 0;
		if (metrics_addr_parse(v, &addr, err, sizeof(err)))
			return fail(p, "metrics: %s", err);
		p->conf->metrics = strdup(v);
		return p->conf->metrics ? 0 : fail(p, "out of memory");
	default:
		if (*v != '/')
			return fail(p, "banned-cpus-file: '%s' is not an absolute path", v);
		p->conf->banned_cpus_file = strdup(v);
		return p->conf->banned_cpus_file ? 0 : fail(p, "out of memory");
	}
}

static int parse_key(struct parser *p, char *line, char *eq)
{
	const char *key, *value;
	int id;

	*eq = '\0';
	key = trim(line);
	value = trim(eq + 1);
	for (id = 0; id < NR_KEYS; id++)
		if (!strcmp(keys[id].name, key))
			break;
	if (!p->in_section)
		return fail(p, "'%s' comes before any [rule NAME] or [daemon] section", key);
	if (id == NR_KEYS || keys[id].daemon != p->in_daemon)
		return fail(p, "unknown key '%s' in %s", key,
			    p->in_daemon ? "[daemon]; its keys are irq-wait, irqbalance, banned-cpus, "
			    "banned-cpus-file and metrics" :
			    "a rule; its keys are match-name, match-pci, match-mac, match-driver, "
			    "match-netns, cpus, exclude, allow-siblings, steer, rps, rfs, xps, sticky, balance, "
			    "balance-interval and balance-threshold");
	if (p->seen & (1U << id))
		return fail(p, "'%s' is set twice in this section", key);
	p->seen |= 1U << id;
	if (!*value)
		return fail(p, "'%s' needs a value", key);
	return p->in_daemon ? set_daemon_key(p, id, value) : set_rule_key(p, id, value);
}

static int parse_line(struct parser *p, char *raw)
{
	char *s = trim(raw), *eq;

	if (!*s || *s == '#' || *s == ';')
		return 0;
	if (*s == '[')
		return parse_section(p, s);
	eq = strchr(s, '=');
	if (!eq)
		return fail(p, "expected 'key = value', a [section] or a # comment, not '%s'", s);
	return parse_key(p, s, eq);
}

/* Read one file into the configuration @p builds; 0 or -1 with p->err set. */
static int parse_file(struct parser *p, FILE *f, const char *path)
{
	char *line = NULL;
	size_t size = 0;
	int ret = 0;

	/* A file starts outside any section: a drop-in's rules are its own. */
	p->path = path;
	p->line = 0;
	p->in_section = p->in_daemon = p->steer_auto = false;
	p->seen = 0;
	while (!ret && getline(&line, &size, f) >= 0) {
		p->line++;
		ret = parse_line(p, line);
	}
	free(line);
	if (!ret && ferror(f))
		ret = fail(p, "read error");
	return ret ?: end_section(p);
}

static void conf_init(struct parser *p, struct conf *conf, char *err, size_t errlen)
{
	*p = (struct parser){ .conf = conf, .err = err, .errlen = errlen };
	*conf = (struct conf){ .irq_wait_ms = IRQ_WAIT_DEFAULT_MS, .irqbalance_ban = true,
			       .banned_cpus = true };
}

/*
 * Read the configuration in @f (named @path in messages) into @conf. On
 * failure @conf is empty and @err says "PATH:LINE: what is wrong"; -1.
 */
int conf_parse(FILE *f, const char *path, struct conf *conf, char *err, size_t errlen)
{
	struct parser p;
	int ret;

	conf_init(&p, conf, err, errlen);
	ret = parse_file(&p, f, path);
	if (ret)
		conf_free(conf);
	return ret;
}

static int load_file(struct parser *p, const char *path)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		snprintf(p->err, p->errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	ret = parse_file(p, f, path);
	fclose(f);
	return ret;
}

/* Drop-ins are *.conf files; editors' backups and hidden files are not. */
static int dropin_filter(const struct dirent *e)
{
	size_t len = strlen(e->d_name);

	return e->d_name[0] != '.' && len > 5 && !strcmp(e->d_name + len - 5, ".conf");
}

/* The drop-ins of @path, each after the one before in name order. */
static int load_dropins(struct parser *p, const char *path)
{
	struct dirent **names;
	char dir[PATH_MAX], file[PATH_MAX + 256];
	int n, i, ret = 0;

	snprintf(dir, sizeof(dir), "%s%s", path, CONF_DROPIN_SUFFIX);
	n = scandir(dir, &names, dropin_filter, alphasort);
	if (n < 0 && errno == ENOENT)
		return 0;
	if (n < 0) {
		snprintf(p->err, p->errlen, "%s: cannot read: %s", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%s", dir, names[i]->d_name);
		if (!ret)
			ret = load_file(p, file);
		free(names[i]);
	}
	free(names);
	return ret;
}

/* Every rule keeps off @banned when the file says banned-cpus, none otherwise. */
void conf_ban(struct conf *conf, const struct cpuset *banned)
{
	unsigned int i;

	for (i = 0; i < conf->nr_rules; i++)
		conf->rules[i].policy.req.banned = conf->banned_cpus ? banned : NULL;
}

/* The name of key @key (a RULE_MATCH_* too) as the file writes it. */
const char *conf_key_name(unsigned int key)
{
	return key < NR_KEYS ? keys[key].name : "?";
}

/**
 * conf_load() - read the file at @path and its drop-ins
 * @path: the main file, which must exist
 * @conf: receives the configuration: the drop-ins' rules first, in the order
 *	of their names, then the main file's, so that a drop-in (a host's own,
 *	pushed beside a fleet's file) overrides what the main file says
 * @err: receives "FILE:LINE: what is wrong"
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @conf empty.
 */
int conf_load(const char *path, struct conf *conf, char *err, size_t errlen)
{
	struct parser p;
	int ret;

	conf_init(&p, conf, err, errlen);
	ret = load_dropins(&p, path) ?: load_file(&p, path);
	if (ret)
		conf_free(conf);
	return ret;
}

void conf_free(struct conf *conf)
{
	unsigned int i;
	int k;

	for (i = 0; i < conf->nr_rules; i++) {
		free(conf->rules[i].name);
		free(conf->rules[i].file);
		for (k = 0; k < NR_RULE_MATCH; k++)
			free(conf->rules[i].match[k]);
		bind_policy_free(&conf->rules[i].policy);
	}
	free(conf->rules);
	conf->rules = NULL;
	conf->nr_rules = 0;
	free(conf->banned_cpus_file);
	conf->banned_cpus_file = NULL;
	free(conf->metrics);
	conf->metrics = NULL;
}
