/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for the tests: $NICTL_FAULT_...=k makes the k-th step of
 * a transaction fail (steer/txn.c, direct/apply.c, napi/place.c,
 * napi/config.c), so each rollback is proven from every step.
 */
#ifndef NICTLCTL_FAULT_H
#define NICTLCTL_FAULT_H

#include <stdlib.h>

/* The k the environment variable @name gives, 0 (no fault) when unset. */
static inline unsigned int fault_at(const char *name)
{
	const char *k = getenv(name);

	return k ? strtoul(k, NULL, 10) : 0;
}

#endif /* NICTLCTL_FAULT_H */
