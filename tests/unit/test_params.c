/* test_params.c: the declarative parameter tables. For every table the scenario parser uses
 * (simulation, topology, output, flow, fabric, switch, hca, qos, arrival, pattern, cc), every
 * value prints and parses back to itself (the resolved scenario and `ibnetsim keys` rely on it);
 * every default is valid; bounds and checks reject bad values with the key's name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cc/ibcc.h"
#include "config/scenario.h"
#include "core/params.h"
#include "core/simtime.h"
#include "fabric/settings.h"
#include "traffic/arrival.h"
#include "traffic/pattern.h"

/* Room for any module's settings struct. */
union any {
    struct sim_desc sim;
    struct topo_desc topo;
    struct output_desc out;
    struct flow_desc flow;
    struct fabric_settings set;
    struct qos_desc qos;
    struct arrival_desc arr;
    struct pattern_desc pat;
    struct ibcc_desc cc;
};

static void roundtrip(const char *name, const struct param *tab)
{
    union any a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    char why[512];
    if (params_set_defaults(tab, &a, why, sizeof why) || params_set_defaults(tab, &b, why, sizeof why)) {
        print_error("%s: a default does not parse: %s\n", name, why);
        fail();
    }
    for (const struct param *p = tab; p->key; p++) {
        if (!p->def) /* required keys: give one */
            assert_int_equal(param_set(p, &a, "x", why, sizeof why), 0);
        char text[1024], shown[1024], again[1024];
        param_format_value(p, &a, text, sizeof text);
        param_format(p, &a, shown, sizeof shown);
        if (param_set(p, &b, text, why, sizeof why)) {
            print_error("%s.%s: \"%s\" does not parse back: %s\n", name, p->key, text, why);
            fail();
        }
        param_format(p, &b, again, sizeof again);
        if (strcmp(shown, again)) {
            print_error("%s.%s: printed %s, read back as %s\n", name, p->key, shown, again);
            fail();
        }
    }
    params_free(tab, &a);
    params_free(tab, &b);
}

static void test_every_table_roundtrips(void **state)
{
    (void)state;
    roundtrip("simulation", sim_params);
    roundtrip("topology", topo_params);
    roundtrip("output", output_params);
    roundtrip("flow", flow_params);
    roundtrip("fabric", fabric_params);
    roundtrip("switch", switch_params);
    roundtrip("hca", hca_params);
    roundtrip("qos", qos_params);
    roundtrip("arrival", arrival_params);
    roundtrip("pattern", pattern_params);
    roundtrip("cc", ibcc_params);
}

static void test_rejections_name_the_key(void **state)
{
    (void)state;
    struct fabric_settings s;
    memset(&s, 0, sizeof s);
    char why[256];
    assert_int_equal(param_set(params_find(fabric_params, "mtu"), &s, "3000", why, sizeof why), -1);
    assert_non_null(strstr(why, "mtu"));
    assert_int_equal(param_set(params_find(fabric_params, "vls"), &s, "16", why, sizeof why), -1);
    assert_non_null(strstr(why, "between 1 and 15"));
    assert_int_equal(param_set(params_find(switch_params, "arch"), &s, "crossbar", why, sizeof why), -1);
    assert_non_null(strstr(why, "voq, fifo"));
    assert_int_equal(param_set(params_find(switch_params, "latency"), &s, "100", why, sizeof why), -1);
    assert_non_null(strstr(why, "no unit"));
    assert_int_equal(param_set(params_find(fabric_params, "grh"), &s, "maybe", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(fabric_params, "grh"), &s, "yes", why, sizeof why), 0);
    assert_int_equal(s.grh, 1);
}

/* Every value stays within what the type that stores it holds (issue 11 item 3), and a
 * refused value leaves the field as it was. */
static void test_type_bounds(void **state)
{
    (void)state;
    struct fabric_settings s;
    memset(&s, 0, sizeof s);
    char why[256];
    const struct param *buf = params_find(switch_params, "buffer"), *sink = params_find(hca_params, "sink_limit");
    assert_int_equal(param_set(buf, &s, "137438953408", why, sizeof why), 0); /* (2^31-1) x 64 */
    assert_int_equal(s.switch_buffer, 137438953408ULL);
    assert_int_equal(param_set(buf, &s, "128 GiB", why, sizeof why), -1);
    assert_non_null(strstr(why, "buffer must be between 64 and 137438953408 bytes"));
    assert_int_equal(s.switch_buffer, 137438953408ULL);
    assert_int_equal(param_set(buf, &s, "99999999999999999999999", why, sizeof why), -1);
    assert_int_equal(param_set(sink, &s, "0 Gb/s", why, sizeof why), 0);
    assert_int_equal(param_set(sink, &s, "0.44 b/s", why, sizeof why), 0);
    assert_true(s.sink_limit_bps == 0.44);
    assert_true(byterate_from_bps(s.sink_limit_bps).as_per_byte > 0);
    assert_int_equal(param_set(sink, &s, "0.43 b/s", why, sizeof why), -1);
    assert_non_null(strstr(why, "sink_limit must be 0 or between 0.434 b/s"));
    assert_true(s.sink_limit_bps == 0.44);
    assert_int_equal(param_set(sink, &s, "9000 Tb/s", why, sizeof why), -1);
    struct sim_desc sim;
    memset(&sim, 0, sizeof sim);
    const struct param *dur = params_find(sim_params, "duration"), *seed = params_find(sim_params, "seed");
    assert_int_equal(param_set(dur, &sim, "4611686 s", why, sizeof why), 0);
    assert_int_equal(param_set(dur, &sim, "4611687 s", why, sizeof why), -1);
    assert_non_null(strstr(why, "duration must be between 0 and 2^62 ps"));
    assert_int_equal(param_set(seed, &sim, "9223372036854775807", why, sizeof why), 0);
    assert_int_equal(param_set(seed, &sim, "9223372036854775808", why, sizeof why), -1);
    assert_non_null(strstr(why, "fits 64 bits"));
    assert_int_equal(param_set(seed, &sim, "", why, sizeof why), -1);
    struct arrival_desc a;
    memset(&a, 0, sizeof a);
    assert_int_equal(param_set(params_find(arrival_params, "size_max"), &a, "4 GiB", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(arrival_params, "size_cv"), &a, "nan", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(arrival_params, "size_cv"), &a, "inf", why, sizeof why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_type_bounds),
        cmocka_unit_test(test_every_table_roundtrips),
        cmocka_unit_test(test_rejections_name_the_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
