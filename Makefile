# gridlab - grid-level parallelism experiments on NVIDIA GPUs.
# `make help` lists every target. Adding an experiment takes one file,
# src/<family>/<name>.cu (or .c), whose header comment declares what it needs
# to build in one line (the folder alone decides nothing):
#    * Build: rdc openmp per-thread cub
#   rdc         relocatable device code, device-linked with cudadevrt (device-side launches)
#   openmp      compiled and linked with OpenMP
#   per-thread  --default-stream per-thread (the per-thread default stream replaces the legacy one)
#   cub         CUB from the CUDA Toolkit (CCCL headers)
#   none        nothing beyond the defaults
# Two more header lines are read the same way: " * Question: ..." (its line in
# make help) and " * Sanitize: ..." (its options under make sanitize-<name>).
# A build variant, the same source compiled a second time with other needs or
# defines, has no file of its own: it is declared below, under "build
# variants", with the fields a header would give.
include Makefile.inc

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

# ---- build variants: a second binary from an experiment's source ---------------------
# Declared here rather than in a wrapper file that #defines a macro and
# #includes the source, so that a variant's flags sit beside its name. A
# variant NAME is added to VARIANTS and given one line per field (no '#' in a
# value; experiments/sanitize.sh reads NAME.sanitize from here):
#   NAME.from      the experiment source it is compiled from
#   NAME.needs     its Build: needs, in full (the source's own line is not read)
#   NAME.defines   macros defined on its compile line (-D), by which the source tells the builds apart
#   NAME.sanitize  its Sanitize: options
#   NAME.question  its Question: line in make help
# It gets every target an experiment gets: run-, profile-, sanitize-, its
# lines in make help (beside its source's), and a place in sanitize-all.
VARIANTS :=

# Stream 0 means the calling thread's per-thread stream, which synchronizes
# with the legacy stream only: the "blocking" variant's kernel_3 is no barrier
# (in Nsight Systems it sits on the per-thread stream's row, beside kernel_1 of
# the others).
VARIANTS                           += default-stream-per-thread
default-stream-per-thread.from     := src/streams/default-stream.cu
default-stream-per-thread.needs    := per-thread
default-stream-per-thread.defines  := DS_PER_THREAD_BUILD=1
default-stream-per-thread.sanitize := --quick --profile --kernel-us 20 --skip-timing-claims
default-stream-per-thread.question := built with --default-stream per-thread, does a kernel on stream 0 still act as a barrier across blocking streams?

# Stream 0 and every call that takes no stream (cudaMemcpy, cudaMemset) mean
# the calling thread's per-thread stream: the implicit calls are measured
# again on that stream.
VARIANTS                          += implicit-sync-per-thread
implicit-sync-per-thread.from     := src/streams/implicit-sync.cu
implicit-sync-per-thread.needs    := per-thread
implicit-sync-per-thread.defines  := DS_PER_THREAD_BUILD=1
implicit-sync-per-thread.sanitize := --quick --profile --kernel-us 50 --skip-timing-claims
implicit-sync-per-thread.question := built with --default-stream per-thread, which ordinary calls between launches serialize the other streams?

