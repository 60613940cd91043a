// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The sidetrace programs, attached at SIDE probe sites (USDT) as uprobes
 * whose cookie is the site's index (st_sites), and at kernel tracepoints
 * (sidetrace_tp) with the same cookies. sidetrace_event reads the
 * SDT arguments and decodes the SIDE argument vector as the collector's
 * configuration says, runs each clause's filter and statements on a small
 * stack machine and aggregates in per-CPU maps; sidetrace_count serves
 * the probes that only count, sidetrace_plain those whose fields are SDT
 * values and whose statements need no stack machine (no filter, keys and
 * values plain fields or builtins), and sidetrace_flat the plain ones that
 * read integers into maps without keys. Only the programs that the probes
 * need are loaded. See sidetrace.h for the configuration.
 *
 * No kernel structure is read, so the object has no CO-RE relocation and
 * libbpf loads the kernel's BTF only for an fentry: or fexit: program's
 * target: the SDT arguments are read from the uprobe's struct pt_regs by
 * constant offsets (see sdt_reg()), a kernel structure's members at the
 * offsets the collector found in the running kernel's BTF.
 *
 * Application memory is only read through bpf_probe_read_user*(), with
 * every length and index bounded by the configuration, so a corrupted
 * argument vector costs a counted decode error and nothing else.
 *
 * One object, one skeleton; its body is in fragments, each included once,
 * here, in the order of their dependencies (each checks that the ones
 * it uses came first):
 *
 *   side_abi.bpf.h     the SIDE ABI layouts on uapi types
 *   maps.bpf.h         configuration, result maps, counters
 *   scratch.bpf.h      a run's working memory and how a program takes one
 *   usdt.bpf.h         SDT arguments from registers and memory
 *   decode.bpf.h       the SIDE argument vector: values, strings, dynamic
 *   loads.bpf.h        a probe's loads and builtins, decoded per event
 *   aggregate.bpf.h    into st_flat slots or st_aggr keys
 *   record.bpf.h       print(args): the whole event into a record
 *   values.bpf.h       plain values: @m[k] read, stored, added, deleted
 *   mem_reads.bpf.h    *p, str(p), buf(p, n): reads at computed addresses
 *   interp.bpf.h       the stack machine and sidetrace_event
 *   tracepoint.bpf.h   tracepoint: fields, from the record
 *   fentry.bpf.h       fentry:/fexit: fields, a kernel function's trampoline's arguments
 *   kernel.bpf.h       sidetrace_tp, _profile, _fentry, _fexit: kernel events' interpreter
 *   specialized.bpf.h  sidetrace_count, sidetrace_plain, sidetrace_flat
 *   keyed.bpf.h        sidetrace_keyed, sidetrace_keyed1 (a key of one part)
 *   fault_in.bpf.h     sidetrace_fault_in (sleepable)
 *   follow.bpf.h       sidetrace_fork, _exit, _free: -c's descendants
 *   watch.bpf.h        sidetrace_watch_arm: a function's watchpoint's address
 */
#include <linux/bpf.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include "sidetrace.h"

#ifndef __TARGET_ARCH_x86
#error "SDT argument registers are laid out for x86-64 only"
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#include "side_abi.bpf.h"
#include "maps.bpf.h"
#include "scratch.bpf.h"
#include "usdt.bpf.h"
#include "decode.bpf.h"
#include "loads.bpf.h"
#include "aggregate.bpf.h"
#include "record.bpf.h"
#include "send.bpf.h"
#include "values.bpf.h"
#include "stack.bpf.h"
#include "strings.bpf.h"
#include "mem_reads.bpf.h"
#include "interp.bpf.h"
#include "tracepoint.bpf.h"
#include "fentry.bpf.h"
#include "kernel.bpf.h"
#include "specialized.bpf.h"
#include "keyed.bpf.h"
#include "fault_in.bpf.h"
#include "follow.bpf.h"
#include "watch.bpf.h"
#include "user.bpf.h"
