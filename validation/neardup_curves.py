#!/usr/bin/env python3
"""The probability that crd neardup finds a pair of pages, against their shingle Jaccard
similarity J, for each preset in configs/ (Broder's banding; Henzinger 2006, §2, for the rule):
one min-value agrees with probability J, a supershingle of l min-values agrees with probability
J^l, and a pair is B-similar when at least t of the m' supershingles agree:

    P(found | J) = sum over i = t … m' of C(m', i) · (J^l)^i · (1 − J^l)^(m' − i)

(for t = 1 this is datatrove's 1 − (1 − J^r)^b with r = l and b = m'). A preset with --min-jaccard T
then keeps a found pair when its bottom-k estimate Ĵ (--jaccard-sample k) is ≥ T; Ĵ is nearly
normal with standard deviation sqrt(J (1 − J) / k) (at most: less when the union has few more than k
shingles), so

    P(reported | J) = P(found | J) · Φ((J − T) / sqrt(J (1 − J) / k))

(the bands' and the sample's hash functions are independent). Prints a Markdown table and,
with --png, draws the curves (matplotlib; /usr/bin/python3 on Debian).
  /usr/bin/python3 validation/neardup_curves.py [--png docs/images/neardup_curves.png] \
      [--measured neardup-high-recall.ini=VALIDATION_DIR/measured-neardup-high-recall.tsv]
--measured draws a preset's measured shares (validation/neardup_validation.py --keep writes them:
one row per Jaccard band, "lo hi copies found") as points at each band's middle. FineWeb's own bands
(datatrove: 5-word shingles, 14 × 8, one agreeing) are drawn dashed for reference.
"""
import argparse
import configparser
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.join(HERE, "..", "configs")
PRESETS = ("neardup-henzinger.ini", "neardup-high-recall.ini")
FINEWEB = (14, 8, 1, 5)  # datatrove's MinHash deduplication as FineWeb runs it (Penedo et al. 2024)
JACCARDS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98)


def preset(name):
    """(m', l, t, k, min-jaccard, jaccard-sample) of a preset file; crd's defaults where it leaves one out."""
    cp = configparser.ConfigParser()
    with open(os.path.join(CONFIGS, name), encoding="utf-8") as f:
        cp.read_string("[crd]\n" + f.read())
    c = cp["crd"]
    m = int(c.get("minvalues", 84))
    m_prime = int(c.get("supershingles", 6))
    return (m_prime, m // m_prime, int(c.get("min-b-similarity", 2)), int(c.get("shingle-tokens", 8)),
            float(c.get("min-jaccard", 0)), int(c.get("jaccard-sample", 1024)))


def p_found(j, m_prime, l, t):
    q = j ** l
    return sum(math.comb(m_prime, i) * q ** i * (1 - q) ** (m_prime - i) for i in range(t, m_prime + 1))


def p_kept(j, threshold, sample):
    """P(Ĵ ≥ threshold | J = j) with a bottom-k sample of `sample` (normal approximation)."""
    if threshold <= 0:
        return 1.0
    sd = math.sqrt(j * (1 - j) / sample)
    if sd == 0:
        return 1.0 if j >= threshold else 0.0
    return 0.5 * math.erfc((threshold - j) / (sd * math.sqrt(2)))


def p_reported(j, m_prime, l, t, threshold, sample):
    return p_found(j, m_prime, l, t) * p_kept(j, threshold, sample)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--png", help="also draw the curves into this PNG file")
    ap.add_argument("--measured", nargs="*", default=[], help="PRESET=TSV: a preset's measured shares")
    args = ap.parse_args()
    rows = [(name,) + preset(name) for name in PRESETS]
    measured = {}
    for spec in args.measured:
        name, path = spec.split("=", 1)
        with open(path, encoding="utf-8") as f:
            measured[name] = [tuple(float(x) for x in line.split()) for line in f if line.strip()]
    print("| preset | k | m′ × l | t | Ĵ ≥ | " + " | ".join("J = %.2f" % j for j in JACCARDS) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(JACCARDS))
    for name, m_prime, l, t, k, mj, sample in rows:
        cells = " | ".join("%.3f" % p_reported(j, m_prime, l, t, mj, sample) for j in JACCARDS)
        print("| `%s` | %d | %d × %d | %d | %s | %s |" % (name, k, m_prime, l, t,
                                                         "%g (k = %d)" % (mj, sample) if mj else "—", cells))
        if mj:
            cells = " | ".join("%.3f" % p_found(j, m_prime, l, t) for j in JACCARDS)
            print("| — its bands alone | %d | %d × %d | %d | — | %s |" % (k, m_prime, l, t, cells))
    m_prime, l, t, k = FINEWEB
    print("| FineWeb's bands (datatrove) | %d | %d × %d | %d | — | %s |" % (
        k, m_prime, l, t, " | ".join("%.3f" % p_found(j, m_prime, l, t) for j in JACCARDS)))
    if args.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6.4, 4.0))
        xs = [i / 200 for i in range(201)]
        for name, m_prime, l, t, k, mj, sample in rows:
            line, = ax.plot(xs, [p_reported(x, m_prime, l, t, mj, sample) for x in xs],
                            label="%s (k=%d, %d×%d, ≥%d%s)" % (name[:-4], k, m_prime, l, t,
                                                              ", Ĵ≥%g" % mj if mj else ""))
            if mj:
                ax.plot(xs, [p_found(x, m_prime, l, t) for x in xs], ":", color=line.get_color(), lw=1,
                        label="%s, its bands alone" % name[:-4])
            if name in measured:
                pts = [((lo + hi) / 2, found / n) for lo, hi, n, found in measured[name] if n]
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o", color=line.get_color(), ms=4,
                        label="%s, measured (validation corpus)" % name[:-4])
        m_prime, l, t, k = FINEWEB
        ax.plot(xs, [p_found(x, m_prime, l, t) for x in xs], "--", color="grey", lw=1,
                label="FineWeb's bands (k=%d, %d×%d, ≥%d)" % (k, m_prime, l, t))
        ax.axvline(0.8, color="grey", lw=0.8, ls=":")
        ax.set_xlabel("Jaccard similarity of the pages' k-word shingle sets")
        ax.set_ylabel("probability the pair is reported")
        ax.set_title("crd neardup presets: P(reported) against Jaccard (bands × Jaccard check)")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize=8)
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
