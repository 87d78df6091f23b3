/* test_topo_read.c: the ibnetdiscover / ibsim net reader on every shared real topology file,
 * the writer's round trip, and file:line errors on bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topology/topo_read.h"
#include "topology/topo_write.h"

#define SHARED IBN_SOURCE_DIR "/../shared/topologies"

static int have_shared(void)
{
    if (access(SHARED "/x5-cluster.topo", R_OK) == 0)
        return 1;
    printf("SKIP: %s is absent (a clone of the project alone)\n", SHARED);
    return 0;
}

static int read_shared(const char *file, struct topo *t)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", SHARED, file);
    struct ibn_err e = { { 0 } };
    int rc = topo_read_file(path, t, &e);
    if (rc)
        print_error("%s\n", e.msg);
    return rc;
}

static int find_desc(const struct topo *t, const char *name)
{
    int i = topo_find(t, name);
    if (i < 0)
        print_error("no node named \"%s\"\n", name);
    return i;
}

static int count_warnings(const struct topo *t, const char *needle)
{
    int c = 0;
    for (int i = 0; i < t->nwarn; i++)
        c += strstr(t->warn[i], needle) != NULL;
    return c;
}

static void test_x5(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    struct topo t;
    assert_int_equal(read_shared("x5-cluster.topo", &t), 0);
    assert_int_equal(topo_count(&t, TOPO_SWITCH), 11);
    assert_int_equal(topo_count(&t, TOPO_CA), 89);
    /* Repeated descriptions get the GUID appended; unique ones stay as they are. */
    int h = find_desc(&t, "MT25408 ConnectX Mellanox Technologies 0x003048c749cd0000");
    assert_true(h >= 0);
    assert_int_equal(t.node[h].port[1].lid, 72);
    assert_int_equal(t.node[h].port[1].width, 4);
    assert_int_equal(t.node[h].port[1].speed, IB_DDR);
    assert_true(t.node[h].port[1].guid == 0x3048c749cd0001ULL);
    int s = t.node[h].port[1].peer_node;
    assert_int_equal(t.node[s].type, TOPO_SWITCH);
    assert_int_equal(t.node[s].port[0].lid, 9);
    assert_int_equal(t.node[h].port[1].peer_port, 4);
    assert_true(t.node[s].guid == 0x8f10500200b50ULL);
    int v = find_desc(&t, "Voltaire 4036 # hoibp0013");
    assert_true(v >= 0);
    assert_int_equal(t.node[v].port[0].lid, 10);
    assert_int_equal(t.node[v].port[1].speed, IB_QDR);
    assert_int_equal(topo_max_lid(&t), 102);
    topo_free(&t);
}

