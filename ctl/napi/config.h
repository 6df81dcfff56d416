/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The settings netdev-genl keeps per NAPI (6.13+: defer-hard-irqs,
 * gro-flush-timeout, irq-suspend-timeout; 6.17+: threaded), given by a
 * bind to every NAPI of the device in the bind's transaction: checked
 * before the bind (a kernel without them refuses with one line, nothing
 * changed), set after it and before the NAPI threads are placed (threaded
 * on makes them); when one cannot be set, those set go back and the
 * caller puts back the IRQs. What each NAPI had before nictl is kept
 * under /run/nictl (napicfg-IFINDEX) for `restore`: NAPI ids stay with a
 * NAPI's settings across a reset of its device (6.13+), so restore finds
 * them.
 */
#ifndef NICTLCTL_NAPI_CONFIG_H
#define NICTLCTL_NAPI_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "direct/links.h"

/* How many NAPI_SETs of a bind to let through before one fails: testing only. */
#define NAPI_SET_FAULT_ENV	"NICTL_FAULT_NAPI_SET"

/* The value of each &enum napi_cfg a bind asks for (@set); all zero asks for none. */
struct napi_config {
	bool set[NAPI_CFG_NR];
	int64_t v[NAPI_CFG_NR];
};

/* The option and key names, "gro-flush-timeout", by &enum napi_cfg. */
extern const char *const napi_cfg_names[NAPI_CFG_NR];

bool napi_config_asked(const struct napi_config *c);
/* "off", "on" or "busy-poll" as &enum napi_threaded; -1 for anything else. */
int napi_threaded_parse(const char *s);
/* Can @dev take @c (every NAPI shows each asked setting)? 0, or -1 after one line. */
int napi_config_check(const struct nictl_dev *dev, const struct napi_config *c);
/* Set @c on every NAPI of @dev, keeping first what each had. 0, or -1 (said), all as before. */
int napi_config_apply(const struct nictl_dev *dev, const struct napi_config *c);
/* `restore`: put back what @ifindex's file keeps and drop it; 0, or -1 (said, file kept). */
int napi_config_restore(unsigned int ifindex);

#endif /* NICTLCTL_NAPI_CONFIG_H */
