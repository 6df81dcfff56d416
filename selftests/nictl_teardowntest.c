// SPDX-License-Identifier: GPL-2.0
/*
 * The guest tests count on FIXTURE_TEARDOWN to stop their daemons and undo
 * their bindings when an ASSERT ends a test early; a teardown skipped
 * leaves them to fail the tests after it. Built as those tests are (the
 * Makefile's HARNESS_CFLAGS), a test failed by an ASSERT must still be torn
 * down: this runs one through the harness in a child and looks for the
 * mark its teardown leaves. TAP out, no module needed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

static char mark[64];

FIXTURE(torn) {
	int fd;
};

FIXTURE_SETUP(torn)
{
	self->fd = -1;
}

FIXTURE_TEARDOWN(torn)
{
	close(open(mark, O_WRONLY | O_CREAT, 0600));
}

TEST_F(torn, fails_by_assert)
{
	ASSERT_EQ(0, self->fd);
}

int main(void)
{
	char *argv[] = { "nictl_teardowntest", "-t", "fails_by_assert", NULL };
	bool failed, torn_down;
	int status = 0;
	pid_t pid;

	snprintf(mark, sizeof(mark), "/tmp/nictl-teardowntest.%d", (int)getpid());
	pid = fork();
	if (!pid) {
		/* Its own report would read as ours: only the exit status counts. */
		dup2(open("/dev/null", O_WRONLY), STDOUT_FILENO);
		dup2(STDOUT_FILENO, STDERR_FILENO);
		_exit(test_harness_run(3, argv));
	}
	failed = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		 WEXITSTATUS(status) != 0;
	torn_down = !access(mark, F_OK);
	unlink(mark);
	printf("1..2\n");
	printf("%sok 1 a test an ASSERT stops fails (exit status 0x%x)\n", failed ? "" : "not ",
	       status);
	printf("%sok 2 its FIXTURE_TEARDOWN still runs\n", torn_down ? "" : "not ");
	if (!torn_down)
		printf("# no %s: build the tests at -O0, the harness's setjmp() needs it\n", mark);
	return failed && torn_down ? 0 : 1;
}