# ---- what there is to build --------------------------------------------------
CORE_C      := $(wildcard src/core/*.c)
CORE_CU     := $(wildcard src/core/*.cu)
EXP_SRCS    := $(filter-out src/core/% src/replay/%,$(wildcard src/*/*.cu src/*/*.c))
REPLAY_SRCS := $(wildcard src/replay/*.c)
REPLAY      := $(BUILD)/bin/replay
# Each source's experiment, then the variants built from it.
variants_of  = $(foreach v,$(VARIANTS),$(if $(filter $(1),$($(v).from)),$(v)))
EXPERIMENTS := $(foreach s,$(EXP_SRCS),$(basename $(notdir $(s))) $(call variants_of,$(s)))
FAMILIES    := $(sort $(patsubst src/%/,%,$(dir $(EXP_SRCS))))
BINS        := $(addprefix $(BUILD)/bin/,$(EXPERIMENTS))
UNIT_TESTS  := $(addprefix $(BUILD)/tests/,$(basename $(notdir $(wildcard tests/unit/test_*.c))))
GPU_TESTS   := $(addprefix $(BUILD)/tests/gpu/,$(basename $(notdir $(wildcard tests/gpu/test_*.cu))))

ifneq ($(words $(EXPERIMENTS)),$(words $(sort $(EXPERIMENTS))))
$(error two experiments share a name: $(EXPERIMENTS))
endif
$(foreach v,$(VARIANTS),$(if $(filter $($(v).from),$(EXP_SRCS)),,$(error variant $(v): $(v).from '$($(v).from)' is not an experiment source (one of: $(EXP_SRCS)))))

LIB_HOST := $(BUILD)/lib/libgridlab_host.a
LIB_CUDA := $(BUILD)/lib/libgridlab_cuda.a
STAMP    := $(BUILD)/flags.stamp

# ---- what each build need adds: compile flags, and link flags ----------------------
KNOWN_NEEDS := rdc openmp per-thread cub none
need_nvflags_rdc        := -rdc=true
need_nvflags_openmp     := -Xcompiler $(OMPFLAGS)
need_nvflags_per-thread := --default-stream per-thread
need_nvflags_cub        := -I$(CUDA_HOME)/include/cccl
need_ccflags_openmp     := $(OMPFLAGS)
need_libs_rdc           := -lcudadevrt
need_libs_openmp        := -Xcompiler $(OMPFLAGS) -lgomp
NEEDS_SIG := $(foreach w,$(KNOWN_NEEDS),$(w)=[$(need_nvflags_$(w))/$(need_ccflags_$(w))/$(need_libs_$(w))])
# A variant's build lives in this file, not in a source that make watches.
VARIANTS_SIG := $(foreach v,$(VARIANTS),$(v)=[$($(v).from)/$($(v).needs)/$($(v).defines)])

# ---- a flags stamp: changing flags, the architecture, nvcc, a need or a variant rebuilds everything
FLAGS_SIG := $(NVCC_VERSION) | $(NVCC) $(NVCCFLAGS) | $(CC) $(CFLAGS) | $(CPPFLAGS) | $(LDLIBS) | $(NEEDS_SIG) | $(VARIANTS_SIG)
$(STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(FLAGS_SIG)' | cmp -s - $@ || echo '$(FLAGS_SIG)' > $@
FORCE:

# ---- the shared module ----------------------------------------------------------
$(BUILD)/obj/core/%.o: src/core/%.c $(STAMP)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -I$(CUDA_HOME)/include -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(BUILD)/obj/core/%.o: src/core/%.cu $(STAMP)
	$(call msg,NVCC,$<)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(LIB_HOST): $(patsubst src/core/%.c,$(BUILD)/obj/core/%.o,$(CORE_C))
	$(call msg,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIB_CUDA): $(patsubst src/core/%.cu,$(BUILD)/obj/core/%.o,$(CORE_CU))
	$(call msg,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

# ---- experiments: rules made from each one's "Build:" line or variant declaration ------
# One header line of a source, e.g. $(call header_line,Build,src/x/y.cu).
header_line = $(shell sed -n 's/^ \* $(1): *//p' $(2) | head -n 1)

# An experiment with a source of its own gets the fields a variant declares
# from its header comment (Question: and Sanitize: only when used: help and sanitize).
# $(1) = experiment name, $(2) = its source file
define FROM_SOURCE
$(1).from    := $(2)
$(1).needs   := $$(call header_line,Build,$(2))
$(1).defines :=
$(1).question = $$(call header_line,Question,$(2))
$(1).sanitize = $$(call header_line,Sanitize,$(2))
$(1).origin  := $(2): its header comment's " * Build: ..." line
endef
$(foreach s,$(EXP_SRCS),$(eval $(call FROM_SOURCE,$(basename $(notdir $(s))),$(s))))
$(foreach v,$(VARIANTS),$(eval $(v).origin := variant $(v): its $(v).needs (Makefile)))

# $(1) = experiment name; its source is $($(1).from)
define EXPERIMENT
$$(if $$($(1).needs),,$$(error $$($(1).origin) is missing (one or more of: $(KNOWN_NEEDS))))
$$(foreach w,$$($(1).needs),$$(if $$(filter $$(w),$(KNOWN_NEEDS)),,$$(error $$($(1).origin): unknown build need '$$(w)'; known: $(KNOWN_NEEDS))))
$$(if $$(and $$(filter none,$$($(1).needs)),$$(filter-out none,$$($(1).needs))),$$(error $$($(1).origin): "none" cannot be combined with other build needs))
$(1)_defs := $$(addprefix -D,$$($(1).defines))
$(1)_nvflags := $$(strip $$(foreach w,$$($(1).needs),$$(need_nvflags_$$(w))) $$($(1)_defs))
$(1)_ccflags := $$(strip $$(foreach w,$$($(1).needs),$$(need_ccflags_$$(w))) $$($(1)_defs))
$(1)_libs := $$(foreach w,$$($(1).needs),$$(need_libs_$$(w)))
$(1)_dlink := $$(if $$(filter rdc,$$($(1).needs)),$(BUILD)/obj/exp/$(1).dlink.o)

$(BUILD)/obj/exp/$(1).o: $($(1).from) $(STAMP)
	$$(call msg,$$(if $$(filter %.c,$$<),CC,NVCC),$$<$$(if $$($(1)_defs), $$($(1)_defs)) [$$($(1).needs)])
	@mkdir -p $$(@D)
	$$(Q)$$(if $$(filter %.c,$$<),$$(CC) $$(CPPFLAGS) $$(CFLAGS) $$($(1)_ccflags) -I$$(CUDA_HOME)/include,$$(NVCC) $$(CPPFLAGS) $$(NVCCFLAGS) $$($(1)_nvflags)) -MMD -MP -MF $$(@:.o=.d) -c $$< -o $$@

# The device link step resolves device-side launches against cudadevrt.
$(BUILD)/obj/exp/$(1).dlink.o: $(BUILD)/obj/exp/$(1).o
	$$(call msg,DLINK,$$@)
	$$(Q)$$(NVCC) $$(NVCCFLAGS) -dlink $$< -o $$@ -lcudadevrt

$(BUILD)/bin/$(1): $(BUILD)/obj/exp/$(1).o $$($(1)_dlink) $(LIB_CUDA) $(LIB_HOST)
	$$(call msg,LINK,$$@)
	@mkdir -p $$(@D)
	$$(Q)$$(NVCC) $$(NVCCFLAGS) $$^ -o $$@ $$($(1)_libs) $$(LDLIBS)
endef
$(foreach e,$(EXPERIMENTS),$(eval $(call EXPERIMENT,$(e))))

# ---- replay: a trace on the model (no GPU, no CUDA runtime); SQLite by its soname, since
# the GPU machine has libsqlite3.so.0 and no headers (src/replay/sqlite_api.h) -----------
$(BUILD)/obj/replay/%.o: src/replay/%.c $(STAMP)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(REPLAY): $(patsubst src/replay/%.c,$(BUILD)/obj/replay/%.o,$(REPLAY_SRCS)) $(LIB_HOST)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ -l:libsqlite3.so.0 -lm

# ---- host unit tests (no GPU, no CUDA runtime) --------------------------------------
$(BUILD)/tests/test_replay_fit: tests/unit/test_replay_fit.c tests/unit/harness.h $(BUILD)/obj/replay/fit.o $(LIB_HOST) $(STAMP)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -Itests/unit -Isrc/replay -MMD -MP -MF $@.d $< $(BUILD)/obj/replay/fit.o $(LIB_HOST) -lm -o $@

# the import's call-level rules; import.o reads SQLite, so the test links the library as the replay does
REPLAY_LIB_OBJS := $(patsubst src/replay/%.c,$(BUILD)/obj/replay/%.o,$(filter-out src/replay/replay.c,$(REPLAY_SRCS)))
$(BUILD)/tests/test_replay_import: tests/unit/test_replay_import.c tests/unit/harness.h $(REPLAY_LIB_OBJS) $(LIB_HOST) $(STAMP)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -Itests/unit -Isrc/replay -MMD -MP -MF $@.d $< $(REPLAY_LIB_OBJS) $(LIB_HOST) -l:libsqlite3.so.0 -lm -o $@

$(BUILD)/tests/%: tests/unit/%.c tests/unit/harness.h $(LIB_HOST) $(STAMP)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -MMD -MP -MF $@.d $< $(LIB_HOST) -lm -o $@

# ---- core tests that need a GPU (built everywhere, run by the GPU suite) -------------
$(BUILD)/tests/gpu/%: tests/gpu/%.cu tests/unit/harness.h $(LIB_CUDA) $(LIB_HOST) $(STAMP)
	$(call msg,NVCC,$<)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -Itests/unit -MMD -MP -MF $@.d $< $(LIB_CUDA) $(LIB_HOST) -o $@ $(LDLIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
# A dependency file may name a source that is gone (an experiment renamed, or
# turned into a build variant): that object is then rebuilt from what its rule
# names now, instead of make stopping at "no rule to make" the old source.
src/%.cu src/%.c: ;

# ---- targets ------------------------------------------------------------------------
.PHONY: all help test test-gpu test-gpu-large test-unit test-cli clean sanitize-all sweep-connections sweep-hyperq validate-model replay bench-replay validate-replay FORCE \
        $(addprefix run-,$(EXPERIMENTS)) $(addprefix profile-,$(EXPERIMENTS)) $(addprefix sanitize-,$(EXPERIMENTS))

all: $(BINS) $(REPLAY) $(UNIT_TESTS) $(GPU_TESTS)

# ---- the last line of a run: the program's own exit code ------------------------------
# make exits 2 whenever a recipe fails, whatever the program said, so every
# target that runs an experiment ends with a line that gives the program's exit
# code and what it means (src/core/gl_common.h, the README's table), e.g.
#   make run-false-dependency: exit 77 (skipped: no suitable GPU)
# (after a failure make's own "*** [...] Error N" follows it, on stderr).
# Each recipe line of these targets runs inside a shell that prints that line
# when the recipe line ends, so each of their recipes must stay ONE line (a
# second line would print a second verdict). "private": what is built on the
# way keeps the plain shell.
exit_meaning = case $$rc in 0) w="ok";; 1) w="a check or claim failed";; 2) w="usage error";; 3) w="CUDA error";; \
  4) w="out of host memory";; 5) w="a result file could not be written";; 6) w="internal error (a bug)";; \
  77) w="skipped: no suitable GPU";; *) if [ $$rc -gt 128 ]; then w="killed by signal $$((rc - 128))"; \
  else w="not a gridlab exit code"; fi;; esac
