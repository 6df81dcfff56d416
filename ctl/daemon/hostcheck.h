/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `daemon --check` on this host: a rule whose CPUs or node the machine does
 * not have, or whose exclude leaves none of its CPUs, can never apply here.
 * The same file may be right on other hosts of a fleet, so only --check
 * (and the unit's ExecReload, which runs it) refuses such a file; the
 * daemon reports such a rule as not applied, device by device.
 */
#ifndef NICTLCTL_HOSTCHECK_H
#define NICTLCTL_HOSTCHECK_H

#include <stddef.h>

#include "conf/conf.h"

int conf_check_host(const struct conf *conf, char *err, size_t errlen);

#endif /* NICTLCTL_HOSTCHECK_H */
