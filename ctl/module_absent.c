// SPDX-License-Identifier: GPL-2.0
/*
 * Why module nictl is absent. The checks go from the first thing that can
 * be missing to the last: a kernel nictl supports, an installed nictl.ko
 * (else what DKMS got to: no headers, a build not installed), then a kernel
 * that refuses it (signatures enforced by module.sig_enforce or lockdown,
 * an unsigned file, a key the kernel does not trust: its log says which).
 * Only an installed module nobody tried to load gets "modprobe nictl".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "module_absent.h"
#include "topology.h"
#include "util.h"

/* What sign-file appends after the signature (include/linux/module_signature.h). */
#define SIG_MARKER	"~Module signature appended~\n"

static const char *fs_root(void)
{
	return getenv("NICTL_ROOT") ?: "";
}

static __printf(3, 4) void say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static __printf(1, 2) bool is_dir(const char *fmt, ...)
{
	char path[4096];
	struct stat st;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* nictl.ko as modules.dep lists it for @krel ("updates/dkms/nictl.ko"), in @rel. */
static bool installed_as(const char *krel, char *rel, size_t len)
{
	char path[4096], *line = NULL, *colon, *base;
	size_t size = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/lib/modules/%s/modules.dep", fs_root(), krel);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && getline(&line, &size, f) > 0) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		/* nictl.ko, or compressed: nictl.ko.xz, .zst, .gz */
		found = !strncmp(base, "nictl.ko", 8) && (!base[8] || base[8] == '.');
		if (found)
			say(rel, len, "%s", line);
	}
	free(line);
	fclose(f);
	return found;
}

static bool kernel_too_old(const char *krel)
{
	unsigned int major, minor;

	return sscanf(krel, "%u.%u", &major, &minor) == 2 &&
	       (major < 5 || (major == 5 && minor < 10));
}

