/* SPDX-License-Identifier: MIT */
/* The running kernel's BTF, its types for casts, kprobe and fentry arguments. */
#ifndef SIDETRACE_OBJFILE_KERNEL_BTF_H
#define SIDETRACE_OBJFILE_KERNEL_BTF_H

#include <bpf/btf.h>

/* Where the running kernel gives its BTF (CONFIG_DEBUG_INFO_BTF). */
#define ST_KERNEL_BTF_PATH "/sys/kernel/btf/vmlinux"

/*
 * The kernel's BTF (free it with btf__free()), or NULL with errno set, as
 * btf__load_vmlinux_btf() gives it.
 */
struct btf *st_kernel_btf_load(void);

#endif /* SIDETRACE_OBJFILE_KERNEL_BTF_H */
