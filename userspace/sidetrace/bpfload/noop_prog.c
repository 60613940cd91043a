// SPDX-License-Identifier: MIT
/* A program that does nothing, for feature probes and warm-ups (noop_prog.h). */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfload/noop_prog.h"

int st_noop_prog(unsigned int expected)
{
	const struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = expected);

	return bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 2, &opts);
}
