/* seed002_paper4.c: seed 002 Paper IV reproductions on the 648-node fat tree (digest 002b
 * sections 2.5 and 5.1): the silent forest with congestion control off and on (Table II:
 * average receive rate of the hot spots and of the other nodes, total network throughput). */
#include <stdio.h>

#include "repro/repro.h"

/* Average receive rate of the hot spots and of the other hosts, and the total (Gb/s). */
static void classes(const struct repro_series *s, double *hot, double *other, double *total)
{
    double h = 0, o = 0;
    int nh = 0, no = 0;
    for (int i = 0; i < s->nhosts; i++) {
        if (s->host_hot[i])
            h += s->host_rx[i], nh++;
        else
            o += s->host_rx[i], no++;
    }
    *hot = nh ? h / nh : 0;
    *other = no ? o / no : 0;
    *total = h + o;
}

int repro_seed002_paper4(struct repro_table *t, struct ibn_err *e)
{
    struct repro_series off, on;
    if (repro_run("seed002/paper4-silent.cfg", NULL, 0, &off, e))
        return -1;
    if (repro_run("seed002/paper4-silent-ccon.cfg", NULL, 0, &on, e)) {
        repro_series_free(&off);
        return -1;
    }
    double h0, o0, t0, h1, o1, t1;
    classes(&off, &h0, &o0, &t0);
    classes(&on, &h1, &o1, &t1);
    repro_add(t, "p4.silent.off.hot", "Paper IV Table II, silent forest, CC off: hot spots' average "
              "receive rate", "13.602", 13.602, h0, "Gb/s", 1.3602, 0);
    repro_add(t, "p4.silent.off.other", "Paper IV Table II, silent forest, CC off: other nodes' "
              "average receive rate", "0.168", 0.168, o0, "Gb/s", 0.0168, 0);
    repro_add(t, "p4.silent.off.total", "Paper IV Table II, silent forest, CC off: total network "
              "throughput", "216.073", 216.073, t0, "Gb/s", 21.6073, 0);
    repro_add(t, "p4.silent.on.hot", "Paper IV Table II, silent forest, CC on: hot spots' average "
              "receive rate", "13.279", 13.279, h1, "Gb/s", 1.3279, 0);
    repro_add(t, "p4.silent.on.other", "Paper IV Table II, silent forest, CC on: other nodes' "
              "average receive rate", "2.246", 2.246, o1, "Gb/s", 0.2246, 0);
    repro_add(t, "p4.silent.on.total", "Paper IV Table II, silent forest, CC on: total network "
              "throughput", "1543.793", 1543.793, t1, "Gb/s", 154.3793, 0);
    repro_add(t, "p4.silent.gain", "Paper IV: total throughput CC on / off (+610 %, x7.14)", "7.14",
              7.145, t0 > 0 ? t1 / t0 : 0, "x", 0.714, 0);
    repro_series_free(&off);
    repro_series_free(&on);
    return 0;
}