VERDICT_TARGETS := $(addprefix run-,$(EXPERIMENTS)) $(addprefix profile-,$(EXPERIMENTS)) sweep-connections sweep-hyperq \
                   validate-model
$(VERDICT_TARGETS): private .SHELLFLAGS = -c '$(SHELL) -c "$$0"; rc=$$?; $(exit_meaning); echo "make $@: exit $$rc ($$w)"; exit $$rc'

$(addprefix run-,$(EXPERIMENTS)): run-%: $(BUILD)/bin/%
	$(BUILD)/bin/$* $(ARGS)

# Checked when make reads this file, so that a missing nsys stops before anything is built.
ifneq ($(filter profile-%,$(MAKECMDGOALS)),)
ifeq ($(shell command -v $(NSYS) 2>/dev/null),)
$(error Nsight Systems not found ('$(NSYS)'): install it or run make $(filter profile-%,$(MAKECMDGOALS)) NSYS=/path/to/nsys)
endif
endif

# --profile: one run of each configuration, no warm-up or repeats, so the report shows one clean instance of each.
# One line (see the verdict above); a report left from an earlier run is removed first, so that only a new one is named.
$(addprefix profile-,$(EXPERIMENTS)): profile-%: $(BUILD)/bin/% | $(BUILD)/profiles
	@rm -f $(BUILD)/profiles/$*.nsys-rep; rc=0; \
	$(NSYS) profile --trace=cuda,nvtx,osrt --force-overwrite=true -o $(BUILD)/profiles/$* $(BUILD)/bin/$* --profile $(ARGS) || rc=$$?; \
	if [ -f $(BUILD)/profiles/$*.nsys-rep ]; then echo "report: $(BUILD)/profiles/$*.nsys-rep  (open it in Nsight Systems, or: $(NSYS) stats $(BUILD)/profiles/$*.nsys-rep)"; fi; \
	exit $$rc
