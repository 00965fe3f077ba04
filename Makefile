# Driver for the typed atomic-kmap series: Linux 6.1.y, i386 PAE highmem,
# booted under QEMU with a BusyBox initramfs. `make help` lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := all
# Our variables (M, RUN, FLAVOR, ...) are not for the kernel's own make.
MAKEOVERRIDES :=

KERNEL ?= 6.1
FLAVOR ?= debug
BASE ?= tiny
HIGHMEM ?= 64G
SLOTS ?= y
CPUS ?= 8
SMP ?= 4
MEM ?= 6G
TIMEOUT ?= 900
JOBS ?= $(shell nproc)
TARBALL ?= /usr/src/linux-source-$(KERNEL).tar.xz
MODULES ?=
MUTANTS ?=
KUNIT_FILTER ?=
STRESS ?= 20
STRESS_NG ?= 120
RUNS ?= 100
MATRIX_STRESS ?= 60

TOP := $(CURDIR)
# The LTS kernels the series is for; each builds under its own folder:
# build/ for 6.1 (the first), build/6.12/ for 6.12.
KERNELS := 6.1 6.12
BUILD_6.1 := $(TOP)/build
BUILD_6.12 := $(TOP)/build/6.12
B = $(BUILD_$(KERNEL))
# The scripts read it from the environment (scripts/tree-common.sh).
export KERNEL
# rt: the release flavor on PREEMPT_RT (6.12), which has no typed slots.
FLAVORS := debug release rt
FLAVOR_FRAGMENTS = configs/$(FLAVOR).config
FLAVOR_FRAGMENTS_rt := configs/release.config configs/noslots.config configs/rt.config
# The configuration the fragments go over: tinyconfig (ours), or Debian
# 12's own i386 686-pae one (build/debian-config/, from linux-config-6.1).
BASES := tiny debian
DEBIAN_CONFIG := $(B)/debian-config/config.i386_none_686-pae
BASE_FRAGMENT_tiny := configs/base.config
BASE_FRAGMENT_debian := configs/debian.config
BASE_FILE_debian := $(DEBIAN_CONFIG)
PREFIX_debian := debian-
# The memory model: PAE (the default), highmem without PAE, no highmem.
HIGHMEMS := 64G 4G off
VARIANT_64G :=
VARIANT_4G := -highmem4g
VARIANT_off := -nohighmem
FRAGMENT_4G := configs/highmem4g.config
FRAGMENT_off := configs/nohighmem.config
# The typed slots (CONFIG_KMAP_ATOMIC_SLOTS): y, or n for the path an RT
# kernel takes, where the typed forms map through kmap_local.
SLOTS_VALUES := y n
SLOTS_VARIANT_n := -noslots
SLOTS_FRAGMENT_n := configs/noslots.config
# NR_CPUS of our own base: 8, or 64 (X86_BIGSMP), which make matrix builds
# to see the fixmap range grow. Debian's base has its own (32).
CPUS_VALUES := 8 64
CPUS_VARIANT_64 := -bigsmp
CPUS_FRAGMENT_64 := configs/bigsmp.config
# build/debug, build/debug-highmem4g, build/release-nohighmem,
# build/debian-release, build/debian-release-noslots, build/release-bigsmp, ...
KDIR = $(PREFIX_$(BASE))$(FLAVOR)$(VARIANT_$(HIGHMEM))$(if $(filter rt,$(FLAVOR)),,$(SLOTS_VARIANT_$(SLOTS)))$(CPUS_VARIANT_$(CPUS))
OUT = $(B)/$(KDIR)
# configs/KERNEL/: what one kernel's Kconfig needs beside a base or flavor
# fragment of the same name (an option it names otherwise, or only has).
FRAGMENTS = $(BASE_FRAGMENT_$(BASE)) $(wildcard configs/$(KERNEL)/$(notdir $(BASE_FRAGMENT_$(BASE)))) \
	$(or $(FLAVOR_FRAGMENTS_$(FLAVOR)),$(FLAVOR_FRAGMENTS)) \
	$(wildcard configs/$(KERNEL)/$(FLAVOR).config) $(FRAGMENT_$(HIGHMEM)) \
	$(if $(filter rt,$(FLAVOR)),,$(SLOTS_FRAGMENT_$(SLOTS))) $(CPUS_FRAGMENT_$(CPUS))
