/* test_mft.c: multicast forwarding tables: source-based trees on seed 004's 15-switch networks
 * deliver exactly one copy to every member from every source (checked by walking the masks as
 * switches forward), the check catches a missing member, a duplicate and a stray copy, and
 * OpenSM's opensm-mfts.dump form: a hand-written dump is read as written and written back byte
 * for byte; bad dumps fail with file:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routing/lft.h"
#include "routing/mft.h"
#include "routing/mft_dump.h"
#include "routing/route.h"
#include "topology/generate.h"

static char tmpdir[] = "/tmp/ibn_mft_XXXXXX";

static void path(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void write_text(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
}

static char *read_text(const char *p)
{
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static int host_port(const struct topo *t, const char *name, struct ca_port *cp)
{
    int n = topo_find(t, name);
    if (n < 0)
        return -1;
    cp->node = n;
    cp->port = 1;
    return 0;
}

/* Switch hops of the unicast route from CA port a to CA port b (first principles: walk the LFT). */
static int route_hops(const struct topo *t, const struct lfts *l, struct ca_port a, struct ca_port b)
{
    int node = t->node[a.node].port[a.port].peer_node, hops = 0, lid = t->node[b.node].port[b.port].lid;
    while (t->node[node].type == TOPO_SWITCH) {
        int out = lft_port(l, node, lid);
        node = t->node[node].port[out].peer_node;
        hops++;
    }
    return hops;
}

static void test_trees(void **state)
{
    (void)state;
    struct ibn_err e = { { 0 } };
    for (int seed = 1; seed <= 3; seed++) {
        struct topo t;
        struct lfts l;
        assert_int_equal(topo_generate("irregular", "switches=15,ports=5,hosts=1,links=23,planar=1",
                                       (uint64_t)seed, &t, &e), 0);
        assert_int_equal(route_compute(&t, "spf", NULL, &l, &e), 0);
        /* Seed 004's three groups of two or four members. */
        const char *groups[3][4] = { { "H2", "H9", NULL, NULL },
                                     { "H1", "H5", "H11", "H14" },
                                     { "H3", "H7", "H8", "H15" } };
        struct mfts m;
        mfts_init(&m, &t, MLID_FIRST);
        int mlid = MLID_FIRST;
        for (int g = 0; g < 3; g++) {
            struct ca_port mb[4];
            int n = 0;
            for (int k = 0; k < 4 && groups[g][k]; k++)
                assert_int_equal(host_port(&t, groups[g][k], &mb[n++]), 0);
            for (int s = 1; s <= 15; s++, mlid++) {
                char name[8];
                snprintf(name, sizeof name, "H%d", s);
                struct ca_port src;
                assert_int_equal(host_port(&t, name, &src), 0);
                if (mft_source_tree(&m, &t, &l, mlid, src, mb, n, &e))
                    fail_msg("%s", e.msg);
                int copies, hops;
                if (mft_check(&m, &t, mlid, src, mb, n, &copies, &hops, &e))
                    fail_msg("seed %d group %d source %s: %s", seed, g, name, e.msg);
                /* A tree: no more copies than the unicast routes' hops together, and no fewer
                 * than one per member; no member further than the longest route plus the
                 * diameter of the 15-switch network (a suffix attached deeper). */
                int sum = 0, longest = 0, others = 0;
                for (int k = 0; k < n; k++) {
                    if (mb[k].node == src.node)
                        continue;
                    int h = route_hops(&t, &l, src, mb[k]);
                    sum += h;
                    if (h > longest)
                        longest = h;
                    others++;
                }
                assert_true(copies >= others);
                assert_true(copies <= sum);
                assert_true(hops >= longest);
            }
        }
        /* 3 groups x 15 sources: 45 entries at every switch at most (seed 004's 3 x 15). */
        assert_int_equal(m.nmlid, 45);
        mfts_free(&m);
        lfts_free(&l);
        topo_free(&t);
    }
}