$(BUILD)/profiles $(BUILD)/sweep:
	@mkdir -p $@

# Each experiment runs in its tool-sized configuration, the " * Sanitize: ..."
# line of its header or a variant's NAME.sanitize (every kernel and variant
# once, small inputs, timing claims SKIP: sanitizers serialize kernels);
# SANITIZE_ARGS or ARGS replace it. make passes it, so that make -n shows it.
# $(1) = experiment, $(2) = the options that replace its configuration
sanitize_args = $(or $(strip $(2)),$($(1).sanitize))
SANITIZE_ARGS ?=
$(addprefix sanitize-,$(EXPERIMENTS)): sanitize-%: $(BUILD)/bin/%
	@SANITIZER=$(SANITIZER) bash experiments/sanitize.sh $(BUILD)/bin/$* $(call sanitize_args,$*,$(SANITIZE_ARGS) $(ARGS))

# Every experiment, even after one fails, then one line per experiment and tool.
sanitize_one = SANITIZER=$(SANITIZER) bash experiments/sanitize.sh $(BUILD)/bin/$(1) $(call sanitize_args,$(1),$(SANITIZE_ARGS)) \
  > $(BUILD)/sanitize-$(1).log 2>&1 || status=1; cat $(BUILD)/sanitize-$(1).log;
