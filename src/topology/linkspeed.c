/* linkspeed.c: IB widths, speeds, encodings and data rates. */
#include "topology/linkspeed.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    double baud;      /* per lane, symbols/s */
    double efficiency; /* encoding: 8/10 or 64/66 */
} speeds[IB_NSPEEDS] = {
    [IB_SDR] = { "SDR", 2.5e9, 8.0 / 10.0 },
    [IB_DDR] = { "DDR", 5.0e9, 8.0 / 10.0 },
    [IB_QDR] = { "QDR", 10.0e9, 8.0 / 10.0 },
    [IB_FDR10] = { "FDR10", 10.3125e9, 64.0 / 66.0 },
    [IB_FDR] = { "FDR", 14.0625e9, 64.0 / 66.0 },
    [IB_EDR] = { "EDR", 25.78125e9, 64.0 / 66.0 },
    /* HDR, NDR and XDR lanes are PAM4 with FEC; their data rates are 50, 100 and 200 Gb/s per
     * lane (XDR: 212.5 Gb/s signalling, 4x = 800 Gb/s). */
    [IB_HDR] = { "HDR", 53.125e9, 50.0 / 53.125 },
    [IB_NDR] = { "NDR", 106.25e9, 100.0 / 106.25 },
    [IB_XDR] = { "XDR", 212.5e9, 200.0 / 212.5 },
};

int ib_width_valid(int w)
{
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 12;
}

const char *ib_speed_name(enum ib_speed s)
{
    return (unsigned)s < IB_NSPEEDS ? speeds[s].name : "?";
}

double ib_lane_signal_bps(enum ib_speed s)
{
    return speeds[s].baud;
}

double ib_data_rate_bps(int width, enum ib_speed s)
{
    return (double)width * speeds[s].baud * speeds[s].efficiency;
}

int ib_parse_speed(const char *text, enum ib_speed *speed)
{
    /* Longest names first so that "FDR10" is not read as "FDR". */
    static const enum ib_speed order[] = { IB_FDR10, IB_SDR, IB_DDR, IB_QDR, IB_FDR,
                                           IB_EDR, IB_HDR, IB_NDR, IB_XDR };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (strcasecmp(text, speeds[order[i]].name) == 0) {
            *speed = order[i];
            return 0;
        }
    return -1;
}

int ib_parse_width_speed(const char *text, int *width, enum ib_speed *speed)
{
    char *end;
    long w = strtol(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X') || !ib_width_valid((int)w))
        return -1;
    end++;
    while (*end == ' ')
        end++;
    if (ib_parse_speed(end, speed))
        return -1;
    *width = (int)w;
    return 0;
}

void ib_format_width_speed(int width, enum ib_speed s, char *buf, size_t len)
{
    snprintf(buf, len, "%dx%s", width, ib_speed_name(s));
}
