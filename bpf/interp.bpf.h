/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The stack machine that runs a probe's clauses (st_probe_cfg.insns, see
 * enum st_opcode), one instruction per bpf_loop() step, and
 * sidetrace_event, the generic program: decode the loads, run the
 * clauses. A clause whose load failed, whose filter is false or whose key
 * cannot be built is left whole: its key and stack are discarded.
 */
#ifndef SIDETRACE_INTERP_BPF_H
#define SIDETRACE_INTERP_BPF_H

/* Uses maps, scratch, loads, aggregate, record, send, values, stack, strings and mem_reads
 * (*.bpf.h). */
#if !defined(SIDETRACE_MAPS_BPF_H) || !defined(SIDETRACE_SCRATCH_BPF_H) || \
	!defined(SIDETRACE_LOADS_BPF_H) || !defined(SIDETRACE_AGGREGATE_BPF_H) || \
	!defined(SIDETRACE_RECORD_BPF_H) || !defined(SIDETRACE_SEND_BPF_H) || \
	!defined(SIDETRACE_VALUES_BPF_H) || !defined(SIDETRACE_STACK_BPF_H) || \
	!defined(SIDETRACE_STRINGS_BPF_H) || !defined(SIDETRACE_MEM_READS_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/*
 * Whether instruction op is neither in ops, the instructions a copy of
 * the stack machine has (enum st_machine), nor in the session
 * (st_ops_used): the compiler leaves its code out of a smaller copy, the
 * verifier explores it in none.
 */
static __always_inline bool op_off(__u64 ops, __u32 op)
{
	return !(ops & (1ULL << op)) || op_unused(op);
}

/* Leaves the current clause: its key and stack are discarded. */
static __always_inline void abort_clause(struct st_scratch *s, __u64 ops)
{
	RD(s->pc) = RD(s->clause_end);
	/* Only the key instructions write its parts. */
	if (!op_off(ops, ST_I_KEY_INT) || !op_off(ops, ST_I_KEY_STR))
		key_clear(s);
}

/* Stores an integer key part; false if off is outside the key. */
static __always_inline bool key_int(struct st_scratch *s, __s64 v, __s64 off)
{
	if (off < 0 || off > ST_KEY_PARTS_MAX - 8)
		return false;
	*(__s64 *)(s->key + ST_KEY_HDR + off) = v;
	return true;
}

/* Copies the string behind a reference into the key; false if none. */
static __always_inline bool key_str(const struct st_probe_cfg *cfg, struct st_scratch *s, __s64 ref,
				    __s64 off)
{
	const char *src = str_ref(cfg, s, ref);

	if (!src || off < 0 || off > ST_KEY_PARTS_MAX - ST_STR_LEN)
		return false;
	copy_str(s->key + ST_KEY_HDR + off, src);
	return true;
}

/* Copies the string behind a reference into the record; false if none. */
static __always_inline bool out_str(const struct st_probe_cfg *cfg, struct st_scratch *s, __s64 ref,
				    __s64 off)
{
	const char *src = str_ref(cfg, s, ref);

	if (!src || off < 0 || off > ST_REC_MAX - ST_REC_STR_SIZE)
		return false;
	copy_str(s->rec + off, src);
	return true;
}

/* The output instructions (ST_I_OUT_*); true aborts the clause. */
static __always_inline bool exec_out(const struct st_probe_cfg *cfg, struct st_scratch *s,
				     const struct st_insn *in, __u32 probe, __u64 ops)
{
	__s64 v;

	switch (in->op) {
	case ST_I_OUT_INT:
		if (op_off(ops, ST_I_OUT_INT))
			return true;
		v = pop(s);
		if (in->imm < 0 || in->imm > ST_REC_MAX - ST_REC_INT_SIZE)
			return true;
		*(__s64 *)(s->rec + in->imm) = v;
		return false;
	case ST_I_OUT_STR:
		if (op_off(ops, ST_I_OUT_STR))
			return true;
		return !out_str(cfg, s, pop(s), in->imm);
	case ST_I_OUT_LOAD:
		if (op_off(ops, ST_I_OUT_LOAD))
			return true;
		if (in->a >= ST_MAX_LOADS || !(s->ok & (1U << in->a)))
			return true;
		if (cfg->str_loads & (1U << in->a))
			return !out_str(cfg, s, in->a, in->imm);
		if (in->imm < 0 || in->imm > ST_REC_MAX - ST_REC_INT_SIZE)
			return true;
		*(__s64 *)(s->rec + in->imm) = s->vals[in->a];
		return false;
	case ST_I_OUT_EMIT:
		if (op_off(ops, ST_I_OUT_EMIT))
			return true;
		out_emit(s, in->a, in->mask, in->imm, probe);
		s->wake |= in->mask & ST_EMIT_WAKE;
		return false;
	case ST_I_OUT_JOIN:
		if (op_off(ops, ST_I_OUT_JOIN))
			return true;
		out_join(s, pop(s), in->mask, probe);
		return false;
	case ST_I_SIGNAL:
		if (op_off(ops, ST_I_SIGNAL))
			return true;
		v = pop(s);
#ifndef ST_ENGINE_HOST
		bpf_send_signal(v);
#endif
		return false;
	case ST_I_DEBUGF:
		if (op_off(ops, ST_I_DEBUGF))
			return true;
		return st_exec_debugf(cfg, s, in->a, in->imm, in->mask);
	default: /* ST_I_OUT_EVENT */
		if (op_off(ops, ST_I_OUT_EVENT))
			return true;
		v = st_copy_event(s, cfg->nr_fields, probe);
		out_emit(s, ST_REC_EVENT, s->wcut, v, probe);
		return false;
	}
}

/*
 * str(s, n): the first n - 1 bytes of the string behind ref into
 * temporary string slot, NUL-padded; false if there is no string.
 */
static __always_inline bool str_cut(const struct st_probe_cfg *cfg, struct st_scratch *s, __s64 ref,
				    __u32 slot, __s64 n)
{
	const __u64 *from = (const __u64 *)str_ref(cfg, s, ref);
	__u64 *to = (__u64 *)s->tmp[slot & (ST_MAX_TMPSTR - 1)].b, w;
	__s64 keep = n - 1, left;
	int i;

	if (!from)
		return false;
#pragma unroll
	for (i = 0; i < ST_STR_LEN / 8; i++) {
		w = from[i];
		left = keep - i * 8;
		if (left <= 0)
			w = 0;
		else if (left < 8)
			w &= (1ULL << (left * 8)) - 1;
		to[i] = w;
	}
	return true;
}

/* Any integer builtin: the specialized programs' (builtin()), and those only the stack machine has.
 */
static __always_inline __s64 interp_builtin(__u8 id, __u32 probe)
{
	switch (id) {
	case ST_BI_GID:
		return bpf_get_current_uid_gid() >> 32;
	case ST_BI_NUMAID:
		return bpf_get_numa_node_id();
	case ST_BI_CURTASK:
		return (__s64)bpf_get_current_task();
	default:
		return builtin(id, probe);
	}
}

/* The instructions that compute a value; true aborts the clause. */
static __always_inline bool exec_value(const struct st_probe_cfg *cfg, struct st_scratch *s,
				       const struct st_insn *in, __u32 probe, __u64 ops)
{
	const char *a, *b;
	__s64 l, r;

	switch (in->op) {
	case ST_I_CONST:
		if (op_off(ops, ST_I_CONST))
			return true;
		push(s, in->imm);
		return false;
	case ST_I_FIELD:
		if (op_off(ops, ST_I_FIELD))
			return true;
		if (in->a >= ST_MAX_LOADS || !(s->ok & (1U << in->a)))
			return true;
		push(s, s->vals[in->a]);
		return false;
	case ST_I_STR:
		if (op_off(ops, ST_I_STR))
			return true;
		push(s, in->a);
		return false;
	case ST_I_BUILTIN:
		if (op_off(ops, ST_I_BUILTIN))
			return true;
		if (in->a == ST_BI_USTACK)
			push(s, s->ustack);
		else if (in->a == ST_BI_KSTACK)
			push(s, s->kstack);
		else if (in->a == ST_BI_CTX)
			push(s, s->ctx);
		else
			push(s, interp_builtin(in->a, probe));
		return false;
	case ST_I_UNARY:
		if (op_off(ops, ST_I_UNARY))
			return true;
		l = pop(s);
		push(s, st_unary(in->a, l));
		return false;
	case ST_I_BINARY:
		if (op_off(ops, ST_I_BINARY))
			return true;
		r = pop(s);
		l = pop(s);
		push(s, st_binary(in->a, l, r));
		return false;
	case ST_I_READ:
		if (op_off(ops, ST_I_READ))
			return true;
		read_int_insn(s, in, probe);
		return false;
	case ST_I_READ_STR:
		if (op_off(ops, ST_I_READ_STR))
			return true;
		read_str_insn(s, in, probe);
		return false;
	case ST_I_READ_BUF:
		if (op_off(ops, ST_I_READ_BUF))
			return true;
		read_buf_insn(s, in, probe);
		return false;
	case ST_I_STRSTR:
		if (op_off(ops, ST_I_STRSTR))
			return true;
		return st_exec_strstr(cfg, s);
	default: /* ST_I_STREQ, ST_I_STRNE */
		if (op_off(ops, ST_I_STREQ) && op_off(ops, ST_I_STRNE))
			return true;
		b = str_ref(cfg, s, pop(s));
		a = str_ref(cfg, s, pop(s));
		if (!a || !b)
			return true;
		push(s, str_equal(a, b) == (in->op == ST_I_STREQ));
		return false;
	}
}

/* Variables, jumps, plain-value maps and str(); true aborts the clause. */
static __always_inline bool exec_state(const struct st_probe_cfg *cfg, struct st_scratch *s,
				       const struct st_insn *in, __u32 probe, __u64 ops)
{
	const volatile struct st_map_cfg *mc;
	const char *src;
	__s64 v;

	switch (in->op) {
	case ST_I_JUMP:
		if (op_off(ops, ST_I_JUMP))
			return true;
		RD(s->pc) = in->imm;
		return false;
	case ST_I_JZ:
		if (op_off(ops, ST_I_JZ))
			return true;
		if (!pop(s))
			RD(s->pc) = in->imm;
		return false;
	case ST_I_VAR_GET:
		if (op_off(ops, ST_I_VAR_GET))
			return true;
		push(s, s->vars[in->a & (ST_MAX_VARS - 1)]);
		return false;
	case ST_I_VAR_SET:
		if (op_off(ops, ST_I_VAR_SET))
			return true;
		s->vars[in->a & (ST_MAX_VARS - 1)] = pop(s);
		return false;
	case ST_I_MAP_GET:
		if (op_off(ops, ST_I_MAP_GET))
			return true;
		/* bpftrace says a lookup's miss as 0, what its helper returned. */
		if (st_value_op(s, in->op, in->a, in->imm, probe))
			out_helper_err(s, in, 0, probe);
		push(s, s->vres);
		return false;
	case ST_I_MAP_SET:
		if (op_off(ops, ST_I_MAP_SET))
			return true;
		v = pop(s);
		mc = map_cfg(in->a);
		if (mc && (mc->flags & ST_MAPF_STR)) {
			src = str_ref(cfg, s, v);
			if (!src)
				return true;
			copy_str(s->vstr.b, src);
		}
		v = st_value_op(s, in->op, in->a, v, probe);
		if (v)
			out_helper_err(s, in, v, probe);
		return false;
	case ST_I_MAP_ADD:
		if (op_off(ops, ST_I_MAP_ADD))
			return true;
		st_value_op(s, in->op, in->a, pop(s), probe);
		return false;
	case ST_I_MAP_DEL:
		if (op_off(ops, ST_I_MAP_DEL))
			return true;
		v = st_value_op(s, in->op, in->a, 0, probe);
		if (v)
			out_helper_err(s, in, v, probe);
		return false;
	default: /* ST_I_STRN */
		if (op_off(ops, ST_I_STRN))
			return true;
		v = str_bytes(s, in);
		if (!str_cut(cfg, s, pop(s), in->a - ST_STR_REF_TMP, v))
			return true;
		push(s, in->a);
		return false;
	}
}

/* A key's parts, and the aggregation into its map; true aborts the clause. */
static __always_inline bool exec_key(const struct st_probe_cfg *cfg, struct st_scratch *s,
				     const struct st_insn *in, __u32 probe, __u64 ops)
{
	switch (in->op) {
	case ST_I_KEY_INT:
		return op_off(ops, ST_I_KEY_INT) || !key_int(s, pop(s), in->imm);
	case ST_I_KEY_STR:
		return op_off(ops, ST_I_KEY_STR) || !key_str(cfg, s, pop(s), in->imm);
	default: /* ST_I_AGG */
		if (op_off(ops, ST_I_AGG))
			return true;
		st_aggregate(s, in->a, pop(s), probe);
		return false;
	}
}

/*
 * Executes the instruction at s->pc; one not in ops (each exec_*() tests
 * its own) aborts its clause. Returns 1 once the program is done.
 */
static __always_inline int exec_insn(const struct st_probe_cfg *cfg, struct st_scratch *s,
				     __u32 probe, __u64 ops)
{
	const struct st_insn *in;
	bool abort = false;
	__u32 pc;

	if (!cfg || !s)
		return 1;
	pc = RD(s->pc);
	if (pc >= cfg->nr_insns || pc >= ST_MAX_INSNS)
		return 1;
	in = &cfg->insns[pc];
	RD(s->pc) = pc + 1;
	switch (in->op) {
	case ST_I_CLAUSE:
		RD(s->clause_end) = in->imm;
		RD(s->sp) = 0;
		abort = in->mask & ~s->ok;
		break;
	case ST_I_FILTER:
		abort = !pop(s);
		break;
	case ST_I_CONST:
	case ST_I_FIELD:
	case ST_I_STR:
	case ST_I_BUILTIN:
	case ST_I_UNARY:
	case ST_I_BINARY:
	case ST_I_STREQ:
	case ST_I_STRNE:
	case ST_I_STRSTR:
	case ST_I_READ:
	case ST_I_READ_STR:
	case ST_I_READ_BUF:
		abort = exec_value(cfg, s, in, probe, ops);
		break;
	case ST_I_KEY_INT:
	case ST_I_KEY_STR:
	case ST_I_AGG:
		abort = exec_key(cfg, s, in, probe, ops);
		break;
	case ST_I_EXIT:
		/*
		 * bpftrace's exit() returns from its probe: the clause ends here.
		 * What the event printed before is sent first: the collector
		 * stops reading soon after it sees the request.
		 */
		out_flush(s, probe);
		st_exit_requested = 1;
		abort = true;
		break;
	case ST_I_OUT_INT:
	case ST_I_OUT_STR:
	case ST_I_OUT_LOAD:
	case ST_I_OUT_EMIT:
	case ST_I_OUT_EVENT:
	case ST_I_OUT_JOIN:
	case ST_I_SIGNAL:
	case ST_I_DEBUGF:
		abort = exec_out(cfg, s, in, probe, ops);
		break;
	case ST_I_JUMP:
	case ST_I_JZ:
	case ST_I_VAR_GET:
	case ST_I_VAR_SET:
	case ST_I_MAP_GET:
	case ST_I_MAP_SET:
	case ST_I_MAP_ADD:
	case ST_I_MAP_DEL:
	case ST_I_STRN:
		abort = exec_state(cfg, s, in, probe, ops);
		break;
	default:
		abort = true;
		break;
	}
	if (abort)
		abort_clause(s, ops);
	return 0;
}

/*
 * exec_insn() as global functions, each checked once by the verifier
 * (see st_decode_load()): the stack machine's copies (enum st_machine).
 */
__noinline int st_exec(const struct st_probe_cfg *cfg, struct st_scratch *s, __u32 probe)
{
	return exec_insn(cfg, s, probe, ST_ALL_OPS);
}

__noinline int st_exec_print(const struct st_probe_cfg *cfg, struct st_scratch *s, __u32 probe)
{
	return exec_insn(cfg, s, probe, ST_PRINT_OPS);
}

__noinline int st_exec_builtins(const struct st_probe_cfg *cfg, struct st_scratch *s, __u32 probe)
{
	return exec_insn(cfg, s, probe, ST_BUILTINS_PRINT_OPS);
}

/* What the steps of run()'s bpf_loop() need. */
struct st_run_ctx {
	const struct st_probe_cfg *cfg;
	struct st_scratch *s;
	__u32 probe;
};

/* One bpf_loop() step of each copy: executes an instruction; 1 stops the loop. */
static long run_step(__u32 n, void *data)
{
	struct st_run_ctx *rc = data;

	return st_exec(rc->cfg, rc->s, rc->probe) ? 1 : 0;
}

static long run_step_print(__u32 n, void *data)
{
	struct st_run_ctx *rc = data;

	return st_exec_print(rc->cfg, rc->s, rc->probe) ? 1 : 0;
}

static long run_step_builtins(__u32 n, void *data)
{
	struct st_run_ctx *rc = data;

	return st_exec_builtins(rc->cfg, rc->s, rc->probe) ? 1 : 0;
}

/*
 * Runs the probe's code on copy m of the stack machine. bpf_loop()
 * (kernel 5.17) lets the verifier check one step instead of walking
 * ST_MAX_INSNS iterations of a loop.
 */
static __always_inline void run(const struct st_probe_cfg *cfg, struct st_scratch *s, __u32 probe,
				enum st_machine m)
{
	struct st_run_ctx rc = {.cfg = cfg, .s = s, .probe = probe};
	long steps;

	RD(s->pc) = 0;
	RD(s->sp) = 0;
	RD(s->clause_end) = 0;
	/* The batch is empty: every run ends with out_flush(), which empties it. */
	/* Only a while loop's backward jumps take more steps than instructions. */
	steps = bpf_loop(ST_MAX_RUN_STEPS,
			 m == ST_MACHINE_BUILTINS ? run_step_builtins
			 : m == ST_MACHINE_PRINT  ? run_step_print
						  : run_step,
			 &rc, 0);
	if (steps == ST_MAX_RUN_STEPS)
		count(probe, ST_C_STEPS);
	out_flush(s, probe);
}

/*
 * What follows reads the kernel's stacks and serves uprobes and kprobes;
 * the in-process engine (userspace/lib/inproc) has its own entry instead.
 */
#ifndef ST_ENGINE_HOST

/*
 * Announces process tgid to the collector, which reads its mappings to
 * name its user addresses: at its first stack (or usym()), or its first
 * since an exec (its comm changed: a -c command is sampled before its
 * exec too).
 */
static __always_inline void want_maps(__u32 tgid)
{
	__u64 comm8 = 0, *seen;

	bpf_get_current_comm(&comm8, sizeof(comm8));
	seen = bpf_map_lookup_elem(&st_stack_pids, &tgid);
	if ((!seen || *seen != comm8) &&
	    !(int)bpf_map_update_elem(&st_stack_pids, &tgid, &comm8, BPF_ANY)) {
		struct st_rec_hdr h = {.kind = ST_REC_STACK_PID, .pid = tgid};

		bpf_ringbuf_output(&st_events, &h, sizeof(h), 0);
	}
}

/* A different stack already in its bucket: -EEXIST (sidetrace.h ST_STACK_SPILL). */
#define STACK_BUCKET_TAKEN (-17)

/* The stack's id in map, or where its bucket holds another, in spill (ST_STACK_SPILL). */
static __always_inline long stack_id(void *ctx, void *map, void *spill, __u64 flags)
{
	long id = bpf_get_stackid(ctx, map, flags);

	if (id != STACK_BUCKET_TAKEN)
		return id;
	id = bpf_get_stackid(ctx, spill, flags);
	return id >= 0 ? id | ST_STACK_SPILL : id;
}

/*
 * The stacks the probe's clauses read, into s->ustack and s->kstack: by
 * the program's entry, which has the context bpf_get_stackid() wants.
 */
static __always_inline void take_stacks(void *ctx, const struct st_probe_cfg *cfg,
					struct st_scratch *s)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	long id;

/* An id, or why there is none: -EFAULT when the stack has no frames. */
#define STACK_ID(id) ((id) >= 0 ? (__u32)(id) : (id) == -14 ? ST_STACK_EMPTY : ST_STACK_FAILED)

	/* A session without stacks leaves the rest dead to the verifier. */
	if (!st_stacks_used)
		return;
	if (cfg->stacks & ST_STACK_USER) {
		id = stack_id(ctx, &st_ustacks, &st_ustacks_spill, BPF_F_USER_STACK);
		s->ustack = ST_USTACK(tgid, STACK_ID(id));
		if (id >= 0)
			want_maps(tgid);
	}
	if (cfg->stacks & ST_STACK_MAPS)
		want_maps(tgid);
	if (cfg->stacks & ST_STACK_KERNEL) {
		id = stack_id(ctx, &st_stacks, &st_stacks_spill, 0);
		s->kstack = STACK_ID(id);
	}
}

