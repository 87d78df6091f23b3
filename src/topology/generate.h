/* generate.h: topology generators, selected by name with "key=value" arguments, e.g.
 *   topo_generate("single_switch", "ports=36,link=4xQDR", seed, &t, &e)
 *   topo_generate("testbed002", "", seed, &t, &e)
 * Each generator documents its arguments in its entry of topo_generators[]. */
#ifndef IBN_GENERATE_H
#define IBN_GENERATE_H

#include <stdint.h>

#include "core/error.h"
#include "topology/topo.h"

/* Parsed "key=value,key=value" arguments. */
struct gen_args {
    int n;
    char *key[32];
    char *val[32];
    int used[32];
};

struct topo_generator {
    const char *name;
    const char *usage;   /* "ports=N link=4xQDR delay=TIME": keys and their defaults */
    int (*generate)(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);
};

extern const struct topo_generator *const topo_generators[];

int topo_generate(const char *name, const char *args, uint64_t seed, struct topo *out,
                  struct ibn_err *e);

/* Helpers for generators: typed argument lookups with defaults; errors name the key. */
int gen_arg_int(struct gen_args *a, const char *key, int def, int min, int max, int *out,
                struct ibn_err *e);
int gen_arg_time(struct gen_args *a, const char *key, const char *def, simtime_t *out,
                 struct ibn_err *e);
/* A link given as "4xQDR" or as a rate "13.5 Gb/s". */
int gen_arg_link(struct gen_args *a, const char *key, const char *def, int *width,
                 enum ib_speed *speed, double *rate_bps, struct ibn_err *e);

/* The basic generators (gen_basic.c). */
int gen_single_switch(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);
int gen_testbed002(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);
/* Fat trees (gen_fattree.c), meshes and tori (gen_mesh.c), random irregular (gen_irregular.c). */
int gen_kary_ntree(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);
int gen_fattree(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);
int gen_clos3(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);
int gen_mesh(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);
int gen_torus(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);
int gen_irregular(struct gen_args *a, uint64_t seed, struct topo *out, struct ibn_err *e);

#endif
