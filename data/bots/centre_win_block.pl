#!/usr/bin/env perl
# The simplest published rule bot (the first version in the blog post "Writing a Tic-Tac-Toe
# bot in perl", before it learned about forks): take the centre, else win, else block, else the first open cell. Our own Perl, for
# `ttt audit --cmd`; it can lose, and the audit shows how.
#
# Protocol: each request on stdin is "<board> <mark> <moves...>", the board as 9 characters
# of X, O and . row-major; reply with one cell 1..9 on its own line.
use strict;
use warnings;

$| = 1;    # flush every reply
my @lines = ([0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]);

sub completes {
    my ($board, $mark, $cell) = @_;
    for my $line (@lines) {
        next unless grep { $_ == $cell } @$line;
        my @others = grep { $_ != $cell } @$line;
        return 1 if 2 == grep { substr($board, $_, 1) eq $mark } @others;
    }
    return 0;
}

while (my $request = <STDIN>) {
    my ($board, $mark) = split ' ', $request;
    my $them = $mark eq 'X' ? 'O' : 'X';
    my @open = grep { substr($board, $_, 1) eq '.' } 0 .. 8;
    my ($move) = (grep { $_ == 4 } @open);
    ($move) = grep { completes($board, $mark, $_) } @open unless defined $move;
    ($move) = grep { completes($board, $them, $_) } @open unless defined $move;
    $move = $open[0] unless defined $move;
    print $move + 1, "\n";
}
