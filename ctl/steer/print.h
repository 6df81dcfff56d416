/* SPDX-License-Identifier: GPL-2.0 */
/* A steering plan in the table and JSON formats of bind (see print.c). */
#ifndef NICTLCTL_STEER_PRINT_H
#define NICTLCTL_STEER_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "dev.h"
#include "json.h"
#include "steer/plan.h"

const char *steer_number(int n, char *buf, size_t len);
void steer_json_cpu(struct json *j, const char *key, int cpu);
int steer_print_table(FILE *f, const struct steer_plan *plan, bool xps);
int steer_describe(FILE *f, const struct steer_plan *plan, unsigned int parts, bool xps);
int steer_print_json(FILE *f, const struct nictl_dev *dev, const struct steer_plan *plan,
		     bool xps);

#endif /* NICTLCTL_STEER_PRINT_H */
