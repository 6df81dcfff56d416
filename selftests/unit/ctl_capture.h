/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture what a piece of nictlctl writes to stdout or stderr, so that tests
 * can check the exact lines users see.
 */
#ifndef CTL_CAPTURE_H
#define CTL_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <getopt.h>
#include <unistd.h>

struct capture {
	FILE *stream;
	FILE *file;
	int saved_fd;
};

static inline void capture_begin(struct capture *c, FILE *stream)
{
	fflush(stream);
	c->stream = stream;
	c->file = tmpfile();
	c->saved_fd = dup(fileno(stream));
	if (!c->file || c->saved_fd < 0 || dup2(fileno(c->file), fileno(stream)) < 0)
		abort();
}

/* Stop capturing; returns the text written meanwhile (malloc'ed). */
static inline char *capture_end(struct capture *c)
{
	long len;
	char *text;

	fflush(c->stream);
	dup2(c->saved_fd, fileno(c->stream));
	close(c->saved_fd);
	len = ftell(c->file);
	text = calloc(1, len + 1);
	rewind(c->file);
	if (!text || fread(text, 1, len, c->file) != (size_t)len)
		abort();
	fclose(c->file);
	return text;
}

/*
 * Run nictlctl command @fn on the NULL-terminated @argv, with what it prints
 * in *@out and *@err (malloc'ed; the earlier texts there are freed); returns
 * its exit status.
 */
static inline int capture_command(int (*fn)(int, char **), char **argv, char **out, char **err)
{
	struct capture o, e;
	int argc = 0, ret;

	while (argv[argc])
		argc++;
	free(*out);
	free(*err);
	optind = 0;
	capture_begin(&o, stdout);
	capture_begin(&e, stderr);
	ret = fn(argc, argv);
	*err = capture_end(&e);
	*out = capture_end(&o);
	return ret;
}

#endif /* CTL_CAPTURE_H */
