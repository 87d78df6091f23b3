/* cenre.h: CENRE, "Categorization based on the Exact Number of Required Entries" (seed 001
 * section 3.7, Fig. 4), the method the paper compares CESY with. A request of maximum
 * distance d needs n = ceil(64/d) entries and is laid out at the representative spacing
 * s = ceil(64/n) from a free first entry; an occupied target is replaced by the entry
 * before it, then the one before that (which may add entries: CENRE's waste). Every free
 * first entry is tried and the layout kept that (1) leaves the shortest longest run of taken
 * entries, then (2) the longest shortest run of free entries, then (3) uses fewest entries;
 * ties keep the earliest first entry. The paper leaves FindEntries under-specified; the
 * choices made here are documented in docs/qos.md (reconstruction, digest 001 gap 9):
 * - when every entry between the current one and the target is taken, the layout steps
 *   forward up to the largest allowed gap d instead (else this start fails);
 * - the layout ends when the wrap-around gap back to the first entry is at most d;
 * - the criteria are measured on the table with the candidate placed;
 * - admission requires n <= free entries and no run of >= d taken entries (Fig. 4). */
#ifndef IBN_QOS_CENRE_H
#define IBN_QOS_CENRE_H

#include <stdint.h>

/* Entries a distance needs, ceil(64/d), and its representative spacing ceil(64/n). */
int cenre_spacing(int d);
/* Place a request of maximum distance d (2..64) in table `taken`: the chosen entries in
 * *mask; returns the number of entries used, or -1 when it cannot be placed. */
int cenre_place(uint64_t taken, int d, uint64_t *mask);

#endif
