/* test_topo_addr.c: naming nodes as IB people do: aliases (unique, from the description's first
 * word, counted where it repeats), resolution by name, alias, lid:N, node and port GUID,
 * ibnetdiscover id, description, NAME:PORT; host sets (lists, globs, switch:X, leaf:N); errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/generate.h"
#include "topology/topo_addr.h"
#include "topology/topo_read.h"

/* Two switches, three HCAs sharing one description (as x5's do), one with its own. */
static const char *fabric =
    "vendid=0x2c9\n"
    "switchguid=0x0008f10500200b50(8f10500200b50)\n"
    "Switch\t8 \"S-0008f10500200b50\"\t\t# \"Voltaire 4036 # leaf-a\" enhanced port 0 lid 9 lmc 0\n"
    "[1]\t\"H-0002c90300000100\"[1](2c90300000101) \t\t# \"MT25408 ConnectX Mellanox Technologies\" lid 20 4xQDR\n"
    "[2]\t\"H-0002c90300000200\"[1](2c90300000201) \t\t# \"MT25408 ConnectX Mellanox Technologies\" lid 21 4xQDR\n"
    "[8]\t\"S-0008f10500200c00\"[8]\t\t# \"Voltaire 4036 # leaf-b\" lid 10 4xQDR\n"
    "\n"
    "switchguid=0x0008f10500200c00(8f10500200c00)\n"
    "Switch\t8 \"S-0008f10500200c00\"\t\t# \"Voltaire 4036 # leaf-b\" enhanced port 0 lid 10 lmc 0\n"
    "[1]\t\"H-0002c90300000300\"[1](2c90300000301) \t\t# \"MT25408 ConnectX Mellanox Technologies\" lid 22 4xQDR\n"
    "[2]\t\"H-0002c90300000400\"[1](2c90300000401) \t\t# \"node042 HCA-1\" lid 23 4xQDR\n"
    "[8]\t\"S-0008f10500200b50\"[8]\t\t# \"Voltaire 4036 # leaf-a\" lid 9 4xQDR\n"
    "\n"
    "vendid=0x2c9\ncaguid=0x0002c90300000100\n"
    "Ca\t1 \"H-0002c90300000100\"\t\t# \"MT25408 ConnectX Mellanox Technologies\"\n"
    "[1](2c90300000101) \t\"S-0008f10500200b50\"[1]\t\t# lid 20 lmc 0 \"Voltaire 4036 # leaf-a\" lid 9 4xQDR\n"
    "\n"
    "vendid=0x2c9\ncaguid=0x0002c90300000200\n"
    "Ca\t1 \"H-0002c90300000200\"\t\t# \"MT25408 ConnectX Mellanox Technologies\"\n"
    "[1](2c90300000201) \t\"S-0008f10500200b50\"[2]\t\t# lid 21 lmc 0 \"Voltaire 4036 # leaf-a\" lid 9 4xQDR\n"
    "\n"
    "vendid=0x2c9\ncaguid=0x0002c90300000300\n"
    "Ca\t1 \"H-0002c90300000300\"\t\t# \"MT25408 ConnectX Mellanox Technologies\"\n"
    "[1](2c90300000301) \t\"S-0008f10500200c00\"[1]\t\t# lid 22 lmc 0 \"Voltaire 4036 # leaf-b\" lid 10 4xQDR\n"
    "\n"
    "vendid=0x2c9\ncaguid=0x0002c90300000400\n"
    "Ca\t1 \"H-0002c90300000400\"\t\t# \"node042 HCA-1\"\n"
    "[1](2c90300000401) \t\"S-0008f10500200c00\"[2]\t\t# lid 23 lmc 0 \"Voltaire 4036 # leaf-b\" lid 10 4xQDR\n";

static void load(struct topo *t)
{
    char path[] = "/tmp/ibn_addr_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(fabric, f);
    fclose(f);
    struct ibn_err e = { { 0 } };
    int rc = topo_read_file(path, t, &e);
    if (rc)
        print_error("%s\n", e.msg);
    assert_int_equal(rc, 0);
    remove(path);
}

static int node_of(const struct topo *t, const char *spec)
{
    struct ibn_err e = { { 0 } };
    int n, p;
    if (topo_resolve(t, spec, &n, &p, &e))
        return -1;
    return n;
}

static int by_guid(const struct topo *t, uint64_t g)
{
    for (int i = 0; i < t->nnodes; i++)
        if (t->node[i].guid == g)
            return i;
    return -1;
}

static void test_aliases(void **state)
{
    (void)state;
    struct topo t;
    load(&t);
    int h1 = by_guid(&t, 0x0002c90300000100ULL), h3 = by_guid(&t, 0x0002c90300000300ULL);
    int h4 = by_guid(&t, 0x0002c90300000400ULL), sa = by_guid(&t, 0x0008f10500200b50ULL);
    /* The repeated first word is counted in topology order; a unique one stands alone. */
    assert_string_equal(t.node[h4].alias, "node042");
    assert_non_null(strstr(t.node[h1].alias, "MT25408-"));
    assert_non_null(strstr(t.node[sa].alias, "Voltaire-"));
    for (int i = 0; i < t.nnodes; i++)
        for (int j = i + 1; j < t.nnodes; j++)
            assert_string_not_equal(t.node[i].alias, t.node[j].alias);
    /* Stable: assigning again gives the same. */
    char *a = strdup(t.node[h3].alias);
    topo_assign_aliases(&t);
    assert_string_equal(t.node[h3].alias, a);
    free(a);
    /* Generated fabrics: names are their own aliases. */
    struct topo g;
    struct ibn_err e = { { 0 } };
    assert_int_equal(topo_generate("single_switch", "ports=4", 1, &g, &e), 0);
    assert_string_equal(g.node[topo_find(&g, "H2")].alias, "H2");
    topo_free(&g);
    topo_free(&t);
}

