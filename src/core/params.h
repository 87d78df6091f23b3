/* params.h: declarative parameter schemas. A module that takes settings (a switch architecture,
 * an arrival process, a congestion-control plug-in) describes them as a table of struct param:
 * key, type, where it lives in the module's plain struct, default, help. The scenario parser
 * fills any such struct from user text through this table, so modules never see the parser,
 * every key gets the same checking and error wording, and the resolved scenario and the
 * scenario reference are printed from the same tables. */
#ifndef IBN_PARAMS_H
#define IBN_PARAMS_H

#include <stddef.h>

enum param_type {
    P_INT,    /* long long */
    P_DOUBLE, /* double */
    P_BOOL,   /* int: 0/1; text true/false/yes/no/on/off/1/0 */
    P_STRING, /* char *, owned (strdup) */
    P_TIME,   /* simtime_t, text with a unit: "100 ns" */
    P_SIZE,   /* uint64_t bytes, text with a unit: "64 KiB" */
    P_RATE,   /* double bits/s, text with a unit: "13.5 Gb/s" */
    P_ENUM,   /* int index into choices */
};

struct param {
    const char *key;
    enum param_type type;
    size_t offset;               /* offsetof(struct ..., field) */
    const char *def;             /* default as text; NULL means the key is required */
    const char *help;
    const char *const *choices;  /* P_ENUM: NULL-terminated names */
    /* Inclusive bounds when min < max (P_INT, P_DOUBLE, P_SIZE, P_TIME in ps, P_RATE in b/s).
     * Whatever they say, every type keeps the bounds of what stores it (param_set checks
     * both, in one place): P_INT a long long, P_DOUBLE a finite double, P_TIME 0 to
     * SIMTIME_HORIZON, P_SIZE 0 to 2^62 bytes, P_RATE 0 (the key's "none") or a rate a
     * byterate_t holds (BYTERATE_MIN_BPS to BYTERATE_MAX_BPS). A table's bounds state what
     * narrower type or use a value ends in (a buffer as an int32_t count of credits). */
    double min, max;
    /* Optional: a further check of the parsed value (e.g. an MTU must be a power of two);
     * returns -1 and writes what is expected into why. */
    int (*check)(const void *field, char *why, size_t whylen);
};

#define PARAM_END { NULL, 0, 0, NULL, NULL, NULL, 0, 0, NULL }

/* Parse `text` into the field of `obj` described by p. On failure returns -1 and writes into
 * `why` what was expected (without any file:line: the caller adds the place). */
int param_set(const struct param *p, void *obj, const char *text, char *why, size_t whylen);
/* The field's value as text in scenario syntax (strings quoted). */
void param_format(const struct param *p, const void *obj, char *buf, size_t len);
/* The same without quotes: the text param_set() accepts back. */
void param_format_value(const struct param *p, const void *obj, char *buf, size_t len);
/* Set every field that has a default. Returns -1 (with why) only if a default is malformed. */
int params_set_defaults(const struct param *tab, void *obj, char *why, size_t whylen);
const struct param *params_find(const struct param *tab, const char *key);
/* "a, b, c": the keys of a table, for "expected one of" messages. */
void params_list_keys(const struct param *tab, char *buf, size_t len);
/* Free owned strings. */
void params_free(const struct param *tab, void *obj);

#endif
