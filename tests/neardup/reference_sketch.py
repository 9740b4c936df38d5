#!/usr/bin/env python3
"""An independent, slow reference of crd neardup's fixed functions (docs/neardup.md), written from
the documentation, not from the C++: term tokens, shingles, min-values, supershingles and the
simhash projection. Run it to print the vectors tests/neardup/test_sketch.cpp asserts:

    python3 tests/neardup/reference_sketch.py
    python3 tests/neardup/reference_sketch.py --check tests/neardup/test_sketch.cpp tests/text/test_tokenizer.cpp   # ctest: they agree
"""
import re
import sys
M64 = (1 << 64) - 1


def mix64(z):
    z = (z + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def seed(domain, index):
    return mix64((domain << 32) | index)


SHINGLE, MINHASH, SUPER, PROJECTION = 1, 2, 3, 4


def term_token(term):
    h = 0xCBF29CE484222325
    for byte in term.encode():
        h = ((h ^ byte) * 0x100000001B3) & M64
    return mix64(h)


def shingles(tokens, k):
    if not tokens:
        return []
    w = min(k, len(tokens))
    out = []
    for i in range(len(tokens) - w + 1):
        h = seed(SHINGLE, 0)
        for t in tokens[i:i + w]:
            h = mix64(h ^ t)
        out.append(h)
    return out


def min_values(shs, m):
    return [min(mix64(s ^ seed(MINHASH, i)) for s in set(shs)) for i in range(m)]


def supershingles(mins, m_prime):
    l = len(mins) // m_prime
    out = []
    for j in range(m_prime):
        h = seed(SUPER, j)
        for v in mins[j * l:(j + 1) * l]:
            h = mix64(h ^ v)
        out.append(h)
    return out


def simhash(tokens, b):
    # Straight from the definition: every occurrence adds its ±1 projection (no frequency table).
    acc = [0] * b
    for t in tokens:
        for i in range(b):
            r = mix64(t ^ seed(PROJECTION, i // 64))
            acc[i] += 1 if (r >> (i % 64)) & 1 else -1
    words = [0] * (b // 64)
    for i in range(b):
        if acc[i] > 0:
            words[i // 64] |= 1 << (i % 64)
    return words


def vectors():
    """Every value test_sketch.cpp / test_tokenizer.cpp assert, as the reference computes them."""
    terms = "the quick brown fox jumps over the lazy dog and the quick cat".split()
    tokens = [term_token(t) for t in terms]
    short = [term_token(t) for t in ["a", "b", "c"]]
    return ([mix64(0), term_token("web"), shingles(tokens, 8)[0]] +
            supershingles(min_values(shingles(tokens, 8), 84), 6) + simhash(tokens, 384) +
            supershingles(min_values(shingles(short, 8), 84), 6))


def check(paths):
    """Exit 1 unless every reference value appears in the C++ tests as a 0x…ull literal."""
    text = "".join(open(p).read() for p in paths)
    literals = {int(x, 16) for x in re.findall(r"0x([0-9a-fA-F]{16})ull", text)}
    missing = [v for v in vectors() if v not in literals]
    for v in missing:
        print("not asserted in %s: 0x%016x" % (" ".join(paths), v))
    print("%d reference values, %d missing" % (len(vectors()), len(missing)))
    return 1 if missing else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2:]))
    print("mix64(0) = 0x%016x" % mix64(0))
    print("term_token('web') = 0x%016x" % term_token("web"))
    terms = "the quick brown fox jumps over the lazy dog and the quick cat".split()
    tokens = [term_token(t) for t in terms]
    print("shingles(k=8)[0] = 0x%016x, count %d" % (shingles(tokens, 8)[0], len(shingles(tokens, 8))))
    mins = min_values(shingles(tokens, 8), 84)
    print("supershingles(84, 6) =", ", ".join("0x%016xull" % s for s in supershingles(mins, 6)))
    print("simhash(384) =", ", ".join("0x%016xull" % w for w in simhash(tokens, 384)))
    short = [term_token(t) for t in ["a", "b", "c"]]
    print("short supershingles =", ", ".join("0x%016xull" % s for s in supershingles(min_values(shingles(short, 8), 84), 6)))


if __name__ == "__main__":
    main()
