// SPDX-License-Identifier: MIT
/* --info (info.h): each line a probe of this kernel, loaded and asked now. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cmd/info.h"
#include "kernel/kfuncs.h"
#include "objfile/kernel_btf.h"

#define PMU_DIR "/sys/bus/event_source/devices/"

static const char *yes(bool v)
{
	return v ? "yes" : "no";
}

/* libbpf's answer: 1 yes, 0 no, or why the kernel could not be asked (not root, say). */
static const char *answer(int ret)
{
	static char why[128];

	if (ret >= 0)
		return yes(ret);
	snprintf(why, sizeof(why), "unknown (%s)", strerror(-ret));
	return why;
}

/* A helper, as a kprobe program calls it (bpftrace asks so too). */
static const char *helper(enum bpf_func_id id)
{
	return answer(libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, id, NULL));
}

static const struct {
	const char *name;
	enum bpf_func_id id;
} helpers[] = {
	{"probe_read_user", BPF_FUNC_probe_read_user},
	{"probe_read_user_str", BPF_FUNC_probe_read_user_str},
	{"probe_read_kernel", BPF_FUNC_probe_read_kernel},
	{"probe_read_kernel_str", BPF_FUNC_probe_read_kernel_str},
	{"get_current_cgroup_id", BPF_FUNC_get_current_cgroup_id},
	{"send_signal", BPF_FUNC_send_signal},
	{"get_stack", BPF_FUNC_get_stack},
	{"ringbuf_output", BPF_FUNC_ringbuf_output},
	{"loop", BPF_FUNC_loop},
};

/* bpftrace's names; ringbuf is the one sidetrace's records need. */
static const struct {
	const char *name;
	enum bpf_map_type type;
} maps[] = {
	{"hash", BPF_MAP_TYPE_HASH},
	{"percpu hash", BPF_MAP_TYPE_PERCPU_HASH},
	{"array", BPF_MAP_TYPE_ARRAY},
	{"percpu array", BPF_MAP_TYPE_PERCPU_ARRAY},
	{"stack_trace", BPF_MAP_TYPE_STACK_TRACE},
	{"perf_event_array", BPF_MAP_TYPE_PERF_EVENT_ARRAY},
	{"ringbuf", BPF_MAP_TYPE_RINGBUF},
};

static void print_kernel(FILE *f)
{
	char err[256];
	size_t i;
	int fd;

	/* Not permitted, libbpf's probes answer wrong (a helper "yes", a map "no"). */
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, NULL);
	if (fd < 0) {
		fprintf(f,
			"Kernel: not asked: creating a BPF map failed (%s): the probes load "
			"BPF programs, run as root\n",
			strerror(-fd));
		return;
	}
	close(fd);
	fputs("Kernel helpers\n", f);
	for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
		fprintf(f, "  %s: %s\n", helpers[i].name, helper(helpers[i].id));
	fputs("\nKernel features\n", f);
	/* sidetrace's loops (while, and its own machine's) run under bpf_loop(). */
	fprintf(f, "  Loop support: %s\n", helper(BPF_FUNC_loop));
	fprintf(f, "  btf: %s\n", yes(!access(ST_KERNEL_BTF_PATH, R_OK)));
	/* The kernel counts USDT semaphores when its uprobes take the counter's offset. */
	fprintf(f, "  uprobe refcount: %s\n",
		yes(!access(PMU_DIR "uprobe/format/ref_ctr_offset", R_OK)));
	fputs("\nMap types\n", f);
	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		fprintf(f, "  %s: %s\n", maps[i].name,
			answer(libbpf_probe_bpf_map_type(maps[i].type, NULL)));
	fputs("\nProbe types\n", f);
	fprintf(f, "  kprobe: %s\n", yes(st_kprobes_supported(err, sizeof(err))));
	fprintf(f, "  uprobe: %s\n", yes(!access(PMU_DIR "uprobe/type", R_OK)));
	fprintf(f, "  tracepoint: %s\n",
		answer(libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACEPOINT, NULL)));
	fprintf(f, "  perf_event: %s\n",
		answer(libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_PERF_EVENT, NULL)));
	fprintf(f, "  kfunc: %s\n", yes(st_trampolines_supported()));
}

void st_print_info(FILE *f, const char *version)
{
	struct utsname u;

	fputs("System\n", f);
	if (!uname(&u))
		fprintf(f, "  OS: %s %s %s\n  Arch: %s\n", u.sysname, u.release, u.version,
			u.machine);
	fprintf(f, "\nBuild\n  version: sidetrace v%s\n  libbpf: %u.%u\n", version,
		libbpf_major_version(), libbpf_minor_version());
	fputs("  DWARF (sidetrace's own reader): yes\n\n", f);
	print_kernel(f);
}
