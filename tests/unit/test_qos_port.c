/* test_qos_port.c: one output port's reservations (seed 001 sections 3.5-3.10): connections
 * of one distance share a VL's sequence with weights recomputed from their total bandwidth,
 * a VL grows another sequence when its entries' weights would pass 255, releases subtract
 * bandwidth and free entries at zero, the reservable share and the link rate bound admission,
 * fragmentation is repaired by repacking (or counted without it), the 4-VL variant, and a
 * long random churn keeps every invariant (qport_check). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <gsl/gsl_rng.h>

#include "qos/arbtab.h"
#include "qos/cesy.h"
#include "qos/qport.h"

static const struct qport_cfg cfg = { .rate_bps = 2.5e9, .cap = 0.8, .method = QOS_CESY, .repack = 1 };

static void ok(const struct qport *p, const struct qport_cfg *c)
{
    char why[160];
    int rc = qport_check(p, c, why, sizeof why);
    if (rc)
        fail_msg("%s", why);
}

static void test_share_and_weights(void **st)
{
    (void)st;
    struct qport p;
    qport_init(&p);
    /* Distance 45 -> 32: two entries. 1 Mb/s = 6.528 units -> 4 per entry (ceil(6.528/2)). */
    assert_int_equal(qport_admit(&p, &cfg, 4, 45, 1e6), QP_OK);
    assert_int_equal(p.vl[4].entries, 2);
    assert_int_equal(p.vl[4].dist, 32);
    assert_int_equal(p.vl[4].weight, 4);
    /* A second connection joins the sequence: total 3 Mb/s = 19.58 units -> 10 per entry, not
     * 4 + ceil(13.06/2) = 11 as per-connection rounding would give. */
    assert_int_equal(qport_admit(&p, &cfg, 4, 40, 2e6), QP_OK);
    assert_int_equal(p.vl[4].nseq, 1);
    assert_int_equal(p.vl[4].weight, 10);
    ok(&p, &cfg);
    /* A stricter request on the same VL is refused; a looser one is served at 32. */
    assert_int_equal(qport_admit(&p, &cfg, 4, 16, 1e6), QP_REJ_DISTANCE);
    assert_int_equal(qport_admit(&p, &cfg, 4, 64, 1e6), QP_OK);
    assert_int_equal(p.vl[4].entries, 2);
    /* Release: weights follow the total, entries freed at zero. */
    qport_release(&p, &cfg, 4, 2e6);
    assert_int_equal(p.vl[4].weight, 7); /* 2 Mb/s = 13.06 units / 2 */
    qport_release(&p, &cfg, 4, 1e6);
    qport_release(&p, &cfg, 4, 1e6);
    assert_int_equal(p.taken, 0);
    assert_int_equal(p.vl[4].dist, 0);
    assert_true(p.reserved == 0);
    ok(&p, &cfg);
}

static void test_more_sequences(void **st)
{
    (void)st;
    struct qport p;
    qport_init(&p);
    /* Distance 64: one entry carries 39.0625 Mb/s. 200 Mb/s needs ceil(1305.6/255) = 6 entries. */
    assert_int_equal(qport_admit(&p, &cfg, 9, 64, 200e6), QP_OK);
    assert_int_equal(p.vl[9].nseq, 6);
    assert_int_equal(p.vl[9].entries, 6);
    assert_int_equal(p.vl[9].weight, 218); /* ceil(1305.6/6) */
    /* Exactly one entry's capacity needs one entry at 255. */
    struct qport q;
    qport_init(&q);
    assert_int_equal(qport_admit(&q, &cfg, 8, 64, 39.0625e6), QP_OK);
    assert_int_equal(q.vl[8].entries, 1);
    assert_int_equal(q.vl[8].weight, 255);
    /* Release down to 30 Mb/s: surplus sequences go, one stays. */
    qport_release(&p, &cfg, 9, 170e6);
    assert_int_equal(p.vl[9].nseq, 1);
    assert_int_equal(p.vl[9].weight, 196); /* ceil(195.84) */
    ok(&p, &cfg);
}

static void test_limits(void **st)
{
    (void)st;
    struct qport p;
    qport_init(&p);
    assert_int_equal(qport_admit(&p, &cfg, 9, 64, 3e9), QP_REJ_LINK);
    assert_int_equal(qport_admit(&p, &cfg, 9, 64, 2.1e9), QP_REJ_BW); /* above 80 % */
    assert_int_equal(qport_admit(&p, &cfg, 9, 1, 1e6), QP_REJ_DISTANCE);
    assert_int_equal(qport_admit(&p, &cfg, 0, 2, 1e6), QP_OK);   /* 32 entries */
    assert_int_equal(qport_admit(&p, &cfg, 1, 2, 1e6), QP_OK);   /* 32 more: full */
    assert_int_equal(qport_admit(&p, &cfg, 2, 64, 1e6), QP_REJ_TABLE);
    assert_int_equal(p.nseq, 2);
    ok(&p, &cfg);
    /* The cap is configurable. */
    struct qport_cfg c2 = cfg;
    c2.cap = 1.0;
    qport_init(&p);
    assert_int_equal(qport_admit(&p, &c2, 9, 64, 2.1e9), QP_OK);
}

