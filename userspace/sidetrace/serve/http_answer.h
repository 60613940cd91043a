/* SPDX-License-Identifier: MIT */
/*
 * What serve answers to a request: the response's head and body built
 * into one buffer, ready to send (serve/http.h says which status for
 * which request).
 */
#ifndef SIDETRACE_SERVE_HTTP_ANSWER_H
#define SIDETRACE_SERVE_HTTP_ANSWER_H

#include <stdbool.h>
#include <stddef.h>

#include "util/http_head.h"
#include "serve/http.h"

struct st_http_response {
	char *buf; /* malloc'ed: head, then the body unless the request was HEAD */
	size_t len;
	bool close; /* the connection ends after it */
};

/*
 * The answer to the request h (status 0), or to a head that could not be
 * read (status 400, 408, 414, 431, 503, 505: h unused). 0, or -ENOMEM.
 */
int st_http_answer(struct st_http *srv, const struct st_http_head *h, unsigned int status,
		   struct st_http_response *r);

#endif /* SIDETRACE_SERVE_HTTP_ANSWER_H */
