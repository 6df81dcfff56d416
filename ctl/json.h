/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal streaming JSON writer: compact output, or indented with
 * json_pretty (the global -p); keys given with each member (NULL for array
 * elements and the top-level value).
 */
#ifndef NICTLCTL_JSON_H
#define NICTLCTL_JSON_H

#include <stdbool.h>
#include <stdio.h>

struct json {
	FILE *f;
	bool comma;	/* a value was written at this level: separate the next */
	bool pretty;	/* each member on a line of its own, indented */
	unsigned int depth;	/* of the open objects and arrays */
};

/* Indent what json_start() begins from now on. */
extern bool json_pretty;

void json_start(struct json *j, FILE *f);
int json_print_doc(FILE *f, int (*write)(struct json *j, const void *arg), const void *arg);
void json_obj_begin(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_str(struct json *j, const char *key, const char *s);
void json_int(struct json *j, const char *key, long long v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);

#endif /* NICTLCTL_JSON_H */
