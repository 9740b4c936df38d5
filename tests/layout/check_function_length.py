#!/usr/bin/env python3
"""No function in src/ or include/ is longer than 80 lines: a longer one does several things, and
its phases want names (split it into functions that each say what they do). A function's length is
the lines of its body, between the line of its opening brace and that of its closing one; a lambda
or local class inside a function counts with it. Functions are found by matching braces in the code
with comments, string and character literals and preprocessor lines blanked: a brace opens a
function body when what precedes it (since the last ';', '{' or '}') has a parameter list and is no
control statement, namespace, class, struct, union, enum or initializer.

    check_function_length.py SOURCE_DIR      exit 0 when none is too long, else one line per function
"""
import pathlib
import re
import sys

import layout_check

LIMIT = 80
SUFFIXES = {".hpp", ".h", ".cpp", ".cc"}
CONTROL = {"if", "for", "while", "switch", "catch", "do", "else", "try", "return"}
NAME = re.compile(r"(operator\s*\S+?|[~A-Za-z_][\w:<>~]*)\s*\(")
TYPE_HEAD = re.compile(r"^(template\s*<.*>\s*)?(namespace|class|struct|union|enum)\b")
RAW_STRING = re.compile(r'R"([^(\s]*)\(')
SINGLE_COLON = re.compile(r"(?<!:):(?!:)")


def _blank(text):
    return re.sub(r"[^\n]", " ", text)


def strip_code(text):
    """The text with comments, literals and preprocessor lines blanked, line breaks kept."""
    out, i, n, line_start = [], 0, len(text), True
    while i < n:
        c = text[i]
        if line_start and c == "#":  # a preprocessor line, with its continuations
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            out.append(_blank(text[i:j]))
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c == "R" and RAW_STRING.match(text, i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            delim = RAW_STRING.match(text, i).group(1)
            j = text.find(")" + delim + '"', i)
            j = n if j < 0 else j + len(delim) + 2
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):  # 1'000 is a digit separator
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            out.append(c)
            line_start = c == "\n" or (line_start and c in " \t")
            i += 1
            continue
        out.append(_blank(text[i:j]))
        i = j
    return "".join(out)


def is_function_head(head):
    """Whether the code before a '{' (since the last ; { or }) opens a function body."""
    flat = " ".join(head.split())
    name = NAME.search(flat)
    if not name or ")" not in flat or TYPE_HEAD.match(flat) or flat.split(" ")[0] in CONTROL:
        return False
    eq = flat.find("=")
    # `x = {…}` and `x = f(…) {` are initializers; `operator=(…)` and `= [](…) {` (a lambda) are not.
    return eq < 0 or eq > flat.find("(") or "operator" in flat or "[" in flat[eq:]


def is_member_initializer(head):
    """Whether a '{' after this function head initializes a member (`S() : a_{1} {`), not the body."""
    flat = " ".join(head.split())
    params = flat.find("(")
    depth, end = 0, -1
    for k in range(params, len(flat)):
        depth += {"(": 1, ")": -1}.get(flat[k], 0)
        if depth == 0:
            end = k
            break
    tail = flat[end + 1 :] if end >= 0 else ""
    return bool(SINGLE_COLON.search(tail)) and bool(re.search(r"[\w>]$", flat))


def functions(text):
    """(name, line of the opening brace, body lines) of every function not inside another."""
    code = strip_code(text)
    found, stack, last = [], [], 0
    for i, c in enumerate(code):
        if c == "{":
            inside = any(kind == "function" for kind, _, _ in stack)
            head = code[last:i]
            if not inside and is_function_head(head) and is_member_initializer(head):
                stack.append(("initializer", i, ""))  # part of the head: `last` stays
                continue
            if not inside and is_function_head(head):
                stack.append(("function", i, NAME.search(" ".join(head.split())).group(1)))
            else:
                stack.append(("block", i, ""))
            last = i + 1
        elif c == "}":
            if stack:
                kind, start, name = stack.pop()
                if kind == "initializer":
                    continue
                if kind == "function":
                    first, end = code.count("\n", 0, start), code.count("\n", 0, i)
                    found.append((name, first + 1, max(end - first - 1, 0)))
            last = i + 1
        elif c == ";":
            last = i + 1
    return found


def problems(root):
    out = []
    for top in ("src", "include"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            for name, line, length in functions(path.read_text(errors="replace")):
                if length > LIMIT:
                    out.append(f"{path.relative_to(root)}:{line}: {name} is {length} lines long (at most {LIMIT})")
    return out


if __name__ == "__main__":
    sys.exit(layout_check.run(__doc__, problems))
