#!/usr/bin/env python3
"""check_function_length.py's parser on made-up code: it measures function bodies, not namespaces,
classes or initializers, and braces in comments, strings, raw strings and characters do not count.

    test_function_length.py      exit 0 when every case passes
"""
import sys
import unittest

import check_function_length as check


def body(lines, extra=""):
    return "\n".join([f"  x += {i};{extra}" for i in range(lines)])


class Functions(unittest.TestCase):
    def test_measures_bodies_not_namespaces_or_classes(self):
        text = (
            "namespace crd {\nstruct S {\n  int f() const {\n" + body(3) + "\n  }\n};\n"
            "int g(int x) {\n" + body(81) + "\n  return x;\n}\n}  // namespace crd\n"
        )
        self.assertEqual(check.functions(text), [("f", 3, 3), ("g", 9, 82)])

    def test_braces_in_comments_and_literals_do_not_count(self):
        text = (
            'void f() {\n  const char* a = "}}";  // }\n  /* { */ char b = \'{\';\n'
            '  auto r = R"x(})x";\n  int n = 1\'000;\n}\nvoid g() {\n}\n'
        )
        self.assertEqual(check.functions(text), [("f", 1, 4), ("g", 7, 0)])

    def test_lambdas_and_blocks_count_with_their_function(self):
        text = "void f() {\n  auto l = [&] {\n    if (a) {\n    }\n  };\n  for (;;) {\n  }\n}\n"
        self.assertEqual(check.functions(text), [("f", 1, 6)])

    def test_initializers_and_control_statements_are_no_functions(self):
        text = (
            "const std::vector<int> kTable = {\n  f(1),\n};\n#define M(x) { x }\n"
            "S::S(int a) : a_(a), b_{a} {\n}\nbool operator==(const S& o) const {\n  return true;\n}\n"
        )
        self.assertEqual(check.functions(text), [("S::S", 5, 0), ("operator==", 7, 1)])

    def test_member_initializers_in_braces_are_no_body(self):
        text = (
            "S::S(int a)\n    : a_{a},\n      v_{1, 2} {\n" + body(3) + "\n}\n"
            "auto f() -> std::string {\n  return std::string{};\n}\nint g() const noexcept {\n}\n"
        )
        self.assertEqual(check.functions(text), [("S::S", 3, 3), ("f", 8, 1), ("g", 11, 0)])

    def test_a_long_function_is_named(self):
        import pathlib
        import tempfile

        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            (root / "src" / "m").mkdir(parents=True)
            (root / "include").mkdir()
            (root / "src" / "m" / "a.cpp").write_text("void long_one() {\n" + body(81) + "\n}\n")
            (root / "src" / "m" / "b.cpp").write_text("void short_one() {\n" + body(80) + "\n}\n")
            self.assertEqual(check.problems(root), ["src/m/a.cpp:1: long_one is 81 lines long (at most 80)"])


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False).result.wasSuccessful() else 1)
