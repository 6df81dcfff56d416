// SPDX-License-Identifier: GPL-2.0
/*
 * Match values (match.h). What each key's values are made of comes from
 * where the kernel names them: an interface name has no '/', ':' or space
 * and at most IFNAMSIZ - 1 characters (dev_valid_name()); PCI and MAC
 * addresses are hex digits and separators; a driver name is a C-like
 * identifier, with '-' and '.' in a few platform drivers; a namespace name
 * is a file name under /run/netns.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fnmatch.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/match.h"

#define GLOB_SPECIAL	"*?["
#define SEPARATORS	" \t"
#define MATCH_GLOB_MAX	255

static const struct {
	const char *what;	/* "a driver name" */
	const char *extra;	/* characters allowed beside alphanumerics; NULL: any */
	bool hex;		/* alphanumerics are hex digits only */
	const char *refused;	/* never in a value, with extra == NULL */
	size_t max_len;		/* of a value; 0: no limit */
} kinds[NR_RULE_MATCH] = {
	[RULE_MATCH_NAME]	= { "an interface name", NULL, false, "/:", IFNAMSIZ - 1 },
	[RULE_MATCH_PCI]	= { "a PCI address", ":.", true, NULL, 0 },
	[RULE_MATCH_MAC]	= { "a MAC address", ":", true, NULL, 0 },
	[RULE_MATCH_DRIVER]	= { "a driver name", "_-.", false, NULL, 0 },
	[RULE_MATCH_NETNS]	= { "a namespace name", NULL, false, "/", 0 },
};

/* May @c appear, outside brackets, in a value of @key? */
static bool value_char(enum rule_key key, char c)
{
	if (!kinds[key].extra)
		return !strchr(kinds[key].refused, c);
	if (strchr(kinds[key].extra, c))
		return true;
	return kinds[key].hex ? isxdigit((unsigned char)c) : isalnum((unsigned char)c);
}

/*
 * Whether @glob can match some value of @key; if not, why, in @err. Only
 * what stands outside brackets is checked, and a length only for a glob
 * that is a plain word.
 */
static bool glob_can_match(enum rule_key key, const char *glob, char *err, size_t errlen)
{
	const char *c;
	bool bracket = false;

	if (strlen(glob) > MATCH_GLOB_MAX) {
		snprintf(err, errlen, "a pattern is longer than %d characters", MATCH_GLOB_MAX);
		return false;
	}
	for (c = glob; *c; c++) {
		if (*c == '[')
			bracket = true;
		else if (*c == ']')
			bracket = false;
		else if (!bracket && !strchr(GLOB_SPECIAL, *c) && *c != '\\' &&
			 !value_char(key, *c)) {
			snprintf(err, errlen, "'%s' can never match %s: none holds '%c'%s", glob,
				 kinds[key].what, *c,
				 *c == ',' ? "; separate patterns with spaces" : "");
			return false;
		}
	}
	if (kinds[key].max_len && !strpbrk(glob, GLOB_SPECIAL) &&
	    strlen(glob) > kinds[key].max_len) {
		snprintf(err, errlen, "'%s' can never match %s: it is longer than %zu characters",
			 glob, kinds[key].what, kinds[key].max_len);
		return false;
	}
	return true;
}

/**
 * match_parse() - check a match key's value and normalise it
 * @key: the key
 * @value: as the file gives it: globs separated by spaces or tabs
 * @err: receives why it was refused
 * @errlen: size of @err
 *
 * Return: the globs separated by single spaces (free() it), or NULL with
 * @err set (out of memory included).
 */
char *match_parse(enum rule_key key, const char *value, char *err, size_t errlen)
{
	char *copy = strdup(value), *out = calloc(1, strlen(value) + 1);
	char *glob, *save = NULL;

	if (!copy || !out) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (glob = strtok_r(copy, SEPARATORS, &save); glob;
	     glob = strtok_r(NULL, SEPARATORS, &save)) {
		if (!glob_can_match(key, glob, err, errlen))
			goto fail;
		if (*out)
			strcat(out, " ");
		strcat(out, glob);
	}
	free(copy);
	return out;
fail:
	free(copy);
	free(out);
	return NULL;
}

/* Hex digits of MAC and PCI addresses match in either case. */
static int match_flags(enum rule_key key)
{
	return kinds[key].hex ? FNM_CASEFOLD : 0;
}

/**
 * match_any() - does any glob of a match value match?
 * @key: the key the value belongs to
 * @globs: from match_parse()
 * @value: the device's; NULL (it has none) matches nothing
 *
 * Return: whether one of @globs matches the whole of @value.
 */
bool match_any(enum rule_key key, const char *globs, const char *value)
{
	char glob[MATCH_GLOB_MAX + 1];
	size_t len;

	while (value && *globs) {
		len = strcspn(globs, " ");
		snprintf(glob, sizeof(glob), "%.*s", (int)len, globs);
		if (!fnmatch(glob, value, match_flags(key)))
			return true;
		globs += len + !!globs[len];
	}
	return false;
}