/* The check sees a missing member, a second copy and a copy to a host that did not join. */
static void test_check_catches(void **state)
{
    (void)state;
    struct ibn_err e = { { 0 } };
    struct topo t;
    struct lfts l;
    assert_int_equal(topo_generate("irregular", "switches=15,ports=5,hosts=1,links=23,planar=1", 1,
                                   &t, &e), 0);
    assert_int_equal(route_compute(&t, "spf", NULL, &l, &e), 0);
    struct ca_port src, mb[2];
    host_port(&t, "H1", &src);
    host_port(&t, "H6", &mb[0]);
    host_port(&t, "H12", &mb[1]);
    struct mfts m;
    mfts_init(&m, &t, MLID_FIRST);
    assert_int_equal(mft_source_tree(&m, &t, &l, MLID_FIRST, src, mb, 2, &e), 0);
    assert_int_equal(mft_check(&m, &t, MLID_FIRST, src, mb, 2, NULL, NULL, &e), 0);
    /* Drop the member's port at its switch: missed. */
    int sw = t.node[mb[1].node].port[1].peer_node, sp = t.node[mb[1].node].port[1].peer_port;
    uint64_t *w = mft_mask(&m, sw, MLID_FIRST);
    w[sp >> 6] &= ~(1ULL << (sp & 63));
    assert_int_equal(mft_check(&m, &t, MLID_FIRST, src, mb, 2, NULL, NULL, &e), -1);
    assert_non_null(strstr(e.msg, "receives 0 copies"));
    w[sp >> 6] |= 1ULL << (sp & 63);
    /* Every port of every switch: copies loop back into switches already reached. */
    struct mfts all;
    mfts_init(&all, &t, MLID_FIRST);
    for (int i = 0; i < t.nnodes; i++)
        if (t.node[i].type == TOPO_SWITCH)
            for (int p = 1; p <= t.node[i].nports; p++)
                mft_set(&all, i, MLID_FIRST, p);
    assert_int_equal(mft_check(&all, &t, MLID_FIRST, src, mb, 2, NULL, NULL, &e), -1);
    assert_non_null(strstr(e.msg, "second copy"));
    /* A host that did not join gets a copy. */
    /* (a host on a switch of the tree between the source and the members: the walk passes it) */
    char stray[16] = "";
    for (int k = 2; k <= 15 && !*stray; k++) {
        char name[16];
        snprintf(name, sizeof name, "H%d", k);
        struct ca_port h = { 0, 1 };
        assert_int_equal(host_port(&t, name, &h), 0);
        int hs = t.node[h.node].port[1].peer_node;
        const uint64_t *hw = mft_mask(&m, hs, MLID_FIRST);
        if (h.node == mb[0].node || h.node == mb[1].node || !hw || !hw[0])
            continue;
        mft_set(&m, hs, MLID_FIRST, t.node[h.node].port[1].peer_port);
        snprintf(stray, sizeof stray, "%s", name);
    }
    assert_true(*stray);
    assert_int_equal(mft_check(&m, &t, MLID_FIRST, src, mb, 2, NULL, NULL, &e), -1);
    char needle[64];
    snprintf(needle, sizeof needle, "%s port 1 is not a member", stray);
    if (!strstr(e.msg, needle))
        fail_msg("\"%s\" lacks \"%s\"", e.msg, needle);
    /* An MLID outside 0xC000-0xFFFE is refused. */
    assert_int_equal(mft_source_tree(&m, &t, &l, 0xFFFF, src, mb, 2, &e), -1);
    assert_non_null(strstr(e.msg, "outside the multicast range"));
    mfts_free(&all);
    mfts_free(&m);
    lfts_free(&l);
    topo_free(&t);
}

/* A dump written by hand in OpenSM's form (dump_mcast_routes: a blank line, "Switch 0xGUID",
 * the header, "0xMLID :" and " 0xPPP " per port) is read as written and written back the same. */
