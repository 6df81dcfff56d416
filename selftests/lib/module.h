/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and unloading the module under test ($NICTL_KO) and the suite's
 * own test driver beside it, and nictl's fault-injection knob, straight
 * through the syscalls and sysfs so the tests depend on no module tool.
 */
#ifndef NICTL_TEST_MODULE_H
#define NICTL_TEST_MODULE_H

#include <stdbool.h>
#include <stddef.h>

bool nictl_module_loaded(void);
/* insmod $NICTL_KO; 0 when it is (already) loaded, else -errno. */
int nictl_module_load(void);
/* The same with module parameters, e.g. "stats=0" (unused when already loaded). */
int nictl_module_load_params(const char *params);
/* rmmod nictl; 0 or -errno. */
int nictl_module_unload(void);
/* insmod of the module file @path with @params: 0, also when it is loaded already, or -errno. */
int module_load_path(const char *path, const char *params);
/* rmmod @name: 0 or -errno. */
int module_unload(const char *name);
/* Make the @nth affinity write of every apply phase fail (0: off). */
int nictl_set_fault(unsigned int nth);
/* Set the test-build module parameter @name to @value: 0 or -errno. */
int nictl_set_param(const char *name, unsigned int value);
/* Every fault-injection knob of the test build back to 0: 0 or -errno. */
int nictl_faults_off(void);
/* Read or write the loaded module's parameter @name: 0 or -errno. */
int nictl_param_read(const char *name, char *buf, size_t len);
int nictl_param_write(const char *name, const char *value);
/*
 * Wait up to @secs (0: look once) until @n operations wait on the test
 * build's fault_stall: true, or false after printing how many did.
 */
bool nictl_ops_held(long n, unsigned int secs);

#endif /* NICTL_TEST_MODULE_H */
