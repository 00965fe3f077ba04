# Driver for the typed atomic-kmap series: Linux 6.1.y, i386 PAE highmem,
# booted under QEMU with a BusyBox initramfs. `make help` lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := all
# Our variables (M, RUN, FLAVOR, ...) are not for the kernel's own make.
MAKEOVERRIDES :=

FLAVOR ?= debug
SMP ?= 4
MEM ?= 6G
TIMEOUT ?= 900
JOBS ?= $(shell nproc)
TARBALL ?= /usr/src/linux-source-6.1.tar.xz
MODULES ?=
KUNIT_FILTER ?=

TOP := $(CURDIR)
B := $(TOP)/build
FLAVORS := debug release
OUT = $(B)/$(FLAVOR)
BUSYBOX := $(B)/busybox/bin/busybox
INITRAMFS := $(B)/initramfs.cpio.gz
HARNESS := tools/testing/kmap_atomic
HARNESS_FILES := $(shell find $(HARNESS) -type f 2>/dev/null)

ifneq ($(words $(FLAVOR)),1)
$(error FLAVOR='$(FLAVOR)' is not one flavor: use one of $(FLAVORS))
endif
ifeq ($(filter $(FLAVOR),$(FLAVORS)),)
$(error FLAVOR='$(FLAVOR)' is not a flavor: use one of $(FLAVORS))
endif
$(foreach m,$(MODULES),$(if $(filter %.ko,$(m)),,$(error MODULES: '$(m)' is not a .ko file)))
$(foreach m,$(MODULES),$(if $(wildcard $(m)),,$(error MODULES: '$(m)' does not exist (build it first: make modules M=<its dir>))))

# The kernel tree is found at run time: it may not exist when make starts.
TREE = $$(scripts/tree-path.sh $(B))
KMAKE = $(MAKE) -C "$(TREE)" O=$(OUT) ARCH=i386

.PHONY: all deps tree refresh config kernel initramfs run run-prep test bench modules \
	patches checkpatch bisect-check kunit clean distclean help

all: kernel initramfs

help:
	@sed -n '/^## Targets/,/^Examples:/p' $(TOP)/README.md | sed -n 's/^## //p; s/^    /  /p'

# make deps        install what is missing (Debian packages, i386 BusyBox)
deps:
	@scripts/deps.sh $(B) $(TARBALL)

# make tree        unpack the kernel, copy the overlay, quilt push -a
tree: deps
	@scripts/prepare-tree.sh $(TOP) $(B) $(TARBALL)

# make refresh     write edits made in build/src/linux-*/ back to the repo
refresh:
	@scripts/refresh-tree.sh $(TOP) $(B)

