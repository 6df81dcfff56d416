// SPDX-License-Identifier: GPL-2.0
/*
 * Why module nictl is absent: each state of the module tree, DKMS's tree, the
 * kernel's signature policy and its log, in a fake root, and the advice each
 * one gets.
 */
#include "ctl_fakesys.h"

#include <sys/utsname.h>

#include "kselftest_harness.h"

#include "module_absent.h"

#define SIGNED_TAIL	"~Module signature appended~\n"

FIXTURE(absent) {
	struct fakesys fs;
	struct module_absence a;
	char krel[65];
	char kmsg[128];
};

FIXTURE_SETUP(absent)
{
	struct utsname u;

	fakesys_create(&self->fs);
	ASSERT_EQ(0, uname(&u));
	snprintf(self->krel, sizeof(self->krel), "%s", u.release);
	/* Never the host's own log, which may hold refusals of other modules. */
	snprintf(self->kmsg, sizeof(self->kmsg), "%s/kmsg", self->fs.root);
	setenv("NICTL_KMSG", self->kmsg, 1);
}

FIXTURE_TEARDOWN(absent)
{
	unsetenv("NICTL_KMSG");
	fakesys_destroy(&self->fs);
}

#define diagnose(self)							\
	do {								\
		module_absence(&(self)->a);				\
		TH_LOG("why: %s; fix: %s", (self)->a.why, (self)->a.fix);	\
	} while (0)

static void expect_in(struct __test_metadata *_metadata, const char *text, const char *want)
{
	EXPECT_NE(NULL, strstr(text, want)) TH_LOG("want \"%s\" in \"%s\"", want, text);
}

/* An installed nictl.ko for the running kernel, named @file in modules.dep. */
static void install(FIXTURE_DATA(absent) *self, const char *file, const char *content)
{
	char dep[256];

	snprintf(dep, sizeof(dep), "kernel/net/core/other.ko:\n%s:\n", file);
	fakesys_write(&self->fs, dep, "lib/modules/%s/modules.dep", self->krel);
	fakesys_write(&self->fs, content, "lib/modules/%s/%s", self->krel, file);
}

TEST_F(absent, not_installed_and_no_dkms)
{
	char want[256];

	diagnose(self);
	snprintf(want, sizeof(want), "nictl.ko is not installed for kernel %s", self->krel);
	EXPECT_STREQ(want, self->a.why);
	expect_in(_metadata, self->a.fix, "install the nictl-dkms package");
}

/* Modules whose names only begin like nictl's are not nictl. */
TEST_F(absent, other_modules_are_not_nictl)
{
	fakesys_write(&self->fs, "kernel/nictl_extra.ko:\nkernel/nictl.kobj:\nupdates/xnictl.ko:\n",
		      "lib/modules/%s/modules.dep", self->krel);
	diagnose(self);
	expect_in(_metadata, self->a.why, "is not installed");
}

TEST_F(absent, dkms_without_the_kernel_headers)
{
	char want[256];

	fakesys_write(&self->fs, "", "var/lib/dkms/nictl/7.9.0/source");
	fakesys_write(&self->fs, "", "var/lib/dkms/nictl/7.10.0/source");
	fakesys_write(&self->fs, "", "var/lib/dkms/nictl/kernel-%s-x86_64", self->krel);
	diagnose(self);
	snprintf(want, sizeof(want), "DKMS has nictl 7.10.0 but built nothing for kernel %s: "
		 "the kernel's headers are not installed", self->krel);
	EXPECT_STREQ(want, self->a.why);
	snprintf(want, sizeof(want), "apt-get install linux-headers-%s", self->krel);
	expect_in(_metadata, self->a.fix, want);
}

TEST_F(absent, dkms_built_but_did_not_install)
{
	char want[256];

	fakesys_write(&self->fs, "", "lib/modules/%s/build/Makefile", self->krel);
	fakesys_write(&self->fs, "", "var/lib/dkms/nictl/7.3.1/%s/x86_64/module/nictl.ko",
		      self->krel);
	diagnose(self);
	expect_in(_metadata, self->a.why, "DKMS built nictl 7.3.1 for kernel");
	snprintf(want, sizeof(want), "dkms install nictl/7.3.1 -k %s", self->krel);
	EXPECT_STREQ(want, self->a.fix);
}