static void test_resolve(void **state)
{
    (void)state;
    struct topo t;
    load(&t);
    int h2 = by_guid(&t, 0x0002c90300000200ULL), h4 = by_guid(&t, 0x0002c90300000400ULL);
    int sb = by_guid(&t, 0x0008f10500200c00ULL);
    assert_int_equal(node_of(&t, "lid:21"), h2);
    assert_int_equal(node_of(&t, "lid:0x15"), h2);
    assert_int_equal(node_of(&t, "lid:10"), sb);
    assert_int_equal(node_of(&t, "0x0002c90300000200"), h2);     /* node GUID */
    assert_int_equal(node_of(&t, "0x0002c90300000201"), h2);     /* port GUID */
    assert_int_equal(node_of(&t, "0002c90300000200"), h2);       /* 16 digits */
    assert_int_equal(node_of(&t, "H-0002c90300000200"), h2);     /* ibnetdiscover id */
    assert_int_equal(node_of(&t, "S-0008f10500200c00"), sb);
    assert_int_equal(node_of(&t, "node042 HCA-1"), h4);          /* unique description */
    assert_int_equal(node_of(&t, "node042"), h4);                /* alias */
    assert_int_equal(node_of(&t, t.node[h2].alias), h2);
    assert_int_equal(node_of(&t, t.node[h2].name), h2);
    int n, p;
    struct ibn_err e = { { 0 } };
    assert_int_equal(topo_resolve(&t, "node042:1", &n, &p, &e), 0);
    assert_int_equal(n, h4);
    assert_int_equal(p, 1);
    /* Errors say what was tried or why it is ambiguous. */
    assert_int_equal(topo_resolve(&t, "MT25408 ConnectX Mellanox Technologies", &n, &p, &e), -1);
    assert_non_null(strstr(e.msg, "description of 3 nodes"));
    assert_int_equal(topo_resolve(&t, "lid:99", &n, &p, &e), -1);
    assert_non_null(strstr(e.msg, "LID 99"));
    assert_int_equal(topo_resolve(&t, "lid:50000", &n, &p, &e), -1);
    assert_non_null(strstr(e.msg, "49151"));
    assert_int_equal(topo_resolve(&t, "H-0008f10500200c00", &n, &p, &e), -1);
    assert_non_null(strstr(e.msg, "names a switch"));
    assert_int_equal(topo_resolve(&t, "nosuch", &n, &p, &e), -1);
    assert_non_null(strstr(e.msg, "topo hosts"));
    topo_free(&t);
}

static void test_sets(void **state)
{
    (void)state;
    struct topo t;
    load(&t);
    int h1 = by_guid(&t, 0x0002c90300000100ULL), h2 = by_guid(&t, 0x0002c90300000200ULL);
    int h3 = by_guid(&t, 0x0002c90300000300ULL), h4 = by_guid(&t, 0x0002c90300000400ULL);
    struct ibn_err e = { { 0 } };
    int *s, n;
    n = topo_host_set(&t, "*", &s, &e);
    assert_int_equal(n, 4);
    free(s);
    n = topo_host_set(&t, "switch:S-0008f10500200b50", &s, &e);
    assert_int_equal(n, 2);
    assert_true((s[0] == h1 && s[1] == h2) || (s[0] == h2 && s[1] == h1));
    free(s);
    n = topo_host_set(&t, "switch:lid:10", &s, &e);
    assert_int_equal(n, 2);
    free(s);
    n = topo_host_set(&t, "leaf:2", &s, &e);
    assert_int_equal(n, 2);
    free(s);
    n = topo_host_set(&t, "MT25408-*", &s, &e); /* glob over aliases */
    assert_int_equal(n, 3);
    free(s);
    n = topo_host_set(&t, "lid:20, node042,lid:20", &s, &e); /* list, repeats once */
    assert_int_equal(n, 2);
    assert_true(s[0] == h1 || s[1] == h1);
    assert_true(s[0] == h4 || s[1] == h4);
    free(s);
    (void)h3;
    assert_int_equal(topo_host_set(&t, "leaf:3", &s, &e), -1);
    assert_non_null(strstr(e.msg, "2 switches with hosts"));
    assert_int_equal(topo_host_set(&t, "zz*", &s, &e), -1);
    assert_int_equal(topo_host_set(&t, "switch:node042", &s, &e), -1);
    assert_non_null(strstr(e.msg, "not a switch"));
    assert_int_equal(topo_host_set(&t, "lid:9", &s, &e), -1);
    assert_non_null(strstr(e.msg, "is a switch"));
    assert_true(topo_is_set("a,b") && topo_is_set("h*") && topo_is_set("leaf:1") &&
                !topo_is_set("lid:3") && !topo_is_set("H1"));
    topo_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aliases),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