/* An event of a probe whose arguments are in ctx, a struct pt_regs. */
static __always_inline int on_regs(void *ctx)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_scratch *s;
	__u32 probe;

	s = enter_probe(ctx, &site, &cfg, &probe);
	if (!s)
		return 0;
	decode_all(ctx, site, cfg, s, probe);
	take_stacks(ctx, cfg, s);
	run(cfg, s, probe, ST_MACHINE_ALL);
	/* Only runs on this CPU read the flag: a plain store releases it. */
	RD(s->busy) = 0;
	return 0;
}

SEC("uprobe")
int sidetrace_event(void *ctx)
{
	return on_regs(ctx);
}

/*
 * -p: the process whose kernel events count (0: every process). Uprobes
 * are attached to the process itself; a tracepoint or a kprobe fires for
 * every task.
 */
__u32 st_kernel_tgid;

static __always_inline bool other_process(void)
{
	return st_kernel_tgid && bpf_get_current_pid_tgid() >> 32 != st_kernel_tgid;
}

/*
 * kprobe: and kretprobe: probes: the same registers, the same program;
 * apart because a uprobe program loaded for uprobe_multi links cannot be
 * attached to a kprobe.
 */
static __always_inline int on_kprobe(void *ctx)
{
	if (other_process())
		return 0;
	return on_regs(ctx);
}

SEC("kprobe")
int sidetrace_kprobe(void *ctx)
{
	return on_kprobe(ctx);
}

/*
 * The same for kprobe_multi links (bpfload/kprobes.h): a program loaded
 * for them takes no perf-event kprobe, so a session has both where it
 * needs both.
 */
SEC("kprobe.multi")
int sidetrace_kprobe_multi(void *ctx)
{
	return on_kprobe(ctx);
}

#endif /* !ST_ENGINE_HOST */

#endif /* SIDETRACE_INTERP_BPF_H */
