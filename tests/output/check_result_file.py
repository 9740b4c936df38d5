"""Reads a file written by result_file_writer and asserts every value exactly: the stored types and
layout with h5py (what the writer is tested for), lists and attributes as crd_results decodes them."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))
try:
    import h5py
    import numpy as np
    from crd_results import attr_value, csr_rows
except ImportError as err:
    print("h5py/numpy/pandas not available (%s): skipping" % err, file=sys.stderr)
    sys.exit(77)


def text_of(i):
    return b"" if i % 17 == 0 else ("row-%d" % i).encode() + b"x" * (i % 9)


def check_group(g, n):
    i = np.arange(n, dtype=np.uint64)
    assert g.attrs["rows"] == n
    assert g["u64"].dtype == np.uint64 and np.array_equal(g["u64"][...], i * 1000003 + (1 << 40))
    assert g["u32"].dtype == np.uint32 and np.array_equal(g["u32"][...], (i * 7 + 3).astype(np.uint32))
    signed = np.where(i % 2 == 1, -i.astype(np.int64), i.astype(np.int64))
    assert g["i32"].dtype == np.int32 and np.array_equal(g["i32"][...], signed.astype(np.int32))
    assert g["f64"].dtype == np.float64 and np.array_equal(g["f64"][...], i.astype(np.float64) / 8.0 - 3.5)
    assert g["u8"].dtype == np.uint8 and np.array_equal(g["u8"][...], (i % 251).astype(np.uint8))
    h = g["hash"][...]
    assert h.dtype == np.uint8 and h.shape == (n, 20), h.shape
    expect = ((i[:, None] * 20 + np.arange(20, dtype=np.uint64)[None, :]) % 256).astype(np.uint8)
    assert np.array_equal(h, expect)
    texts = [text_of(int(k)) for k in range(n)]
    width = max([1] + [len(t) for t in texts])
    assert g["text"].dtype == np.dtype("S%d" % width), (g["text"].dtype, width)
    assert list(g["text"][...]) == texts
    offsets = g["lists_offsets"][...]
    values = g["lists"][...]
    assert offsets.dtype == np.uint64 and values.dtype == np.uint32
    assert len(offsets) == n + 1
    assert csr_rows(values, offsets) == [[k * 10 + j for j in range(k % 4)] for k in range(n)]


def main(path):
    with h5py.File(path, "r") as f:
        check_group(f["small"], 1000)
        check_group(f["big/nested"], 150000)
        check_group(f["empty"], 0)
        assert f["big/nested/u64"].chunks is not None and f["big/nested/u64"].compression == "gzip"
        assert f["big/nested/u64"].shuffle and not f["big/nested/text"].shuffle
        assert f["small/u64"].chunks is None and f["empty/u64"].shape == (0,)
        assert isinstance(f["a/b/c"], h5py.Group)
        attrs = f.attrs
        assert attr_value(attrs["title"]) == "crd result test"
        assert attr_value(attrs["empty_text"]) == ""
        assert attr_value(attrs["utf8"]) == "caf\u00e9"
        assert attrs["count"] == np.uint64(18446744073709551615) and attrs["count"].dtype == np.uint64
        assert attrs["delta"] == -42 and attrs["delta"].dtype == np.int64
        assert attrs["ratio"] == 2.5
        assert attr_value(f["small/u64"].attrs["unit"]) == "bytes"
    leftovers = [e for e in os.listdir(os.path.dirname(os.path.abspath(path))) if ".tmp-" in e]
    assert not leftovers, leftovers
    print("ok", path)


if __name__ == "__main__":
    main(sys.argv[1])
