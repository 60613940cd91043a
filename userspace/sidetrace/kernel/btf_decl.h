/* SPDX-License-Identifier: MIT */
/* Kernel types as C declares them ("struct file *"), from BTF by libbpf's btf_dump. */
#ifndef SIDETRACE_KERNEL_BTF_DECL_H
#define SIDETRACE_KERNEL_BTF_DECL_H

#include <stdint.h>

#include <bpf/btf.h>

#include "util/textbuf.h"

/* A btf_dump of the last BTF asked about, and the text it writes. */
struct st_btf_decl {
	const struct btf *btf;
	struct btf_dump *dump;
	struct st_textbuf tb;
};

/* Type id of btf as a C declaration without a name, malloc'ed; NULL when it cannot say. */
char *st_btf_decl(struct st_btf_decl *d, const struct btf *btf, uint32_t id);

void st_btf_decl_fini(struct st_btf_decl *d);

#endif /* SIDETRACE_KERNEL_BTF_DECL_H */