static void test_dump(void **state)
{
    (void)state;
    struct ibn_err e = { { 0 } };
    struct topo t;
    assert_int_equal(topo_generate("testbed002", "", 1, &t, &e), 0);
    int s1 = topo_find(&t, "S1"), s2 = topo_find(&t, "S2");
    uint64_t g1 = t.node[s1].guid, g2 = t.node[s2].guid;
    assert_true(g1 < g2);
    char text[2048], p[256];
    snprintf(text, sizeof text,
             "\nSwitch 0x%016" PRIx64 "\nLID    : Out Port(s)\n"
             "0xC000 : 0x001  0x003 \n"
             "0xC002 : 0x000  0x010 \n"
             "\nSwitch 0x%016" PRIx64 "\nLID    : Out Port(s)\n"
             "0xC001 : 0x002 \n",
             g1, g2);
    path(p, sizeof p, "mfts.dump");
    write_text(p, text);
    struct mfts m;
    if (mft_dump_read(p, &t, &m, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(m.nmlid, 3);
    assert_true(mft_has(&m, s1, 0xC000, 1) && mft_has(&m, s1, 0xC000, 3));
    assert_false(mft_has(&m, s1, 0xC000, 2));
    assert_true(mft_has(&m, s1, 0xC002, 0) && mft_has(&m, s1, 0xC002, 16));
    assert_true(mft_has(&m, s2, 0xC001, 2));
    assert_false(mft_has(&m, s2, 0xC000, 1));
    char q[256];
    path(q, sizeof q, "mfts2.dump");
    assert_int_equal(mft_dump_write(q, &t, &m, &e), 0);
    assert_string_equal(read_text(q), text);
    mfts_free(&m);

    struct {
        const char *text, *needle;
    } bad[] = {
        { "0xC000 : 0x001\n", "mfts.dump:1: MFT entry before any \"Switch 0xGUID\" line" },
        { "Switch 0x00000000000000ab\n", "mfts.dump:1: switch with GUID 0x00000000000000ab is not" },
        { "hello\n", "mfts.dump:1: expected \"Switch 0xGUID\"" },
        { "Switch banana\n", "mfts.dump:1: expected \"Switch 0xGUID\"" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(p, bad[i].text);
        assert_int_equal(mft_dump_read(p, &t, &m, &e), -1);
        if (!strstr(e.msg, bad[i].needle))
            fail_msg("\"%s\" lacks \"%s\"", e.msg, bad[i].needle);
    }
    const char *entries[][2] = {
        { "0x0001 : 0x001\n", "mfts.dump:3: MLID 0x0001 is outside the multicast range" },
        { "0xC000 : 0x0FF\n", "mfts.dump:3: port 255 is out of range" },
        { "0xC000 0x001\n", "mfts.dump:3: expected \":\" after MLID 0xC000" },
        { "0xC000 : banana\n", "mfts.dump:3: expected port numbers" },
        { "0xC000 :\n", "mfts.dump:3: MLID 0xC000 has no output port" },
    };
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        snprintf(text, sizeof text, "Switch 0x%016" PRIx64 "\nLID    : Out Port(s)\n%s", g1,
                 entries[i][0]);
        write_text(p, text);
        assert_int_equal(mft_dump_read(p, &t, &m, &e), -1);
        if (!strstr(e.msg, entries[i][1]))
            fail_msg("\"%s\" lacks \"%s\"", e.msg, entries[i][1]);
    }
    topo_free(&t);
}

/* OpenSM's spanning tree (mft_osm.c), worked by hand on a ring of four switches A-B-C-D-A, each
 * with one host on port 1; port 2 goes clockwise (A->B->C->D->A), port 3 back. The switch GUIDs
 * are chosen so that OpenSM's map order (byte-reversed GUID) is D, C, B, A while the numeric
 * order is A, B, C, D. */
static void test_opensm_tree(void **state)
{
    (void)state;
    struct ibn_err e = { { 0 } };
    struct topo t;
    topo_init(&t);
    const char *sn[4] = { "A", "B", "C", "D" }, *hn[4] = { "HA", "HB", "HC", "HD" };
    int sw[4], h[4];
    for (int i = 0; i < 4; i++) {
        sw[i] = topo_add_node(&t, TOPO_SWITCH, sn[i], 3);
        t.node[sw[i]].guid = 0x0002c90000000000ULL | (uint64_t)(i + 1) << 24 | (uint64_t)(4 - i);
    }
    for (int i = 0; i < 4; i++) {
        h[i] = topo_add_node(&t, TOPO_CA, hn[i], 1);
        t.node[h[i]].guid = 0x0002c90100000000ULL | (uint64_t)(i + 1);
        assert_int_equal(topo_connect(&t, h[i], 1, sw[i], 1, 4, IB_QDR, 0, 0, &e), 0);
    }
    for (int i = 0; i < 4; i++)
        assert_int_equal(topo_connect(&t, sw[i], 2, sw[(i + 1) % 4], 3, 4, IB_QDR, 0, 0, &e), 0);
    topo_assign_lids(&t, 0);
    topo_assign_guids(&t);
    struct hoptab ht;
    hoptab_init(&ht, &t);
    hoptab_minhop(&ht, &t);
    struct {
        int members[3], n;
        int mask[4][3]; /* per switch A..D: ports in its mask, 0-ended */
    } cases[] = {
        /* HA, HC: B and D both have max hops 2 (1 + 1 to each side): D is first in OpenSM's
         * order (numeric order would pick B and give A {1,2}, B {2,3}, C {1,3}). */
        { { 0, 2 }, 2, { { 1, 3 }, { 0 }, { 1, 2 }, { 2, 3 } } },
        /* HB, HD: A and C tie; C is first. C sends to B on 3, to D on 2. */
        { { 1, 3 }, 2, { { 0 }, { 1, 2 }, { 2, 3 }, { 1, 3 } } },
        /* HA, HB, HC: only B has max hops 2; its own host on port 1. */
        { { 0, 1, 2 }, 3, { { 1, 2 }, { 1, 2, 3 }, { 1, 3 }, { 0 } } },
        /* one member port (HA twice): no entries, as OpenSM ("nothing to do") */
        { { 0, 0 }, 2, { { 0 }, { 0 }, { 0 }, { 0 } } },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct mfts m;
        mfts_init(&m, &t, MLID_FIRST);
        struct ca_port mb[3];
        for (int k = 0; k < cases[c].n; k++)
            mb[k] = (struct ca_port){ h[cases[c].members[k]], 1 };
        if (mft_opensm_tree(&m, &t, &ht, 0xC000, mb, cases[c].n, &e))
            fail_msg("case %zu: %s", c, e.msg);
        for (int i = 0; i < 4; i++) {
            int want[4] = { 0 };
            for (int k = 0; k < 3 && cases[c].mask[i][k]; k++)
                want[cases[c].mask[i][k]] = 1;
            for (int p = 0; p <= 3; p++)
                if (mft_has(&m, sw[i], 0xC000, p) != want[p])
                    fail_msg("case %zu: switch %s port %d is %s the mask", c, sn[i], p,
                             want[p] ? "missing from" : "wrongly in");
        }
        /* Every member's packet reaches every other member exactly once (a shared tree). */
        for (int k = 0; k < cases[c].n && cases[c].members[0] != cases[c].members[1]; k++)
            if (mft_check(&m, &t, 0xC000, mb[k], mb, cases[c].n, NULL, NULL, &e))
                fail_msg("case %zu: %s", c, e.msg);
        /* Written in OpenSM's switch order: D before C before B before A. */
        if (c == 2) {
            char p[256];
            path(p, sizeof p, "osmtree.dump");
            assert_int_equal(mft_dump_write(p, &t, &m, &e), 0);
            char want[1024];
            snprintf(want, sizeof want,
                     "\nSwitch 0x%016" PRIx64 "\nLID    : Out Port(s)\n0xC000 : 0x001  0x003 \n"
                     "\nSwitch 0x%016" PRIx64 "\nLID    : Out Port(s)\n0xC000 : 0x001  0x002  0x003 \n"
                     "\nSwitch 0x%016" PRIx64 "\nLID    : Out Port(s)\n0xC000 : 0x001  0x002 \n",
                     t.node[sw[2]].guid, t.node[sw[1]].guid, t.node[sw[0]].guid);
            assert_string_equal(read_text(p), want);
        }
        mfts_free(&m);
    }
    assert_int_equal(mft_opensm_tree(NULL, &t, &ht, 0x1234, NULL, 0, &e), -1);
    assert_non_null(strstr(e.msg, "outside the multicast range"));
    hoptab_free(&ht);
    topo_free(&t);
}

int main(void)
{
    if (!mkdtemp(tmpdir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trees),
        cmocka_unit_test(test_check_catches),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_opensm_tree),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
