/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture what a piece of nictlctl writes to stdout or stderr, so that tests
 * can check the exact lines users see.
 */
#ifndef CTL_CAPTURE_H
#define CTL_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
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

#endif /* CTL_CAPTURE_H */
