# SPDX-License-Identifier: MIT
# sidetrace: `make` builds into .output/; `make test`, `make demo`, `make bench`.
# Quiet by default; `make V=1` shows the commands.

OUTPUT := .output
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter
ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
VERSION := 0.1.0

ifeq ($(V),1)
Q :=
msg =
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# The collector includes its headers by component ("parse/ast.h"), what it
# shares with the runtime library as "common/..." and the kernel contract
# as "sidetrace.h" (bpf/); the skeleton lives in $(OUTPUT).
INCLUDES := -Iinclude -Iuserspace/sidetrace -Iuserspace -Ibpf -I$(OUTPUT)
DEPFLAGS = -MMD -MP

# A rule that fails leaves no half-written target behind.
.DELETE_ON_ERROR:

# What the collector shares with its tests beyond the collector (the SIDE type table)
COMMON_SRCS := $(wildcard userspace/common/*.c)
COMMON_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/obj/%.o,$(COMMON_SRCS))

# Runtime library
# The in-process engine's shared-memory structures, cgroup id and mappings reader are the
# collector's too.
LIB_COMMON_SRCS := $(wildcard userspace/common/shm_*.c) userspace/common/cgroup.c \
	userspace/common/numa.c \
	userspace/common/proc_maps.c
LIB_SRCS := $(wildcard userspace/lib/*.c userspace/lib/inproc/*.c) $(LIB_COMMON_SRCS)
LIB_PIC_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/lib/pic/%.o,$(LIB_SRCS))
LIB_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/lib/%.o,$(LIB_SRCS))
LIBSIDE_SO := $(OUTPUT)/libside.so
LIBSIDE_A := $(OUTPUT)/libside.a

# The console tracer (libside's): a shared library on top of libside.so.
CONSOLE_SRCS := $(wildcard userspace/console/*.c)
CONSOLE_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/lib/pic/%.o,$(CONSOLE_SRCS))
CONSOLE_SO := $(OUTPUT)/libside-console-tracer.so

# BPF programs and their skeletons
BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.bpf.o,$(BPF_SRCS))
BPF_SKELS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
# The BPF objects stay after their skeletons are made (bench reads them).
.SECONDARY: $(BPF_OBJS)

# The collector: main.c and one folder per component.
ST_SRCS := $(wildcard userspace/sidetrace/*.c userspace/sidetrace/*/*.c)
ST_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/obj/%.o,$(ST_SRCS) $(COMMON_SRCS))
ST_LIB_OBJS := $(filter-out $(OUTPUT)/obj/sidetrace/main.o,$(ST_OBJS))
# Only what includes the skeleton waits for the BPF build; the .d files
# then track it like any header.
ST_SKEL_SRCS := $(shell grep -l '"sidetrace.skel.h"' $(ST_SRCS))
ST_SKEL_USERS := $(patsubst userspace/%.c,$(OUTPUT)/obj/%.o,$(ST_SKEL_SRCS))
SIDETRACE := $(OUTPUT)/sidetrace
ST_LIBS := -lbpf -ldw -lelf -lz -lpthread
# The collector itself links them statically: the dynamic loader's lookups
# and relocations for six libraries were 1.3 ms of every start
# (docs/PERFORMANCE.md Part 9); tests and sanitizer builds keep ST_LIBS.
ST_STATIC_LIBS := -Wl,-Bstatic -lbpf -ldw -lelf -lz -llzma -lbz2 -Wl,-Bdynamic -lpthread

