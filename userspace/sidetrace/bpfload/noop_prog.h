/* SPDX-License-Identifier: MIT */
/*
 * A kprobe-type program that does nothing, loaded for one kind of link:
 * what the feature probes of uprobe_multi and kprobe_multi links ask the
 * kernel with, and the uprobe warm-up attaches.
 */
#ifndef SIDETRACE_BPFLOAD_NOOP_PROG_H
#define SIDETRACE_BPFLOAD_NOOP_PROG_H

/* Its fd, loaded for links of bpf_attach_type expected, or a negative errno. */
int st_noop_prog(unsigned int expected);

#endif /* SIDETRACE_BPFLOAD_NOOP_PROG_H */
