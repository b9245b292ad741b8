#!/usr/bin/env python3
"""Functions of file scope that two files of one unity group both define (CMakeLists.txt: each
source folder of src/ is compiled as one unit, the tests in batches of sixteen). Two constants,
types or functions of one name and signature fail to compile, but two functions of one name
and different parameters compile as overloads, and a call could then pick the other file's:
this lists every function defined in an anonymous namespace (or static) under one name in two
files of a group, so that it can be renamed. Exit status 1 when there is one.
Usage: scripts/check-unity-names.py [ROOT]"""
import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
# A function's definition at the start of a line.
FUNCTION = re.compile(r"^(?:template\s*<.*>\s*)?(?:static\s+|inline\s+|constexpr\s+|\[\[\w+\]\]\s+)*"
                      r"[\w:<>,*&() ]+?[\s*&>]+(~?\w+)\s*\((?:[^;]*$|.*\{)")  # a declaration ends in ";"
TEST_BATCH = 16  # CMakeLists.txt: UNITY_BUILD_BATCH_SIZE of icnsim_tests
KEYWORDS = {"namespace", "if", "for", "while", "switch", "return", "sizeof", "operator"}


def local_names(path):
    """Functions defined at file scope with internal linkage: in `namespace {` ... `}  // namespace`."""
    names, inside = set(), False
    for line in path.read_text(errors="replace").splitlines():
        if re.match(r"^namespace\s*\{", line):
            inside = True
            continue
        if inside and re.match(r"^\}\s*//\s*namespace\s*$", line):
            inside = False
            continue
        static = line.startswith("static ")
        if not (inside or static) or not (line[:1].isalpha() or line.startswith("[[")):
            continue  # indented: a member or a statement, not a name at file scope
        m = FUNCTION.match(line)
        if m and m.group(1) not in KEYWORDS:
            names.add(m.group(1))
    return names


def groups():
    """The unity groups: each folder of src/ (its units are runs of it: cmake/units.cmake), and the tests."""
    by = collections.defaultdict(list)
    for path in sorted((ROOT / "src").rglob("*.cc")):
        if path.name != "main.cc":
            by[str(path.parent.relative_to(ROOT))].append(path)
    # The tests: batches of UNITY_BUILD_BATCH_SIZE files in the order of CMake's sorted glob.
    tests = sorted((ROOT / "tests").glob("*_test.cc"), key=lambda p: str(p))
    for i in range(0, len(tests), TEST_BATCH):
        by[f"tests batch {i // TEST_BATCH}"] = tests[i:i + TEST_BATCH]
    return by


def main():
    clashes = 0
    for group, files in groups().items():
        seen = collections.defaultdict(list)
        for path in files:
            for name in local_names(path):
                seen[name].append(path.name)
        for name, where in sorted(seen.items()):
            if len(where) > 1:
                clashes += 1
                print(f"{group}: {name} in {', '.join(where)}")
    if clashes:
        print(f"check-unity-names: {clashes} functions defined in more than one file of a unity group; rename them")
    return 1 if clashes else 0


if __name__ == "__main__":
    sys.exit(main())