$(OUT)/.config-stamp: configs/base.config configs/$(FLAVOR).config $(wildcard patches/*) $(shell find mm arch -name 'Kconfig*' 2>/dev/null) | tree
	@scripts/config-kernel.sh "$(TREE)" $(OUT) $(TOP)/configs/base.config $(TOP)/configs/$(FLAVOR).config
	@touch $@

config: tree $(OUT)/.config-stamp

# make kernel      build bzImage and modules for FLAVOR (debug|release)
kernel: config
	@echo "  KERNEL  $(FLAVOR) -> build/$(FLAVOR)/arch/x86/boot/bzImage"
	@+$(KMAKE) -s -j$(JOBS) bzImage modules

# make initramfs   the i386 BusyBox, /init and the userspace checks
initramfs: $(INITRAMFS)
$(INITRAMFS): $(HARNESS_FILES) scripts/mkinitramfs.sh | deps
	@scripts/mkinitramfs.sh $(BUSYBOX) $(HARNESS) $@

run-prep:
	@mkdir -p $(B)/run

# make run         boot FLAVOR with a shell on the serial console;
#                  RUN='cmds' runs them in the guest and exits with their status;
#                  MODULES='a.ko b.ko' loads them first; SMP, MEM, TIMEOUT
run: kernel initramfs run-prep
	$(file >$(B)/run/cmd.sh,$(value RUN))
	@scripts/qemu-run.sh --flavor $(FLAVOR) --mode $(if $(value RUN),run,shell) \
		--smp $(SMP) --mem $(MEM) --timeout $(TIMEOUT) \
		--kunit '$(KUNIT_FILTER)' --modules '$(abspath $(MODULES))' $(B)

# make test        build the debug flavor, boot it, run KUnit and the
#                  userspace checks, print failures and "N passed, N failed"
# The sample modules are loaded in every test boot: the driver proves a
# module can use the whole typed API (checks/04-sample-driver.sh), the
# misuse module lets checks/05-debug-misuse.sh commit each misuse.
SAMPLE := samples/kmap_atomic
test: FLAVOR := debug
test: kernel initramfs
	@echo "  MODULES $(SAMPLE)"
	@+$(KMAKE) -s M=$(TOP)/$(SAMPLE) modules
	@scripts/build-checks.sh "$(TREE)" $(OUT) $(TOP)/$(HARNESS)/build-checks \
		$(B)/build-checks $(B)/logs/build-checks.ktap
	@scripts/qemu-run.sh --flavor debug --mode test --smp $(SMP) --mem $(MEM) \
		--timeout $(TIMEOUT) --kunit '$(KUNIT_FILTER)' \
		--modules '$(addprefix $(TOP)/$(SAMPLE)/,kmap_atomic_demo.ko kmap_atomic_misuse.ko)' \
		$(B) || true
	@scripts/ktap-summary.py $(B)/logs/test-latest.log $(B)/logs/build-checks.ktap

# make bench: release and debug boots under instruction counting
bench:
	@+$(MAKE) --no-print-directory kernel FLAVOR=release
	@+$(MAKE) --no-print-directory kernel FLAVOR=debug
	@+$(MAKE) --no-print-directory initramfs
	@scripts/bench.sh $(B) $(MEM) $(TIMEOUT)

# make patches     the series as git format-patch files in build/patches/
PATCHES := $(B)/patches
patches: tree
	@scripts/export-series.sh $(TOP) $(B) $(PATCHES)

# make checkpatch  checkpatch --strict, kernel-doc, Sphinx, get_maintainer
checkpatch: patches
	@scripts/deps.sh $(B) $(TARBALL) sphinx-build=python3-sphinx
	@scripts/checkpatch.sh $(TOP) $(B) $(PATCHES)

# make bisect-check  build the debug flavor after each patch in turn
bisect-check: patches
	@scripts/bisect-check.sh $(TOP) $(B) $(JOBS)

# make kunit       the KUnit suites through kunit.py, in the patched tree
KUNIT_PY = ./tools/testing/kunit/kunit.py run --arch=i386 \
	--qemu_config=tools/testing/kunit/qemu_configs/i386_highmem.py \
	--kunitconfig=tools/testing/kunit/configs/kmap_atomic.config
kunit: tree
	@echo "  KUNIT   in $$(scripts/tree-path.sh $(B)): $(KUNIT_PY) --build_dir=$(B)/kunit --jobs=$(JOBS)"
	@cd "$(TREE)" && $(KUNIT_PY) --build_dir=$(B)/kunit --jobs=$(JOBS) --timeout=$(TIMEOUT)

# make modules M=dir   build the out-of-tree module in dir against the debug kernel
modules: FLAVOR := debug
modules: kernel
	@test -n "$(M)" || { echo "modules: say which module to build: make modules M=<dir>"; exit 1; }
	@test -f "$(M)/Kbuild" -o -f "$(M)/Makefile" || { echo "modules: $(M) has no Kbuild or Makefile: it is not a kernel module folder"; exit 1; }
	@echo "  MODULES $(M)"
	@+$(KMAKE) -s M=$(abspath $(M)) modules

# make clean       remove the kernel builds, initramfs and logs (keeps the tree)
clean:
	rm -rf $(addprefix $(B)/,$(FLAVORS) logs run bench build-checks initramfs.cpio.gz patches export bisect kunit)
	-git -C "$(TREE)" worktree prune 2>/dev/null

# make distclean   remove all of build/
distclean:
	rm -rf $(B)
