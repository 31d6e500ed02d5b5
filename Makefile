# AutoNUMA alpha10 on Linux 6.1: build the patched kernel, boot it in QEMU,
# measure.  `make` runs the main job, `make check` the tests; see README.md.
#
# Knobs (make VAR=value):
#   TOPO     topology from qemu-configs/topology/ (default 2node)
#   CONFIG   kernel flavour: base, debug (base + qemu-configs/kernel/debug.config)
#            noautonuma (base + noautonuma.config: the series with AutoNUMA off)
#            or debian (base + debian.config: Debian's NUMA defaults, AutoNUMA on)
#   APPEND   extra guest kernel command line
#   BALANCE  NUMA balancer of `make run` (a variant of guest/balancer.sh):
#            autonuma (default), autonuma-lb, autonuma-schedule, upstream, none
#   CMD      command for `make boot` (default: an interactive shell)
#   EXP      experiment of `make compare` (experiments/EXP.conf; default
#            short-2node, the main job); REPS overrides its repetitions
#   ROUNDS   rounds of `make hotpath` (default 10), `make lb-trigger` and
#            `make scan-flushes` (5)
#   SCENARIOS  scenarios of `make stress` (default: all of tests/guest/stress-scenario.sh)
#   KMEMLEAK   scenarios of `make stress` booted with kmemleak and scanned (default all)
#   STRESS_PATHS  both (default: each scenario in both placement paths) or
#            alternate (each in one, lb and schedule in turn: CI's time)
#   SOAK_SECONDS  length of `make soak` (default 1800); SOAK_SEED its random seed
#   ACCEL    tcg (default) or kvm (probed first; KVM hangs on the build machines)
#   JOBS     parallel kernel build jobs (default: number of CPUs)

TOPO    ?= 2node
CONFIG  ?= base
JOBS    ?= $(shell nproc)
BUILD   := build
SRC     := $(BUILD)/linux
KOBJ    := $(BUILD)/obj-$(CONFIG)
BZIMAGE := $(KOBJ)/arch/x86/boot/bzImage
INITRD  := $(BUILD)/initramfs.cpio.gz
RESULTS := results

FRAGMENTS := qemu-configs/kernel/base.config \
	$(if $(filter-out base,$(CONFIG)),qemu-configs/kernel/$(CONFIG).config)
ifeq ($(filter base debug noautonuma debian scale,$(CONFIG)),)
$(error CONFIG must be base, debug, noautonuma, debian or scale)
endif

export KERNEL := $(abspath $(BZIMAGE))
export INITRD := $(abspath $(INITRD))
export APPEND ACCEL ROUNDS
# ccache across clones: hash paths relative to the repository.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
KMAKE = $(MAKE) -C $(SRC) O=$(abspath $(KOBJ)) ARCH=x86_64 CC="ccache gcc" LOCALVERSION= -j$(JOBS)

# One traced run: stream on TOPO under trace-cmd record, then its summary
# and convergence report (the main job, `make`, is `make compare`).  Every
# run's output goes under results/.
STREAM_ARGS ?= -p 2 -t 1 -s 128 -d 20 -M
BALANCE     ?= autonuma
PROFILE     ?= tracepoints/profiles/default.profile

all: compare

deps:
	@harness/deps.sh

# Always consulted: re-applies the series when it or a patch changed.
source: deps
	@harness/kernel-tree.sh $(SRC) series/series patches

$(KOBJ)/.config: $(FRAGMENTS) $(SRC)/.git/series-stamp harness/kernel-config.sh
	harness/kernel-config.sh $(SRC) $(KOBJ) $(FRAGMENTS)

kernel: source
	@$(MAKE) --no-print-directory $(KOBJ)/.config
	+$(KMAKE) bzImage
	@echo "kernel: $(BZIMAGE)"

$(INITRD): guest/init harness/mkinitramfs.sh
	harness/mkinitramfs.sh guest/init $@

initramfs: deps $(INITRD)

workloads: deps
	@$(MAKE) --no-print-directory -C workloads OUT=$(abspath $(BUILD))/workloads

REPORT := $(BUILD)/analysis/autonuma-report
analysis: deps
	@$(MAKE) --no-print-directory -C analysis OUT=$(abspath $(BUILD))/analysis

boot: kernel initramfs workloads
	harness/boot.sh $(TOPO) $(RESULTS)/boot-$(TOPO) $(CMD)

run: kernel initramfs workloads analysis
	VERBOSE=$(VERBOSE) harness/boot.sh $(TOPO) $(RESULTS)/run-stream-$(TOPO) \
		$(CURDIR)/guest/balancer.sh $(BALANCE) \
		$(CURDIR)/guest/trace-workload.sh $(CURDIR)/$(PROFILE) \
		$(abspath $(BUILD))/workloads/stream $(STREAM_ARGS)
	@harness/summary.sh $(RESULTS)/run-stream-$(TOPO)
	@echo; echo "-- convergence ($(REPORT))"
	@$(REPORT) -p $(RESULTS)/run-stream-$(TOPO)/plot $(RESULTS)/run-stream-$(TOPO)/trace.dat

