"""Self-tests of the availability gate: `python3 -m unittest discover -s .ci/availability/tests`.

Each file in cases/ is compiled on its own as module `M` (with MemberImportVisibility, as our targets are)
and checked at Tally's floors. A line ending in `// expect: <symbol>` must get exactly one finding that names
that symbol; every other line must get none. Files named clean_* hold no expectation: they must pass.
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import gate  # noqa: E402

CASES = os.path.join(HERE, "cases")
FLOORS = {p: gate.parse_version(v) for p, v in
          {"iOS": "15", "macOS": "12", "tvOS": "15", "watchOS": "9", "visionOS": "1"}.items()}
TARGET = "x86_64-unknown-linux-gnu"


def expectations(path):
    expected = {}
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, start=1):
            match = re.search(r"// expect: (\S+)\s*$", line)
            if match:
                expected[number] = match.group(1)
    return expected


class GateCases(unittest.TestCase):
    work = None

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory(prefix="availability-tests-")
        cls.tiny = os.path.join(cls.work.name, "tiny")
        os.makedirs(cls.tiny)
        subprocess.run(
            ["swiftc", "-emit-module", "-parse-as-library", "-module-name", "Tiny", "-target", TARGET,
             # Hummingbird's mechanism: an availability macro defined in the package manifest.
             "-enable-experimental-feature",
             "AvailabilityMacro=TinyAvailability 1.0:macOS 14, iOS 17, tvOS 17, watchOS 10",
             "-emit-module-path", os.path.join(cls.tiny, "Tiny.swiftmodule"),
             os.path.join(HERE, "tiny", "Tiny.swift")],
            check=True, capture_output=True, timeout=120)

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def findings(self, name):
        flags = ["-module-name", "M", "-target", TARGET, "-parse-as-library", "-swift-version", "6",
                 "-enable-upcoming-feature", "MemberImportVisibility", "-I", self.tiny]
        extra = [("Tiny", ["-target", TARGET, "-I", self.tiny])] if name.startswith("dependency") else []
        return gate.check_standalone([os.path.join(CASES, name)], FLOORS, flags,
                                     os.path.join(self.work.name, name), extra_tables=extra,
                                     table_cache=os.path.join(self.work.name, "tables"))

    def check_case(self, name):
        path = os.path.join(CASES, name)
        expected = expectations(path)
        found = {}
        for line in self.findings(name):
            match = re.match(r".*?:(\d+):\d+: error: (.*)$", line)
            self.assertIsNotNone(match, line)
            found.setdefault(int(match.group(1)), []).append(line)
        for number, symbol in expected.items():
            lines = found.pop(number, [])
            self.assertEqual(len(lines), 1, f"{name}:{number}: expected one finding naming {symbol}, got {lines}")
            self.assertIn(symbol, lines[0])
            self.assertRegex(lines[0], r": error: '[^']+' (needs|is unavailable on) .* \(.*\); "
                                       r"context allows iOS \d+, macOS \d+, tvOS")
        self.assertEqual(found, {}, f"{name}: unexpected findings")
        if name.startswith("clean_"):
            self.assertEqual(expected, {}, "clean files hold no expectation")
        else:
            self.assertTrue(expected, f"{name} plants no violation")


def add_case(name):
    def test(self):
        self.check_case(name)
    setattr(GateCases, "test_" + os.path.splitext(name)[0], test)


for case in sorted(os.listdir(CASES)):
    if case.endswith(".swift"):
        add_case(case)


class IfConditions(unittest.TestCase):
    def test_linux_only_conditions_are_dead_on_every_apple_platform(self):
        for condition in ["os(Linux)", "canImport(Glibc)", "canImport(FoundationNetworking)",
                          "os(Linux) || os(Windows)", "!canImport(Darwin)", "canImport(Musl) && DEBUG"]:
            for platform in gate.PLATFORMS:
                self.assertIs(gate.eval_condition(condition, platform), False, (condition, platform))

    def test_apple_conditions(self):
        self.assertIs(gate.eval_condition("os(macOS)", "iOS"), False)
        self.assertIs(gate.eval_condition("os(macOS) || os(Linux)", "macOS"), True)
        self.assertIs(gate.eval_condition("canImport(Darwin)", "watchOS"), True)
        self.assertIsNone(gate.eval_condition("DEBUG", "iOS"))
        self.assertIsNone(gate.eval_condition("canImport(SomeDependency)", "iOS"))

    def test_else_branch_of_an_apple_condition_is_dead(self):
        source = b"#if canImport(Darwin)\nlet a = 1\n#else\nlet b = 2\n#endif\nlet c = 3\n"
        regions = gate.if_regions(source)
        b_offset = source.index(b"let b")
        dead = [r for r in regions if r[0] <= b_offset < r[1]]
        self.assertEqual(len(dead), 1)
        self.assertEqual(dead[0][2], frozenset())
        self.assertFalse(any(r[0] <= source.index(b"let c") < r[1] for r in regions))


class BuildManifest(unittest.TestCase):
    def test_reads_each_modules_command_and_variant(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "debug.yaml"), "w", encoding="utf-8") as manifest:
                manifest.write(
                    'commands:\n'
                    '  "C.Lib-x86_64-unknown-linux-gnu-debug-tool.module":\n'
                    '    tool: shell\n'
                    '    description: "Compiling Swift Module \'Lib\' (1 sources)"\n'
                    '    args: ["/usr/bin/swiftc","-module-name","Lib","-Xcc","-g"]\n'
                    '\n'
                    '  "C.Lib-x86_64-unknown-linux-gnu-debug.module":\n'
                    '    tool: shell\n'
                    '    description: "Compiling Swift Module \'Lib\' (1 sources)"\n'
                    '    args: ["/usr/bin/swiftc","-module-name","Lib"]\n'
                    '\n'
                    '  "C.Lib-x86_64-unknown-linux-gnu-debug.module-resources":\n'
                    '    tool: shell\n'
                    '    description: "Linking Lib"\n'
                    '    args: ["/usr/bin/clang"]\n')
            modules = gate.read_manifest(folder)
        self.assertEqual(set(modules), {"Lib"})
        self.assertEqual(modules["Lib"]["target"], ["/usr/bin/swiftc", "-module-name", "Lib"])
        self.assertEqual(modules["Lib"]["tool"][-2:], ["-Xcc", "-g"])

    def test_frontend_flags_drop_outputs_and_keep_clang_pairs(self):
        flags = gate.frontend_flags(
            ["swiftc", "-module-name", "M", "-emit-module", "-emit-module-path", "/o/M.swiftmodule", "-c",
             "@/o/sources", "-j2", "-g", "-Xcc", "-g", "-Xfrontend", "-enable-cross-import-overlays",
             "-enable-upcoming-feature", "ExistentialAny", "-index-store-path", "/o/index", "-package-name", "p"])
        self.assertNotIn("-emit-module", flags)
        self.assertNotIn("/o/M.swiftmodule", flags)
        self.assertNotIn("-j2", flags)
        self.assertIn("-enable-cross-import-overlays", flags)
        self.assertNotIn("-Xfrontend", flags)
        index = flags.index("-Xcc")
        self.assertEqual(flags[index + 1], "-g")
        self.assertEqual(flags[-2:], ["-package-name", "p"])

    def test_host_modules_are_macros_plugin_tools_and_macro_tests(self):
        manifest = {"targets": [
            {"name": "Lib", "type": "regular", "dependencies": [{"target": ["Macros", None]}]},
            {"name": "Macros", "type": "macro"},
            {"name": "MacrosTests", "type": "test", "dependencies": [{"target": ["Macros", None]}]},
            {"name": "LibTests", "type": "test", "dependencies": [{"byName": ["Lib", None]}]},
            {"name": "gen-tool", "type": "executable"},
            {"name": "Gen", "type": "plugin", "dependencies": [{"byName": ["gen-tool", None]}]},
        ]}
        self.assertEqual(gate.host_modules(manifest), {"Macros", "MacrosTests", "gen_tool"})

    def test_reexported_modules_are_read_too(self):
        with tempfile.TemporaryDirectory() as folder:
            manifest = {}
            for module, text in [("Server", "@_exported import ServerCore\nimport Logging\n"),
                                 ("ServerCore", "@_exported @_documentation(visibility: internal) import struct HTTPKit.Fields\n"), ("HTTPKit", "")]:
                source = os.path.join(folder, module + ".swift")
                with open(source, "w", encoding="utf-8") as handle:
                    handle.write(text)
                listing = os.path.join(folder, module + ".sources")
                with open(listing, "w", encoding="utf-8") as handle:
                    handle.write(source + "\n")
                manifest[module] = {"target": ["swiftc", "-module-name", module, "@" + listing]}
            self.assertEqual(gate.with_reexports({"Server"}, manifest), {"Server", "ServerCore", "HTTPKit"})

    def test_sources_of_a_nested_package_are_not_the_outer_packages(self):
        with tempfile.TemporaryDirectory() as folder:
            for path in ["Package.swift", "Sources/A/a.swift", "Fixtures/Inner/Package.swift",
                         "Fixtures/Inner/Sources/B/b.swift"]:
                os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
                open(os.path.join(folder, path), "w").close()
            root = os.path.realpath(folder)
            self.assertEqual(gate.package_root(os.path.join(folder, "Sources/A/a.swift")), root)
            self.assertEqual(gate.package_root(os.path.join(folder, "Fixtures/Inner/Sources/B/b.swift")),
                             os.path.join(root, "Fixtures/Inner"))


if __name__ == "__main__":
    unittest.main()
