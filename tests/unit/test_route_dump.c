/* test_route_dump.c: OpenSM's LFT dump format: write then read gives the same tables, LIDs
 * are translated through port GUIDs, bad dumps fail with file:line; OpenSM's min-hop matrix
 * check accepts right rows and names the first wrong one; GUIDs in OpenSM's (byte-reversed, x86)
 * map order for the destination order and the dump's switch order. */
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

#include "routing/hoptab.h"
#include "routing/lft_build.h"
#include "routing/lft_dump.h"
#include "routing/route.h"
#include "topology/generate.h"
#include "topology/topo_read.h"

static char tmpdir[] = "/tmp/ibn_dump_XXXXXX";

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

static void assert_same(const struct topo *t, const struct lfts *a, const struct lfts *b)
{
    assert_int_equal(a->max_lid, b->max_lid);
    for (int i = 0; i < t->nnodes; i++) {
        if (!a->table[i]) {
            assert_null(b->table[i]);
            continue;
        }
        assert_memory_equal(a->table[i], b->table[i], (size_t)a->max_lid + 1);
    }
}

static void roundtrip(const struct topo *t, const char *engine)
{
    struct ibn_err e = { { 0 } };
    struct lfts a, b;
    char p[256];
    path(p, sizeof p, "rt.dump");
    assert_int_equal(route_compute(t, engine, NULL, &a, &e), 0);
    assert_int_equal(lft_dump_write(p, t, &a, &e), 0);
    if (lft_dump_read(p, t, &b, &e))
        print_error("%s\n", e.msg);
    assert_same(t, &a, &b);
    lfts_free(&a);
    lfts_free(&b);
}

static void test_roundtrip(void **state)
{
    (void)state;
    struct topo t;
    struct ibn_err e;
    assert_int_equal(topo_generate("fattree", "ports=12,levels=2", 1, &t, &e), 0);
    roundtrip(&t, "minhop");
    roundtrip(&t, "ftree");
    topo_free(&t);
    assert_int_equal(topo_generate("irregular", "switches=8", 5, &t, &e), 0);
    roundtrip(&t, "spf");
    topo_free(&t);
    const char *x5 = IBN_SOURCE_DIR "/../shared/topologies/x5-cluster.topo";
    if (access(x5, R_OK) == 0) {
        assert_int_equal(topo_read_file(x5, &t, &e), 0);
        roundtrip(&t, "minhop");
        roundtrip(&t, "updn");
        topo_free(&t);
    } else {
        printf("note: %s absent, its round trip is not run\n", x5);
    }
}

/* A two-switch fabric (the seed 002 testbed) whose dump uses other LIDs than the topology:
 * entries are moved to the topology's LIDs through their portguid comments. */
