# SPDX-License-Identifier: GPL-2.0
#
# nictl: build the module for the running kernel and the controller with
# `make`; `make check` installs what it needs, builds everything and runs the
# whole suite in QEMU guests on Debian's 6.1 and 6.12 kernels; `make demo`
# boots one guest and shows a bind and the interrupts landing where it put them.

# The one place the version is kept: the module, nictlctl, dkms.conf and the
# man pages take it from here; debian/rules refuses a debian/changelog that
# says otherwise (selftests/unit/version_test.sh checks both).
VERSION		:= 0.1.0
KERNELRELEASE	?= $(shell uname -r)
KDIR		?= /lib/modules/$(KERNELRELEASE)/build
BUILD		:= $(CURDIR)/build
PREFIX		?= /usr/local
SBINDIR		?= $(PREFIX)/sbin
UNITDIR		?= $(PREFIX)/lib/systemd/system
DKMS_SRC	?= /usr/src/nictl-$(VERSION)
DATADIR		?= $(PREFIX)/share
MANDIR		?= $(DATADIR)/man
COMPLETIONDIR	?= $(DATADIR)/bash-completion/completions
# 0 leaves the module out of install and uninstall: a package of the userspace
# alone, or a host without kernel headers.
NICTL_INSTALL_MODULE ?= 1
MODULE_SOURCES	:= Kbuild $(wildcard kmod/*.[ch]) include/uapi/linux/nictl.h

export NICTL_VERSION := $(VERSION)

.PHONY: all module ctl deps test-modules selftests cross-userspace unit check check-debug demo \
	demo-arm64 clean \
	install install-module install-userspace uninstall uninstall-module uninstall-userspace \
	modules-install modules-remove print-version deb

all: module ctl

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

ctl:
	$(MAKE) -C ctl BUILD=$(BUILD)

deps:
	scripts/install-deps.sh

# The test build of the module, once per suite kernel, W=1 and with the
# fault-injection knob; any compiler warning fails it.
# Built again only when a source changed: make demo's build serves make check.
test-modules: $(BUILD)/kmod/built
$(BUILD)/kmod/built: $(MODULE_SOURCES) scripts/build-test-modules.sh scripts/module-source.sh \
		scripts/kmake.sh scripts/kernels.list $(wildcard selftests/keptnic/*)
	scripts/build-test-modules.sh $(BUILD)/kmod
	touch $@

# The module as users get it: Debian's dkms builds it for both suite kernels,
# with its trees in $(BUILD)/dkms instead of the host's; the guests load it.
dkms-modules: $(MODULE_SOURCES) dkms.conf
	rm -rf $(BUILD)/dkms
	scripts/build-dkms-modules.sh $(BUILD)/dkms $(VERSION)

selftests:
	$(MAKE) -C selftests BUILD=$(BUILD)

# nictlctl and the selftests for the guests of another architecture than
# the host's (scripts/kernels.list, ARCH; CHECK cross), cross-built into
# $(BUILD)/ARCH.
cross-userspace:
	scripts/cross-userspace.sh $(BUILD)

# Host unit tests: every executable in $(BUILD)/unit is run by the suite.
# The man page and completion tests ask the built nictlctl for its help.
# The host test of the host's kernel compares with $(BUILD)/host-kernel.before:
# `make check` takes it before anything, `make unit` when there is none.
unit: ctl
	$(MAKE) -C selftests/unit BUILD=$(BUILD)
	$(MAKE) -C selftests BUILD=$(BUILD) unit
	$(MAKE) -C ctl BUILD=$(BUILD) unit
	[ -f $(BUILD)/host-kernel.before ] || \
		scripts/host-kernel-state.sh snapshot >$(BUILD)/host-kernel.before

# Kernels, headers and the chroots some kernels build in come from the cache
# (docs/kernels.md), never from the host's packages: the snapshot of the
# host's kernel state taken first must still hold at the end.
check:
	@mkdir -p $(BUILD)
	scripts/host-kernel-state.sh snapshot >$(BUILD)/host-kernel.before
	$(MAKE) deps
	$(MAKE) test-modules dkms-modules ctl selftests cross-userspace unit
	selftests/vm/run-suite.sh $(BUILD)

# The guest suite on the debug kernel (KASAN, KFENCE, lockdep, kmemleak,
# UBSAN), which the first run builds into the cache; in a build tree of its
# own, so it never mixes with `make check`'s. The guests run many times
# slower than on Debian's kernels: two of them, one per half of the suite,
# get four hours (a half takes over two: docs/reliability.md), the stress
# run 600 s of churn (in its default 90 s a debug guest made a single bind),
# and every test ten times its timeout.
check-debug: deps
	NICTL_KERNELS=$$(selftests/vm/build-debug-kernel.sh) && export NICTL_KERNELS && \
		$(MAKE) BUILD=$(BUILD)/debug test-modules dkms-modules ctl selftests && \
		NICTL_HOST_TESTS=0 NICTL_GUEST_HALVES=1 NICTL_VM_TIMEOUT=$${NICTL_VM_TIMEOUT:-14400} \
		NICTL_STRESS_SECONDS=$${NICTL_STRESS_SECONDS:-600} \
		NICTL_TIMEOUT_SCALE=$${NICTL_TIMEOUT_SCALE:-10} \
		selftests/vm/run-suite.sh $(BUILD)/debug

demo: deps
	$(MAKE) test-modules ctl selftests
	selftests/vm/demo.sh $(BUILD)

# The same demo in the arm64 guest, on Debian's arm64 6.12.
demo-arm64: deps
	$(MAKE) test-modules
	scripts/cross-userspace.sh $(BUILD) arm64
	selftests/vm/demo.sh $(BUILD) arm64

# `make install` and `make uninstall`; selftests/unit/install_test.sh checks
# that uninstall removes exactly what install put there.
install: install-userspace
uninstall: uninstall-userspace
ifeq ($(NICTL_INSTALL_MODULE),1)
install: install-module
uninstall: uninstall-module
endif

# Through DKMS where dkms is installed, so every new kernel gets the module
# rebuilt; a staged install (DESTDIR) gets kbuild's, for KERNELRELEASE only.
HAVE_DKMS	:= $(shell command -v dkms 2>/dev/null)
MODULE_VIA	:= $(if $(DESTDIR),modules,$(if $(HAVE_DKMS),dkms,modules))

install-module:
	$(MAKE) $(MODULE_VIA)-install

uninstall-module:
	$(MAKE) $(MODULE_VIA)-remove

# Into updates/ on every kernel (6.1's kbuild says extra/), so removal knows
# where; 6.12 compresses it, hence nictl.ko*.
MODULE_INSTDIR	:= $(DESTDIR)/lib/modules/$(KERNELRELEASE)/updates

modules-install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=updates \
		modules_install

modules-remove:
	rm -f $(MODULE_INSTDIR)/nictl.ko*
	$(if $(DESTDIR),,depmod $(KERNELRELEASE))

# Man pages gzip'ed (-n: no timestamp, so a rebuild is identical); the
# daemon's unit where systemd looks for units of $(PREFIX); the example
# configuration next to where the daemon reads its own, whatever $(PREFIX).
MAN_PAGES	:= man/nictlctl.8 man/nictl.conf.5

$(BUILD)/man/%.gz: man/% Makefile
	@mkdir -p $(@D)
	sed 's|@VERSION@|$(VERSION)|' $< | gzip -9n > $@

install-userspace: ctl $(MAN_PAGES:man/%=$(BUILD)/man/%.gz)
	$(MAKE) -C ctl BUILD=$(BUILD) SBINDIR=$(SBINDIR) install
	install -D -m 0644 $(BUILD)/man/nictlctl.8.gz $(DESTDIR)$(MANDIR)/man8/nictlctl.8.gz
	install -D -m 0644 $(BUILD)/man/nictl.conf.5.gz $(DESTDIR)$(MANDIR)/man5/nictl.conf.5.gz
	install -D -m 0644 completion/nictlctl $(DESTDIR)$(COMPLETIONDIR)/nictlctl
	sed 's|@SBINDIR@|$(SBINDIR)|' systemd/nictl.service > $(BUILD)/nictl.service
	install -D -m 0644 $(BUILD)/nictl.service $(DESTDIR)$(UNITDIR)/nictl.service
	install -D -m 0644 etc/nictl.conf.example $(DESTDIR)/etc/nictl/nictl.conf.example

# /etc/nictl goes only when empty: nictl.conf is the administrator's.
uninstall-userspace:
	$(MAKE) -C ctl SBINDIR=$(SBINDIR) uninstall
	rm -f $(DESTDIR)$(MANDIR)/man8/nictlctl.8.gz $(DESTDIR)$(MANDIR)/man5/nictl.conf.5.gz
	rm -f $(DESTDIR)$(COMPLETIONDIR)/nictlctl
	rm -f $(DESTDIR)$(UNITDIR)/nictl.service
	rm -f $(DESTDIR)/etc/nictl/nictl.conf.example
	rmdir --ignore-fail-on-non-empty $(DESTDIR)/etc/nictl 2>/dev/null || true

.PHONY: dkms-source dkms-install dkms-remove dkms-modules

# The DKMS source tree: the module's sources and dkms.conf with VERSION.
dkms-source:
	scripts/module-source.sh $(DKMS_SRC)
	sed 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="$(VERSION)"/' dkms.conf >$(DKMS_SRC)/dkms.conf

# DKMS builds and installs nictl.ko for KERNELRELEASE now, and for each new
# kernel later. Run again, it replaces what an earlier run installed.
dkms-install: dkms-remove
	$(MAKE) dkms-source
	dkms add nictl/$(VERSION)
	dkms build nictl/$(VERSION) -k $(KERNELRELEASE)
	dkms install nictl/$(VERSION) -k $(KERNELRELEASE)

dkms-remove:
	if [ -n "$$(dkms status nictl/$(VERSION))" ]; then dkms remove nictl/$(VERSION) --all; fi
	rm -rf $(DKMS_SRC)

print-version:
	@echo $(VERSION)

# nictl and nictl-dkms, as dpkg-buildpackage builds them from a copy of the
# tree (debian/), into $(BUILD)/deb; lintian checks them in the suite
# (selftests/pkg/pkg_test.sh).
deb:
	scripts/build-deb.sh $(BUILD)/deb

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(BUILD)
