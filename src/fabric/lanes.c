/* lanes.c: parsing a flow's lane regimes (lanes.h: ET and AJT in the simulator). */
#include "fabric/lanes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int share_at(const char **s, double *v, char *why, size_t len)
{
    char *end;
    errno = 0;
    *v = strtod(*s, &end);
    if (end == *s || errno || !(*v > 0) || *v > 1) {
        snprintf(why, len, "expected a share of the link in (0, 1] at \"%s\"", *s);
        return -1;
    }
    *s = end;
    return 0;
}

int lanes_parse(const char *text, struct lanes *l, char *why, size_t len)
{
    const char *s = text;
    l->n = 0;
    if (share_at(&s, &l->share[0], why, len))
        return -1;
    l->n = 1;
    while (*s == ' ')
        s++;
    while (*s == ',') {
        s++;
        if (l->n == LANES_MAX) {
            snprintf(why, len, "at most %d regimes (lanes)", LANES_MAX);
            return -1;
        }
        char *end;
        errno = 0;
        long t = strtol(s, &end, 10);
        if (end == s || *end != ':' || errno || t < 1 || t > 1000000) {
            snprintf(why, len, "expected THRESHOLD:SHARE (a message count from 1) at \"%s\"", s);
            return -1;
        }
        if (l->n > 1 && (uint32_t)t <= l->above[l->n - 2]) {
            snprintf(why, len, "thresholds must increase (%ld after %u)", t, l->above[l->n - 2]);
            return -1;
        }
        l->above[l->n - 1] = (uint32_t)t;
        s = end + 1;
        if (share_at(&s, &l->share[l->n], why, len))
            return -1;
        l->n++;
        while (*s == ' ')
            s++;
    }
    if (*s) {
        snprintf(why, len, "unexpected \"%s\" (expected SHARE[,T:SHARE...], e.g. \"0.5,8:1\")", s);
        return -1;
    }
    return 0;
}