sanitize-all: $(BINS)
	@status=0; start=$$(date +%s); $(foreach e,$(EXPERIMENTS),$(call sanitize_one,$(e))) \
	echo; grep -h "^sanitize " $(foreach e,$(EXPERIMENTS),$(BUILD)/sanitize-$(e).log); \
	echo "sanitize-all: $(words $(EXPERIMENTS)) experiments, 3 tools each, in $$(( $$(date +%s) - start )) s"; exit $$status

test-unit: $(UNIT_TESTS)
	@bash tests/run.sh unit

test-cli: $(BINS)
	@bash tests/run.sh cli

test-gpu: $(BINS) $(GPU_TESTS)
	@bash tests/run.sh gpu

# The Done-means sizes that take minutes (hash tables at 2^26 keys); not part of test.
test-gpu-large: $(BINS)
	@bash tests/gpu-large.sh

# The one command CI and newcomers run: build everything, run the unit and
# command-line tests, and the GPU suite when a GPU is present.
test: all
	@bash tests/run.sh all

# One process per CUDA_DEVICE_MAX_CONNECTIONS value (the driver reads it once),
# merged by the experiment itself into one table, CSV and JSON.
CONNECTIONS ?= 1,2,4,8,16,32
sweep-connections: $(BUILD)/bin/false-dependency
	$(BUILD)/bin/false-dependency --connections $(CONNECTIONS) $(ARGS)

