# rqconv: convert 2.6.30 block drivers to the peek/start/fetch request API.
# See README.rst.

PYTHON	?= python3
KDIR	?=
M	?=
ARCH	?=
CROSS_COMPILE ?=
FORCE	?=
APPLY	?=
COMPAT	?=
DRAFT	?=
FAITHFUL ?=
OUT	?= out
J	?=
EVOLUTIONS ?=
DEVSET_JSON ?=

RQCONV	= $(PYTHON) scripts/convert.py --out $(OUT) \
	  $(if $(ARCH),--arch $(ARCH)) \
	  $(if $(filter-out undefined,$(origin CROSS_COMPILE)),--cross-compile '$(CROSS_COMPILE)') \
	  $(if $(filter 1,$(FORCE)),--force) $(if $(J),-j $(J)) \
	  $(if $(filter 1,$(DRAFT)),--draft) $(if $(filter 0,$(FAITHFUL)),--no-faithful) \
	  $(if $(EVOLUTIONS),--evolutions '$(EVOLUTIONS)')

.PHONY: all convert report check deps bench isos help series buildtest boottest devset devset-fetch

all: help

help:
	@echo "make convert [KDIR=tree | M=driver-dir [KDIR=tree] [APPLY=1] [COMPAT=1]]"
	@echo "                                                   convert (no KDIR/M: the bundled example)"
	@echo "  DRAFT=1                                          also OUT/draft.patch: likely conversion of what is left"
	@echo "  FAITHFUL=0                                       leave a driver the rules leave (default: convert it faithfully)"
	@echo "  EVOLUTIONS=dequeue                               for 2.6.30 + rqconv's core patch (default: KDIR decides;"
	@echo "                                                   M= without KDIR: released 2.6.31, every evolution)"
	@echo "  EVOLUTIONS=dequeue,accessors                     also the 2.6.31 request accessors"
	@echo "  EVOLUTIONS=dequeue,accessors,logical_block_size  also blk_queue_hardsect_size() -> _logical_block_size()"
	@echo "make report KDIR=tree                              list what is left, change nothing"
	@echo "make check                                         run the tests"
	@echo "make bench [KDIR=tree | M=driver-dir]             each stage against its floor"
	@echo "make isos                                          recompute the isomorphisms each rule never uses (cocci/isos.unused)"
	@echo "make series KDIR=tree                              the converted branch as a patch series"
	@echo "make buildtest KDIR=tree                           compile-test touched files, each on its arch"
	@echo "make boottest KDIR=tree                            boot baseline and converted kernels in qemu"
	@echo "make devset-fetch                                  copy the development set's drivers (tests/devset)"
	@echo "make devset [DEVSET_JSON=file]                     convert each of them, print what is left and why"

deps:
	@sh scripts/install-deps.sh

convert: deps
ifneq ($(M),)
	@$(RQCONV) --module '$(M)' $(if $(KDIR),--kdir '$(KDIR)') \
	  $(if $(filter 1,$(APPLY)),--apply) $(if $(filter 1,$(COMPAT)),--compat)
else ifneq ($(KDIR),)
	@$(RQCONV) --kdir '$(KDIR)'
else
	@echo "rqconv: no KDIR or M given: converting the bundled example, examples/ramdisk (M= without KDIR)"
	@$(RQCONV) --module examples/ramdisk
endif

report: deps
	@$(RQCONV) --report-only --kdir '$(KDIR)'

check: deps
	@$(PYTHON) tests/run_all.py

bench: deps
	@$(PYTHON) scripts/bench.py $(if $(KDIR),--kdir '$(KDIR)') $(if $(M),--module '$(M)') $(if $(ARCH),--arch $(ARCH))

isos: deps
	@$(PYTHON) scripts/unused_isos.py

series: deps
	@$(PYTHON) scripts/series.py --kdir '$(KDIR)' --out $(OUT) \
	  $(if $(ARCH),--arch $(ARCH)) \
	  $(if $(filter-out undefined,$(origin CROSS_COMPILE)),--cross-compile '$(CROSS_COMPILE)')

buildtest: deps
	@sh scripts/install-deps.sh $$($(PYTHON) scripts/buildtest.py --packages)
	@$(PYTHON) scripts/buildtest.py --kdir '$(KDIR)' --out $(OUT)

boottest: deps
	@sh scripts/install-deps.sh busybox-static qemu-system-x86 libc6-dev
	@$(PYTHON) scripts/boottest.py --kdir '$(KDIR)' --out $(OUT) \
	  $(if $(BASE_KDIR),--base-kdir '$(BASE_KDIR)')

devset-fetch:
	@$(PYTHON) scripts/devset.py fetch

devset: deps
	@$(PYTHON) scripts/devset.py run --out '$(OUT)/devset' \
	  $(if $(DEVSET_JSON),--json '$(DEVSET_JSON)') $(if $(J),-j $(J))
