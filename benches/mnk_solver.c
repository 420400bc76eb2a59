/* The baseline for the build-time solve (benches/games.rs): a plain memoised solver of 4x4
 * tic-tac-toe's values alone (4 in a row; no remoteness, no best moves, no symmetry), as one
 * would write it in C. Prints the empty board's value for X: 1 win, 0 draw, -1 loss. */
#include <stdio.h>
#include <stdlib.h>

#define CELLS 16
static signed char *memo; /* per base-3 code: 0 unknown, else value + 2 */
static unsigned lines[10];
static int nlines;
static unsigned pow3[CELLS];

static int won(unsigned marks) {
    for (int i = 0; i < nlines; i++)
        if ((marks & lines[i]) == lines[i]) return 1;
    return 0;
}

/* The value of the position for the side to move, whose marks are `mine`. */
static int solve(unsigned mine, unsigned theirs, unsigned code, int weight) {
    if (memo[code]) return memo[code] - 2;
    int best = -1;
    unsigned empty = ~(mine | theirs) & 0xffff;
    if (!empty) best = 0;
    for (int cell = 0; cell < CELLS && best < 1; cell++) {
        if (!(empty >> cell & 1)) continue;
        unsigned after = mine | 1u << cell;
        int value;
        if (won(after)) value = 1;
        else if ((after | theirs) == 0xffff) value = 0;
        else value = -solve(theirs, after, code + weight * pow3[cell], 3 - weight);
        if (value > best) best = value;
    }
    memo[code] = (signed char)(best + 2);
    return best;
}

int main(void) {
    for (int i = 0; i < CELLS; i++) pow3[i] = i ? pow3[i - 1] * 3 : 1;
    for (int r = 0; r < 4; r++) lines[nlines++] = 0xfu << (4 * r);
    for (int c = 0; c < 4; c++) lines[nlines++] = 0x1111u << c;
    lines[nlines++] = 0x8421;
    lines[nlines++] = 0x1248;
    memo = calloc(43046721, 1);
    if (!memo) return 1;
    printf("%d\n", solve(0, 0, 0, 1));
    return 0;
}
