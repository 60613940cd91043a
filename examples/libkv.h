/* SPDX-License-Identifier: MIT */
#ifndef LIBKV_H
#define LIBKV_H

#include <stdint.h>

void kv_put(const char *key, uint32_t size);
int kv_get(const char *key, uint32_t *size);

#endif /* LIBKV_H */