# One experiment (experiments/EXP.conf): every variant, REPS runs each, the
# report in results/EXP-DATE/report.md.  The default is the main job's short one.
EXP ?= short-2node
compare: kernel initramfs workloads analysis
	harness/compare.sh experiments/$(EXP).conf $(RESULTS)/$(EXP)-$$(date +%Y%m%d-%H%M%S)

# Hot-path cost: perf bench sched pipe and messaging with AutoNUMA off, lb
# and schedule(), ROUNDS interleaved rounds in one boot; results/hotpath-DATE.
hotpath: kernel initramfs
	TOPO=$(TOPO) harness/hotpath-bench.sh $(RESULTS)/hotpath-$$(date +%Y%m%d-%H%M%S)

# The load balancer placement's trigger: its passes against the NUMA domain's
# busy balances, SCHED softirqs against AutoNUMA off, busy and idle, ROUNDS
# (default 5) interleaved rounds in one boot; results/lb-trigger-DATE.
lb-trigger: kernel initramfs workloads
	TOPO=$(TOPO) harness/lb-trigger-bench.sh $(RESULTS)/lb-trigger-$$(date +%Y%m%d-%H%M%S)

# knuma_scand's TLB shootdowns per pass (stream on node 0's CPUs and
# memory: nothing migrates), ROUNDS (default 5) rounds of 10 s in one boot;
# results/scan-flushes-DATE.
scan-flushes: kernel initramfs workloads
	d=$(RESULTS)/scan-flushes-$$(date +%Y%m%d-%H%M%S); \
	harness/boot.sh $(TOPO) $$d $(CURDIR)/guest/scan-flush-rounds.sh \
		$(abspath $(BUILD))/workloads/stream $(or $(ROUNDS),5) 10 && \
	grep "^scan-flushes:" $$d/job.log

# Reliability: every scenario of tests/guest/stress-scenario.sh in both placement paths on
# the debug kernel, then noautonuma and one node; matrix in results/stress-DATE.
KMEMLEAK ?= all
STRESS_PATHS ?= both
stress: initramfs workloads analysis
	@$(MAKE) --no-print-directory CONFIG=debug kernel
	KERNEL=$(abspath $(BUILD))/obj-debug/arch/x86/boot/bzImage KMEMLEAK="$(KMEMLEAK)" \
		STRESS_PATHS="$(STRESS_PATHS)" \
		harness/stress-matrix.sh $(RESULTS)/stress-$$(date +%Y%m%d-%H%M%S) $(SCENARIOS)

# Soak on the base kernel: SOAK_SECONDS of workloads starting and ending
# while AutoNUMA is toggled, its path flipped and its knobs changed
# (tests/guest/soak.sh); results/soak-DATE.
SOAK_SECONDS ?= 1800
soak: kernel initramfs workloads
	d=$(RESULTS)/soak-$$(date +%Y%m%d-%H%M%S); \
	APPEND="$(APPEND) slub_debug=U,sched_autonuma,mm_autonuma,task_struct,mm_struct" TIMEOUT=$$(($(SOAK_SECONDS) + 600)) \
		harness/boot.sh $(TOPO) $$d env SOAK_SEED=$(SOAK_SEED) \
		$(CURDIR)/tests/guest/soak.sh $(SOAK_SECONDS) $(abspath $(BUILD))/workloads

# Write build/linux's commits pristine..HEAD back to patches/ and series/.
export-series:
	harness/export-series.sh $(SRC) series/series patches

# Every prefix of the series links a bzImage (BISECT=objects: compiles the
# objects its last patch touches, make check's subset; FROM=K: the prefixes
# from the K-th patch on).
bisect-check: deps
	harness/bisect-check.sh series/series patches $(FRAGMENTS)

# The tests: first those that need no kernel (tests/0*.t), then the rest on
# the base kernel and on the series built with CONFIG_AUTONUMA=n.
HOST_TESTS   := $(wildcard tests/0*.t)
KERNEL_TESTS := $(filter-out $(HOST_TESTS),$(wildcard tests/*.t))
check-host: deps
	prove --timer -v $(HOST_TESTS)

check: check-host
	@$(MAKE) --no-print-directory kernel initramfs workloads analysis
	@$(MAKE) --no-print-directory CONFIG=noautonuma kernel
	@$(MAKE) --no-print-directory CONFIG=debian kernel
	@$(MAKE) --no-print-directory bisect-check BISECT=objects
	prove --timer -v $(KERNEL_TESTS)

clean:
	rm -rf $(BUILD)

.PHONY: all deps source kernel initramfs workloads analysis boot run compare hotpath lb-trigger scan-flushes stress soak \
	export-series bisect-check check-host check clean
