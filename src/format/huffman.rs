//! The Huffman code of a table's symbols (an entry and a number of optimal moves): code
//! lengths from counts, canonical codes from lengths, and the decoder's lookup table.

/// The longest Huffman code; a decoder looks codes up in a table of `2^MAX_CODE` entries.
pub(super) const MAX_CODE: u32 = 12;

/// Code lengths of a Huffman code for `counts` (zero counts get none), at most [`MAX_CODE`].
pub(super) fn code_lengths(counts: &[u64]) -> Vec<u32> {
    let mut counts = counts.to_vec();
    loop {
        // Nodes: (weight, symbols below). Merging the two lightest adds one to each depth.
        let mut lengths = vec![0u32; counts.len()];
        let mut nodes: Vec<(u64, Vec<usize>)> = counts
            .iter()
            .enumerate()
            .filter(|(_, count)| **count > 0)
            .map(|(symbol, &count)| (count, vec![symbol]))
            .collect();
        if nodes.len() == 1 {
            lengths[nodes[0].1[0]] = 1;
            return lengths;
        }
        while nodes.len() > 1 {
            nodes.sort_by_key(|node| std::cmp::Reverse(node.0));
            let (a, b) = (
                nodes.pop().expect("two nodes"),
                nodes.pop().expect("two nodes"),
            );
            for &symbol in a.1.iter().chain(&b.1) {
                lengths[symbol] += 1;
            }
            nodes.push((a.0 + b.0, [a.1, b.1].concat()));
        }
        if lengths.iter().all(|&length| length <= MAX_CODE) {
            return lengths;
        }
        // Too deep: flatten the counts and try again.
        for count in &mut counts {
            if *count > 0 {
                *count = (*count).div_ceil(2);
            }
        }
    }
}

/// Canonical Huffman codes from lengths, bit-reversed so that the first bit written is the
/// code's first bit.
pub(super) fn canonical_codes(lengths: &[u32]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..lengths.len()).filter(|&s| lengths[s] > 0).collect();
    order.sort_by_key(|&s| (lengths[s], s));
    let mut codes = vec![0u32; lengths.len()];
    let (mut code, mut length) = (0u32, 0u32);
    for (i, &symbol) in order.iter().enumerate() {
        if i > 0 {
            code += 1;
        }
        code <<= lengths[symbol] - length;
        length = lengths[symbol];
        codes[symbol] = code.reverse_bits() >> (32 - length);
    }
    codes
}

/// For each `MAX_CODE`-bit window, the symbol whose code starts it and that code's length
/// (length 0 where no code does).
pub(super) fn decoding_table(lengths: &[u32]) -> Vec<(u16, u8)> {
    let codes = canonical_codes(lengths);
    let mut table = vec![(0u16, 0u8); 1 << MAX_CODE];
    for (symbol, &length) in lengths.iter().enumerate() {
        let step = 1usize << length;
        let mut window = codes[symbol] as usize;
        while window < table.len() {
            table[window] = (symbol as u16, length as u8);
            window += step;
        }
    }
    table
}
