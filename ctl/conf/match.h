/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A rule's match value: one or more fnmatch(3) globs separated by spaces,
 * any of which may match (match-driver = mlx5_core ice). A glob that no
 * value of its key could ever match is refused when the file is read, so a
 * rule never looks valid while it governs nothing.
 */
#ifndef NICTLCTL_MATCH_H
#define NICTLCTL_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "conf/conf.h"

char *match_parse(enum rule_key key, const char *value, char *err, size_t errlen);
bool match_any(enum rule_key key, const char *globs, const char *value);

#endif /* NICTLCTL_MATCH_H */
