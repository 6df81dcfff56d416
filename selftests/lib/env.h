/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every fixture needs around a test: the module loaded with fault
 * injection off, a client, and a snapshot of every IRQ's affinity that
 * teardown puts back, so each test starts from the guest's own state.
 */
#ifndef NICTL_TEST_ENV_H
#define NICTL_TEST_ENV_H

#include "irqs.h"
#include "nl.h"

/* The guest's NICs (see selftests/vm): NULL-terminated. */
extern const char *const test_nics[];

struct test_env {
	struct nl_client nl;
	struct irq_snapshot snap;
};

/* 0 or -errno; prints what failed. */
int env_setup(struct test_env *env);
/*
 * Undo whatever a test left behind: CPUs offline, module unloaded, fault
 * injection, bindings, NICs down, changed affinities. Returns the number
 * of things it could not put right (each printed).
 */
int env_teardown(struct test_env *env);
/*
 * Unload the module and load it again with @params ("" for none), so that
 * nothing of its state is left, and give @env a client of the new family:
 * 0 or -errno (what failed printed).
 */
int env_reload(struct test_env *env, const char *params);

#endif /* NICTL_TEST_ENV_H */
