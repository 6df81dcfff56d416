/* SPDX-License-Identifier: GPL-2.0 */
/* What `show` prints of the devices' steering now (see view.c). */
#ifndef NICTLCTL_STEER_VIEW_H
#define NICTLCTL_STEER_VIEW_H

#include <stdio.h>

#include "dev.h"
#include "json.h"
#include "steer/check.h"

/* The steering of every device of a list, in its order, with what contradicts the IRQs. */
struct steer_views {
	struct steer_now *now;
	struct steer_warnings *warnings;
	unsigned int nr;
	struct steer_cpu *topo;
	unsigned int nr_topo;
};

int steer_views_read(const struct dev_list *list, struct steer_views *views);
void steer_views_free(struct steer_views *views);
int steer_view_table(FILE *f, const struct steer_views *views, unsigned int i);
int steer_view_json(struct json *j, const struct steer_views *views, unsigned int i);

#endif /* NICTLCTL_STEER_VIEW_H */
