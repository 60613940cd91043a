/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * sidetrace_watch_arm: a uprobe at the entry of a function whose argument
 * a watchpoint watches (watchpoint:FUNCTION+argN:LEN:MODE). It sends the
 * collector the address the argument holds, which sets the hardware
 * breakpoint there (bpfload/watch.c); for watchpoint:, not
 * asyncwatchpoint:, it first stops the process, which the collector
 * continues once the breakpoint is set, so that the function's own
 * accesses are seen.
 */
#ifndef SIDETRACE_WATCH_BPF_H
#define SIDETRACE_WATCH_BPF_H

/* Uses maps.bpf.h and usdt.bpf.h. */
#if !defined(SIDETRACE_MAPS_BPF_H) || !defined(SIDETRACE_USDT_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* The generic signal numbers (x86-64, arm64). */
#define WATCH_SIGCONT 18
#define WATCH_SIGSTOP 19

struct watch_rec {
	struct st_rec_hdr h;
	__u64 addr;
};

SEC("uprobe")
int sidetrace_watch_arm(struct pt_regs *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx), id = bpf_get_current_pid_tgid();
	bool stop = ST_WATCH_COOKIE_STOP(cookie);
	struct watch_rec r = {
		.h = {.kind = ST_REC_WATCH,
		      .probe = ST_COOKIE_PROBE(cookie),
		      .pid = id >> 32,
		      .tid = (__u32)id,
		      .len = sizeof(r.addr)},
	};

	if (ignored())
		return 0;
	r.addr = sdt_reg(ctx, ST_WATCH_COOKIE_REG(cookie));
	/*
	 * From a uprobe the signal is sent at once and taken on the return
	 * to user space: stopped before the collector can hear of it, so
	 * that its SIGCONT never comes first.
	 */
	if (stop)
		bpf_send_signal(WATCH_SIGSTOP);
	/* The collector is waiting on the stopped process: woken now. */
	if (bpf_ringbuf_output(&st_events, &r, sizeof(r), BPF_RB_FORCE_WAKEUP) && stop)
		bpf_send_signal(WATCH_SIGCONT);
	return 0;
}

#endif /* SIDETRACE_WATCH_BPF_H */
