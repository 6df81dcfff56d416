/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An event as `nictlctl monitor` prints it: one line of text, or one JSON
 * object on one line.
 */
#ifndef NICTLCTL_EVENT_FMT_H
#define NICTLCTL_EVENT_FMT_H

#include <stdio.h>
#include <time.h>

#include "event.h"

/* @when: the wall-clock time the event was received. 0 or -1 (out of memory). */
int event_print_text(FILE *f, const struct ctl_event *ev, const struct timespec *when);
int event_print_json(FILE *f, const struct ctl_event *ev, const struct timespec *when);

#endif /* NICTLCTL_EVENT_FMT_H */
