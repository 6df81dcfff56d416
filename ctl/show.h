/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing devices in the table and JSON formats documented in show.c, and
 * the plumbing of the commands that just print what the kernel replies.
 */
#ifndef NICTLCTL_SHOW_H
#define NICTLCTL_SHOW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "json.h"

const char *show_kind_name(unsigned int kind);
int show_table(FILE *f, const struct dev_list *list);
/* Whether @irq's drifts, at CLOCK_MONOTONIC @now_ns, are someone fighting nictl. */
bool show_irq_fighting(const struct nictl_irq *irq, uint64_t now_ns);
int show_json(FILE *f, const struct dev_list *list);
int show_json_cpus(struct json *j, const char *key, const char *list_key,
		   const struct cpuset *cpus);
void show_json_dev_fields(struct json *j, const struct nictl_dev *dev);
int show_json_dev_members(struct json *j, const struct nictl_dev *dev);
int show_json_irq_fields(struct json *j, const struct nictl_irq *irq);
int show_devs(const struct dev_list *list, bool json);
int show_opts(int argc, char **argv, const char *usage, bool *json);
int show_run(uint8_t cmd, const char *name, const struct dev_ref *ref, bool json, bool extras);

#endif /* NICTLCTL_SHOW_H */
