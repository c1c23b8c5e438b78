/* The debug build's self-check (.ci/debug): writes out[INDEX] of an array inside a
 * struct, as the kernels do (gd_deal_t.out[GD_SEATS] through a pointer).  Compiled with
 * build_support/debug_cflags.txt, "oob_selfcheck 4" (one past the end) must trap while
 * "oob_selfcheck 3" exits 0; compiled without them, both exit 0. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nout;
    int out[4];
    int result;
} deal_t;

static void record(deal_t *d, int index, int seat) { d->out[index] = seat; }

int main(int argc, char **argv) {
    deal_t d = {0, {-1, -1, -1, -1}, 0};
    int index = argc > 1 ? atoi(argv[1]) : 4;
    record(&d, index, 2);
    printf("wrote out[%d]\n", index);
    return 0;
}
