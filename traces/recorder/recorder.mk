# The valgrind tool behind `pmubench record` (docs/traces.md, "Recording").
# Included by the Makefile; `make recorder` builds $(BUILD)/recorder/ with
# pmutrace-amd64-linux (and pmutrace-x86-linux when gcc -m32 works) and
# links to valgrind's core preload libraries, the folder that
# `pmubench record` passes to valgrind as VALGRIND_LIB.
#
# The tool is linked as valgrind's own tools are (Makefile.tool.am,
# coregrind/link_tool_exe_linux): static, no start files or default
# libraries, the core's _start, loaded at 0x58000000.

VG_INCLUDE ?= /usr/include/valgrind
VG_LIBDIR ?= /usr/lib/x86_64-linux-gnu/valgrind
VG_PRELOAD_DIR ?= /usr/libexec/valgrind
RECORDER_DIR := $(BUILD)/recorder
RECORDER_SRC := traces/recorder/pmutrace.c
RECORDER_HEADERS := traces/trace.h traces/cpu_view.h traces/trace_encoding.h \
    traces/recorder/pmutrace_stream.h
# The library's trace writer, compiled into the tool (docs/traces.md, "The
# stream and the check"), with traces/recorder/pt_libc.c for the libc
# functions it calls; built with the compiler's builtins (its small
# memcpy calls inline), which the valgrind-facing code is built without.
RECORDER_WRITER_SRCS := traces/trace_writer.c traces/trace_block.c traces/code_cache.c
RECORDER_WRITER_HEADERS := traces/trace.h traces/cpu_view.h traces/trace_block.h traces/trace_encoding.h \
    traces/code_cache.h

VG_TOOL_BASE_CFLAGS = -std=gnu11 -O2 -gdwarf-4 -Wall -Wextra -fno-strict-aliasing \
    -fno-stack-protector -fno-pie -fomit-frame-pointer
VG_TOOL_CFLAGS = $(VG_TOOL_BASE_CFLAGS) -Wno-unused-parameter -fno-builtin -I$(VG_INCLUDE) \
    -DVGO_linux=1
VG_TOOL_LDFLAGS = -static -nodefaultlibs -nostartfiles -no-pie -u _start \
    -Wl,--build-id=none -Wl,-Ttext-segment=0x58000000
VG_TOOL_LIBS = -Wl,--start-group $(VG_LIBDIR)/libcoregrind-$(1)-linux.a \
    $(VG_LIBDIR)/libvex-$(1)-linux.a $(VG_LIBDIR)/libgcc-sup-$(1)-linux.a -lgcc -Wl,--end-group
# tool_objects ARCH: the tool's objects for amd64 or x86.
tool_objects = $(RECORDER_DIR)/$(1)/pmutrace.o $(RECORDER_DIR)/$(1)/pt_libc.o \
    $(RECORDER_WRITER_SRCS:traces/%.c=$(RECORDER_DIR)/$(1)/%.o)
VG_ARCH_FLAGS_amd64 = -m64 -DVGA_amd64=1 -DVGP_amd64_linux=1 -DVGPV_amd64_linux_vanilla=1
VG_ARCH_FLAGS_x86 = -m32 -DVGA_x86=1 -DVGP_x86_linux=1 -DVGPV_x86_linux_vanilla=1

# The 32-bit tool when the compiler builds 32-bit programs (M32_FLAG, set
# by the Makefile from tools/need.sh); without them a 32-bit tool left by
# an earlier build goes, so that `pmubench record` says it is not built.
RECORDER_TOOLS := $(RECORDER_DIR)/pmutrace-amd64-linux \
    $(if $(M32_FLAG),$(RECORDER_DIR)/pmutrace-x86-linux)
RECORDER_LINKS := $(RECORDER_DIR)/vgpreload_core-amd64-linux.so \
    $(if $(M32_FLAG),$(RECORDER_DIR)/vgpreload_core-x86-linux.so)

.PHONY: recorder

recorder: $(RECORDER_TOOLS) $(RECORDER_LINKS)
	$(if $(M32_FLAG),,@rm -f $(RECORDER_DIR)/pmutrace-x86-linux $(RECORDER_DIR)/vgpreload_core-x86-linux.so)

$(RECORDER_DIR)/pmutrace-amd64-linux: $(call tool_objects,amd64)
	$(CC) -m64 $(VG_TOOL_LDFLAGS) -o $@ $^ $(call VG_TOOL_LIBS,amd64)

$(RECORDER_DIR)/pmutrace-x86-linux: $(call tool_objects,x86)
	$(CC) -m32 $(VG_TOOL_LDFLAGS) -o $@ $^ $(call VG_TOOL_LIBS,x86)

$(RECORDER_DIR)/%/pmutrace.o: $(RECORDER_SRC) $(RECORDER_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(VG_ARCH_FLAGS_$*) $(VG_TOOL_CFLAGS) -c $< -o $@

$(RECORDER_DIR)/%/pt_libc.o: traces/recorder/pt_libc.c
	@mkdir -p $(dir $@)
	$(CC) $(VG_ARCH_FLAGS_$*) $(VG_TOOL_CFLAGS) -c $< -o $@

$(RECORDER_DIR)/amd64/%.o: traces/%.c $(RECORDER_WRITER_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -m64 $(VG_TOOL_BASE_CFLAGS) -c $< -o $@

$(RECORDER_DIR)/x86/%.o: traces/%.c $(RECORDER_WRITER_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -m32 $(VG_TOOL_BASE_CFLAGS) -c $< -o $@

$(RECORDER_DIR)/vgpreload_core-%.so:
	@mkdir -p $(dir $@)
	ln -sf $(VG_PRELOAD_DIR)/vgpreload_core-$*.so $@
