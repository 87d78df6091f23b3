/* test_memcost.c: the memory-cost calculator against Paper VI's supplement section 8 (Table 5
 * and its worked example) and the VOQnet sizes of Papers V and VI, exactly; bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analytic/memcost.h"

static struct memcost ecocc(int nodes, int dlist)
{
    struct memcost_in in = { .arch = "ecocc", .nodes = nodes, .ports = 8, .special = 2, .dlist = dlist,
                             .buffer = 128 * 1024 };
    struct memcost m;
    struct ibn_err e;
    assert_int_equal(memcost_compute(&in, &m, &e), 0);
    return m;
}

static void test_table5(void **st)
{
    (void)st;
    /* CAM cells per line 64 / 144 / 336, SRAM cells 35, for 64 / 256 / 1024 nodes. */
    struct memcost a = ecocc(64, 8), b = ecocc(256, 16), c = ecocc(1024, 32);
    assert_int_equal(a.cam_cells_line, 64);
    assert_int_equal(b.cam_cells_line, 144);
    assert_int_equal(c.cam_cells_line, 336);
    assert_int_equal(a.sram_cells_line, 35);
    /* 9 lines per input port of an 8-port switch: 7 CPQs + 2 HPQs. */
    assert_int_equal(c.cam_lines, 9);
    assert_int_equal(c.queues, 9);
    /* The worked example: 3024 CAM + 315 SRAM = 3339 cells, about 418 bytes per input port. */
    assert_int_equal(c.cam_cells, 3024);
    assert_int_equal(c.sram_cells, 315);
    assert_int_equal(c.cells, 3339);
    assert_int_equal(c.cam_bytes, 418);
    /* The same formula for the smaller networks. */
    assert_int_equal(a.cells, 891);
    assert_int_equal(a.cam_bytes, 112);
    assert_int_equal(b.cells, 1611);
    assert_int_equal(b.cam_bytes, 202);
    assert_true(c.data_bytes == 128 * 1024);
}

static void test_voqnet(void **st)
{
    (void)st;
    struct memcost m;
    struct ibn_err e;
    /* Paper VI footnote 5: 64 packets x 2 KB per destination: 8, 32, 128 MB per input. */
    int nodes[3] = { 64, 256, 1024 };
    uint64_t mb[3] = { 8, 32, 128 };
    for (int i = 0; i < 3; i++) {
        struct memcost_in in = { .arch = "voqnet", .nodes = nodes[i], .ports = 8, .voqnet_queue = 64 * 2048 };
        assert_int_equal(memcost_compute(&in, &m, &e), 0);
        assert_true(m.data_bytes == mb[i] << 20);
        assert_int_equal(m.queues, nodes[i]);
        assert_int_equal(m.cam_lines, 0);
    }
    /* Paper V config 3: 64 queues of 4 KB: 256 KB per port. */
    struct memcost_in v = { .arch = "voqnet", .nodes = 64, .ports = 8, .voqnet_queue = 4096 };
    assert_int_equal(memcost_compute(&v, &m, &e), 0);
    assert_true(m.data_bytes == 256 * 1024);
}

static void test_others(void **st)
{
    (void)st;
    struct memcost m;
    struct ibn_err e;
    /* CCFIT (Paper V): NFQ + 2 CFQs, a line per CFQ holding one destination. */
    struct memcost_in c = { .arch = "ccfit", .nodes = 64, .ports = 8, .special = 2, .dlist = 1, .buffer = 65536 };
    assert_int_equal(memcost_compute(&c, &m, &e), 0);
    assert_int_equal(m.queues, 3);
    assert_int_equal(m.cam_lines, 2);
    assert_int_equal(m.cam_cells_line, 16 + 6);
    assert_int_equal(m.cells, 2 * 22 + 2 * 35);
    struct memcost_in q = { .arch = "1q", .nodes = 64, .ports = 8, .buffer = 65536 };
    assert_int_equal(memcost_compute(&q, &m, &e), 0);
    assert_int_equal(m.queues, 1);
    assert_int_equal(m.cells, 0);
    struct memcost_in s = { .arch = "voqsw", .nodes = 64, .ports = 8, .buffer = 131072 };
    assert_int_equal(memcost_compute(&s, &m, &e), 0);
    assert_int_equal(m.queues, 7);
    struct memcost_in d = { .arch = "dbbm", .nodes = 64, .ports = 8, .dbbm_queues = 4, .buffer = 131072 };
    assert_int_equal(memcost_compute(&d, &m, &e), 0);
    assert_int_equal(m.queues, 4);
    /* A non-power-of-two network rounds the address up. */
    assert_int_equal(ecocc(100, 8).addr_bits, 7);
}

static void test_bad_input(void **st)
{
    (void)st;
    struct memcost m;
    struct ibn_err e;
    struct memcost_in a = { .arch = "crossbar", .nodes = 64, .ports = 8 };
    assert_int_equal(memcost_compute(&a, &m, &e), -1);
    assert_non_null(strstr(e.msg, "unknown architecture"));
    struct memcost_in b = { .arch = "ecocc", .nodes = 64, .ports = 8, .special = 2, .dlist = 65 };
    assert_int_equal(memcost_compute(&b, &m, &e), -1);
    assert_non_null(strstr(e.msg, "1 to 64"));
    struct memcost_in c = { .arch = "ccfit", .nodes = 64, .ports = 8, .special = 0, .dlist = 1 };
    assert_int_equal(memcost_compute(&c, &m, &e), -1);
    struct memcost_in d = { .arch = "1q", .nodes = 1, .ports = 8 };
    assert_int_equal(memcost_compute(&d, &m, &e), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table5),
        cmocka_unit_test(test_voqnet),
        cmocka_unit_test(test_others),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