TEST_F(absent, dkms_has_no_build_for_the_kernel)
{
	fakesys_write(&self->fs, "", "lib/modules/%s/build/Makefile", self->krel);
	fakesys_write(&self->fs, "", "var/lib/dkms/nictl/7.3.1/build/make.log");
	diagnose(self);
	expect_in(_metadata, self->a.why, "DKMS has nictl 7.3.1 but no build of it for kernel");
	expect_in(_metadata, self->a.fix, "/var/lib/dkms/nictl/7.3.1/build/make.log");
}

TEST_F(absent, installed_nobody_loaded_it)
{
	install(self, "updates/dkms/nictl.ko", "\177ELF");
	fakesys_write(&self->fs, "N\n", "module/module/parameters/sig_enforce");
	fakesys_write(&self->fs, "[none] integrity confidentiality\n", "kernel/security/lockdown");
	diagnose(self);
	expect_in(_metadata, self->a.why, "/updates/dkms/nictl.ko is installed but nothing loaded it");
	EXPECT_EQ(NULL, strstr(self->a.why, "signed"));
	EXPECT_STREQ("load it: modprobe nictl", self->a.fix);
}

TEST_F(absent, unsigned_where_signatures_are_enforced)
{
	char want[256];

	install(self, "updates/dkms/nictl.ko", "\177ELF");
	fakesys_write(&self->fs, "Y\n", "module/module/parameters/sig_enforce");
	diagnose(self);
	snprintf(want, sizeof(want), "the kernel loads signed modules only (module.sig_enforce) "
		 "and /lib/modules/%s/updates/dkms/nictl.ko is not signed", self->krel);
	EXPECT_STREQ(want, self->a.why);
	expect_in(_metadata, self->a.fix, "mokutil --import /var/lib/dkms/mok.pub");
	EXPECT_EQ(NULL, strstr(self->a.fix, "modprobe"));
}

/* Lockdown refuses an unsigned module whatever sig_enforce says. */
TEST_F(absent, unsigned_under_lockdown)
{
	install(self, "extra/nictl.ko", "\177ELF");
	fakesys_write(&self->fs, "N\n", "module/module/parameters/sig_enforce");
	fakesys_write(&self->fs, "none [integrity] confidentiality\n", "kernel/security/lockdown");
	diagnose(self);
	expect_in(_metadata, self->a.why, "(kernel lockdown, as under Secure Boot)");
	expect_in(_metadata, self->a.why, "/extra/nictl.ko is not signed");
}

/* Signed, but by a key the kernel lacks: only its log tells. */
TEST_F(absent, signed_with_a_key_the_kernel_does_not_trust)
{
	install(self, "updates/dkms/nictl.ko", "\177ELF" SIGNED_TAIL);
	fakesys_write(&self->fs, "Y\n", "module/module/parameters/sig_enforce");
	fakesys_write(&self->fs, "6,100,5000,-;virtio_net virtio0: up\n"
		      "5,101,6000,-;Loading of module with unavailable key is rejected\n"
		      " SUBSYSTEM=module\n", "kmsg");
	diagnose(self);
	expect_in(_metadata, self->a.why,
		  "refused /lib/modules/");
	expect_in(_metadata, self->a.why, ": \"Loading of module with unavailable key is rejected\"");
	expect_in(_metadata, self->a.fix, "enrol the key that signed it: mokutil --import");
}

/* Signed, enforced, and no refusal in the log: nobody tried yet. */
TEST_F(absent, signed_and_never_tried)
{
	install(self, "updates/dkms/nictl.ko", "\177ELF" SIGNED_TAIL);
	fakesys_write(&self->fs, "Y\n", "module/module/parameters/sig_enforce");
	fakesys_write(&self->fs, "6,100,5000,-;virtio_net virtio0: up\n", "kmsg");
	diagnose(self);
	expect_in(_metadata, self->a.why, "is installed but nothing loaded it "
		  "(the kernel loads signed modules only)");
	EXPECT_STREQ("load it: modprobe nictl", self->a.fix);
}

/* A compressed module hides its signature: the log's refusal says it had none. */
TEST_F(absent, compressed_and_refused_as_unsigned)
{
	install(self, "updates/dkms/nictl.ko.xz", "\3757zXZ");
	fakesys_write(&self->fs, "Y\n", "module/module/parameters/sig_enforce");
	fakesys_write(&self->fs, "5,101,6000,-;Loading of unsigned module is rejected\n", "kmsg");
	diagnose(self);
	expect_in(_metadata, self->a.why, "/updates/dkms/nictl.ko.xz is not signed");
	expect_in(_metadata, self->a.fix, "sign it with a key the kernel trusts");
}

TEST_HARNESS_MAIN
