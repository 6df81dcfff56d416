/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NICTL_TEST_MAIN, the tests' main(): the harness's, with every test's
 * timeout multiplied by timeout_scale(). Include after kselftest_harness.h,
 * whose lists of fixtures and tests it walks.
 */
#ifndef NICTL_TEST_MAIN_H
#define NICTL_TEST_MAIN_H

#include <stdlib.h>

#define TIMEOUT_SCALE_MAX	100

/*
 * $NICTL_TIMEOUT_SCALE, 1 when unset or out of 1..TIMEOUT_SCALE_MAX. The
 * timeouts are sized for Debian's kernels; `make check-debug` sets it, as the
 * debug kernel takes many times longer for the same steps.
 */
static inline unsigned int timeout_scale(void)
{
	const char *s = getenv("NICTL_TIMEOUT_SCALE");
	long v = s ? strtol(s, NULL, 10) : 1;

	return v >= 1 && v <= TIMEOUT_SCALE_MAX ? v : 1;
}

static inline void scale_test_timeouts(void)
{
	unsigned int scale = timeout_scale();
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= scale;
}

#define NICTL_TEST_MAIN \
	int main(int argc, char **argv) \
	{ \
		scale_test_timeouts(); \
		return test_harness_run(argc, argv); \
	}

#endif /* NICTL_TEST_MAIN_H */
