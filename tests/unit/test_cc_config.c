/* test_cc_config.c: configuring congestion control: the scenario's cc section (plug-in keys,
 * -s overrides, errors with FILE:LINE, the resolved output), and opensm.conf as OpenSM writes
 * it (congestion keys into the IB CC description, QoS keys into struct qos_desc only with
 * qos TRUE, unknown cc_ and qos_ keys rejected with FILE:LINE). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc/ibcc.h"
#include "config/opensm_conf.h"
#include "config/scenario.h"

static char dir[256];

static void put(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char *at(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static const char *const OSM =
    "# opensm.conf excerpt, OpenSM's own spelling\n"
    "routing_engine ftree\n"
    "congestion_control TRUE\n"
    "cc_key 0x0000000000000000\n"
    "cc_max_outstanding_mads 500\n"
    "cc_sw_cong_setting_control_map 0x1F\n"
    "cc_sw_cong_setting_victim_mask 0x0000000000000000000000000000000000000000000000000000000000000006\n"
    "cc_sw_cong_setting_credit_mask 0x0000000000000000000000000000000000000000000000000000000000000000\n"
    "cc_sw_cong_setting_threshold 0x0C\n"
    "cc_sw_cong_setting_packet_size 4\n"
    "cc_sw_cong_setting_credit_starvation_threshold 0x00\n"
    "cc_sw_cong_setting_credit_starvation_return_delay 0:0\n"
    "cc_sw_cong_setting_marking_rate 0x000a\n"
    "cc_ca_cong_setting_port_control 0x0001\n"
    "cc_ca_cong_setting_control_map 0x0003\n"
    "# SL = 0\n"
    "cc_ca_cong_setting_ccti_timer 0 300\n"
    "cc_ca_cong_setting_ccti_increase 0 2\n"
    "cc_ca_cong_setting_trigger_threshold 0 1\n"
    "cc_ca_cong_setting_ccti_min 0 1\n"
    "cc_ca_cong_setting_ccti_timer 1 600\n"
    "cc_cct 0:0,0:1,0:2,1:5,2:9\n"
    "qos TRUE\n"
    "qos_max_vls 2\n"
    "qos_high_limit 10\n"
    "qos_vlarb_high 0:4,1:0\n"
    "qos_swe_vlarb_low 0:0,1:32\n"
    "qos_vlarb_low 0:0,1:64\n"
    "qos_sl2vl 0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1\n"
    "qos_ca_vlarb_high 0:8\n"
    "qos_ca_high_limit 20\n"
    "qos_sw0_vlarb_high 0:1\n"
    "qos_ca_sl2vl 0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1\n";

static void test_opensm_conf_keys(void **st)
{
    (void)st;
    put("opensm.conf", OSM);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    struct qos_desc q;
    qos_desc_defaults(&q);
    struct opensm_conf_info info;
    struct ibn_err e;
    if (opensm_conf_load(at("opensm.conf"), d, &q, &info, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
    assert_int_equal(info.congestion_control, 1);
    assert_int_equal(info.qos, 1);
    assert_int_equal(d->threshold, 12);
    assert_int_equal(d->packet_size, 4);
    assert_int_equal(d->marking_rate, 10);
    assert_int_equal(d->level, IBCC_LEVEL_SL);
    assert_int_equal(d->control_map, 3);
    assert_int_equal(d->cct_form, IBCC_CCT_SPEC);
    assert_string_equal(d->cct, "0:0,0:1,0:2,1:5,2:9");
    assert_non_null(strstr(d->victim_mask, "06"));
    long long v[16];
    char why[256];
    assert_int_equal(ibcc_parse_per_sl(d->ccti_timer, 0, 65535, v, why, sizeof why), 0);
    assert_int_equal(v[0], 300);
    assert_int_equal(v[1], 600);
    assert_int_equal(v[2], 150); /* SLs OpenSM does not mention keep the default */
    assert_int_equal(ibcc_parse_per_sl(d->ccti_increase, 0, 255, v, why, sizeof why), 0);
    assert_int_equal(v[0], 2);
    assert_int_equal(ibcc_parse_per_sl(d->ccti_min, 0, 255, v, why, sizeof why), 0);
    assert_int_equal(v[0], 1);
    assert_int_equal(q.high_limit, 10);
    assert_string_equal(q.sl2vl, "0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1");
    assert_string_equal(q.vlarb_high, "0:4,1:0");
    assert_string_equal(q.vlarb_low, "0:0,1:32"); /* qos_swe_ (switch external ports) after qos_ */
    assert_string_equal(q.ca_vlarb_high, "0:8");
    assert_int_equal(q.ca_high_limit, 20);
    assert_non_null(strstr(info.not_modelled, "qos_sw0_vlarb_high"));
    assert_int_equal(q.max_vls, 2); /* qos_max_vls: the data VLs in use */
    assert_null(strstr(info.not_modelled, "qos_max_vls"));
    assert_string_equal(q.ca_vlarb_low, "0:0,1:64"); /* adapters keep the general qos_vlarb_low */
    assert_string_equal(q.ca_sl2vl, "0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1");
    assert_non_null(strstr(info.not_modelled, "cc_sw_cong_setting_credit_mask"));
    params_free(qos_params, &q);
    cc_desc_free(&ibcc_plugin, d);

    /* qos FALSE: the QoS keys are read but not applied, as OpenSM does. */
    put("noqos.conf", "qos FALSE\nqos_high_limit 3\n");
    qos_desc_defaults(&q);
    assert_int_equal(opensm_conf_load(at("noqos.conf"), NULL, &q, &info, &e), 0);
    assert_int_equal(q.high_limit, 255);
    params_free(qos_params, &q);
}

