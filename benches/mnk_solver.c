/* Baselines for the solvers, as one would write them plainly in C: a memoised negamax over a
 * dense array indexed by base-3 code, one thread.
 *
 * With no arguments: 4x4 tic-tac-toe's values alone (4 in a row; no remoteness, no symmetry,
 * stopping at the first winning move), the baseline of the build-time solve
 * (benches/games.rs). Prints the empty board's value for X: 1 win, 0 draw, -1 loss.
 *
 * With `ROWS COLUMNS K [sym]`: any game of at most 20 cells, value and remoteness (the winner
 * takes the fastest win, the loser the slowest loss), every position reachable from the empty
 * board; with `sym`, memoised on the smallest code among the board's images under its
 * symmetries (8 on a square, 4 on another rectangle). Prints "VALUE REMOTENESS" for the empty
 * board (the baseline of the tiered solve, benches/tiers.rs). */
#include <stdio.h>
#include <stdlib.h>

#define MAX_CELLS 20
static unsigned char *memo; /* per code: 0 unknown, else 1 + 32 * (value + 1) + remoteness */
static unsigned lines[256];
static int nlines, cells, nsyms;
static unsigned full;
static unsigned pow3[MAX_CELLS];

static int won(unsigned marks) {
    for (int i = 0; i < nlines; i++)
        if ((marks & lines[i]) == lines[i]) return 1;
    return 0;
}

/* The values alone, 4x4: the first baseline, unchanged. */
static int solve_values(unsigned mine, unsigned theirs, unsigned code, int weight) {
    if (memo[code]) return memo[code] - 2;
    int best = -1;
    unsigned empty = ~(mine | theirs) & full;
    if (!empty) best = 0;
    for (int cell = 0; cell < cells && best < 1; cell++) {
        if (!(empty >> cell & 1)) continue;
        unsigned after = mine | 1u << cell;
        int value;
        if (won(after)) value = 1;
        else if ((after | theirs) == full) value = 0;
        else value = -solve_values(theirs, after, code + weight * pow3[cell], 3 - weight);
        if (value > best) best = value;
    }
    memo[code] = (unsigned char)(best + 2);
    return best;
}

/* The weight of a mark on `cell` under symmetry `s`: 3^(image of the cell). */
static unsigned weight[8][MAX_CELLS];

/* How good a move is for its player: better value, then a faster win or a slower loss. */
static int rank(int value, int remoteness) {
    return value > 0 ? 100 - remoteness : value < 0 ? -100 + remoteness : 0;
}

/* Value and remoteness for the side to move (`mine`); `codes` holds the board's code under
 * each symmetry, `digit` is 1 when X moves, 2 when O does. */
static void solve(unsigned mine, unsigned theirs, const unsigned *codes, unsigned digit,
                  int *value, int *remoteness) {
    unsigned code = codes[0];
    for (int s = 1; s < nsyms; s++)
        if (codes[s] < code) code = codes[s];
    if (memo[code]) {
        *value = (memo[code] - 1) / 32 - 1;
        *remoteness = (memo[code] - 1) % 32;
        return;
    }
    int best = -1000, best_value = 0, best_remoteness = 0;
    unsigned empty = ~(mine | theirs) & full;
    for (int cell = 0; cell < cells; cell++) {
        if (!(empty >> cell & 1)) continue;
        unsigned after = mine | 1u << cell;
        int v, r;
        if (won(after)) v = 1, r = 1;
        else if ((after | theirs) == full) v = 0, r = 1;
        else {
            unsigned child[8];
            for (int s = 0; s < nsyms; s++) child[s] = codes[s] + digit * weight[s][cell];
            solve(theirs, after, child, 3 - digit, &v, &r);
            v = -v;
            r += 1;
        }
        if (rank(v, r) > best) best = rank(v, r), best_value = v, best_remoteness = r;
    }
    memo[code] = (unsigned char)(1 + 32 * (best_value + 1) + best_remoteness);
    *value = best_value;
    *remoteness = best_remoteness;
}

int main(int argc, char **argv) {
    int rows = 4, columns = 4, k = 4;
    if (argc >= 4) rows = atoi(argv[1]), columns = atoi(argv[2]), k = atoi(argv[3]);
    cells = rows * columns;
    if (cells < 1 || cells > MAX_CELLS || k < 1) return 2;
    full = cells == 32 ? ~0u : (1u << cells) - 1;
    for (int i = 0; i < cells; i++) pow3[i] = i ? pow3[i - 1] * 3 : 1;
    int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < columns; c++)
            for (int d = 0; d < 4; d++) {
                int er = r + dirs[d][0] * (k - 1), ec = c + dirs[d][1] * (k - 1);
                if (er < 0 || er >= rows || ec < 0 || ec >= columns) continue;
                unsigned line = 0;
                for (int i = 0; i < k; i++)
                    line |= 1u << ((r + dirs[d][0] * i) * columns + c + dirs[d][1] * i);
                lines[nlines++] = line;
            }
    unsigned long long codes = 1;
    for (int i = 0; i < cells; i++) codes *= 3;
    memo = calloc(codes, 1);
    if (!memo) return 1;
    if (argc < 4) {
        printf("%d\n", solve_values(0, 0, 0, 1));
        return 0;
    }
    /* The symmetries: the identity, the mirrors and the half turn; the quarter turns and the
     * diagonal mirrors too on a square. */
    nsyms = argc >= 5 ? (rows == columns ? 8 : 4) : 1;
    for (int s = 0; s < nsyms; s++)
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < columns; c++) {
                int tr = r, tc = c;
                if (s & 1) tc = columns - 1 - tc;
                if (s & 2) tr = rows - 1 - tr;
                if (s & 4) { int t = tr; tr = tc; tc = t; }
                weight[s][r * columns + c] = pow3[tr * columns + tc];
            }
    int value, remoteness;
    unsigned start[8] = {0};
    solve(0, 0, start, 1, &value, &remoteness);
    printf("%d %d\n", value, remoteness);
    return 0;
}