BUSYBOX := $(B)/busybox/bin/busybox
INITRAMFS := $(B)/initramfs.cpio.gz
STRESS_NG_CPIO := $(B)/stress-ng.cpio.gz
HARNESS := tools/testing/kmap_atomic
HARNESS_FILES := $(shell find $(HARNESS) -type f 2>/dev/null)

ifneq ($(words $(KERNEL)),1)
$(error KERNEL='$(KERNEL)' is not one kernel: use one of $(KERNELS))
endif
ifeq ($(filter $(KERNEL),$(KERNELS)),)
$(error KERNEL='$(KERNEL)' is not a kernel the series is for: use one of $(KERNELS) (6.1 is the default))
endif
ifneq ($(words $(FLAVOR)),1)
$(error FLAVOR='$(FLAVOR)' is not one flavor: use one of $(FLAVORS))
endif
ifeq ($(filter $(FLAVOR),$(FLAVORS)),)
$(error FLAVOR='$(FLAVOR)' is not a flavor: use one of $(FLAVORS))
endif
ifeq ($(FLAVOR)-$(KERNEL),rt-6.1)
$(error FLAVOR=rt is PREEMPT_RT, which x86 has from 6.12 on: give KERNEL=6.12 with it)
endif
ifeq ($(FLAVOR)-$(SLOTS)-$(origin SLOTS),rt-y-command line)
$(error FLAVOR=rt has no typed slots (KMAP_ATOMIC_SLOTS depends on !PREEMPT_RT): leave SLOTS out)
endif
# Checked here too (qemu-run.sh checks at boot) so that make matrix stops
# before its three kernel builds.
ifneq ($(shell echo '$(STRESS) $(MATRIX_STRESS)' | awk '/^[0-9]+ [0-9]+$$/ && $$1 <= 3600 && $$2 <= 3600'),$(STRESS) $(MATRIX_STRESS))
$(error STRESS='$(STRESS)' MATRIX_STRESS='$(MATRIX_STRESS)': give whole seconds, 0 (off) to 3600)
endif
ifneq ($(shell echo '$(STRESS_NG)' | awk '/^[0-9]+$$/ && $$1 >= 10 && $$1 <= 3600'),$(STRESS_NG))
$(error STRESS_NG='$(STRESS_NG)': give stress-ng's run time in whole seconds, 10 to 3600)
endif
ifneq ($(filter-out single multi,$(TCG_THREAD))$(word 2,$(TCG_THREAD)),)
$(error TCG_THREAD='$(TCG_THREAD)': use single (one host thread for all vCPUs, the default) or multi (one per vCPU; see docs/qemu.md, "One TCG thread"))
endif
ifneq ($(filter tcg-race,$(MAKECMDGOALS)),)
ifneq ($(shell echo '$(RUNS)' | awk '/^[0-9]+$$/ && $$1 >= 1 && $$1 <= 1000'),$(RUNS))
$(error RUNS='$(RUNS)': give the boots per mode of make tcg-race, 1 to 1000)
endif
endif
ifeq ($(filter $(HIGHMEM),$(HIGHMEMS)),)
$(error HIGHMEM='$(HIGHMEM)' is not a memory model: use one of $(HIGHMEMS))
endif
ifneq ($(words $(BASE)),1)
$(error BASE='$(BASE)' is not one base configuration: use one of $(BASES))
endif
ifeq ($(filter $(BASE),$(BASES)),)
$(error BASE='$(BASE)' is not a base configuration: use one of $(BASES))
endif
ifneq ($(words $(SLOTS)),1)
$(error SLOTS='$(SLOTS)' is not one value: use y (the typed slots) or n (none, as an RT kernel))
endif
ifeq ($(filter $(SLOTS),$(SLOTS_VALUES)),)
$(error SLOTS='$(SLOTS)': use y (the typed slots, the default) or n (none: the typed forms map through kmap_local, as on an RT kernel))
endif
ifneq ($(words $(CPUS)),1)
$(error CPUS='$(CPUS)' is not one value: use 8 (the default) or 64 (X86_BIGSMP))
endif
ifeq ($(filter $(CPUS),$(CPUS_VALUES)),)
$(error CPUS='$(CPUS)': our base builds NR_CPUS=8 (the default) or 64 (X86_BIGSMP); SMP= is how many a boot uses)
endif
ifeq ($(BASE)-$(CPUS),debian-64)
$(error BASE=debian has Debian's NR_CPUS (32): leave CPUS at 8)
endif
# The boot's own variables, checked before anything is built (qemu-run.sh
# checks them again at boot, against the kernel it boots).
ifeq ($(shell echo '$(MEM)' | awk '/^[0-9]+[MG]$$/ { n = $$0 + 0; if (/G$$/) n *= 1024; if (n >= 256 && n <= 16384) print "ok" }'),)
$(error MEM='$(MEM)': give the guest's memory as 256M to 16G, like 512M, 3G or 6G (6G, the default, puts highmem above 4 GiB))
endif
NR_CPUS_OF_BASE := $(if $(filter debian,$(BASE)),32,$(CPUS))
ifneq ($(shell echo '$(SMP)' | awk '/^[1-9][0-9]*$$/ && $$1 <= $(NR_CPUS_OF_BASE)'),$(SMP))
$(error SMP='$(SMP)': give the guest's CPU count, 1 to $(NR_CPUS_OF_BASE) (the kernel's NR_CPUS$(if $(filter debian,$(BASE)),, for CPUS=$(CPUS))))
endif
ifneq ($(shell echo '$(TIMEOUT)' | awk '/^[1-9][0-9]*$$/ && $$1 <= 86400'),$(TIMEOUT))
$(error TIMEOUT='$(TIMEOUT)': give a boot's time limit in whole seconds, 1 to 86400)
endif
# These build and boot kernels of their own choosing, by fixed names.
ifneq ($(filter test bench trace-cost tcg-race distro-test matrix mutation-check,$(MAKECMDGOALS)),)
ifneq ($(filter command line environment,$(origin SLOTS) $(origin CPUS) $(origin HIGHMEM)),)
$(error SLOTS, CPUS and HIGHMEM pick the kernel for kernel, run, modules and deb; $(filter test bench trace-cost tcg-race distro-test matrix mutation-check,$(MAKECMDGOALS)) builds the kernels it boots itself: leave them out)
endif
endif
ifeq ($(HIGHMEM)-$(SLOTS),off-n)
$(error SLOTS=n with HIGHMEM=off: a kernel without highmem has no slots anyway; leave SLOTS at y)
endif
ifneq ($(filter deb,$(MAKECMDGOALS)),)
ifeq ($(origin FLAVOR),file)
FLAVOR := release
endif
endif
ifeq ($(filter deb,$(MAKECMDGOALS))-$(BASE),deb-tiny)
$(error make deb packages Debian's configuration: make deb BASE=debian FLAVOR=release)
endif
ifeq ($(BASE)-$(filter $(HIGHMEM),64G),debian-)
$(error BASE=debian is Debian's 686-pae kernel, PAE only: leave HIGHMEM at 64G)
endif
$(foreach m,$(MODULES),$(if $(filter %.ko,$(m)),,$(error MODULES: '$(m)' is not a .ko file)))
$(foreach m,$(MODULES),$(if $(wildcard $(m)),,$(error MODULES: '$(m)' does not exist (build it first: make modules M=<its dir>))))

# The kernel tree is found at run time: it may not exist when make starts.
TREE = $$(scripts/tree-path.sh $(B))
KMAKE = $(MAKE) -C "$(TREE)" O=$(OUT) ARCH=i386

.PHONY: all deps tree refresh config kernel initramfs run run-prep test matrix cross-check bench trace-cost tcg-race modules distro-test deb \
	mutation-check patches checkpatch bisect-check kunit clean distclean help

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

$(OUT)/.config-stamp: $(FRAGMENTS) $(wildcard patches/* patches/*/*) $(BASE_FILE_$(BASE)) | tree
	@scripts/config-kernel.sh $(if $(BASE_FILE_$(BASE)),--base $(BASE_FILE_$(BASE))) \
		"$(TREE)" $(OUT) $(addprefix $(TOP)/,$(FRAGMENTS))
	@touch $@

# Debian's own configuration of its i386 686-pae kernel, from the i386
# package linux-config-6.1 (the amd64 one has only amd64 configurations).
$(DEBIAN_CONFIG): | deps
	@scripts/debian-config.sh $(B) $@

config: tree $(OUT)/.config-stamp

# make kernel      build bzImage and modules for FLAVOR (debug|release)
kernel: config
	@echo "  KERNEL  $(KERNEL) $(KDIR) -> $(B:$(TOP)/%=%)/$(KDIR)/arch/x86/boot/bzImage"
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
	@scripts/qemu-run.sh --flavor $(KDIR) --mode $(if $(value RUN),run,shell) \
		--smp $(SMP) --mem $(MEM) --timeout $(TIMEOUT) --stress $(STRESS) \
		--kunit '$(KUNIT_FILTER)' --modules '$(abspath $(MODULES))' $(B)

# make test        build the debug and release flavors, boot each, run KUnit
#                  and the userspace checks, print failures and "N passed, N failed"
# Three boots per kernel, PAE all (6G puts highmem above 4 GiB): debug with
# SMP and MEM as given, then release, the kernel users ship, on 2 CPUs,
# with its KUnit suites and stress test as modules, then the path an RT
# kernel takes on 2 CPUs: on 6.1 release without the slots (SLOTS=n), on
# 6.12 a real PREEMPT_RT kernel (FLAVOR=rt). Without KERNEL, 6.1 then
# 6.12, with one count for both. make matrix runs the other memory models
# (HIGHMEM4G, NOHIGHMEM) with every MEM and SMP that makes sense; make
# distro-test, Debian's configuration.
THIRD_6.1 := FLAVOR=release SLOTS=n
THIRD_6.12 := FLAVOR=rt
THIRD_KDIR_6.1 := release-noslots
THIRD_KDIR_6.12 := rt
# Only KERNEL= on the command line picks one: not one in the environment.
TEST_KERNELS := $(if $(filter command line,$(origin KERNEL)),$(KERNEL),$(KERNELS))
test:
	@scripts/disk-check.sh $(BASE) $(foreach k,$(TEST_KERNELS),$(k):$(BUILD_$(k)):$(subst $(eval) ,+,$(addprefix \
		$(PREFIX_$(BASE)),debug release $(THIRD_KDIR_$(k)))))
	@+$(MAKE) --no-print-directory initramfs
	@-scripts/deps.sh $(B) $(TARBALL) spatch=coccinelle
	@-scripts/cocci.sh selftest $(TOP) $(B)/logs/cocci.ktap
	@-scripts/deps.sh $(B) $(TARBALL) gnuplot=gnuplot-nox
	@scripts/bench-plot-check.sh $(B)
	@for k in $(TEST_KERNELS); do \
		$(MAKE) --no-print-directory test-kernel KERNEL=$$k BASE=$(BASE) SMP=$(SMP) MEM=$(MEM) \
			TIMEOUT=$(TIMEOUT) STRESS=$(STRESS) KUNIT_FILTER='$(KUNIT_FILTER)' JOBS=$(JOBS) || exit 1; \
	done
	@scripts/ktap-summary.py $(foreach k,$(TEST_KERNELS),$$(cat $(BUILD_$(k))/logs/test-logs || \
		echo $(BUILD_$(k))/logs/test-logs)) $(B)/logs/bench-plot.ktap $(B)/logs/cocci.ktap

# One kernel's part of make test: its builds, build checks and boots; the
# logs to count go to build/logs/test-logs.
.PHONY: test-kernel
test-kernel: FLAVOR := debug
test-kernel: HIGHMEM := 64G
test-kernel: SLOTS := y
test-kernel: kernel initramfs
	@+$(MAKE) --no-print-directory kernel FLAVOR=release BASE=$(BASE)
	@+$(MAKE) --no-print-directory kernel $(THIRD_$(KERNEL)) BASE=$(BASE)
	@scripts/build-checks.sh "$(TREE)" $(OUT) $(TOP)/$(HARNESS)/build-checks \
		$(B)/build-checks $(B)/logs/build-checks.ktap
	@scripts/build-checks.sh "$(TREE)" $(B)/$(PREFIX_$(BASE))$(THIRD_KDIR_$(KERNEL)) $(TOP)/$(HARNESS)/build-checks \
		$(B)/build-checks-noslots $(B)/logs/build-checks-noslots.ktap
	@scripts/series-check.sh $(TOP) $(B) $(B)/logs/series.ktap
	@scripts/test-boot.sh $(B) $(PREFIX_$(BASE))debug $(SMP) $(MEM) $(TIMEOUT) $(STRESS) '$(KUNIT_FILTER)' || true
	@scripts/test-boot.sh $(B) $(PREFIX_$(BASE))release 2 $(MEM) $(TIMEOUT) $(STRESS) '$(KUNIT_FILTER)' || true
	@scripts/test-boot.sh $(B) $(PREFIX_$(BASE))$(THIRD_KDIR_$(KERNEL)) 2 $(MEM) $(TIMEOUT) $(STRESS) '$(KUNIT_FILTER)' || true
	@printf '%s\n' $(foreach k,debug release $(THIRD_KDIR_$(KERNEL)),$(B)/logs/test-$(PREFIX_$(BASE))$(k)-latest.log) \
		$(B)/logs/build-checks.ktap $(B)/logs/build-checks-noslots.ktap $(B)/logs/series.ktap >$(B)/logs/test-logs

# make matrix      every memory model x MEM x SMP that makes sense, each
#                  booted with KUnit, the userspace checks and MATRIX_STRESS
#                  seconds of the stress test; a table, then "N passed, N failed"
matrix: initramfs
	@for h in $(HIGHMEMS); do $(MAKE) --no-print-directory kernel FLAVOR=debug HIGHMEM=$$h || exit 1; done
	@+$(MAKE) --no-print-directory kernel FLAVOR=debug SLOTS=n
	@+$(MAKE) --no-print-directory kernel FLAVOR=release
	@+$(MAKE) --no-print-directory kernel FLAVOR=release CPUS=64
	@scripts/fixmap-size.sh "$(TREE)" $(B)/release $(B)/release-bigsmp $(B)/debug-noslots \
		$(B)/debian-release
	@scripts/matrix.sh $(B) $(TIMEOUT) $(MATRIX_STRESS)

# make bench: release and debug boots under instruction counting;
#             BASE=debian: Debian's configuration (results in build/bench-debian)
bench:
	@scripts/deps.sh $(B) $(TARBALL) gnuplot=gnuplot-nox
	@+$(MAKE) --no-print-directory kernel FLAVOR=release BASE=$(BASE)
	@+$(MAKE) --no-print-directory kernel FLAVOR=debug BASE=$(BASE)
	@+$(MAKE) --no-print-directory initramfs
	@scripts/bench.sh $(B) $(MEM) $(TIMEOUT) $(PREFIX_$(BASE))

# make trace-cost: the release kernel's typed pair with the trace events
#                  compiled out and in (disabled), under -icount; BASE=debian
#                  for Debian's configuration (build/trace-cost-<kernel>.tsv)
trace-cost:
	@+$(MAKE) --no-print-directory kernel FLAVOR=release BASE=$(BASE)
	@+$(MAKE) --no-print-directory initramfs
	@scripts/trace-cost.sh $(TOP) $(B) $(JOBS) $(MEM) $(TIMEOUT) $(PREFIX_$(BASE))release

# make tcg-race: the release kernel booted RUNS times on 2 vCPUs with a
#                host thread per vCPU and RUNS times on one thread; counts
#                the boots that reset without a word (build/tcg-race.tsv)
tcg-race:
	@+$(MAKE) --no-print-directory kernel FLAVOR=release BASE=$(BASE)
	@+$(MAKE) --no-print-directory initramfs
	@scripts/tcg-race.sh $(B) $(PREFIX_$(BASE))release $(MEM) $(TIMEOUT) $(RUNS)

# make distro-test  Debian's configuration (BASE=debian): the release, debug
#                  and SLOTS=n kernels, each booted (PAE, 6G, 4 CPUs) with
#                  every test that applies and STRESS_NG seconds of Debian's
#                  stress-ng; a table (build/distro/results.md), then
#                  "N passed, N failed"
distro-test: initramfs $(STRESS_NG_CPIO)
	@+$(MAKE) --no-print-directory kernel BASE=debian FLAVOR=release
	@+$(MAKE) --no-print-directory kernel BASE=debian FLAVOR=debug
	@+$(MAKE) --no-print-directory kernel BASE=debian FLAVOR=release SLOTS=n
	@scripts/distro-test.sh $(B) $(TIMEOUT) $(STRESS) $(STRESS_NG) $(STRESS_NG_CPIO)

# Debian's i386 stress-ng and the libraries it loads, with its check.
$(STRESS_NG_CPIO): scripts/stress-ng-rootfs.sh $(wildcard $(HARNESS)/distro-checks/*) | deps
	@scripts/stress-ng-rootfs.sh $(B) $(HARNESS)/distro-checks $@

# make deb        BASE=debian: bindeb-pkg of FLAVOR's kernel (release, what
#                  users ship, unless FLAVOR is given), packages in build/deb/
deb: kernel
	@scripts/deps.sh $(B) $(TARBALL) dpkg-buildpackage=dpkg-dev fakeroot=fakeroot rsync=rsync dh_listpackages=debhelper
	@scripts/deb.sh "$(TREE)" $(OUT) $(B) $(JOBS)

# make mutation-check  break each safety property of the release fast path in
#                  turn (scripts/mutation-check.sh lists them), rebuild release,
#                  boot its KUnit suites: the guarding case must fail; the
#                  debug checks likewise on the debug flavor; MUTANTS=RE runs
#                  only the mutants whose names match
mutation-check:
	@+$(MAKE) --no-print-directory kernel FLAVOR=release
	@+$(MAKE) --no-print-directory kernel FLAVOR=debug
	@+$(MAKE) --no-print-directory kernel FLAVOR=release SLOTS=n
	@+$(MAKE) --no-print-directory initramfs
	@scripts/mutation-check.sh $(TOP) $(B) $(JOBS) $(MEM) $(TIMEOUT) '$(MUTANTS)'

# make cross-check build the series for x86_64 and 32-bit ARM with highmem,
#                  KUNIT_ALL_TESTS and our options on tinyconfig, as the build
#                  robots would (Debian's cross compiler for ARM)
cross-check: tree
	@scripts/deps.sh $(B) $(TARBALL) arm-linux-gnueabihf-gcc=gcc-arm-linux-gnueabihf
	@scripts/cross-check.sh $(TOP) $(B) $(JOBS) $(B)/logs/cross-check.ktap

# make patches     the series as git format-patch files in build/patches/
PATCHES := $(B)/patches
patches: tree
	@scripts/export-series.sh $(TOP) $(B) $(PATCHES)

# make checkpatch  checkpatch --strict, kernel-doc, Sphinx, get_maintainer
checkpatch: patches
	@scripts/deps.sh $(B) $(TARBALL) sphinx-build=python3-sphinx
	@scripts/checkpatch.sh $(TOP) $(B) $(PATCHES)

# make cocci       the semantic patches (scripts/coccinelle/api/kmap_atomic_*.cocci)
#                  over M=dir or the series' own code: findings, non-zero if any;
#                  MODE=patch: the kmap_local_page() conversion as a diff
.PHONY: cocci
cocci:
	@scripts/deps.sh $(B) $(TARBALL) spatch=coccinelle
	@scripts/cocci.sh $(or $(MODE),report) $(TOP) '$(M)'

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

# make modules M=dir   build the out-of-tree module in dir against FLAVOR's
#                      kernel (debug by default; FLAVOR=release for the one users ship)
modules: kernel
	@test -n "$(M)" || { echo "modules: say which module to build: make modules M=<dir>"; exit 1; }
	@test -f "$(M)/Kbuild" -o -f "$(M)/Makefile" || { echo "modules: $(M) has no Kbuild or Makefile: it is not a kernel module folder"; exit 1; }
	@echo "  MODULES $(M) against $(B:$(TOP)/%=%)/$(KDIR)"
	@+$(KMAKE) -s M=$(abspath $(M)) modules

# make clean       remove the kernel builds, initramfs and logs (keeps the tree)
clean:
	rm -rf $(wildcard $(addprefix $(B)/,$(FLAVORS:=*) debian-*)) $(addprefix $(B)/, \
		logs run bench bench-debian matrix distro deb stress-ng stress-ng.cpio.gz mutation build-checks initramfs.cpio.gz \
		patches export bisect kunit tcg-race.tsv trace-cost-*.tsv)
	-git -C "$(TREE)" worktree prune 2>/dev/null

# make distclean   remove all of build/ (6.12's build/6.12/ with it)
distclean:
	rm -rf $(B)
