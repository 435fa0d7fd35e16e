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
RECORDER_HEADERS := traces/trace_encoding.h traces/recorder/pmutrace_stream.h

VG_TOOL_CFLAGS = -std=gnu11 -O2 -gdwarf-4 -Wall -Wextra -Wno-unused-parameter -fno-strict-aliasing \
    -fno-builtin -fno-stack-protector -fno-pie -fomit-frame-pointer -I$(VG_INCLUDE) \
    -DVGO_linux=1
VG_TOOL_LDFLAGS = -static -nodefaultlibs -nostartfiles -no-pie -u _start \
    -Wl,--build-id=none -Wl,-Ttext-segment=0x58000000
VG_TOOL_LIBS = -Wl,--start-group $(VG_LIBDIR)/libcoregrind-$(1)-linux.a \
    $(VG_LIBDIR)/libvex-$(1)-linux.a $(VG_LIBDIR)/libgcc-sup-$(1)-linux.a -lgcc -Wl,--end-group

# The 32-bit tool when the compiler builds 32-bit programs (M32_FLAG, set
# by the Makefile from tools/need.sh).
RECORDER_TOOLS := $(RECORDER_DIR)/pmutrace-amd64-linux \
    $(if $(M32_FLAG),$(RECORDER_DIR)/pmutrace-x86-linux)
RECORDER_LINKS := $(RECORDER_DIR)/vgpreload_core-amd64-linux.so \
    $(if $(M32_FLAG),$(RECORDER_DIR)/vgpreload_core-x86-linux.so)

.PHONY: recorder

recorder: $(RECORDER_TOOLS) $(RECORDER_LINKS)

$(RECORDER_DIR)/pmutrace-amd64-linux: $(RECORDER_SRC) $(RECORDER_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -m64 $(VG_TOOL_CFLAGS) -DVGA_amd64=1 -DVGP_amd64_linux=1 \
	    -DVGPV_amd64_linux_vanilla=1 -c $< -o $(RECORDER_DIR)/pmutrace-amd64.o
	$(CC) -m64 $(VG_TOOL_LDFLAGS) -o $@ $(RECORDER_DIR)/pmutrace-amd64.o \
	    $(call VG_TOOL_LIBS,amd64)

$(RECORDER_DIR)/pmutrace-x86-linux: $(RECORDER_SRC) $(RECORDER_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -m32 $(VG_TOOL_CFLAGS) -DVGA_x86=1 -DVGP_x86_linux=1 \
	    -DVGPV_x86_linux_vanilla=1 -c $< -o $(RECORDER_DIR)/pmutrace-x86.o
	$(CC) -m32 $(VG_TOOL_LDFLAGS) -o $@ $(RECORDER_DIR)/pmutrace-x86.o \
	    $(call VG_TOOL_LIBS,x86)

$(RECORDER_DIR)/vgpreload_core-%.so:
	@mkdir -p $(dir $@)
	ln -sf $(VG_PRELOAD_DIR)/vgpreload_core-$*.so $@