static void expect_error(const char *text, const char *line, const char *words)
{
    put("bad.conf", text);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    struct qos_desc q;
    qos_desc_defaults(&q);
    struct opensm_conf_info info;
    struct ibn_err e;
    assert_int_equal(opensm_conf_load(at("bad.conf"), d, &q, &info, &e), -1);
    printf("  %s\n", e.msg);
    assert_non_null(strstr(e.msg, line));
    assert_non_null(strstr(e.msg, words));
    params_free(qos_params, &q);
    cc_desc_free(&ibcc_plugin, d);
}

static void test_opensm_conf_errors(void **st)
{
    (void)st;
    expect_error("congestion_control TRUE\ncc_sw_cong_setting_treshold 4\n", "bad.conf:2",
                 "unknown congestion-control key");
    expect_error("cc_sw_cong_setting_threshold 0x1F\n", "bad.conf:1", "0-15");
    expect_error("\n\ncc_ca_cong_setting_ccti_timer 300\n", "bad.conf:3", "<SL> <value>");
    expect_error("congestion_control maybe\n", "bad.conf:1", "TRUE or FALSE");
    expect_error("qos TRUE\nqos_vlarb_middle 0:1\n", "bad.conf:2", "unknown QoS key");
    expect_error("cc_sw_cong_setting_victim_mask 0xGG\n", "bad.conf:1", "hex port mask");
    struct opensm_conf_info info;
    struct ibn_err e;
    assert_int_equal(opensm_conf_load(at("missing.conf"), NULL, NULL, &info, &e), -1);
    assert_non_null(strstr(e.msg, "cannot open"));
}

static void test_scenario_cc_section(void **st)
{
    (void)st;
    put("opensm.conf", OSM);
    put("s.cfg",
        "simulation = { duration = \"1 ms\"; };\n"
        "topology = { generator = \"single_switch\"; args = \"ports=4\"; };\n"
        "fabric = { vls = 2; };\n"
        "cc = { opensm_conf = \"opensm.conf\"; threshold = 14; };\n"
        "flows = ( { name = \"F1\"; src = \"H1\"; dst = \"H2\"; kind = \"saturate\"; } );\n");
    struct scenario sc;
    struct ibn_err e;
    char *over[] = { "cc.marking=counter" };
    if (scenario_load(at("s.cfg"), over, 1, &sc, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
    assert_string_equal(sc.cc, "ibcc"); /* congestion_control TRUE selected the plug-in */
    struct ibcc_desc *d = sc.cc_desc;
    assert_int_equal(d->threshold, 14);  /* the cc section overrides opensm.conf */
    assert_int_equal(d->marking_rate, 10);
    assert_int_equal(d->marking, IBCC_MARK_COUNTER);
    assert_int_equal(sc.qos.high_limit, 10);
    char buf[65536];
    FILE *m = fmemopen(buf, sizeof buf, "w");
    scenario_write(&sc, m);
    fclose(m);
    assert_non_null(strstr(buf, "plugin = \"ibcc\";"));
    assert_non_null(strstr(buf, "threshold = 14;"));
    assert_non_null(strstr(buf, "marking = \"counter\";"));
    assert_non_null(strstr(buf, "congestion_control TRUE"));
    scenario_free(&sc);

    put("bad.cfg",
        "simulation = { duration = \"1 ms\"; };\n"
        "topology = { generator = \"single_switch\"; args = \"ports=4\"; };\n"
        "cc = { plugin = \"ibcc\";\n"
        "       treshold = 14; };\n"
        "flows = ( { name = \"F1\"; src = \"H1\"; dst = \"H2\"; kind = \"saturate\"; } );\n");
    assert_int_equal(scenario_load(at("bad.cfg"), NULL, 0, &sc, &e), -1);
    printf("  %s\n", e.msg);
    assert_non_null(strstr(e.msg, "bad.cfg:4"));
    assert_non_null(strstr(e.msg, "treshold"));
    scenario_free(&sc);
    char *bad_over[] = { "cc.nosuch=1" };
    assert_int_equal(scenario_load(at("s.cfg"), bad_over, 1, &sc, &e), -1);
    assert_non_null(strstr(e.msg, "nosuch"));
    scenario_free(&sc);
    char *bad_plugin[] = { "cc.plugin=qcn" };
    assert_int_equal(scenario_load(at("s.cfg"), bad_plugin, 1, &sc, &e), -1);
    assert_non_null(strstr(e.msg, "unknown congestion-control plug-in"));
    scenario_free(&sc);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/ibn_cc_config_%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    if (system(cmd))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opensm_conf_keys),
        cmocka_unit_test(test_opensm_conf_errors),
        cmocka_unit_test(test_scenario_cc_section),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd))
        rc = 1;
    return rc;
}
