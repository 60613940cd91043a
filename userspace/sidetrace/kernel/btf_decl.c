// SPDX-License-Identifier: MIT
/* Kernel types as C declares them (btf_decl.h). */
#include <stdarg.h>
#include <stdio.h>

#include "kernel/btf_decl.h"

static void put(void *ctx, const char *fmt, va_list ap)
{
	struct st_btf_decl *d = ctx;
	char buf[256];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	st_tb_puts(&d->tb, buf);
}

char *st_btf_decl(struct st_btf_decl *d, const struct btf *btf, uint32_t id)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts, .field_name = "");

	if (d->btf != btf) {
		btf_dump__free(d->dump);
		d->dump = btf_dump__new(btf, put, d, NULL);
		d->btf = d->dump ? btf : NULL;
	}
	if (!d->dump)
		return NULL;
	st_tb_reset(&d->tb);
	if (btf_dump__emit_type_decl(d->dump, id, &opts))
		return NULL;
	return st_tb_take(&d->tb);
}

void st_btf_decl_fini(struct st_btf_decl *d)
{
	btf_dump__free(d->dump);
	st_tb_free(&d->tb);
	d->dump = NULL;
	d->btf = NULL;
}