static void test_small(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    struct topo t;
    assert_int_equal(read_shared("small-1.topo", &t), 0);
    assert_int_equal(topo_count(&t, TOPO_SWITCH), 2);
    assert_int_equal(topo_count(&t, TOPO_CA), 4);
    /* LMC 1 kept; the two-port HCA has both ports cabled. */
    int h = find_desc(&t, "MT23108 InfiniHost Mellanox Technologies 0x0008f10403960558");
    assert_true(h >= 0);
    assert_int_equal(t.node[h].port[1].lid, 10);
    assert_int_equal(t.node[h].port[1].lmc, 1);
    assert_int_equal(t.node[h].port[2].lid, 14);
    /* The ends disagree (4xSDR and 1xSDR): the narrower is kept, with a warning. */
    assert_int_equal(t.node[h].port[1].width, 1);
    int sw = find_desc(&t, "SW-6IB4 Voltaire");
    assert_true(sw >= 0);
    assert_int_equal(t.node[sw].port[1].width, 1);
    assert_int_equal(t.node[sw].port[3].width, 4);
    assert_true(count_warnings(&t, "disagree") >= 2);
    topo_free(&t);

    assert_int_equal(read_shared("small-2.topo", &t), 0);
    assert_int_equal(topo_count(&t, TOPO_SWITCH), 1);
    assert_int_equal(topo_count(&t, TOPO_CA), 2);
    h = find_desc(&t, "compute-00-00 HCA-1");
    assert_true(h >= 0);
    assert_int_equal(t.node[h].port[2].lid, 2);
    assert_int_equal(t.node[h].port[1].peer_node, -1);
    topo_free(&t);

    /* small-3: an error line at the top, three loopback cables, FDR/EDR/QDR/SDR links. */
    assert_int_equal(read_shared("small-3.topo", &t), 0);
    assert_int_equal(topo_count(&t, TOPO_SWITCH), 2);
    assert_int_equal(topo_count(&t, TOPO_CA), 6);
    assert_int_equal(count_warnings(&t, "loopback"), 3);
    assert_int_equal(count_warnings(&t, ":1: line skipped"), 1);
    sw = find_desc(&t, "SwitchIB Mellanox Technologies");
    assert_true(sw >= 0);
    assert_int_equal(t.node[sw].port[1].peer_node, sw);
    assert_int_equal(t.node[sw].port[1].peer_port, 2);
    assert_int_equal(t.node[sw].port[34].speed, IB_EDR);
    assert_int_equal(t.node[sw].port[3].speed, IB_FDR);
    assert_int_equal(t.node[sw].port[0].lid, 268);
    h = find_desc(&t, "r-ufm96 HCA-1");
    assert_int_equal(t.node[h].port[1].speed, IB_SDR);
    topo_free(&t);

    assert_int_equal(read_shared("small-4.topo", &t), 0);
    assert_int_equal(topo_count(&t, TOPO_SWITCH), 1);
    assert_int_equal(topo_count(&t, TOPO_CA), 1);
    h = find_desc(&t, "nsn33-43 HCA-1");
    assert_int_equal(t.node[h].port[2].lid, 14);
    assert_int_equal(t.node[h].port[2].peer_port, 23);
    topo_free(&t);
}

static int read_text(const char *text, struct topo *t, struct ibn_err *e)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc = topo_read_stream(f, "mem.topo", t, e);
    fclose(f);
    return rc;
}

/* Found by fuzz_topo (tests/fuzz/seeds/topo/alias-rename-use-after-free.topo): two switches
 * whose descriptions share a first word get the aliases W-1 and W-2, and a third is named like
 * one of them; renaming that alias freed a string the clash search still read. Every alias
 * stays unique and unlike another node's name. */
static void test_alias_clash(void **state)
{
    (void)state;
    static const char text[] = "#\nSwitch\t4 \"S%0002c9000000\xc8 #\t\"H6\"\n"
                               "Switch\t4 \"S%0002c9000000\xc8 \xff" "0\")\n"
                               "Switch\t4 \"S0002c9000000-2 \"\x11\n";
    struct topo t;
    struct ibn_err e = { { 0 } };
    if (read_text(text, &t, &e) == 0) {
        for (int i = 0; i < t.nnodes; i++)
            for (int j = 0; j < t.nnodes; j++)
                if (i != j) {
                    assert_string_not_equal(t.node[i].alias, t.node[j].alias);
                    assert_string_not_equal(t.node[i].alias, t.node[j].name);
                }
    }
    topo_free(&t);
}

static void test_roundtrip(void **state)
{
    (void)state;
    if (!have_shared())
        skip();
    const char *files[] = { "x5-cluster.topo", "small-1.topo", "small-3.topo" };
    for (int k = 0; k < 3; k++) {
        struct topo a, b;
        assert_int_equal(read_shared(files[k], &a), 0);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_int_equal(topo_write_ibnetdiscover(f, &a), 0);
        fclose(f);
        struct ibn_err e;
        if (read_text(buf, &b, &e))
            print_error("%s\n", e.msg);
        assert_int_equal(b.nnodes, a.nnodes);
        assert_int_equal(topo_count_links(&b), topo_count_links(&a));
        for (int i = 0; i < a.nnodes; i++) {
            int j = topo_find(&b, a.node[i].name);
            assert_true(j >= 0);
            assert_true(a.node[i].guid == b.node[j].guid);
            for (int p = 0; p <= a.node[i].nports; p++) {
                struct topo_port *x = &a.node[i].port[p], *y = &b.node[j].port[p];
                assert_int_equal(x->lid, y->lid);
                assert_int_equal(x->lmc, y->lmc);
                if (p == 0 || x->peer_node < 0)
                    continue;
                assert_string_equal(a.node[x->peer_node].name, b.node[y->peer_node].name);
                assert_int_equal(x->peer_port, y->peer_port);
                assert_int_equal(x->width, y->width);
                assert_int_equal(x->speed, y->speed);
            }
        }
        free(buf);
        topo_free(&a);
        topo_free(&b);
    }
}

