/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The SIDE ABI layouts (include/side/abi) for BPF programs, on the uapi
 * integer types: sidetrace reads no kernel structure, so it needs neither
 * vmlinux.h nor CO-RE (whose relocations make libbpf load and parse the
 * kernel's BTF at every start). Clang's hosted <stdint.h> would pull in
 * glibc headers that do not exist for -target bpf, so its include guard is
 * set here and the types it would give are defined instead.
 */
#ifndef SIDETRACE_SIDE_ABI_BPF_H
#define SIDETRACE_SIDE_ABI_BPF_H

#include <linux/types.h>

typedef __s8 int8_t;
typedef __s16 int16_t;
typedef __s32 int32_t;
typedef __s64 int64_t;
typedef __u8 uint8_t;
typedef __u16 uint16_t;
typedef __u32 uint32_t;
typedef __u64 uint64_t;
typedef __u64 uintptr_t;

#define __CLANG_STDINT_H
#include <stdbool.h>
#include <stddef.h>
#include <side/abi/type-argument.h>
#include <side/abi/event-description.h>

#endif /* SIDETRACE_SIDE_ABI_BPF_H */