static void test_remap_and_errors(void **state)
{
    (void)state;
    struct topo t;
    struct ibn_err e = { { 0 } };
    assert_int_equal(topo_generate("testbed002", "", 1, &t, &e), 0);
    int s1 = topo_find(&t, "S1"), s2 = topo_find(&t, "S2"), h1 = topo_find(&t, "H1"),
        h5 = topo_find(&t, "H5");
    char text[2048], p[256];
    path(p, sizeof p, "remap.dump");
    /* In the dump H1 has LID 0x40 and H5 0x41; the topology gave them other LIDs. */
    snprintf(text, sizeof text,
             "Unicast lids [0-65] of switch Lid 99 guid 0x%016" PRIx64 " ('S1'):\n"
             "0x0040 001 # Channel Adapter portguid 0x%016" PRIx64 ": 'H1'\n"
             "0x0041 036 # Channel Adapter portguid 0x%016" PRIx64 ": 'H5'\n"
             "65 lids dumped\n"
             "Unicast lids [0-65] of switch Lid 98 guid 0x%016" PRIx64 " ('S2'):\n"
             "65 lids dumped\n",
             t.node[s1].guid, t.node[h1].port[1].guid, t.node[h5].port[1].guid,
             t.node[s2].guid);
    write_text(p, text);
    struct lfts l;
    if (lft_dump_read(p, &t, &l, &e))
        print_error("%s\n", e.msg);
    assert_int_equal(lft_port(&l, s1, t.node[h1].port[1].lid), 1);
    assert_int_equal(lft_port(&l, s1, t.node[h5].port[1].lid), 36);
    assert_string_equal(l.note, "");
    lfts_free(&l);

    /* Defects of a dump that parses line by line: each refused with its line, or (an unknown
     * port GUID) warned about. S1's and S2's headers, then the body. */
    char s1h[128], s2s[160], h1e[128];
    snprintf(s1h, sizeof s1h, "Unicast lids [0-65] of switch Lid 99 guid 0x%016" PRIx64 " ('S1'):\n",
             t.node[s1].guid);
    snprintf(s2s, sizeof s2s, "Unicast lids [0-65] of switch Lid 98 guid 0x%016" PRIx64
             " ('S2'):\n65 lids dumped\n", t.node[s2].guid);
    snprintf(h1e, sizeof h1e, "0x0040 001 # Channel Adapter portguid 0x%016" PRIx64 ": 'H1'\n",
             t.node[h1].port[1].guid);
    struct {
        const char *s1body, *needle;
        int with_s2;
    } defects[] = {
        { "%s%s65 lids dumped\n", "remap.dump:3: switch S1: a second entry for LID 0x0040 (the first is at line 2)", 1 },
        { "%s", "remap.dump:3: the section of switch S1 (line 1) ends without its \"N lids dumped\" line", 1 },
        { "%s64 lids dumped\n", "remap.dump:3: \"64 lids dumped\", but the section of switch S1", 1 },
        { "0x0042 001 # x\n65 lids dumped\n", "remap.dump:2: LID 0x0042 is beyond the section's LIDs 0-65", 1 },
        { "%s65 lids dumped\n", "the dump ends without a section for switch S2", 0 },
    };
    for (size_t i = 0; i < sizeof defects / sizeof defects[0]; i++) {
        char body[1024];
        int n = snprintf(body, sizeof body, "%s", s1h);
        n += snprintf(body + n, sizeof body - (size_t)n, defects[i].s1body, h1e, h1e);
        if (defects[i].with_s2)
            snprintf(body + n, sizeof body - (size_t)n, "%s", s2s);
        write_text(p, body);
        assert_int_equal(lft_dump_read(p, &t, &l, &e), -1);
        if (!strstr(e.msg, defects[i].needle))
            print_error("defect %zu: \"%s\" lacks \"%s\"\n", i, e.msg, defects[i].needle);
        assert_non_null(strstr(e.msg, defects[i].needle));
    }
    /* A second section for S1. */
    snprintf(text, sizeof text, "%s%s65 lids dumped\n%s%s65 lids dumped\n%s", s1h, h1e, s1h, h1e, s2s);
    write_text(p, text);
    assert_int_equal(lft_dump_read(p, &t, &l, &e), -1);
    assert_non_null(strstr(e.msg, "remap.dump:4: switch S1 has a second section (the first is at line 1)"));
    /* An entry naming a port GUID the topology lacks: read, with a warning naming its line. */
    snprintf(text, sizeof text, "%s0x%04x 001 # Channel Adapter portguid 0x00000000deadbeef: 'x'\n"
             "65 lids dumped\n%s", s1h, t.node[h1].port[1].lid, s2s);
    write_text(p, text);
    if (lft_dump_read(p, &t, &l, &e))
        print_error("%s\n", e.msg);
    assert_int_equal(lft_port(&l, s1, t.node[h1].port[1].lid), 1);
    assert_non_null(strstr(l.note, "remap.dump:2: portguid 0x00000000deadbeef is not a port of the topology"));
    lfts_free(&l);

    struct {
        const char *text, *needle;
    } bad[] = {
        { "0x0001 001 # x\n", "remap.dump:1: LFT entry before any" },
        { "Unicast lids [0-3] of switch Lid 77 guid 0x00000000000000ab ('x'):\n",
          "remap.dump:1: switch with GUID 0x00000000000000ab is not in the topology" },
        { "hello\n", "remap.dump:1: expected an OpenSM LFT dump line" },
        { "", "no \"Unicast lids ... of switch\" section" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(p, bad[i].text);
        assert_int_equal(lft_dump_read(p, &t, &l, &e), -1);
        if (!strstr(e.msg, bad[i].needle))
            print_error("\"%s\" lacks \"%s\"\n", e.msg, bad[i].needle);
        assert_non_null(strstr(e.msg, bad[i].needle));
    }
    snprintf(text, sizeof text,
             "Unicast lids [0-3] of switch Lid 1 guid 0x%016" PRIx64 " ('S1'):\n"
             "0x0001 040 # Channel Adapter portguid 0x0000000000000001: 'x'\n", t.node[s1].guid);
    write_text(p, text);
    assert_int_equal(lft_dump_read(p, &t, &l, &e), -1);
    assert_non_null(strstr(e.msg, "remap.dump:2: port 40 is out of range"));
    snprintf(text, sizeof text,
             "Unicast lids [0-3] of switch Lid 1 guid 0x%016" PRIx64 " ('S1'):\n"
             "0x0001 banana\n", t.node[s1].guid);
    write_text(p, text);
    assert_int_equal(lft_dump_read(p, &t, &l, &e), -1);
    assert_non_null(strstr(e.msg, "remap.dump:2: expected a port number"));
    topo_free(&t);
}

static void test_lid_matrix(void **state)
{
    (void)state;
    struct topo t;
    struct ibn_err e = { { 0 } };
    assert_int_equal(topo_generate("testbed002", "", 1, &t, &e), 0);
    int s1 = topo_find(&t, "S1"), s2 = topo_find(&t, "S2");
    /* S1 to S2: port 0 one hop, port 36 (the link) one hop, every other port none. */
    char text[4096], p[256];
    size_t k = 0;
    k += (size_t)snprintf(text + k, sizeof text - k, "Switch: guid 0x%016" PRIx64 "\n",
                          t.node[s1].guid);
    for (int target = 0; target < 2; target++) {
        int sw = target ? s2 : s1;
        k += (size_t)snprintf(text + k, sizeof text - k, "0x%04x:", t.node[sw].port[0].lid);
        for (int port = 0; port <= 36; port++) {
            int v = port == 0 ? target : port == 36 ? (target ? 1 : 2) : 0xff;
            k += (size_t)snprintf(text + k, sizeof text - k, " %02x", v);
        }
        k += (size_t)snprintf(text + k, sizeof text - k, " # portguid 0x%016" PRIx64 "\n",
                              t.node[sw].guid);
    }
    path(p, sizeof p, "lidm.dump");
    write_text(p, text);
    int rows = 0;
    if (lid_matrix_compare(p, &t, NULL, &rows, &e))
        print_error("%s\n", e.msg);
    assert_int_equal(rows, 2);
    /* Change S1's hop count to S2 through port 36 from 1 to 3. */
    char *last = strrchr(text, '#');
    char *tok = last - 3; /* " 01 " before the comment */
    assert_memory_equal(tok, "01 ", 3);
    tok[1] = '3';
    write_text(p, text);
    assert_int_equal(lid_matrix_compare(p, &t, NULL, &rows, &e), -1);
    assert_non_null(strstr(e.msg, "lidm.dump:3: switch S1, destination switch S2, port 36: "
                                  "OpenSM has 3 hops, ibnetsim 1"));
    topo_free(&t);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* OpenSM keeps GUIDs in maps keyed by the network-order value compared as a native integer:
 * on x86 the byte-reversed GUID decides. Switches of equal host counts are destinations in
 * that order, and opensm-lfts.dump lists switches in it. */
static void test_osm_guid_order(void **state)
{
    (void)state;
    assert_true(topo_guid_cmp_osm(0x0002c90001000002ULL, 0x0002c90002000001ULL) > 0);
    assert_true(topo_guid_cmp_osm(0x0000000000000100ULL, 0x0000000000000001ULL) < 0);
    assert_int_equal(topo_guid_cmp_osm(0x1234ULL, 0x1234ULL), 0);
    struct topo t;
    struct ibn_err e = { { 0 } };
    assert_int_equal(topo_generate("clos3", "ports=8,leaves=4,spines=2,hosts=6", 1, &t, &e), 0);
    /* Numeric order by switch number, byte-reversed order the other way round. */
    int nsw = 0;
    for (int i = 0; i < t.nnodes; i++)
        if (t.node[i].type == TOPO_SWITCH) {
            t.node[i].guid = 0x0002c90000000000ULL | (uint64_t)(nsw + 1) << 24 | (uint64_t)(16 - nsw);
            t.node[i].port[0].guid = t.node[i].guid;
            nsw++;
        }
    struct hoptab h;
    hoptab_init(&h, &t);
    hoptab_minhop(&h, &t);
    struct lft_dest *d;
    int nd = lft_dest_order(&t, &h, NULL, &d);
    /* The four leaves carry 6 hosts each: their hosts come first, the leaf with the highest
     * numeric GUID (the lowest byte-reversed one) first. */
    int last_leaf = -1, leaves_seen = 0;
    uint64_t prev = 0;
    for (int k = 0; k < nd && leaves_seen < 4; k++) {
        if (d[k].T == last_leaf)
            continue;
        uint64_t g = t.node[h.sw[d[k].T]].guid;
        if (leaves_seen)
            assert_true(g < prev);
        prev = g;
        last_leaf = d[k].T;
        leaves_seen++;
    }
    assert_int_equal(leaves_seen, 4);
    free(d);
    hoptab_free(&h);
    /* The dump lists switches in the same order: descending numeric GUID here. */
    struct lfts l;
    char p[256];
    path(p, sizeof p, "order.dump");
    assert_int_equal(route_compute(&t, "minhop", NULL, &l, &e), 0);
    assert_int_equal(lft_dump_write(p, &t, &l, &e), 0);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char line[512];
    int nsec = 0;
    prev = UINT64_MAX;
    while (fgets(line, sizeof line, f)) {
        const char *gs = strstr(line, " guid 0x");
        if (strncmp(line, "Unicast lids", 12) || !gs)
            continue;
        uint64_t g = strtoull(gs + 6, NULL, 16);
        assert_true(g < prev);
        prev = g;
        nsec++;
    }
    fclose(f);
    assert_int_equal(nsec, nsw);
    lfts_free(&l);
    topo_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_remap_and_errors),
        cmocka_unit_test(test_lid_matrix),
        cmocka_unit_test(test_osm_guid_order),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