# hyperq once per C; the merged results and the plot go to experiments/results/<gpu>/.
# A failed claim still records the results (and the exit status says so).
sweep-hyperq: $(BUILD)/bin/hyperq | $(BUILD)/sweep
	@rm -f $(BUILD)/sweep/hyperq.json $(BUILD)/sweep/hyperq.csv; \
	rc=0; $(BUILD)/bin/hyperq --connections $(CONNECTIONS) --json $(BUILD)/sweep/hyperq.json \
	  --csv $(BUILD)/sweep/hyperq.csv $(ARGS) || rc=$$?; \
	if [ -f $(BUILD)/sweep/hyperq.json ]; then \
	  $(PYTHON) experiments/plot-hyperq.py $(BUILD)/sweep/hyperq.json --csv $(BUILD)/sweep/hyperq.csv || rc=$$?; fi; \
	exit $$rc

# The scheduling model on random shapes (seeded); results under experiments/results/<gpu>/.
# make replay TRACE=run.sqlite [ARGS="--connections 1,8"]: a recorded program on the model at each C.
replay: $(REPLAY)
	@[ -n "$(TRACE)" ] || { echo "make replay: give the trace: make replay TRACE=run.sqlite (nsys export --type sqlite makes one)" >&2; exit 2; }
	$(REPLAY) $(TRACE) $(ARGS)

# The replay against recordings at every C (GPU and nsys: source shared/device/nsys-env.sh first). SAMPLES_BIN: a
# folder with NVIDIA's cuda-samples simpleHyperQ, simpleStreams, asyncAPI and simpleCallback built (not in gridlab;
# simpleHyperQ also under eager loading); gridlab's own stream experiments are recorded too, and 40 random programs
# of event-programs (copies, host functions, priorities, legacy-stream work, 1..8 host threads) in one process per
# recording, each its own program by its NVTX range; each configuration of gridlab's experiments is a program of
# its own too (by its NVTX range). RECORDINGS: where the exports go (default build/recordings).
RECORDINGS ?= $(BUILD)/recordings
REPLAY_PROGRAMS = copy-overlap callbacks priorities false-dependency event-programs
# A PyTorch job (experiments/torch-job.py; its calls are PyTorch's) where $(PYTHON) has torch: asked only when
# validate-replay runs (importing torch takes seconds).
HAVE_TORCH = $(shell $(PYTHON) -c 'import torch' >/dev/null 2>&1 && echo 1)
validate-replay: $(REPLAY) $(foreach e,$(REPLAY_PROGRAMS),$(BUILD)/bin/$(e))
	$(PYTHON) experiments/validate-replay.py --bin $(REPLAY) --record $(RECORDINGS) --repeats 4 \
	    --program "copy-overlap=$(BUILD)/bin/copy-overlap --quick --memory pinned --segments 1,4" \
	    --program "callbacks=$(BUILD)/bin/callbacks --quick --profile" \
	    --program "priorities=$(BUILD)/bin/priorities --quick --profile" \
	    --program "false-dependency=$(BUILD)/bin/false-dependency --quick --profile" \
	    --program "random=$(BUILD)/bin/event-programs --population copies --programs 40 --host-threads 8 --profile" \
	    --split "random=random " --split "callbacks=" --split "priorities=" --split "false-dependency=" \
	    --split "copy-overlap=" \
	    $(foreach s,simpleHyperQ simpleStreams asyncAPI simpleCallback simpleCudaGraphs,$(if $(SAMPLES_BIN),--program "$(s)=$(SAMPLES_BIN)/$(s)")) \
	    $(if $(SAMPLES_BIN),--program "simpleHyperQ-eager=CUDA_MODULE_LOADING=EAGER $(SAMPLES_BIN)/simpleHyperQ") \
	    $(if $(HAVE_TORCH),--program "torch=$(PYTHON) experiments/torch-job.py" --split "torch=torch ",$(info validate-replay: no PyTorch job: $(PYTHON) cannot import torch)) \
	    $(ARGS)

# The replay's speed: a synthetic trace of 10^6 operations at six settings, on one core (bound: 10 s).
bench-replay: $(REPLAY)
	$(PYTHON) experiments/bench-replay.py --bin $(REPLAY) $(ARGS)

