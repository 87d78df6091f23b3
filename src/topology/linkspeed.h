/* linkspeed.h: InfiniBand link widths and speeds (1x-12x, SDR-NDR) and the data rates that
 * follow from their encodings: 8b/10b up to QDR, 64b/66b from FDR10 on. A 4x QDR link signals
 * at 40 Gb/s and carries 32 Gb/s of data. */
#ifndef IBN_LINKSPEED_H
#define IBN_LINKSPEED_H

#include <stddef.h>

enum ib_speed { IB_SDR, IB_DDR, IB_QDR, IB_FDR10, IB_FDR, IB_EDR, IB_HDR, IB_NDR, IB_XDR, IB_NSPEEDS };

/* Width is the lane count: 1, 2, 4, 8 or 12. */
int ib_width_valid(int width);
const char *ib_speed_name(enum ib_speed s);
/* Signalling rate per lane (baud, in bits/s) and data rate of a link of `width` lanes. */
double ib_lane_signal_bps(enum ib_speed s);
double ib_data_rate_bps(int width, enum ib_speed s);
/* Parse "4xQDR", "4x QDR", "12xSDR" (case-insensitive). Returns 0 or -1. */
int ib_parse_width_speed(const char *text, int *width, enum ib_speed *speed);
int ib_parse_speed(const char *text, enum ib_speed *speed);
/* "4xQDR" */
void ib_format_width_speed(int width, enum ib_speed s, char *buf, size_t len);

#endif