static void test_ibsim_net(void **state)
{
    (void)state;
    const char *net = "# ibsim net\n"
                      "Switch\t8 \"Switch1\"\n[1]\t\"Hca1\"[1]\n[2]\t\"Hca3\"[1]\n[3]\t\"Switch2\"[3]\n"
                      "[5]\t\"Switch2\"[5]\n\n"
                      "Switch 8 \"Switch2\"\n[1]\t\"Hca2\"[1]\n[2]\t\"Hca4\"\n[3]\t\"Switch1\"[3]\n"
                      "[5]\t\"Switch1\"[5]\n\n"
                      "Hca\t2 \"Hca1\"\n[1]\t\"Switch1\"[1]\n\nHca\t2 \"Hca2\"\n[1]\t\"Switch2\"[1]\n\n"
                      "Hca\t2 \"Hca3\"\n[1]\t\"Switch1\"[2]\n\nHca 2 \"Hca4\"\n[1]\t\"Switch2\"[2]\n";
    struct topo t;
    struct ibn_err e;
    if (read_text(net, &t, &e))
        print_error("%s\n", e.msg);
    assert_int_equal(topo_count(&t, TOPO_SWITCH), 2);
    assert_int_equal(topo_count(&t, TOPO_CA), 4);
    assert_int_equal(topo_count_links(&t), 6);
    assert_non_null(strstr(t.source, "ibsim net"));
    int h = topo_find(&t, "Hca4");
    assert_int_equal(t.node[h].port[1].peer_port, 2);
    assert_true(t.node[h].port[1].lid > 0);
    assert_true(t.node[h].guid != 0);
    topo_free(&t);
}

static void expect_error(const char *text, const char *needle)
{
    struct topo t;
    struct ibn_err e = { { 0 } };
    assert_int_equal(read_text(text, &t, &e), -1);
    if (!strstr(e.msg, needle))
        print_error("message \"%s\" lacks \"%s\"\n", e.msg, needle);
    assert_non_null(strstr(e.msg, needle));
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("Switch 8 \"S1\"\n[1] \"H1\"[1]\nnonsense\n[x] \"H1\"\n", "mem.topo:4:");
    expect_error("Switch 8 \"S1\"\n[9] \"H1\"[1]\n", "mem.topo:2: port 9 is out of range");
    expect_error("Switch abc \"S1\"\n", "mem.topo:1: expected a port count");
    expect_error("Switch 8 S1\n", "mem.topo:1: expected the node id in quotes");
    expect_error("Switch 8 \"S1\"\n[1] \"H1\"[1] # \"x\" lid 3 3xQDR\n", "mem.topo:2: \"3xQDR\"");
    expect_error("Switch 8 \"S1\"\n[1] \"H1\"[1]\n\nCa 1 \"H1\"\n[1] \"S1\"[2]\n",
                 "mem.topo:5: H1 port 1 is cabled to S1 port 2 here, but line 2");
    expect_error("Switch 8 \"S1\"\n[1] \"H1\"[1]\n\nSwitch 8 \"S1\"\n", "mem.topo:4: node id");
    expect_error("# nothing\n", "no Switch, Ca or Hca blocks");
    expect_error("[1] \"H1\"[1]\n", "mem.topo:1: port line outside");
    expect_error("Switch 8 \"S1\"\n[1] \"H1\"[1]\n\nCa 1 \"H1\"\n[1](2) \"S1\"[1] # lid 4 lmc 40 \"x\" "
                 "lid 1 4xQDR\n", "mem.topo:5: LID 4 / LMC 40 out of range");
    expect_error("Switch 8 \"S1\" # \"s\" base port 0 lid 60000 lmc 0\n", "mem.topo:1: LID 60000");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x5),
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_alias_clash),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_ibsim_net),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
