/* SPDX-License-Identifier: MIT */
/* `sidetrace serve`: programs run system-wide, their maps served to Prometheus. */
#ifndef SIDETRACE_CMD_SERVE_H
#define SIDETRACE_CMD_SERVE_H

/*
 * sidetrace serve [OPTION...] [-e PROGRAM]... [FILE|DIR]...: argv from
 * "serve" on. Returns the exit status: 0 once a signal ended it, 1 when
 * serving failed, 2 on a usage error.
 */
int st_cmd_serve(int argc, char **argv);

#endif /* SIDETRACE_CMD_SERVE_H */
