// SPDX-License-Identifier: MIT
/*
 * Verifier cost of each embedded BPF program, loaded alone: the steps the
 * verifier takes ("processed N insns") do not depend on the machine's
 * load, unlike the milliseconds they cost. The key clearing bound is set
 * as for a string-keyed hist (9 words after the header), the rest of the
 * configuration as the skeleton has it.
 * Usage: verifier_steps [PROGRAM...]   (default: every program, then
 * sidetrace_tp and its printing copy as a session that only prints
 * leaves them)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/libbpf.h>

#include "sidetrace.h"
#include "sidetrace.skel.h"

static char log_buf[1 << 20];
static const char *label; /* printed for the program's name */

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/*
 * Loads program name alone and prints its verifier statistics; the
 * session's instructions ops and load sources srcs (st_ops_used,
 * st_srcs_used).
 */
static int measure(const char *name, uint64_t ops, uint32_t srcs)
{
	struct bpf_program *prog, *p;
	struct sidetrace_bpf *skel;
	const char *steps;
	double t0, t1;
	int err;

	skel = sidetrace_bpf__open();
	if (!skel) {
		fprintf(stderr, "cannot open the BPF object\n");
		return 1;
	}
	prog = bpf_object__find_program_by_name(skel->obj, name);
	err = prog ? 0 : -ENOENT;
	bpf_object__for_each_program(p, skel->obj) if (!err) err =
		bpf_program__set_autoload(p, p == prog);
	if (!err)
		err = bpf_program__set_log_level(prog, 4);
	if (!err)
		err = bpf_program__set_log_buf(prog, log_buf, sizeof(log_buf));
	if (!err && !strcmp(name, "sidetrace_fault_in"))
		err = bpf_program__set_flags(prog, BPF_F_SLEEPABLE);
	if (err) {
		fprintf(stderr, "%s: cannot set up: %s\n", name, strerror(-err));
		sidetrace_bpf__destroy(skel);
		return 1;
	}
	skel->rodata->st_key_words = (ST_STR_LEN + ST_KEY_BUCKET_SIZE) / 8;
	skel->rodata->st_ops_used = ops;
	skel->rodata->st_srcs_used = srcs;
	skel->rodata->st_parts_used = ~0U;
	skel->rodata->st_plain_parts_max = ST_MAX_PLAIN_PARTS;
	skel->rodata->st_kinds_used = ~0U;
	skel->rodata->st_stacks_used = ~0U;
	skel->rodata->st_ckey_words = (ST_COMPACT_STR_LEN + ST_KEY_BUCKET_SIZE) / 8;
	err = bpf_map__set_key_size(skel->maps.st_aggr,
				    ST_KEY_HDR + 8 * skel->rodata->st_key_words);
	if (!err)
		err = bpf_map__set_key_size(skel->maps.st_aggr_compact,
					    ST_KEY_HDR + 8 * skel->rodata->st_ckey_words);
	if (err) {
		fprintf(stderr, "%s: cannot size the keys: %s\n", name, strerror(-err));
		sidetrace_bpf__destroy(skel);
		return 1;
	}
	log_buf[0] = '\0';
	t0 = now_ms();
	err = sidetrace_bpf__load(skel);
	t1 = now_ms();
	steps = strstr(log_buf, "processed ");
	if (err || !steps)
		fprintf(stderr, "%s: cannot load: %s\n", name, strerror(-err));
	else
		printf("  %-20s %6d verifier steps  load %5.1f ms\n", label ? label : name,
		       atoi(steps + strlen("processed ")), t1 - t0);
	sidetrace_bpf__destroy(skel);
	return err || !steps;
}

/*
 * What a tool that only prints (printf of builtins and a tracepoint's
 * fields) leaves the stack machine.
 */
#define OP(op) (1ULL << (op))
static const uint64_t printf_ops = OP(ST_I_CLAUSE) | OP(ST_I_FILTER) | OP(ST_I_CONST) |
				   OP(ST_I_FIELD) | OP(ST_I_STR) | OP(ST_I_BUILTIN) |
				   OP(ST_I_OUT_INT) | OP(ST_I_OUT_STR) | OP(ST_I_OUT_LOAD) |
				   OP(ST_I_OUT_EMIT);

/* What a tool that prints builtins only leaves it (syncsnoop: time, pid, comm, probe). */
static const uint64_t builtins_ops = OP(ST_I_CLAUSE) | OP(ST_I_CONST) | OP(ST_I_STR) |
				     OP(ST_I_BUILTIN) | OP(ST_I_OUT_INT) | OP(ST_I_OUT_STR) |
				     OP(ST_I_OUT_EMIT);

int main(int argc, char **argv)
{
	static const char *const all[] = {
		"sidetrace_count", "sidetrace_flat",  "sidetrace_keyed",    "sidetrace_keyed1",
		"sidetrace_plain", "sidetrace_event", "sidetrace_fault_in", "sidetrace_tp",
	};
	int i, ret = 0;

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			ret |= measure(argv[i], ~0ULL, ~0U);
		return ret;
	}
	for (i = 0; i < (int)(sizeof(all) / sizeof(all[0])); i++)
		ret |= measure(all[i], ~0ULL, ~0U);
	label = "sidetrace_tp, printf";
	ret |= measure("sidetrace_tp", printf_ops, 1U << ST_SRC_SDT);
	label = "sidetrace_tp_print, printf";
	ret |= measure("sidetrace_tp_print", printf_ops, 1U << ST_SRC_SDT);
	label = "sidetrace_tp_builtins, printf of builtins";
	ret |= measure("sidetrace_tp_builtins", builtins_ops, 0);
	return ret;
}
