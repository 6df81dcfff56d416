// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output. Strings come from the kernel (IRQ and driver names) and are
 * escaped so that the document stays valid whatever bytes they hold: control
 * characters become \u escapes and bytes that are not UTF-8 become U+FFFD.
 */
#include <stdlib.h>

#include "json.h"
#include "report.h"

bool json_pretty;

void json_start(struct json *j, FILE *f)
{
	j->f = f;
	j->comma = false;
	j->pretty = json_pretty;
	j->depth = 0;
}

static void new_line(struct json *j)
{
	if (j->pretty)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
}

/* Length of the valid UTF-8 sequence of two or more bytes at @p, else 0. */
static int utf8_len(const unsigned char *p)
{
	unsigned int lo = 0x80, hi = 0xbf;
	int i, more;

	if (*p < 0xc2 || *p > 0xf4)
		return 0;
	more = *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : 1;
	/* The first continuation byte rules out overlong forms and surrogates. */
	if (*p == 0xe0)
		lo = 0xa0;
	else if (*p == 0xed)
		hi = 0x9f;
	else if (*p == 0xf0)
		lo = 0x90;
	else if (*p == 0xf4)
		hi = 0x8f;
	for (i = 1; i <= more; i++) {
		if (p[i] < lo || p[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return more + 1;
}

static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int len;

	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p == '\n') {
			fputs("\\n", f);
			p++;
		} else if (*p == '\t') {
			fputs("\\t", f);
			p++;
		} else if (*p < 0x20) {
			fprintf(f, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, f);
		} else {
			len = utf8_len(p);
			if (len)
				fwrite(p, 1, len, f);
			else
				fputs("\\ufffd", f);
			p += len ?: 1;
		}
	}
	fputc('"', f);
}

/* Start a value: the separator, then the member name if inside an object. */
static void begin_value(struct json *j, const char *key)
{
	if (j->comma)
		fputc(',', j->f);
	if (j->depth)
		new_line(j);
	if (key) {
		put_string(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
	j->comma = true;
}

static void open_container(struct json *j, const char *key, char c)
{
	begin_value(j, key);
	fputc(c, j->f);
	j->depth++;
	j->comma = false;
}

/* An empty container closes on its own line's end: {} and []. */
static void close_container(struct json *j, char c)
{
	j->depth--;
	if (j->comma)
		new_line(j);
	fputc(c, j->f);
	j->comma = true;
}

void json_obj_begin(struct json *j, const char *key)
{
	open_container(j, key, '{');
}

void json_obj_end(struct json *j)
{
	close_container(j, '}');
}

void json_arr_begin(struct json *j, const char *key)
{
	open_container(j, key, '[');
}

void json_arr_end(struct json *j)
{
	close_container(j, ']');
}

void json_null(struct json *j, const char *key)
{
	begin_value(j, key);
	fputs("null", j->f);
}

/* A string value; NULL is written as null. */
void json_str(struct json *j, const char *key, const char *s)
{
	if (!s) {
		json_null(j, key);
		return;
	}
	begin_value(j, key);
	put_string(j->f, s);
}

void json_int(struct json *j, const char *key, long long v)
{
	begin_value(j, key);
	fprintf(j->f, "%lld", v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	begin_value(j, key);
	fputs(v ? "true" : "false", j->f);
}

/*
 * Print the document @write writes as one line on @f. It is built in memory
 * first, so that no half of it is printed; -1 after saying so when out of
 * memory or when @write fails.
 */
int json_print_doc(FILE *f, int (*write)(struct json *j, const void *arg), const void *arg)
{
	char *doc = NULL;
	size_t size = 0;
	struct json j;
	FILE *mem;
	int err;

	mem = open_memstream(&doc, &size);
	if (!mem) {
		ctl_msg("out of memory");
		return -1;
	}
	json_start(&j, mem);
	err = write(&j, arg);
	if (fclose(mem) || err) {
		ctl_msg("out of memory");
		err = -1;
	} else {
		fprintf(f, "%s\n", doc);
	}
	free(doc);
	return err;
}
