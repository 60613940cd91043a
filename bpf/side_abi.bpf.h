/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The SIDE ABI layouts (include/side/abi) for BPF programs. vmlinux.h must
 * come first: it provides the fixed-width integer types and size_t. Clang's
 * hosted <stdint.h> would pull in glibc headers that do not exist for
 * -target bpf, and its <stddef.h> redefines wchar_t with another type, so
 * their include guards are set here to skip both.
 */
#ifndef SIDETRACE_SIDE_ABI_BPF_H
#define SIDETRACE_SIDE_ABI_BPF_H

#ifndef __VMLINUX_H__
#error "include vmlinux.h before side_abi.bpf.h"
#endif

#define __CLANG_STDINT_H
#define __STDDEF_H
#include <side/abi/type-argument.h>
#include <side/abi/event-description.h>

#endif /* SIDETRACE_SIDE_ABI_BPF_H */
