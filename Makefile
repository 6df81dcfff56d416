# SPDX-License-Identifier: GPL-2.0
#
# nictl: build the module for the running kernel and the controller with
# `make`; `make check` installs what it needs, builds everything and runs the
# whole suite in QEMU guests on Debian's 6.1 and 6.12 kernels; `make demo`
# boots one guest and shows a bind.

VERSION		:= 0.1.0
KERNELRELEASE	?= $(shell uname -r)
KDIR		?= /lib/modules/$(KERNELRELEASE)/build
BUILD		:= $(CURDIR)/build
PREFIX		?= /usr/local
SBINDIR		?= $(PREFIX)/sbin
UNITDIR		?= $(PREFIX)/lib/systemd/system
MODULE_SOURCES	:= Kbuild $(wildcard kmod/*.[ch]) include/uapi/linux/nictl.h

export NICTL_VERSION := $(VERSION)

.PHONY: all module ctl deps test-modules selftests unit check demo install clean

all: module ctl

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

ctl:
	$(MAKE) -C ctl BUILD=$(BUILD)

deps:
	scripts/install-deps.sh

# The test build of the module, once per suite kernel, W=1 and with the
# fault-injection knob; any compiler warning fails it.
test-modules: $(MODULE_SOURCES)
	scripts/build-test-modules.sh $(BUILD)/kmod

selftests:
	$(MAKE) -C selftests BUILD=$(BUILD)

# Host unit tests: every executable in $(BUILD)/unit is run by the suite.
unit:
	$(MAKE) -C selftests/unit BUILD=$(BUILD)
	$(MAKE) -C selftests BUILD=$(BUILD) unit
	$(MAKE) -C ctl BUILD=$(BUILD) unit

check: deps
	$(MAKE) test-modules ctl selftests unit
	selftests/vm/run-suite.sh $(BUILD)

demo: deps
	$(MAKE) test-modules ctl
	selftests/vm/demo.sh $(BUILD)

# The daemon's unit goes where systemd looks for units of $(PREFIX); the
# example configuration next to where the daemon reads its own.
install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	$(MAKE) -C ctl BUILD=$(BUILD) install
	sed 's|@SBINDIR@|$(SBINDIR)|' systemd/nictl.service > $(BUILD)/nictl.service
	install -D -m 0644 $(BUILD)/nictl.service $(DESTDIR)$(UNITDIR)/nictl.service
	install -D -m 0644 etc/nictl.conf.example $(DESTDIR)/etc/nictl/nictl.conf.example

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(BUILD)