/* Construct fragmentation directly: four d=64 VLs at 0,16,8,24 remain, 32,48,40,56 freed; the
 * rest taken by d=2 and d=4 sequences; a d=16 request then needs a repack. */
static void test_repack(void **st)
{
    (void)st;
    struct qport_cfg norep = cfg;
    norep.repack = 0;
    struct qport p, q;
    qport_init(&p);
    for (int v = 0; v < 8; v++) /* entries 0, 32, 16, 48, 8, 40, 24, 56 */
        assert_int_equal(qport_admit(&p, &norep, v, 64, 1e6), QP_OK);
    assert_int_equal(qport_admit(&p, &norep, 8, 2, 1e6), QP_OK);  /* odd entries */
    assert_int_equal(qport_admit(&p, &norep, 9, 4, 1e6), QP_OK);  /* 2, 6, 10, ... */
    assert_int_equal(qport_admit(&p, &norep, 10, 8, 1e6), QP_OK); /* 4, 12, 20, ... */
    assert_int_equal(64 - arbtab_count(p.taken), 0);
    for (int v = 1; v < 8; v += 2)
        qport_release(&p, &norep, v, 1e6);
    assert_int_equal(64 - arbtab_count(p.taken), 4);
    memcpy(&q, &p, sizeof q);
    assert_int_equal(qport_admit(&p, &norep, 11, 16, 1e6), QP_REJ_FRAG);
    ok(&p, &norep);
    assert_int_equal(qport_admit(&q, &cfg, 11, 16, 1e6), QP_OK);
    assert_int_equal(q.repacks, 1);
    assert_int_equal(q.taken, ~0ull);
    ok(&q, &cfg);
}

static void test_four_vls(void **st)
{
    (void)st;
    struct qport_cfg c4 = cfg;
    c4.allowed = (1u << 4) | (1u << 6);
    struct qport p;
    qport_init(&p);
    assert_int_equal(qport_admit(&p, &c4, 1, 45, 1e6), QP_OK); /* 32 -> 16 */
    assert_int_equal(p.vl[1].dist, 16);
    assert_int_equal(p.vl[1].entries, 4);
    assert_int_equal(qport_admit(&p, &c4, 1, 8, 1e6), QP_REJ_DISTANCE);
    assert_int_equal(qport_admit(&p, &c4, 0, 64, 1e6), QP_OK);
    ok(&p, &c4);
}

static void test_churn(void **st)
{
    (void)st;
    for (int method = 0; method < 2; method++) {
        struct qport_cfg c = cfg;
        c.method = method ? QOS_CENRE : QOS_CESY;
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, 11);
        struct qport p;
        qport_init(&p);
        struct { int vl; double bw; } live[4096];
        int n = 0, acc = 0;
        static const int sld[10] = { 2, 4, 8, 16, 32, 32, 64, 64, 64, 64 };
        for (int k = 0; k < 20000; k++) {
            if (n && (n == 4096 || gsl_rng_uniform(r) < 0.45)) {
                int i = (int)gsl_rng_uniform_int(r, (unsigned long)n);
                qport_release(&p, &c, live[i].vl, live[i].bw);
                live[i] = live[--n];
            } else {
                int sl = (int)gsl_rng_uniform_int(r, 10);
                double bw = sl == 9 ? 64e6 + gsl_rng_uniform(r) * 191e6 : 0.064e6 + gsl_rng_uniform(r) * 20e6;
                if (qport_admit(&p, &c, sl, sld[sl], bw) == QP_OK)
                    live[n].vl = sl, live[n++].bw = bw, acc++;
            }
            if (k % 97 == 0)
                ok(&p, &c);
        }
        ok(&p, &c);
        assert_true(acc > 1000);
        gsl_rng_free(r);
    }
}

static void test_opensm_string(void **st)
{
    (void)st;
    struct qport p;
    qport_init(&p);
    assert_int_equal(qport_admit(&p, &cfg, 3, 32, 1e6), QP_OK); /* entries 0 and 32, weight 4 */
    char buf[1024];
    qport_high_string(&p, buf, sizeof buf);
    assert_int_equal(strncmp(buf, "3:4,0:0,0:0", 11), 0);
    struct vlarb_entry e[64];
    uint8_t n;
    char why[64];
    assert_int_equal(vlarb_parse_entries(buf, e, &n, why, sizeof why), 0);
    assert_int_equal(n, 64);
    assert_int_equal(e[32].vl, 3);
    assert_int_equal(e[32].weight, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_share_and_weights), cmocka_unit_test(test_more_sequences),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_repack),            cmocka_unit_test(test_four_vls),
        cmocka_unit_test(test_churn),             cmocka_unit_test(test_opensm_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
