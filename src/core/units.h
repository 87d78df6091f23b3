/* units.h: parsing and printing of quantities with units, as users write them in scenarios
 * and on the command line: times ("150 us", "1.024us", "5 s"), sizes ("64 KiB", "2048 B") and
 * rates ("13.5 Gb/s", "1 GB/s", "20Gbps"). Parsers return 0, or -1 with `why` saying what was
 * expected. */
#ifndef IBN_UNITS_H
#define IBN_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "core/simtime.h"

int units_parse_time(const char *s, simtime_t *out, char *why, size_t whylen);
int units_parse_size(const char *s, uint64_t *out, char *why, size_t whylen);
/* Rates are returned in bits per second. */
int units_parse_rate(const char *s, double *out_bps, char *why, size_t whylen);

/* Shortest exact-looking text for a time ("100 ns", "1.5 ms"), a size and a rate. */
void units_format_time(simtime_t t, char *buf, size_t len);
void units_format_size(uint64_t bytes, char *buf, size_t len);
void units_format_rate(double bps, char *buf, size_t len);

#endif