static int version_order(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/* DKMS keeps a version per directory, beside "kernel-*" links: the newest, in @ver. */
static bool dkms_version(char *ver, size_t len)
{
	struct dirent **names;
	char dir[4096];
	int n, i;

	snprintf(dir, sizeof(dir), "%s/var/lib/dkms/nictl", fs_root());
	n = scandir(dir, &names, NULL, version_order);
	if (n < 0)
		return false;
	ver[0] = '\0';
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && strncmp(names[i]->d_name, "kernel-", 7) &&
		    is_dir("%s/%s", dir, names[i]->d_name))
			say(ver, len, "%s", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return ver[0];
}

static void not_installed(struct module_absence *a, const char *krel)
{
	char ver[64];

	if (!dkms_version(ver, sizeof(ver))) {
		say(a->why, sizeof(a->why), "nictl.ko is not installed for kernel %s", krel);
		say(a->fix, sizeof(a->fix), "install the nictl-dkms package, or run "
		    "make dkms-install in nictl's source tree");
	} else if (!is_dir("%s/lib/modules/%s/build", fs_root(), krel)) {
		say(a->why, sizeof(a->why), "DKMS has nictl %s but built nothing for kernel %s: "
		    "the kernel's headers are not installed", ver, krel);
		say(a->fix, sizeof(a->fix), "install them (Debian: apt-get install "
		    "linux-headers-%s), and DKMS builds nictl for it", krel);
	} else if (is_dir("%s/var/lib/dkms/nictl/%s/%s", fs_root(), ver, krel)) {
		say(a->why, sizeof(a->why), "DKMS built nictl %s for kernel %s but did not "
		    "install it", ver, krel);
		say(a->fix, sizeof(a->fix), "dkms install nictl/%s -k %s", ver, krel);
	} else {
		say(a->why, sizeof(a->why), "DKMS has nictl %s but no build of it for kernel %s",
		    ver, krel);
		say(a->fix, sizeof(a->fix), "run dkms build nictl/%s -k %s and read its log, "
		    "/var/lib/dkms/nictl/%s/build/make.log", ver, krel, ver);
	}
}

/* The first line of the sysfs file @rel, without its newline; "" if unreadable. */
static void sysfs_line(const char *rel, char *buf, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", topo_root(), rel);
	topo_first_line(path, buf, len);
}

/* What makes the kernel take signed modules only, or NULL when nothing does. */
static const char *signatures_enforced(void)
{
	char line[128];

	sysfs_line("module/module/parameters/sig_enforce", line, sizeof(line));
	if (!strcmp(line, "Y"))
		return "module.sig_enforce";
	sysfs_line("kernel/security/lockdown", line, sizeof(line));
	if (strstr(line, "[integrity]") || strstr(line, "[confidentiality]"))
		return "kernel lockdown, as under Secure Boot";
	return NULL;
}

/* 1 signed, 0 not, -1 unknown: compressed (the signature is inside) or unreadable. */
static int is_signed(const char *path)
{
	char tail[sizeof(SIG_MARKER) - 1];
	size_t n = strlen(path);
	int fd, ret = -1;

	if (n < 3 || strcmp(path + n - 3, ".ko"))
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (lseek(fd, -(off_t)sizeof(tail), SEEK_END) < 0)
		ret = errno == EINVAL ? 0 : -1;	/* shorter than the marker */
	else if (read(fd, tail, sizeof(tail)) == (ssize_t)sizeof(tail))
		ret = !memcmp(tail, SIG_MARKER, sizeof(tail));
	close(fd);
	return ret;
}

/* A refusal the kernel logged ("Loading of unsigned module is rejected"). */
static bool is_refusal(const char *msg)
{
	return (strstr(msg, "Loading of ") && strstr(msg, " is rejected")) ||
	       strstr(msg, "module loading is restricted");
}

/*
 * The last refusal of a module in the kernel log, in @buf. The kernel does
 * not name the module it refused; the caller only uses it where nictl.ko is
 * installed and not loaded. Reading /dev/kmsg needs CAP_SYSLOG where
 * dmesg_restrict is set: without it, nothing is found.
 */
static bool logged_refusal(char *buf, size_t len)
{
	const char *path = getenv("NICTL_KMSG") ?: "/dev/kmsg";
	char *line = NULL, *msg;
	size_t size = 0;
	bool found = false;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	for (;;) {
		errno = 0;
		if (getline(&line, &size, f) < 0) {
			/* EPIPE: records were overwritten under us; read on from the next. */
			if (errno != EPIPE)
				break;
			clearerr(f);
			continue;
		}
		/* "prio,seq,time,flags;message"; continuation lines start with a space. */
		msg = line[0] == ' ' ? NULL : strchr(line, ';');
		if (msg && is_refusal(msg + 1)) {
			say(buf, len, "%s", msg + 1);
			buf[strcspn(buf, "\n")] = '\0';
			found = true;
		}
	}
	free(line);
	fclose(f);
	return found;
}

static void refused_or_unloaded(struct module_absence *a, const char *krel, const char *rel)
{
	const char *by = signatures_enforced();
	char path[4096], shown[4096], refusal[256];
	bool logged;
	int sig;

	snprintf(path, sizeof(path), "%s/lib/modules/%s/%s", fs_root(), krel, rel);
	snprintf(shown, sizeof(shown), "/lib/modules/%s/%s", krel, rel);
	sig = is_signed(path);
	logged = by && logged_refusal(refusal, sizeof(refusal));
	if (by && (!sig || (logged && strstr(refusal, "unsigned")))) {
		say(a->why, sizeof(a->why), "the kernel loads signed modules only (%s) and %s "
		    "is not signed", by, shown);
		say(a->fix, sizeof(a->fix), "sign it with a key the kernel trusts: DKMS signs "
		    "what it builds with /var/lib/dkms/mok.key; enrol that key once with "
		    "mokutil --import /var/lib/dkms/mok.pub and reboot");
	} else if (logged) {
		say(a->why, sizeof(a->why), "the kernel loads signed modules only (%s) and "
		    "refused %s: \"%s\"", by, shown, refusal);
		say(a->fix, sizeof(a->fix), "enrol the key that signed it: mokutil --import "
		    "/var/lib/dkms/mok.pub for DKMS's, then reboot and confirm it");
	} else {
		say(a->why, sizeof(a->why), "%s is installed but nothing loaded it%s", shown,
		    by ? " (the kernel loads signed modules only)" : "");
		say(a->fix, sizeof(a->fix), "load it: modprobe nictl");
	}
}

void module_absence(struct module_absence *a)
{
	struct utsname u;
	char rel[1024];

	if (uname(&u)) {
		say(a->why, sizeof(a->why), "the running kernel's release is unknown");
		say(a->fix, sizeof(a->fix), "load it: modprobe nictl");
	} else if (kernel_too_old(u.release)) {
		say(a->why, sizeof(a->why), "kernel %s is older than 5.10, the oldest nictl "
		    "supports", u.release);
		say(a->fix, sizeof(a->fix), "boot a kernel of 5.10 or newer");
	} else if (!installed_as(u.release, rel, sizeof(rel))) {
		not_installed(a, u.release);
	} else {
		refused_or_unloaded(a, u.release, rel);
	}
}
