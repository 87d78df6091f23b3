/* topo_arg.c: loading the topology a command names (a file or gen:NAME:ARGS). */
#include "cli/topo_arg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/generate.h"
#include "topology/topo_read.h"

int topo_arg_load(const char *spec, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    if (!strncmp(spec, "gen:", 4)) {
        char *s = xstrdup(spec + 4);
        char *colon = strchr(s, ':');
        if (colon)
            *colon = 0;
        int rc = topo_generate(s, colon ? colon + 1 : "", seed, t, e);
        free(s);
        return rc;
    }
    return topo_read_file(spec, t, e);
}

void topo_arg_warnings(const struct topo *t)
{
    for (int i = 0; i < t->nwarn; i++)
        fprintf(stderr, "warning: %s\n", t->warn[i]);
}
