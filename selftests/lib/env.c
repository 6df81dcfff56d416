// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "module.h"
#include "netdev.h"
#include "nictl.h"
#include "sys.h"
#include "traffic.h"

const char *const test_nics[] = { "vnode1", "vnode0", "e1k", "igb0", NULL };

static int step(const char *what, int ret)
{
	if (ret)
		fprintf(stderr, "# %s: %s\n", what, strerror(-ret));
	return ret;
}

/*
 * The last test's teardown wrote affinities back through /proc; where the
 * kernel defers such a move to the IRQ's next interrupt, the IRQ's real
 * affinity is still the old one until then. Fire every queue IRQ so each
 * test starts from a state the kernel has applied (the tests that want a
 * pending move make one themselves).
 */
int env_setup(struct test_env *env)
{
	memset(&env->nl, 0, sizeof(env->nl));
	return step("insmod $NICTL_KO", nictl_module_load()) ?:
	       step("fault knobs off", nictl_faults_off()) ?:
	       step("open nictl family", nictl_open(&env->nl)) ?:
	       step("traffic to settle IRQ moves", traffic_burst(test_nics)) ?:
	       step("IRQ snapshot", irq_snapshot_take(&env->snap));
}

int env_reload(struct test_env *env, const char *params)
{
	nl_close(&env->nl);
	return step("rmmod nictl", nictl_module_unload()) ?:
	       step("insmod $NICTL_KO", nictl_module_load_params(params)) ?:
	       step("open nictl family", nictl_open(&env->nl));
}

/* Forget nictl's binding of @ifname, if any, and make sure it is up. */
static int reset_nic(struct nl_client *nl, const char *ifname)
{
	struct nictl_dev reply;
	struct nl_result res;
	struct netdev_info info;
	int ret;

	ret = netdev_info(ifname, &info);
	if (!ret && !info.up)
		ret = netdev_set_up(ifname, true);
	if (ret) {
		fprintf(stderr, "# %s: %s\n", ifname, strerror(-ret));
		return 1;
	}
	ret = nictl_restore(nl, ifname, &reply, &res);
	if (ret && res.err != ENODATA) {
		fprintf(stderr, "# restore %s: %s (%s)\n", ifname, strerror(-ret), res.msg);
		return 1;
	}
	return 0;
}

/*
 * What binds kept under /run/nictl: IRQs bound without the module (a
 * test's, or a binder's while the stress run had the module away), NAPI
 * threads moved. The snapshot puts the IRQs back, and threads end with
 * threaded NAPI switched off: the next test must not find originals of
 * this one.
 */
static int forget_kept(void)
{
	glob_t g;
	size_t i;
	int err = 0;

	if (glob("/run/nictl/{irq,napi}-*", GLOB_BRACE, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++)
		if (unlink(g.gl_pathv[i]) && errno != ENOENT)
			err = -errno;
	globfree(&g);
	return err;
}

int env_teardown(struct test_env *env)
{
	struct nl_client nl;
	int problems = 0, i;

	nl_close(&env->nl);
	/* First, so virtio_net's hotplug re-targeting is undone below. */
	problems += !!step("online CPUs", cpus_all_online());
	if (step("insmod $NICTL_KO", nictl_module_load()))
		return problems + 1;
	problems += !!step("fault knobs off", nictl_faults_off());
	/* A fresh client: the family id changes when the module is reloaded. */
	if (step("open nictl family", nictl_open(&nl)))
		return problems + 1;
	for (i = 0; test_nics[i]; i++)
		problems += reset_nic(&nl, test_nics[i]);
	nl_close(&nl);
	problems += !!step("restore IRQ affinities", irq_snapshot_restore(&env->snap));
	problems += !!step("forget binds without the module", forget_kept());
	return problems;
}
