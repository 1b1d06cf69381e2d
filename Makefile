# gridlab - grid-level parallelism experiments on NVIDIA GPUs.
# `make help` lists every target. Adding an experiment takes one file:
#   src/nested/<name>.cu   relocatable device code, device-linked with cudadevrt
#   src/streams/<name>.cu  whole-program CUDA
#   src/omp/<name>.cu|.c   built and linked with OpenMP
include Makefile.inc

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

# ---- what there is to build --------------------------------------------------
CORE_C     := $(wildcard src/core/*.c)
CORE_CU    := $(wildcard src/core/*.cu)
NESTED     := $(basename $(notdir $(wildcard src/nested/*.cu)))
STREAMS    := $(basename $(notdir $(wildcard src/streams/*.cu)))
OMP        := $(basename $(notdir $(wildcard src/omp/*.cu src/omp/*.c)))
EXPERIMENTS := $(NESTED) $(STREAMS) $(OMP)
BINS       := $(addprefix $(BUILD)/bin/,$(EXPERIMENTS))
UNIT_TESTS := $(addprefix $(BUILD)/tests/,$(basename $(notdir $(wildcard tests/unit/test_*.c))))

LIB_HOST := $(BUILD)/lib/libgridlab_host.a
LIB_CUDA := $(BUILD)/lib/libgridlab_cuda.a
STAMP    := $(BUILD)/flags.stamp

# ---- a flags stamp: changing flags or the architecture rebuilds everything ----
FLAGS_SIG := $(NVCC) $(NVCCFLAGS) | $(CC) $(CFLAGS) | $(CPPFLAGS) | $(OMPFLAGS) | $(LDLIBS)
$(STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(FLAGS_SIG)' | cmp -s - $@ || echo '$(FLAGS_SIG)' > $@
FORCE:

# ---- compile rules ------------------------------------------------------------
$(BUILD)/obj/%.o: src/%.c $(STAMP)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -I$(CUDA_HOME)/include -MMD -MP -MF $(@:.o=.d) -c $< -o $@

# Nested experiments: relocatable device code, so device code can launch kernels.
$(BUILD)/obj/nested/%.o: src/nested/%.cu $(STAMP)
	$(call msg,NVCC-RDC,$<)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -rdc=true -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(BUILD)/obj/omp/%.o: src/omp/%.cu $(STAMP)
	$(call msg,NVCC,$<)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -Xcompiler $(OMPFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(BUILD)/obj/omp/%.o: src/omp/%.c $(STAMP)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(OMPFLAGS) -I$(CUDA_HOME)/include -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(BUILD)/obj/%.o: src/%.cu $(STAMP)
	$(call msg,NVCC,$<)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

# The device link step resolves device-side launches against cudadevrt.
$(BUILD)/obj/nested/%.dlink.o: $(BUILD)/obj/nested/%.o
	$(call msg,DLINK,$@)
	$(Q)$(NVCC) $(NVCCFLAGS) -dlink $< -o $@ -lcudadevrt

# ---- the shared module ----------------------------------------------------------
$(LIB_HOST): $(patsubst src/%.c,$(BUILD)/obj/%.o,$(CORE_C))
	$(call msg,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIB_CUDA): $(patsubst src/%.cu,$(BUILD)/obj/%.o,$(CORE_CU))
	$(call msg,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

# ---- experiments ----------------------------------------------------------------
$(addprefix $(BUILD)/bin/,$(NESTED)): $(BUILD)/bin/%: $(BUILD)/obj/nested/%.o $(BUILD)/obj/nested/%.dlink.o $(LIB_CUDA) $(LIB_HOST)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(NVCCFLAGS) $^ -o $@ -lcudadevrt $(LDLIBS)

$(addprefix $(BUILD)/bin/,$(STREAMS)): $(BUILD)/bin/%: $(BUILD)/obj/streams/%.o $(LIB_CUDA) $(LIB_HOST)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(NVCCFLAGS) $^ -o $@ $(LDLIBS)

$(addprefix $(BUILD)/bin/,$(OMP)): $(BUILD)/bin/%: $(BUILD)/obj/omp/%.o $(LIB_CUDA) $(LIB_HOST)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(NVCCFLAGS) -Xcompiler $(OMPFLAGS) $^ -o $@ -lgomp $(LDLIBS)

# ---- host unit tests (no GPU, no CUDA runtime) --------------------------------------
$(BUILD)/tests/%: tests/unit/%.c tests/unit/harness.h $(LIB_HOST) $(STAMP)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -MMD -MP -MF $@.d $< $(LIB_HOST) -lm -o $@

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- targets ------------------------------------------------------------------------
.PHONY: all help test test-gpu test-unit test-cli clean sanitize-all sweep-connections FORCE \
        $(addprefix run-,$(EXPERIMENTS)) $(addprefix profile-,$(EXPERIMENTS)) $(addprefix sanitize-,$(EXPERIMENTS))

all: $(BINS) $(UNIT_TESTS)

$(addprefix run-,$(EXPERIMENTS)): run-%: $(BUILD)/bin/%
	$(BUILD)/bin/$* $(ARGS)

$(addprefix profile-,$(EXPERIMENTS)): profile-%: $(BUILD)/bin/%
	@command -v $(NSYS) >/dev/null 2>&1 || { echo "error: Nsight Systems not found ('$(NSYS)'): install it or run make $@ NSYS=/path/to/nsys" >&2; exit 2; }
	@mkdir -p $(BUILD)/profiles
	$(NSYS) profile --trace=cuda,nvtx,osrt --force-overwrite=true -o $(BUILD)/profiles/$* $(BUILD)/bin/$* $(ARGS)
	@echo "report: $(BUILD)/profiles/$*.nsys-rep  (open it in Nsight Systems, or: $(NSYS) stats $(BUILD)/profiles/$*.nsys-rep)"

# Sanitizers serialize kernels, so timing claims are reported but not enforced there.
SANITIZE_ARGS ?= --quick --skip-timing-claims
$(addprefix sanitize-,$(EXPERIMENTS)): sanitize-%: $(BUILD)/bin/%
	@SANITIZER=$(SANITIZER) bash tests/sanitize.sh $(BUILD)/bin/$* $(SANITIZE_ARGS) $(ARGS)

# Every experiment, even after one fails, then one line per experiment and tool.
sanitize-all: $(BINS)
	@status=0; for e in $(EXPERIMENTS); do \
	  SANITIZER=$(SANITIZER) bash tests/sanitize.sh $(BUILD)/bin/$$e $(SANITIZE_ARGS) > $(BUILD)/sanitize-$$e.log 2>&1 || status=1; \
	  cat $(BUILD)/sanitize-$$e.log; \
	done; echo; grep -h "^sanitize " $(foreach e,$(EXPERIMENTS),$(BUILD)/sanitize-$(e).log); exit $$status

test-unit: $(UNIT_TESTS)
	@bash tests/run.sh unit

test-cli: $(BINS)
	@bash tests/run.sh cli

test-gpu: $(BINS)
	@bash tests/run.sh gpu

# The one command CI and newcomers run: build everything, run the unit and
# command-line tests, and the GPU suite when a GPU is present.
test: all
	@bash tests/run.sh all

sweep-connections: $(BUILD)/bin/false-dependency
	@bash experiments/connections-sweep.sh $(ARGS)

clean:
	rm -rf $(BUILD)

help:
	@echo "gridlab make targets (CUDA_ARCH=$(CUDA_ARCH), $(CUDA_ARCH_ORIGIN); BUILD=$(BUILD))"
	@echo "  all                        build every experiment and the unit tests"
	@echo "  test                       build all, run unit + command-line tests, and the GPU suite if a GPU is present"
	@echo "  test-unit                  host unit tests only (no GPU needed)"
	@echo "  test-cli                   command-line tests of every binary (no GPU needed)"
	@echo "  test-gpu                   every experiment in --quick mode, plus GPU-only cases"
	@echo "  sanitize-all               compute-sanitizer memcheck, racecheck and synccheck on every experiment"
	@echo "  sweep-connections          false-dependency for CUDA_DEVICE_MAX_CONNECTIONS = 1 2 4 8 16 32, one table"
	@echo "  clean                      remove $(BUILD)/"
	@for e in $(EXPERIMENTS); do \
	  q=$$(sed -n 's/^ \* Question: *//p' src/*/$$e.c* | head -n 1); \
	  printf '  %-26s %s\n' "run-$$e" "$$q (ARGS=\"...\" passes options; ARGS=--help lists them)"; \
	  printf '  %-26s %s\n' "profile-$$e" "run under nsys into $(BUILD)/profiles/$$e.nsys-rep (NSYS=path overrides)"; \
	  printf '  %-26s %s\n' "sanitize-$$e" "compute-sanitizer memcheck, racecheck, synccheck on a --quick run"; \
	done
	@echo "variables: CUDA_ARCH=NN  BUILD=dir  DEBUG=1  V=1  ARGS=\"...\"  NSYS=path  SANITIZER=path"
