/* analytic_check.h: comparison helpers shared by the tests of src/analytic/. */
#ifndef IBN_TEST_ANALYTIC_CHECK_H
#define IBN_TEST_ANALYTIC_CHECK_H

#include <math.h>
#include <stdio.h>

/* A value printed with `decimals` decimals in the digest: ours must round to it, i.e. lie
 * within half a unit of the last printed digit (plus 1e-12 for the rounding of the print). */
#define assert_printed(actual, expected, decimals)                                            \
    do {                                                                                      \
        double a_ = (actual), e_ = (expected);                                                \
        double tol_ = 0.5 * pow(10.0, -(decimals)) + 1e-12;                                   \
        if (!(fabs(a_ - e_) <= tol_)) {                                                       \
            print_error("%s = %.8f, digest prints %.*f (tolerance %g)\n", #actual, a_,        \
                        (decimals), e_, tol_);                                                \
            fail();                                                                           \
        }                                                                                     \
    } while (0)

/* |actual - expected| <= rel * |expected|. */
#define assert_rel(actual, expected, rel)                                                     \
    do {                                                                                      \
        double a_ = (actual), e_ = (expected);                                                \
        if (!(fabs(a_ - e_) <= (rel) * fabs(e_))) {                                           \
            print_error("%s = %.10g, expected %.10g within %g relative\n", #actual, a_, e_,  \
                        (double)(rel));                                                       \
            fail();                                                                           \
        }                                                                                     \
    } while (0)

/* |actual - expected| <= abs + rel * |expected|: for probabilities that may be tiny, where
 * a difference like 1 - X/lambda carries an absolute rounding error of about 1e-15. */
#define assert_near(actual, expected, rel, abs)                                               \
    do {                                                                                      \
        double a_ = (actual), e_ = (expected);                                                \
        if (!(fabs(a_ - e_) <= (abs) + (rel) * fabs(e_))) {                                   \
            print_error("%s = %.10g, expected %.10g within %g + %g relative\n", #actual, a_, \
                        e_, (double)(abs), (double)(rel));                                    \
            fail();                                                                           \
        }                                                                                     \
    } while (0)

#endif