# Examples: one program per examples/*.c, shared libraries from examples/lib*.c
EX_LIB_SRCS := $(wildcard examples/lib*.c)
EX_SRCS := $(filter-out $(EX_LIB_SRCS),$(wildcard examples/*.c))
EXAMPLES := $(patsubst examples/%.c,$(OUTPUT)/examples/%,$(EX_SRCS))
EX_LIBS := $(patsubst examples/%.c,$(OUTPUT)/examples/%.so,$(EX_LIB_SRCS))
EX_LINK_kv_client := -lkv
# kv_client has no event of its own and libkv.so brings libside.so: with
# libside.a on its command line the linker would copy the runtime in for
# libkv.so's references, a second copy of its globals in the process.
EX_WITHOUT_SIDE_A := kv_client

# Unit tests: test_api* link the runtime, the others the collector
# components they test (all of them unless listed), so that an edit
# relinks only the tests that contain it.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(UNIT_SRCS))
UNIT_USES_test_arith :=
UNIT_USES_test_shm :=
UNIT_USES_test_parser := parse check objfile kinds events side dwarf kernel ctypes targets util
UNIT_USES_test_lang_tables := parse check objfile kinds events side dwarf kernel ctypes targets util
UNIT_USES_test_checker := parse check objfile kinds events side dwarf kernel ctypes targets util
UNIT_USES_test_compile := compile parse check objfile kinds events side dwarf kernel ctypes targets util
UNIT_USES_test_types := compile parse check objfile kinds events side dwarf kernel ctypes targets util
UNIT_USES_test_output := output parse check objfile kinds events side dwarf kernel ctypes targets util
UNIT_USES_test_records := output compile parse check objfile kinds events side dwarf kernel ctypes targets util
UNIT_USES_test_prom := output parse check objfile kinds events side dwarf kernel ctypes targets util
UNIT_USES_test_discovery := objfile kinds events side dwarf kernel ctypes targets output parse check util
UNIT_USES_test_sdt_args := objfile util
UNIT_USES_test_escape := util
UNIT_USES_test_probe_kinds := kinds
UNIT_USES_test_http_head := util
UNIT_USES_test_lazy_lib := util
UNIT_USES_test_ld_cache := targets objfile kinds events side dwarf kernel ctypes output parse check util
UNIT_USES_test_grow := util
UNIT_USES_test_thread := util
UNIT_USES_test_dwarf_inflate := objfile util
UNIT_USES_test_preproc := preproc util
UNIT_USES_test_compact_keys := bpfload inproc tracer readout session serve compile preproc parse check objfile kinds events side dwarf kernel ctypes targets output util
UNIT_USES_test_inproc_read := bpfload inproc tracer readout session serve compile preproc parse check objfile kinds events side dwarf kernel ctypes targets output util
# Under UBSan (its own source, not the objects it links): the integer
# operators take any operands (the collector divides values a process's
# engine wrote).
UNIT_CFLAGS_test_arith := -fsanitize=undefined -fno-sanitize-recover=undefined
# The collector objects test $(1) links: its components and common/.
unit_objs = $(if $(filter undefined,$(origin UNIT_USES_$(1))),$(ST_LIB_OBJS),\
	$(filter $(foreach c,$(UNIT_USES_$(1)),$(OUTPUT)/obj/sidetrace/$(c)/%),$(ST_LIB_OBJS)) \
	$(filter $(OUTPUT)/obj/common/%,$(ST_LIB_OBJS)))
# BPF harness tests: the skeleton with a hand-written configuration, no collector.
BPF_TEST_SRCS := $(wildcard tests/bpf/test_*.c)
BPF_TESTS := $(patsubst tests/bpf/test_%.c,$(OUTPUT)/tests/test_bpf_%,$(BPF_TEST_SRCS))

# C++: the example service (one program from the files of
# examples/order_service/) and the C++ unit test, built by g++ as C++11 and
# by clang++ as C++20 (the headers support both, and everything between).
CXX ?= g++
CLANGXX ?= clang++
CXXFLAGS ?= -O2 -g
EX_CXX_SRCS := $(wildcard examples/order_service/*.cpp)
EX_CXX := $(OUTPUT)/examples/order_service
UNIT_CXX_TESTS := $(OUTPUT)/tests/test_cxx $(OUTPUT)/tests/test_cxx_clang
# The tracer API's tests run against libside.so, as a tracer meets it (and
# dlopen libkv.so, which must share that one runtime).
TRACER_TESTS := $(OUTPUT)/tests/test_tracer $(OUTPUT)/tests/test_tracer_cxx

.PHONY: all deps test demo bench install uninstall clean format format-check vmlinux

all: $(LIBSIDE_SO) $(LIBSIDE_A) $(CONSOLE_SO) $(SIDETRACE) $(EXAMPLES) $(EX_LIBS) $(UNIT_TESTS) $(BPF_TESTS) \
	$(EX_CXX) $(UNIT_CXX_TESTS) $(TRACER_TESTS)

deps:
	$(Q)scripts/deps.sh

$(OUTPUT) $(OUTPUT)/examples $(OUTPUT)/tests:
	$(Q)mkdir -p $@

$(OUTPUT)/lib/pic/%.o: userspace/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(DEPFLAGS) -fPIC -fvisibility=hidden -DSIDE_BUILD_LIB $(INCLUDES) -c $< -o $@

$(OUTPUT)/lib/%.o: userspace/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(DEPFLAGS) -DSIDE_BUILD_LIB $(INCLUDES) -c $< -o $@

# The kernel's program on the host zeroes its keys on the stack per event:
# rep stos starts too slowly for a few hundred bytes (PERFORMANCE.md, Part 11).
$(OUTPUT)/lib/pic/lib/inproc/engine_prog.o $(OUTPUT)/lib/lib/inproc/engine_prog.o: \
	CFLAGS += -mstringop-strategy=vector_loop

$(LIBSIDE_SO): $(LIB_PIC_OBJS)
	$(call msg,LIB,$@)
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,libside.so.0 $^ -o $@ -lpthread
	$(Q)ln -sf libside.so $(OUTPUT)/libside.so.0

# Found next to it in the build tree and in $(PREFIX)/lib once installed.
$(CONSOLE_SO): $(CONSOLE_OBJS) $(LIBSIDE_SO)
	$(call msg,LIB,$@)
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,libside-console-tracer.so.0 $(CONSOLE_OBJS) -o $@ \
		-L$(OUTPUT) -Wl,-rpath,'$$ORIGIN' -lside
	$(Q)ln -sf libside-console-tracer.so $(OUTPUT)/libside-console-tracer.so.0

$(LIBSIDE_A): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(wildcard include/side/abi/*.h) | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -Wall -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) \
		-Ibpf -Iinclude -I/usr/include/$(shell uname -m)-linux-gnu \
		-c $< -o $@
	@# What libbpf never reads but walks at every open: the DWARF, clang's
	@# basic-block labels (two thousand symbols) and the line records'
	@# relocations (for a linker). A quarter less time to open.
	$(Q)llvm-strip -g -w -N 'LBB*' -R .rel.BTF.ext $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

$(ST_SKEL_USERS): $(BPF_SKELS)

$(OUTPUT)/obj/%.o: userspace/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(DEPFLAGS) $(INCLUDES) $(VERSION_DEF) -c $< -o $@

# --version says the Makefile's VERSION.
$(OUTPUT)/obj/sidetrace/cmd/options.o $(OUTPUT)/asan/obj/sidetrace/cmd/options.o: \
	VERSION_DEF := -DSIDETRACE_VERSION='"$(VERSION)"'

$(SIDETRACE): $(ST_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(ST_STATIC_LIBS)

# Examples link libside statically so they run from the build tree as is.
$(OUTPUT)/examples/%: examples/%.c $(LIBSIDE_A) $(EX_LIBS) | $(OUTPUT)/examples
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -Iinclude $< -o $@ \
		-L$(OUTPUT)/examples -Wl,-rpath,'$$ORIGIN' $(EX_LINK_$*) \
		$(if $(filter $*,$(EX_WITHOUT_SIDE_A)),,$(LIBSIDE_A)) -lpthread -ldl

$(OUTPUT)/examples/%.so: examples/%.c $(LIBSIDE_SO) | $(OUTPUT)/examples
	$(call msg,LIB,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -fPIC -shared -Iinclude $< -o $@ \
		-L$(OUTPUT) -Wl,-rpath,'$$ORIGIN/..' -lside

$(filter $(OUTPUT)/tests/test_api%,$(UNIT_TESTS)): $(OUTPUT)/tests/%: tests/unit/%.c $(LIBSIDE_A) | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -Iinclude -Iuserspace -Ibpf -Itests/unit $< -o $@ \
		$(LIBSIDE_A) -lpthread

.SECONDEXPANSION:
$(filter-out $(OUTPUT)/tests/test_api%,$(UNIT_TESTS)): $(OUTPUT)/tests/%: tests/unit/%.c $$(call unit_objs,$$*) | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(UNIT_CFLAGS_$*) $(LDFLAGS) $(WARN) $(DEPFLAGS) $(INCLUDES) -Itests/unit $< \
		$(filter %.o,$^) -o $@ $(ST_LIBS)

# They read their own probe site's SDT operands as discovery does.
BPF_TEST_OBJS := $(COMMON_OBJS) $(OUTPUT)/obj/sidetrace/objfile/sdt_args.o
$(BPF_TESTS): $(OUTPUT)/tests/test_bpf_%: tests/bpf/test_%.c $(BPF_SKELS) $(LIBSIDE_A) $(BPF_TEST_OBJS) | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -Iinclude -Iuserspace/sidetrace -Iuserspace -Ibpf -I$(OUTPUT) -Itests/unit $< -o $@ \
		$(BPF_TEST_OBJS) $(LIBSIDE_A) -lbpf -lelf -lpthread

$(EX_CXX): $(EX_CXX_SRCS) $(LIBSIDE_A) | $(OUTPUT)/examples
	$(call msg,CXX,$@)
	$(Q)$(CXX) -std=c++17 $(CXXFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -Iinclude $(EX_CXX_SRCS) \
		-o $@ $(LIBSIDE_A) -lpthread

$(OUTPUT)/tests/test_cxx: tests/unit/test_cxx.cpp $(LIBSIDE_A) | $(OUTPUT)/tests
	$(call msg,CXX,$@)
	$(Q)$(CXX) -std=c++11 $(CXXFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -Iinclude -Itests/unit $< \
		-o $@ $(LIBSIDE_A) -lpthread

$(OUTPUT)/tests/test_cxx_clang: tests/unit/test_cxx.cpp $(LIBSIDE_A) | $(OUTPUT)/tests
	$(call msg,CXX,$@)
	$(Q)$(CLANGXX) -std=c++20 $(CXXFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -Iinclude \
		-Itests/unit $< -o $@ $(LIBSIDE_A) -lpthread

$(OUTPUT)/tests/test_tracer: tests/unit/tracer_api.c $(LIBSIDE_SO) $(EX_LIBS) | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -Iinclude -Itests/unit $< -o $@ \
		-L$(OUTPUT) -Wl,-rpath,'$$ORIGIN/..' -lside -lpthread -ldl

$(OUTPUT)/tests/test_tracer_cxx: tests/unit/tracer_api_cxx.cpp $(LIBSIDE_SO) | $(OUTPUT)/tests
	$(call msg,CXX,$@)
	$(Q)$(CXX) -std=c++17 $(CXXFLAGS) $(LDFLAGS) $(WARN) $(DEPFLAGS) -Iinclude -Itests/unit $< \
		-o $@ -L$(OUTPUT) -Wl,-rpath,'$$ORIGIN/..' -lside -lpthread

# Fuzzers (tests/fuzz/): clang's libFuzzer with ASan and UBSan over the
# components that read outside input (program text, object files, SDT
# operands, the program an in-process engine is handed, the records it
# sends, what a process left in the memory it shares with the collector),
# built apart in $(OUTPUT)/fuzz. `make test` runs each for a
# bounded time (tests/fuzz/run.sh); `make fuzz` runs each for FUZZ_TIME
# seconds and keeps what it learns in $(OUTPUT)/fuzz/corpus.
FUZZ_TIME ?= 600
SAN_CFLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
# clang warns of designated initializers that leave fields zero; gcc does not.
SAN_WARN := $(WARN) -Wno-missing-field-initializers
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS := $(patsubst tests/fuzz/%.c,$(OUTPUT)/fuzz/%,$(FUZZ_SRCS))
FUZZ_LIB_SRCS := $(wildcard $(foreach c,util objfile kinds events side dwarf ctypes kernel targets \
	preproc parse check compile output,\
	userspace/sidetrace/$(c)/*.c)) $(COMMON_SRCS)
FUZZ_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/fuzz/obj/%.o,$(FUZZ_LIB_SRCS))

$(OUTPUT)/fuzz/obj/%.o: userspace/%.c
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(SAN_CFLAGS) -fsanitize=fuzzer-no-link $(SAN_WARN) $(DEPFLAGS) $(INCLUDES) \
		-c $< -o $@

# fuzz_inproc runs the runtime library's engine too, on programs the
# collector's code makes (inproc/inproc_prog.c), in the example's events.
FUZZ_RT_SRCS := $(filter-out $(LIB_COMMON_SRCS),$(LIB_SRCS))
FUZZ_RT_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/fuzz/rt/%.o,$(FUZZ_RT_SRCS)) \
	$(OUTPUT)/fuzz/obj/sidetrace/inproc/inproc_prog.o

$(OUTPUT)/fuzz/rt/%.o: userspace/%.c
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(SAN_CFLAGS) -fsanitize=fuzzer-no-link $(SAN_WARN) $(DEPFLAGS) -DSIDE_BUILD_LIB \
		$(INCLUDES) -c $< -o $@

$(OUTPUT)/fuzz/fuzz_inproc: FUZZ_EXTRA = $(FUZZ_RT_OBJS) -lpthread
$(OUTPUT)/fuzz/fuzz_inproc: $(FUZZ_RT_OBJS)
# fuzz_records runs it to make its seeds: the records an engine sends.
$(OUTPUT)/fuzz/fuzz_records: FUZZ_EXTRA = $(FUZZ_RT_OBJS) -lpthread
$(OUTPUT)/fuzz/fuzz_records: $(FUZZ_RT_OBJS)

# fuzz_inproc_read reads what the engine left back as the collector does:
# the collector's runtime components as an archive, of which the link takes what the
# read needs.
FUZZ_ST_RT_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/fuzz/obj/%.o,\
	$(wildcard $(foreach c,bpfload inproc tracer readout session serve,userspace/sidetrace/$(c)/*.c)))
$(filter $(patsubst userspace/%.c,$(OUTPUT)/fuzz/obj/%.o,$(ST_SKEL_SRCS)),$(FUZZ_ST_RT_OBJS)): \
	$(BPF_SKELS)
$(OUTPUT)/fuzz/runtime.a: $(FUZZ_ST_RT_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^
$(OUTPUT)/fuzz/fuzz_inproc_read: FUZZ_EXTRA = $(FUZZ_RT_OBJS) $(OUTPUT)/fuzz/runtime.a -lpthread
$(OUTPUT)/fuzz/fuzz_inproc_read: $(FUZZ_RT_OBJS) $(OUTPUT)/fuzz/runtime.a

$(FUZZERS): $(OUTPUT)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	$(call msg,FUZZER,$@)
	$(Q)$(CLANG) $(SAN_CFLAGS) -fsanitize=fuzzer $(SAN_WARN) $(DEPFLAGS) $(INCLUDES) $< \
		$(FUZZ_OBJS) $(FUZZ_EXTRA) -o $@ -lbpf -ldw -lelf -lstdc++ -lz

# The collector built with ASan and UBSan, apart in $(OUTPUT)/asan; `make
# test` and `make test-asan` run the bats and one-liner suites with it.
ASAN_OBJS := $(patsubst userspace/%.c,$(OUTPUT)/asan/obj/%.o,$(ST_SRCS) $(COMMON_SRCS))
ASAN_SIDETRACE := $(OUTPUT)/asan/sidetrace

$(patsubst userspace/%.c,$(OUTPUT)/asan/obj/%.o,$(ST_SKEL_SRCS)): $(BPF_SKELS)

$(OUTPUT)/asan/obj/%.o: userspace/%.c
	$(call msg,CC-ASAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(SAN_CFLAGS) $(SAN_WARN) $(DEPFLAGS) $(INCLUDES) $(VERSION_DEF) -c $< -o $@

$(ASAN_SIDETRACE): $(ASAN_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CLANG) $(SAN_CFLAGS) $(LDFLAGS) $^ -o $@ $(ST_LIBS)

.PHONY: fuzz-build fuzz asan test-asan
fuzz-build: $(FUZZERS)
asan: $(ASAN_SIDETRACE)

fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh --long $(FUZZ_TIME)

test-asan: deps
	$(Q)$(MAKE) --no-print-directory all asan
	$(Q)tests/asan.sh

test: deps
	$(Q)$(MAKE) --no-print-directory all fuzz-build asan
	$(Q)tests/run.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/demo.sh

bench: deps
	$(Q)bench/deps.sh
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bench/run.sh

# What install puts under $(DESTDIR)$(PREFIX), which uninstall removes.
PC_FILES := userspace/lib/libside.pc.in userspace/console/libside-console-tracer.pc.in
INSTALLED := $(wildcard include/side/*.h include/side/abi/*.h) \
	lib/libside.so.0 lib/libside.so lib/libside.a \
	lib/libside-console-tracer.so.0 lib/libside-console-tracer.so \
	$(patsubst %.in,lib/pkgconfig/%,$(notdir $(PC_FILES))) \
	bin/sidetrace share/man/man1/sidetrace.1 share/doc/sidetrace/README.md
# Directories made for those files alone, removed once empty. The prefix's
# own (bin, lib, include, share/man) stay on the system, which other
# software shares; a staging tree (DESTDIR) is install's: emptied whole.
INSTALLED_DIRS := include/side/abi include/side lib/pkgconfig share/man/man1 \
	share/doc/sidetrace share/doc
STAGED_DIRS := bin lib include share/man share

# The dynamic linker's cache learns (or forgets) libside.so.0 at once, so
# that a program linked with `pkg-config --libs libside` starts: for an
# install to this system (no DESTDIR), by root, where ldconfig exists.
define ldconfig
	$(Q)if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
		ldconfig; fi
endef

install: all
	$(Q)install -d $(DESTDIR)$(PREFIX)/include/side/abi $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/bin
	$(Q)install -m 644 include/side/*.h $(DESTDIR)$(PREFIX)/include/side/
	$(Q)install -m 644 include/side/abi/*.h $(DESTDIR)$(PREFIX)/include/side/abi/
	$(Q)install -m 755 $(LIBSIDE_SO) $(DESTDIR)$(PREFIX)/lib/libside.so.0
	$(Q)ln -sf libside.so.0 $(DESTDIR)$(PREFIX)/lib/libside.so
	$(Q)install -m 644 $(LIBSIDE_A) $(DESTDIR)$(PREFIX)/lib/
	$(Q)install -m 755 $(CONSOLE_SO) $(DESTDIR)$(PREFIX)/lib/libside-console-tracer.so.0
	$(Q)ln -sf libside-console-tracer.so.0 $(DESTDIR)$(PREFIX)/lib/libside-console-tracer.so
	$(Q)for pc in $(PC_FILES); do \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' $$pc \
			> $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$(basename $$pc .in) || exit 1; done
	$(Q)install -m 755 $(SIDETRACE) $(DESTDIR)$(PREFIX)/bin/
	$(Q)install -d $(DESTDIR)$(PREFIX)/share/man/man1
	$(Q)install -m 644 docs/sidetrace.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	$(Q)install -d $(DESTDIR)$(PREFIX)/share/doc/sidetrace
	$(Q)install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/sidetrace/
	$(ldconfig)

uninstall:
	$(Q)rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	$(Q)for d in $(INSTALLED_DIRS) $(if $(DESTDIR),$(STAGED_DIRS)); do \
		[ ! -d $(DESTDIR)$(PREFIX)/$$d ] || \
		rmdir --ignore-fail-on-non-empty $(DESTDIR)$(PREFIX)/$$d || exit 1; done
	$(Q)p=$(PREFIX); while [ -n "$(DESTDIR)" ] && [ "$$p" != / ] && [ "$$p" != . ]; do \
		[ ! -d $(DESTDIR)$$p ] || rmdir --ignore-fail-on-non-empty $(DESTDIR)$$p || exit 1; \
		p=$$(dirname $$p); done
	$(ldconfig)

# Kernel types as C, for a BPF program that one day reads kernel structures
# (vmlinux/README.md says why none does today).
vmlinux:
	$(call msg,GEN,vmlinux/vmlinux.h)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > vmlinux/vmlinux.h

FORMAT_SRCS = $(shell git ls-files '*.c' '*.h' | grep -v '^vmlinux/')

format:
	$(Q)clang-format -i $(FORMAT_SRCS)

format-check:
	$(Q)clang-format --dry-run --Werror $(FORMAT_SRCS)

clean:
	$(call msg,CLEAN,$(OUTPUT))
	$(Q)rm -rf $(OUTPUT)

-include $(shell find $(OUTPUT) -name '*.d' 2>/dev/null)

# Boots Debian kernels (6.1, 6.12) in qemu and runs sidetrace in them.
# `make vm-test VM_KERNELS=6.1` for one.
.PHONY: vm-test
vm-test:
	$(Q)tests/vm/run.sh $(VM_KERNELS)
