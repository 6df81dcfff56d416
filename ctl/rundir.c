// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundir.h"

const char *run_dir(void)
{
	const char *dir = getenv("NICTL_RUN_DIR");

	return dir && *dir ? dir : "/run/nictl";
}

int run_file_write(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;
	int fd, err = 0;

	if (mkdir(run_dir(), 0755) && errno != EEXIST)
		return -errno;
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
	} else if (fputs(text, f) < 0 || fflush(f) || fsync(fd)) {
		err = -errno;
		fclose(f);
	} else if (fclose(f)) {
		err = -errno;
	}
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

int run_dir_lock(void)
{
	char path[4096];
	int fd;

	if (mkdir(run_dir(), 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/.lock", run_dir());
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR) {
			int err = -errno;

			close(fd);
			return err;
		}
	}
	return fd;
}

void run_dir_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