validate-model: $(BUILD)/bin/false-dependency $(BUILD)/bin/event-programs
	$(PYTHON) experiments/validate-model.py --bin $(BUILD)/bin/false-dependency --events-bin $(BUILD)/bin/event-programs $(ARGS)

clean:
	rm -rf $(BUILD)

# A target make has no rule for: a goal gets a pointer to make help instead of
# make's "No rule to make target"; a missing file that a rule needs is named as
# such. Exit 2: a usage error.
.DEFAULT:
	@$(if $(filter $@,$(MAKECMDGOALS)),echo "make: no target '$@'; make help lists every target$(if $(filter run-% profile-% sanitize-%,$@),; the experiments are: $(EXPERIMENTS))",echo "make: '$@' is missing, and no rule makes it") >&2; exit 2

# A value as one single-quoted shell word.
sh_quote = '$(subst ','\'',$(1))'
# make help's three lines for experiment $(1).
help_experiment = \
  printf '  %-26s %s (ARGS="..." passes options; ARGS=--help lists them)\n' "run-$(1)" $(call sh_quote,$($(1).question)); \
  printf '  %-26s %s\n' "profile-$(1)" "one run of each configuration under nsys, into $(BUILD)/profiles/$(1).nsys-rep (NSYS=path)"; \
  printf '  %-26s %s\n' "sanitize-$(1)" "compute-sanitizer memcheck, racecheck, synccheck on its Sanitize: configuration (built with: $($(1).needs))";

help:
	@echo "gridlab make targets (CUDA_ARCH=$(CUDA_ARCH), $(CUDA_ARCH_ORIGIN); BUILD=$(BUILD))"
	@echo "  all                        build every experiment and the unit tests"
	@echo "  test                       build all, run unit + command-line tests, and the GPU suite if a GPU is present"
	@echo "  test-unit                  host unit tests only (no GPU needed)"
	@echo "  test-cli                   command-line tests of every binary (no GPU needed)"
	@echo "  test-gpu                   every experiment in --quick mode, plus GPU-only cases"
	@echo "  test-gpu-large             every speed claim at 8 random sizes of its range, the hash tables at 2^26 keys (minutes)"
	@echo "  sanitize-all               compute-sanitizer memcheck, racecheck and synccheck on every experiment (its Sanitize: configuration)"
	@echo "  sweep-hyperq               hyperq once per C in CONNECTIONS=$(CONNECTIONS); results and plot in experiments/results/<gpu>/"
	@echo "  validate-replay            record programs under nsys at C=1..32 and judge the replay's predictions (GPU; SAMPLES_BIN=cuda-samples builds; a PyTorch job where python3 has torch)"
	@echo "  bench-replay               the replay on a synthetic trace of 10^6 operations at six settings, one core (bound 10 s)"
	@echo "  replay TRACE=x.sqlite      an nsys SQLite export of one process replayed on the model at each connection count (no GPU)"
	@echo "  validate-model             the model on 72 random shapes (false-dependency) and 72 random stream-event programs (event-programs) (ARGS=--population shapes|events|both --shapes N --programs N --seed S)"
	@echo "  sweep-connections          false-dependency once per CUDA_DEVICE_MAX_CONNECTIONS in CONNECTIONS=$(CONNECTIONS), one merged table"
	@echo "  clean                      remove $(BUILD)/"
	@$(foreach f,$(FAMILIES),echo "experiments in src/$(f):"; \
	  $(foreach e,$(EXPERIMENTS),$(if $(filter src/$(f)/%,$($(e).from)),$(call help_experiment,$(e)))))
	@echo "run-, profile- and sweep targets and validate-model end with one line: make <target>: exit <code> (<meaning>)"
	@echo "variables: CUDA_ARCH=NN  BUILD=dir  DEBUG=1  V=1  ARGS=\"...\"  NSYS=path  SANITIZER=path  CONNECTIONS=1,2,4"
