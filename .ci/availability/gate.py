#!/usr/bin/env python3
"""The Apple availability gate: finds, on Linux, code an Apple compiler would reject at our declared floors.

For every Swift module of the given (already built) packages it reads the compile command from SwiftPM's
build manifest, dumps the typed AST as JSON, and checks every referenced declaration and every declared
type against an availability table (toolchain and dependency symbol graphs, our own `@available`
attributes, and the curated table in curated.py), in the availability context of the site: the package's
floors, enclosing `@available`, `if`/`guard`/`while #available`, and the `#if` branches Apple compiles.
See README.md in this folder.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import curated  # noqa: E402

PLATFORMS = ["iOS", "macOS", "tvOS", "watchOS", "visionOS"]
SHOWN = ["iOS", "macOS", "tvOS", "watchOS"]
MANIFEST_NAMES = {"ios": "iOS", "macos": "macOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"}
# SwiftPM's deployment targets for a platform a manifest does not list (tools version 6.x).
SWIFTPM_DEFAULT_FLOORS = {"iOS": (12, 0), "macOS": (10, 13), "tvOS": (12, 0), "watchOS": (4, 0), "visionOS": (1, 0)}
UNAVAILABLE = (1 << 30,)
TOOLCHAIN_MODULES = ["Swift", "_Concurrency", "_StringProcessing", "Synchronization", "FoundationEssentials"]
# Toolchain modules read only when our sources import them (all newer than our floors in part or whole).
TOOLCHAIN_WHEN_IMPORTED = ["Observation", "RegexBuilder", "Distributed"]
CACHE_VERSION = 2  # bump when the cached tables change shape
TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}


class GateError(Exception):
    """The gate could not run (a missing build, a failing compiler): exit 2, not 1."""


def log(message):
    print(f"[availability] {message}", file=sys.stderr, flush=True)


def parse_version(text):
    parts = [int(p) for p in re.findall(r"\d+", str(text))][:3]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts)


def show_version(version):
    if version == UNAVAILABLE:
        return "unavailable"
    major, minor, patch = version
    return f"{major}.{minor}.{patch}" if patch else (f"{major}.{minor}" if minor else f"{major}")


def vision_from_ios(version):
    """visionOS infers its availability from iOS: iOS 17 and earlier are visionOS 1, iOS 18 is visionOS 2."""
    if version == UNAVAILABLE:
        return UNAVAILABLE
    if version[0] <= 17:
        return (1, 0, 0)
    if version[0] < 26:
        return (version[0] - 16, 0, 0)
    return version


def requirement(avail, platform):
    """The version a declaration needs on a platform (None: no constraint)."""
    if platform in avail:
        return avail[platform]
    if platform == "visionOS" and "iOS" in avail:
        return vision_from_ios(avail["iOS"])
    return None


# ---- #if: which Apple platforms compile a line -----------------------------------------------------------

APPLE_ONLY_MODULES = {"Darwin", "ObjectiveC", "Combine", "SwiftUI", "os", "Security", "CoreFoundation",
                      "CoreGraphics", "CoreServices", "Network", "OSLog", "CryptoKit", "MapKit", "CoreLocation"}
NEVER_ON_APPLE = {"Glibc", "Musl", "Bionic", "Android", "WinSDK", "CRT", "WASILibc", "FoundationNetworking",
                  "FoundationEssentials", "FoundationInternationalization", "FoundationXML", "ucrt"}
ALWAYS = {"Foundation", "Dispatch", "XCTest", "Testing", "Swift", "_Concurrency", "Synchronization"}


def eval_condition(text, platform):
    """Evaluates a `#if` condition for one Apple platform: True, False or None (unknown: may be compiled)."""
    tokens = re.findall(r"&&|\|\||!|\(|\)|,|[A-Za-z_][A-Za-z0-9_]*|>=|<|[0-9.]+|\S", text)
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else None

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def call_args():
        depth, args = 0, []
        take()  # (
        while peek() is not None:
            token = take()
            if token == "(":
                depth += 1
            elif token == ")":
                if depth == 0:
                    break
                depth -= 1
            args.append(token)
        return args

    def primary():
        token = take() if peek() is not None else None
        if token == "!":
            value = primary()
            return None if value is None else not value
        if token == "(":
            value = disjunction()
            if peek() == ")":
                take()
            return value
        if token in ("true", "false"):
            return token == "true"
        if peek() == "(":
            args = call_args()
            arg = args[0] if args else ""
            if token == "os":
                return arg == platform or (arg == "iOS" and platform == "visionOS" and False)
            if token == "canImport":
                if arg in NEVER_ON_APPLE:
                    return False
                if arg in APPLE_ONLY_MODULES or arg in ALWAYS:
                    return True
                if arg == "UIKit":
                    return platform != "macOS"
                if arg == "AppKit":
                    return platform == "macOS"
                return None
            if token in ("compiler", "swift"):
                return True
            return None  # arch, targetEnvironment, hasFeature, hasAttribute, ...
        return None  # a custom flag (DEBUG, a trait): same on Apple as in the Linux build, hence unknown

    def conjunction():
        value = primary()
        while peek() == "&&":
            take()
            right = primary()
            value = False if value is False or right is False else (True if value and right else None)
        return value

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take()
            right = conjunction()
            value = True if value is True or right is True else (False if value is False and right is False else None)
        return value

    return disjunction()


def if_regions(source):
    """(start, end, live platforms) byte ranges of `#if` branches that some Apple platform never compiles."""
    return [region[:3] for region in if_regions_with_absent(source)]


def if_regions_with_absent(source):
    """As `if_regions`, each with a fourth member: the platforms no branch of its `#if` group compiles.

    A declaration in `#if os(macOS) || os(Linux)` with no `#else` does not exist on iOS; one with an `#else`
    may be declared again there, in code Linux never parses, so only a group's absent platforms count."""
    regions, stack, offset = [], [], 0

    def close_branch(frame, end):
        start, live = frame["branch"]
        frame["covered"] |= live
        if live != set(PLATFORMS):
            frame["regions"].append((start, end, frozenset(live)))

    for raw in source.split(b"\n"):
        line = raw.decode("utf-8", "replace").strip()
        line_end = offset + len(raw) + 1
        match = re.match(r"#(if|elseif|else|endif)\b(.*)", line)
        if match:
            directive, condition = match.group(1), match.group(2).split("//")[0].strip()
            if directive == "if":
                frame = {"taken": {p: False for p in PLATFORMS}, "covered": set(), "regions": []}
                stack.append(frame)
            elif not stack:
                offset = line_end
                continue
            frame = stack[-1]
            if directive != "if":
                close_branch(frame, offset)
            if directive == "endif":
                stack.pop()
                absent = frozenset(set(PLATFORMS) - frame["covered"])
                regions += [region + (absent,) for region in frame["regions"]]
            else:
                live = set()
                for platform in PLATFORMS:
                    value = True if directive == "else" else eval_condition(condition, platform)
                    if value is not False and not frame["taken"][platform]:
                        live.add(platform)
                    if value is True:
                        frame["taken"][platform] = True
                frame["branch"] = (line_end, live)
        offset = line_end
    return regions


# ---- the build manifest -----------------------------------------------------------------------------------

def read_manifest(build_dir):
    """Compile commands of every Swift module in SwiftPM's llbuild manifest: name -> {args, tool}."""
    path = os.path.join(build_dir, "debug.yaml")
    modules = {}
    key = description = None
    with open(path, encoding="utf-8") as manifest:
        for line in manifest:
            if line.startswith('  "C.'):
                key, description = line.strip().rstrip(":").strip('"'), None
            elif line.startswith("    description: ") and key:
                description = line
            elif line.startswith("    args: [") and key and description and "Compiling Swift Module" in description:
                name = re.search(r"Compiling Swift Module '([^']+)'", description).group(1)
                tool = key.endswith("-tool.module")
                modules.setdefault(name, {})["tool" if tool else "target"] = json.loads(line.split("args: ", 1)[1])
                key = None
    return modules


def module_sources(args):
    sources = []
    for arg in args:
        if arg.startswith("@") and arg.endswith("sources"):
            with open(arg[1:], encoding="utf-8") as listing:
                sources += [line.strip().strip("'\"") for line in listing if line.strip()]
        elif arg.endswith(".swift") and not arg.startswith("-"):
            sources.append(arg)
    return sources


DROP_WITH_VALUE = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path", "-o",
                   "-num-threads", "-Xlinker", "-L", "-emit-dependencies-path", "-module-link-name",
                   "-emit-module-interface-path", "-emit-private-module-interface-path",
                   "-emit-package-module-interface-path", "-emit-module-source-info-path", "-emit-abi-descriptor-path",
                   "-use-ld", "-sanitize", "-coverage-prefix-map", "-debug-prefix-map", "-file-prefix-map"}
DROP = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode", "-serialize-diagnostics",
        "-parseable-output", "-emit-objc-header", "-g", "-emit-executable", "-emit-library", "-static",
        "-whole-module-optimization", "-wmo", "-no-whole-module-optimization", "-color-diagnostics",
        "-emit-module-interface", "-enable-library-evolution", "-static-stdlib", "-static-executable", "-v",
        "-gline-tables-only", "-profile-generate", "-profile-coverage-mapping", "-save-temps"}


def toolchain_plugin_flags():
    """What the driver adds for the frontend: the toolchain's macro plugins (swift-testing's among them)."""
    usr = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("swiftc") or "/usr/bin/swiftc")))
    flags = []
    server = os.path.join(usr, "lib", "swift", "host", "libSwiftInProcPluginServer.so")
    if os.path.exists(server):
        flags += ["-in-process-plugin-server-path", server]
    for folder in (os.path.join(usr, "lib", "swift", "host", "plugins"),
                   os.path.join(usr, "local", "lib", "swift", "host", "plugins")):
        flags += ["-plugin-path", folder]
    return flags


def frontend_flags(args):
    """The driver arguments SwiftPM passes, turned into frontend ones (no outputs, no inputs)."""
    flags, i = toolchain_plugin_flags(), 1
    while i < len(args):
        arg = args[i]
        if arg in DROP_WITH_VALUE:
            i += 2
            continue
        if arg in DROP or re.match(r"-j\d+$", arg) or arg.startswith("-l") or arg.startswith("-use-ld=") \
                or arg.startswith("-sanitize=") or arg.startswith("@") or arg.endswith(".swift"):
            i += 1
            continue
        if arg == "-Xcc":
            flags += args[i:i + 2]
            i += 2
            continue
        if arg == "-Xfrontend":
            flags.append(args[i + 1])
            i += 2
            continue
        flags.append(arg)
        i += 1
    return flags


def flag_value(args, name):
    for i, arg in enumerate(args[:-1]):
        if arg == name:
            return args[i + 1]
    return None


def package_floors(package_dir):
    """Deployment floors from `swift package dump-package`, with SwiftPM's defaults for unlisted platforms."""
    floors, declared = dict(SWIFTPM_DEFAULT_FLOORS), set()
    with tempfile.TemporaryDirectory() as scratch:
        result = subprocess.run(["swift", "package", "dump-package", "--package-path", package_dir,
                                 "--scratch-path", scratch], capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise GateError(f"error: swift package dump-package failed in {package_dir}:\n{result.stderr}")
    manifest = json.loads(result.stdout)
    for platform in manifest.get("platforms") or []:
        name = MANIFEST_NAMES.get(platform["platformName"])
        if name:
            floors[name] = parse_version(platform["version"])
            declared.add(name)
    if "iOS" in declared:
        declared.add("visionOS")  # inferred from iOS by the compiler; SwiftPM's default floor applies
    floors = {p: parse_version(".".join(map(str, v))) for p, v in floors.items() if p in declared}
    return floors, declared, host_modules(manifest)


def host_modules(manifest):
    """Modules that only ever run on the developer's Mac: macros, plugins' tools, and the macros' tests."""
    def dependency_names(target):
        for dependency in target.get("dependencies") or []:
            for kind, value in dependency.items():
                if kind in ("byName", "target") and value:
                    yield value[0]

    targets = {t["name"]: t for t in manifest.get("targets") or []}
    host = {name for name, t in targets.items() if t.get("type") == "macro"}
    for target in targets.values():
        if target.get("type") == "plugin":
            host |= set(dependency_names(target))
    for name, target in targets.items():
        if target.get("type") == "test" and any(d in host and targets.get(d, {}).get("type") == "macro"
                                                for d in dependency_names(target)):
            host.add(name)
    return {re.sub(r"[^A-Za-z0-9_]", "_", name) for name in host}


# ---- availability tables ------------------------------------------------------------------------------------

def avail_from_graph(entries):
    avail = {}
    for entry in entries or []:
        domain = entry.get("domain")
        if domain not in PLATFORMS:
            continue
        if entry.get("isUnconditionallyUnavailable") or entry.get("obsoleted") and not entry.get("introduced"):
            avail[domain] = UNAVAILABLE
        elif entry.get("introduced"):
            intro = entry["introduced"]
            avail[domain] = (intro.get("major", 0), intro.get("minor", 0), intro.get("patch", 0))
    return avail


def table_from_graphs(directory):
    """USR -> [qualified name, kind, {platform: version}] for every symbol with Apple availability."""
    table = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        with open(path, encoding="utf-8") as graph_file:
            graph = json.load(graph_file)
        # `A@B.symbols.json` holds what module A declares in extensions of B's types: A declares them.
        module = os.path.basename(path).split(".symbols.json")[0].split("@")[0]
        for symbol in graph["symbols"]:
            avail = avail_from_graph(symbol.get("availability"))
            if not avail:
                continue
            usr = symbol["identifier"]["precise"]
            name = module + "." + ".".join(symbol.get("pathComponents") or [symbol["names"]["title"]])
            table[usr] = [name, symbol["kind"]["identifier"], {p: list(v) for p, v in avail.items()}]
    return table


def extract_table(module, extra_args, cache_dir, stamp):
    """The availability table of one module, from its symbol graph, cached by `stamp`."""
    os.makedirs(cache_dir, exist_ok=True)
    digest = hashlib.sha256(f"{module}\0{stamp}\0{CACHE_VERSION}".encode()).hexdigest()[:16]
    cached = os.path.join(cache_dir, f"{module}-{digest}.json")
    if os.path.exists(cached):
        with open(cached, encoding="utf-8") as cache:
            return json.load(cache)
    with tempfile.TemporaryDirectory() as out:
        command = ["swift", "symbolgraph-extract", "-module-name", module, "-output-dir", out,
                   "-minimum-access-level", "public", "-skip-inherited-docs"] + extra_args
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            log(f"warning: no symbol graph for {module}: {result.stderr.strip().splitlines()[-1:]}")
            table = {}
        else:
            table = table_from_graphs(out)
    with open(cached + ".tmp", "w", encoding="utf-8") as cache:
        json.dump(table, cache)
    os.replace(cached + ".tmp", cached)
    return table


class Table:
    """Every known availability: by declaration USR, and by mangled type fragment for declared types."""

    def __init__(self):
        self.decls = {}        # usr -> (name, {platform: version tuple})
        self.by_ident = {}     # last identifier of a type -> [(mangled fragment, usr)]
        self.plain = []        # type fragments without an identifier (standard substitutions)
        self.prefixes = []     # curated type USRs whose members inherit their availability

    def add(self, usr, name, kind, avail):
        avail = {p: tuple(v) for p, v in avail.items()}
        self.decls[usr] = (name, avail)
        if kind in TYPE_KINDS and usr.startswith("s:"):
            fragment = usr[2:]
            idents = re.findall(r"\d+([A-Za-z_][A-Za-z0-9_]*)", fragment)
            if idents:
                # The length prefix of the identifier bounds its name; keep the whole fragment to compare.
                self.by_ident.setdefault(identifier_at_end(fragment) or idents[-1], []).append((fragment, usr))
            else:
                self.plain.append((fragment, usr))

    def add_curated(self):
        for usr, entry in curated.CURATED.items():
            avail = {p: (UNAVAILABLE if v == curated.UNAVAILABLE else parse_version(v))
                     for p, v in entry.items() if p in PLATFORMS}
            self.decls[usr] = (entry["name"], avail)
            if re.search(r"[CVOP]$", usr):
                self.prefixes.append(usr)
                self.add(usr, entry["name"], "swift.class", avail)

    def lookup(self, usr):
        if usr in curated.IGNORED:
            return None, None
        found = self.decls.get(usr)
        if found:
            return usr, found
        for prefix in self.prefixes:
            if usr.startswith(prefix):
                return prefix, self.decls[prefix]
        return None, None

    def types_in(self, mangled):
        """USRs of the table's types that a mangled type (or generic signature string) mentions."""
        found = []
        for match in re.finditer(r"(\d+)", mangled):
            length = int(match.group(1))
            ident = mangled[match.end():match.end() + length]
            for fragment, usr in self.by_ident.get(ident, ()):
                if fragment in mangled:
                    found.append(usr)
        spans = None
        for fragment, usr in self.plain:
            start = mangled.find(fragment)
            while start >= 0:
                # a standard substitution (`Sch`, TaskExecutor) counts only outside an identifier (`Schema`)
                spans = identifier_spans(mangled) if spans is None else spans
                if not any(a <= start < b for a, b in spans):
                    found.append(usr)
                    break
                start = mangled.find(fragment, start + 1)
        return found


def identifier_spans(mangled):
    """Where the length-prefixed identifiers of a mangled name lie."""
    spans, i = [], 0
    while i < len(mangled):
        match = re.match(r"[1-9]\d*", mangled[i:])
        if match:
            start = i + len(match.group(0))
            end = start + int(match.group(0))
            spans.append((start, end))
            i = end
        else:
            i += 1
    return spans


def identifier_at_end(fragment):
    """The last length-prefixed identifier of a mangled nominal type (`s8DurationV` -> `Duration`)."""
    last, i = None, 0
    while i < len(fragment):
        match = re.match(r"\d+", fragment[i:])
        if match:
            length = int(match.group(0))
            start = i + len(match.group(0))
            last = fragment[start:start + length]
            i = start + length
        else:
            i += 1
    return last


# ---- the AST walk -------------------------------------------------------------------------------------------

HEADER_KEYS = ("interface_type", "result", "thrown_type", "generic_signature", "inherits", "extended_type",
               "underlying_type")


def apply_attrs(ctx, attrs):
    """The context inside a declaration carrying these `@available` attributes."""
    explicit = {a.get("domain") for a in attrs if a.get("_kind") == "available_attr"}
    new = dict(ctx)
    for attr in attrs:
        if attr.get("_kind") != "available_attr":
            continue
        domain = attr.get("domain")
        targets = [domain] if domain in PLATFORMS else []
        if domain == "iOS" and "visionOS" not in explicit:
            targets.append("visionOS")
        if domain == "*" and attr.get("unavailable"):
            targets = list(PLATFORMS)
        for platform in targets:
            if platform not in new or new[platform] is None:
                continue
            if attr.get("unavailable"):
                new[platform] = None
            elif attr.get("introduced"):
                version = parse_version(attr["introduced"])
                if platform == "visionOS" and domain == "iOS":
                    version = vision_from_ios(version)
                new[platform] = max(new[platform], version)
    return new


def attr_requirement(req, attrs):
    """The availability our own declaration needs (its attributes on top of its enclosing ones)."""
    new = dict(req)
    for attr in attrs:
        if attr.get("_kind") != "available_attr" or attr.get("domain") not in PLATFORMS:
            continue
        if attr.get("unavailable"):
            new[attr["domain"]] = UNAVAILABLE
        elif attr.get("introduced"):
            new[attr["domain"]] = max(new.get(attr["domain"], (0, 0, 0)), parse_version(attr["introduced"]))
    return new


def refine_available(ctx, queries):
    new = dict(ctx)
    listed = {q.get("domain") for q in queries}
    for query in queries:
        domain = query.get("domain")
        if domain not in PLATFORMS or not query.get("version"):
            continue
        targets = [domain] + (["visionOS"] if domain == "iOS" and "visionOS" not in listed else [])
        for platform in targets:
            if new.get(platform) is None:
                continue
            version = parse_version(query["version"])
            if platform == "visionOS" and domain == "iOS":
                version = vision_from_ios(version)
            new[platform] = max(new[platform], version)
    return new


def availability_queries(stmt):
    queries = []
    for condition in stmt.get("conditions") or []:
        if isinstance(condition, dict) and condition.get("_kind") in ("#available", "#unavailable"):
            queries += condition.get("queries") or []
    return queries


def decl_display_name(node):
    name = node.get("name")
    if isinstance(name, dict):
        base = name.get("base_name", {})
        base = base.get("name", "") if isinstance(base, dict) else str(base)
        if "args" in name or node.get("_kind") in ("func_decl", "constructor_decl"):
            return base + "(" + "".join(f"{a or '_'}:" for a in name.get("args", [])) + ")"
        return base
    if node.get("_kind") == "extension_decl":
        return "extension"
    return node.get("_kind", "?").replace("_decl", "")


def header_strings(node):
    """Strings of a declaration's own signature: its types, generic signature, conformances, parameters."""
    out = []

    def collect(value):
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            for item in value:
                collect(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key in ("context", "range", "decl_context", "_kind"):
                    continue
                collect(item)

    for key in HEADER_KEYS:
        if key in node:
            collect(node[key])
    params = node.get("params")
    if isinstance(params, dict):
        for param in params.get("params") or []:
            if isinstance(param, dict):
                collect(param.get("interface_type"))
    return out


class Finding:
    """One use of a declaration or type newer than its context allows."""

    def __init__(self, path, line, col, site, symbol, needs, allows, failing):
        self.path, self.line, self.col, self.site = path, line, col, site
        self.symbols, self.needs, self.allows, self.failing = [symbol], needs, allows, failing

    def merge(self, other):
        """Folds another finding at the same site into this one (several newer types in one signature)."""
        for symbol in other.symbols:
            if symbol not in self.symbols:
                self.symbols.append(symbol)
        if len(other.failing) > len(self.failing):
            self.needs, self.failing = other.needs, other.failing

    def __str__(self):
        versions = ", ".join(f"{p} {show_version(v)}" for p, v in self.needs if v != UNAVAILABLE)
        missing = ", ".join(p for p, v in self.needs if v == UNAVAILABLE)
        what = "; ".join(([f"needs {versions}"] if versions else []) +
                         ([f"is unavailable on {missing}"] if missing else []))
        return (f"{self.path}:{self.line}:{self.col}: error: '{self.site}' {what} ({', '.join(self.symbols)}); "
                f"context allows {self.allows}")


def merge_findings(findings):
    """One finding per site (a line of a file: its first finding, naming every symbol of the line)."""
    sites = {}
    for finding in sorted(findings, key=lambda f: (f.path, f.line, f.col)):
        key = (finding.path, finding.line)
        if key in sites:
            sites[key].merge(finding)
        else:
            sites[key] = finding
    return [sites[key] for key in sorted(sites)]


class FileChecker:
    """Walks one file's typed AST with its availability context and collects findings."""

    def __init__(self, path, source, table, floors, own_table=None, module_name=None):
        self.path, self.source, self.table, self.floors = path, source, table, floors
        self.absent_regions = if_regions_with_absent(source)
        self.regions = [region[:3] for region in self.absent_regions]
        self.line_starts = [0] + [m.end() for m in re.finditer(b"\n", source)]
        self.findings = []
        self.own_table = own_table          # when collecting our own declarations' availability
        self.module_name = module_name

    # positions
    def valid(self, offset):
        return isinstance(offset, int) and 0 <= offset <= len(self.source)

    def line_col(self, offset):
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.line_starts[lo] + 1

    def restrict(self, ctx, offset):
        for start, end, live in self.regions:
            if start <= offset < end:
                ctx = {p: (v if p in live else None) for p, v in ctx.items()}
        return ctx

    def absent_at(self, offset):
        """Platforms on which no branch of an enclosing `#if` group is compiled."""
        absent = set()
        for start, end, _live, missing in self.absent_regions:
            if start <= offset < end:
                absent |= missing
        return absent

    # checks
    def check(self, ctx, offset, site_name, found):
        name, avail = found
        failing = [p for p, allowed in ctx.items()
                   if allowed is not None and requirement(avail, p) is not None and requirement(avail, p) > allowed]
        if not failing:
            return
        needs = []
        for platform in PLATFORMS:
            required = requirement(avail, platform)
            if required is None or (platform not in SHOWN and platform not in failing):
                continue
            needs.append((platform, required))
        allows = ", ".join(f"{p} {show_version(v)}" for p, v in ctx.items()
                           if v is not None and (p in SHOWN or p in failing))
        line, col = self.line_col(offset)
        self.findings.append(Finding(self.path, line, col, site_name, name, needs, allows, failing))

    def check_usr(self, ctx, offset, site_name, usr):
        key, found = self.table.lookup(usr)
        if found:
            self.check(ctx, offset, site_name, found)

    def check_types(self, ctx, offset, site_name, strings):
        seen = set()
        for text in strings:
            if text.startswith("s:"):
                if text not in seen:
                    seen.add(text)
                    self.check_usr(ctx, offset, site_name, text)
            elif text.startswith("$s"):
                for usr in self.table.types_in(text):
                    if usr not in seen:
                        seen.add(usr)
                        self.check_usr(ctx, offset, site_name, usr)

    # the walk
    def walk(self, node, ctx, req, offset):
        if isinstance(node, list):
            self.walk_block(node, ctx, req, offset)
            return
        if not isinstance(node, dict):
            return
        kind = node.get("_kind", "")
        rng = node.get("range")
        # A range in a macro's expansion buffer (`buffer_id`) says nothing about our file: its code is
        # reported at the macro's use, the last range of our own file.
        if isinstance(rng, dict) and "buffer_id" not in rng and self.valid(rng.get("start")):
            offset = rng["start"]
            ctx = self.restrict(ctx, offset)
        if all(v is None for v in ctx.values()) and self.own_table is None:
            return  # code no Apple platform compiles (read in pass 1 only, for the declarations it holds)

        if kind.endswith("_decl") and decl_display_name(node).startswith("$"):
            return  # a macro's generated helper (`$s...fMu_`): its ranges point into the expansion buffer
        if kind.endswith("_decl") or kind == "parameter":
            attrs = node.get("attrs") or []
            ctx = apply_attrs(ctx, attrs)
            req = attr_requirement(req, attrs)
            if self.own_table is not None:
                usr = node.get("usr")
                # A declaration in an `#if` group that some Apple platforms compile no branch of does not
                # exist on them: a use from code they compile fails (`@available(iOS, unavailable)` is
                # in `req` already).
                own = dict(req)
                for platform in self.absent_at(offset):
                    if self.floors.get(platform) is not None:
                        own[platform] = UNAVAILABLE
                if usr and own:
                    self.own_table[usr] = [f"{self.module_name}.{decl_display_name(node)}", kind, own]
            elif not node.get("implicit") and kind not in ("parameter", "accessor_decl"):
                self.check_types(ctx, offset, decl_display_name(node), header_strings(node))
        elif self.own_table is None and kind.endswith("_expr"):
            decl = node.get("decl")
            # An implicit reference is the compiler's own choice (the `next(isolation:)` of a `for await`),
            # which an Apple compiler makes by the deployment target.
            if isinstance(decl, dict) and decl.get("decl_usr") and not node.get("implicit"):
                self.check_usr(ctx, offset, decl_display_name_ref(decl), decl["decl_usr"])
            if (kind in ("type_expr", "coerce_expr") or kind.endswith("cast_expr")) and not node.get("implicit"):
                for key in ("type", "cast_type", "written_type"):
                    if isinstance(node.get(key), str):
                        self.check_types(ctx, offset, short_type_name(node[key]), [node[key]])

        if kind in ("if_stmt", "while_stmt", "repeat_while_stmt") and availability_queries(node):
            refined = refine_available(ctx, availability_queries(node))
            unavailable = self.is_unavailable_check(node, offset)
            inner, outer = (ctx, refined) if unavailable else (refined, ctx)
            for key, value in node.items():
                if key in ("then_stmt", "body"):
                    self.walk(value, inner, req, offset)
                elif key == "else_stmt":
                    self.walk(value, outer, req, offset)
                elif key not in ("range", "_kind", "attrs"):
                    self.walk(value, ctx, req, offset)
            return

        for key, value in node.items():
            if key in ("range", "_kind", "attrs", "substitutions", "default_args_owner", "builtin_initializer",
                       "initializer") or isinstance(value, str):
                continue
            self.walk(value, ctx, req, offset)

    def walk_block(self, items, ctx, req, offset):
        for item in items:
            if isinstance(item, dict) and item.get("_kind") == "guard_stmt" and availability_queries(item):
                refined = refine_available(ctx, availability_queries(item))
                start = item.get("range", {}).get("start", offset)
                unavailable = self.is_unavailable_check(item, start if self.valid(start) else offset)
                # the guard's else block runs where the query failed; the rest of the block where it held
                self.walk(item, refined if unavailable else ctx, req, offset)
                if not unavailable:
                    ctx = refined
                continue
            self.walk(item, ctx, req, offset)

    def is_unavailable_check(self, node, offset):
        rng = node.get("range") or {}
        start, end = rng.get("start", offset), rng.get("end", offset)
        if not (self.valid(start) and self.valid(end)):
            return False
        text = self.source[start:min(end, start + 400)]
        brace = text.find(b"{")
        return b"#unavailable" in (text[:brace] if brace >= 0 else text)


def decl_display_name_ref(decl):
    return str(decl.get("base_name", "?"))


def short_type_name(mangled):
    return identifier_at_end(mangled.lstrip("$").removeprefix("s").rstrip("DmG")) or mangled


# ---- the driver -----------------------------------------------------------------------------------------------

def dump_module(name, args, own, cache_dir, jobs_per_module=16, reuse=False):
    """Dumps the typed AST of each of our files of a module; returns {source: json path}."""
    flags = frontend_flags(args)
    sources = module_sources(args)
    out_dir = os.path.join(cache_dir, "ast", name)
    if reuse and os.path.exists(os.path.join(out_dir, "index.json")):
        with open(os.path.join(out_dir, "index.json"), encoding="utf-8") as index:
            return json.load(index), []
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    ours = [s for s in sources if s in own]
    outputs = {}
    errors = []
    chunks = [ours[i:i + jobs_per_module] for i in range(0, len(ours), jobs_per_module)]
    for index, chunk in enumerate(chunks):
        command = ["swiftc", "-frontend", "-typecheck", "-dump-ast", "-dump-ast-format", "json"]
        chunk_set = set(chunk)
        for source in sources:
            command += ["-primary-file", source] if source in chunk_set else [source]
        for n, source in enumerate(chunk):
            out = os.path.join(out_dir, f"{index}-{n}-{os.path.basename(source)}.json")
            command += ["-o", out]
            outputs[source] = out
        command += flags
        result = subprocess.run(command, capture_output=True, text=True, timeout=900)
        if result.returncode != 0:
            errors.append(result.stderr[-3000:])
    if not errors:
        with open(os.path.join(out_dir, "index.json"), "w", encoding="utf-8") as index:
            json.dump(outputs, index)
    return outputs, errors


def package_modules(package_dir, build_dir):
    """Our own modules in a package's manifest: [(name, args, own sources, host only)]."""
    manifest = read_manifest(build_dir)
    package_dir = os.path.realpath(package_dir)
    result = []
    for name, variants in sorted(manifest.items()):
        args = variants.get("target") or variants.get("tool")
        listings = [a[1:] for a in args if a.startswith("@")]
        if any(not os.path.exists(listing) for listing in listings):
            continue  # in the manifest but not built (a trait that is off)
        sources = module_sources(args)
        own = [s for s in sources if package_root(s) == package_dir]
        if own:
            result.append((name, args, own, "target" not in variants))
    return result


def with_reexports(names, manifest):
    """Imported modules plus what they re-export (`@_exported import`), read from the dependencies' sources."""
    result, pending = set(names), list(names)
    while pending:
        variants = manifest.get(pending.pop()) or {}
        args = variants.get("target") or variants.get("tool")
        if not args or any(not os.path.exists(a[1:]) for a in args if a.startswith("@")):
            continue
        for source in module_sources(args):
            try:
                with open(source, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                continue
            for exported in re.findall(r"^[ \t]*@_exported(?:[ \t]+@\w+(?:\([^)]*\))?)*[ \t]+(?:public[ \t]+)?import[ \t]+"
                                      r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?(\w+)", text, re.M):
                if exported not in result:
                    result.add(exported)
                    pending.append(exported)
    return result


_roots = {}


def package_root(source):
    """The folder of the package a source belongs to (the nearest Package.swift above it), or None."""
    folder = os.path.dirname(os.path.realpath(source))
    seen = []
    while folder not in _roots:
        if os.path.basename(folder).startswith(".build") or os.path.basename(folder) == "checkouts":
            _roots[folder] = None
            break
        seen.append(folder)
        if os.path.exists(os.path.join(folder, "Package.swift")):
            _roots[folder] = folder
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            _roots[folder] = None
            break
        folder = parent
    for visited in seen:
        _roots[visited] = _roots[folder]
    return _roots[folder]


def imported_modules(sources):
    names = set()
    for source in sources:
        try:
            with open(source, encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    match = re.match(r"\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|"
                                     r"typealias)\s+)?(\w+)", line)
                    if match:
                        names.add(match.group(1))
        except OSError:
            pass
    return names


OWN_KINDS = {"struct_decl": "swift.struct", "class_decl": "swift.class", "enum_decl": "swift.enum",
             "protocol_decl": "swift.protocol", "type_alias_decl": "swift.typealias"}


def add_own(table, own_table):
    for usr, (name, kind, avail) in own_table.items():
        table.add(usr, name, OWN_KINDS.get(kind, kind), {p: list(v) for p, v in avail.items()})


def check_standalone(sources, floors, flags, work_dir, extra_tables=(), table_cache=None):
    """Checks loose Swift files compiled as one module (the self-tests): returns the finding lines."""
    table = Table()
    tables = table_cache or os.path.join(work_dir, "tables")
    stamp = subprocess.run(["swiftc", "--version"], capture_output=True, text=True).stdout
    wanted = TOOLCHAIN_MODULES + sorted(imported_modules(sources) & set(TOOLCHAIN_WHEN_IMPORTED))
    for module in wanted:
        for usr, (name, kind, avail) in extract_table(module, ["-target", "x86_64-unknown-linux-gnu"],
                                                      tables, stamp).items():
            table.add(usr, name, kind, avail)
    for module, extra in extra_tables:
        for usr, (name, kind, avail) in extract_table(module, extra, tables, str(time.time())).items():
            table.add(usr, name, kind, avail)
    table.add_curated()
    args = ["swiftc"] + list(flags)
    outputs, errors = dump_module("standalone", args + list(sources), set(sources), work_dir)
    if errors:
        raise RuntimeError("\n".join(errors))
    own_table = {}
    for source, dump in outputs.items():
        with open(dump, encoding="utf-8") as handle:
            tree = json.load(handle)
        with open(source, "rb") as handle:
            checker = FileChecker(source, handle.read(), table, floors, own_table=own_table, module_name="M")
        checker.walk(tree.get("items") or [], dict(floors), {}, 0)
    add_own(table, own_table)
    lines = []
    for source, dump in sorted(outputs.items()):
        with open(dump, encoding="utf-8") as handle:
            tree = json.load(handle)
        with open(source, "rb") as handle:
            checker = FileChecker(source, handle.read(), table, floors)
        checker.walk(tree.get("items") or [], dict(floors), {}, 0)
        lines += [str(f) for f in merge_findings(checker.findings)]
    return lines


def relative(path, base):
    real = os.path.realpath(path)
    return os.path.relpath(real, base) if real.startswith(base + os.sep) else real


def run(packages, build_dirs, floors_from, cache_dir, jobs, out, reuse_ast=False):
    start = time.time()
    base = os.path.realpath(os.getcwd())
    table = Table()
    target = "x86_64-unknown-linux-gnu"
    plans = []  # (package, build dir, floors, modules)
    for package in packages:
        build_dir = build_dirs.get(package) or os.path.join(package, ".build")
        if not os.path.exists(os.path.join(build_dir, "debug.yaml")):
            raise GateError(f"error: {build_dir}/debug.yaml is missing: build {package} first")
        floors, declared, _ = package_floors(floors_from.get(package, package))
        host = package_floors(package)[2] if package in floors_from else _
        modules = [(name, args, own, name in host) for name, args, own, _tool in package_modules(package, build_dir)]
        plans.append((package, build_dir, floors, declared, modules))
        source = floors_from.get(package, package)
        shown = ", ".join(f"{p} {show_version(v)}" for p, v in floors.items())
        unchecked = [p for p in PLATFORMS if p not in floors]
        if unchecked:
            shown += f"; not declared, not checked: {', '.join(unchecked)}"
        print(f"floors for {relative(package, base) or '.'} (from {relative(source, base)}/Package.swift): {shown}",
              file=out)
        if modules:
            target = flag_value(modules[0][1], "-target") or target

    # availability tables: the toolchain's modules, then every dependency module our sources import
    own_names = {name for plan in plans for name, *_ in plan[4]}
    toolchain_stamp = subprocess.run(["swiftc", "--version"], capture_output=True, text=True).stdout
    tasks = [(module, ["-target", target], toolchain_stamp) for module in TOOLCHAIN_MODULES]
    seen = set(TOOLCHAIN_MODULES)
    for package, build_dir, floors, declared, modules in plans:
        manifest = read_manifest(build_dir)
        for name, args, own, host in modules:
            for imported in sorted(with_reexports(imported_modules(own), manifest) - own_names - seen):
                module_dir = flag_value(args, "-I")
                swiftmodule = os.path.join(module_dir or "", imported + ".swiftmodule")
                if imported in TOOLCHAIN_WHEN_IMPORTED:
                    seen.add(imported)
                    tasks.append((imported, ["-target", target], toolchain_stamp))
                elif module_dir and os.path.exists(swiftmodule):
                    seen.add(imported)
                    extra = ["-target", target, "-I", module_dir]
                    extra += [a for i, a in enumerate(args) if a == "-Xcc" or (i and args[i - 1] == "-Xcc")]
                    module_cache = flag_value(args, "-module-cache-path")
                    if module_cache:
                        extra += ["-module-cache-path", module_cache]
                    tasks.append((imported, extra, f"{os.path.getmtime(swiftmodule)}{toolchain_stamp}"))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = {pool.submit(extract_table, m, extra, os.path.join(cache_dir, "tables"), stamp): m
                   for m, extra, stamp in tasks}
        for future in concurrent.futures.as_completed(futures):
            for usr, (name, kind, avail) in future.result().items():
                table.add(usr, name, kind, avail)
    table.add_curated()
    log(f"availability table: {len(table.decls)} declarations from {len(tasks)} modules and curated.py "
        f"({time.time() - start:.0f}s)")

    # typed ASTs of our modules, in parallel
    dumps = {}
    work = [(plan, module) for plan in plans for module in plan[4]]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = {}
        for plan, (name, args, own, host) in work:
            key = (plan[0], name)
            folder = hashlib.sha256(os.path.realpath(plan[0]).encode()).hexdigest()[:8] + "-" + name
            futures[pool.submit(dump_module, folder, args, set(own), cache_dir, reuse=reuse_ast)] = key
        for future in concurrent.futures.as_completed(futures):
            key = futures[future]
            outputs, errors = future.result()
            dumps[key] = outputs
            log(f"{key[1]}: typed AST of {len(outputs)} files ({time.time() - start:.0f}s)")
            for error in errors:
                raise GateError(f"error: swiftc -dump-ast failed for {key[1]}:\n{error}")

    # pass 1: our own declarations' @available, so that a use of one outside its context is caught too
    own_table = {}
    for plan, (name, args, own, host) in work:
        for source, dump in dumps[(plan[0], name)].items():
            with open(dump, encoding="utf-8") as handle:
                tree = json.load(handle)
            with open(source, "rb") as handle:
                checker = FileChecker(source, handle.read(), table, plan[2], own_table=own_table, module_name=name)
            checker.walk(tree.get("items") or [], dict(plan[2]), {}, 0)
    add_own(table, own_table)

    # pass 2: the checks
    findings, counts = {}, {}
    for plan, (name, args, own, host) in work:
        floors = dict(plan[2])
        if host:  # macros and build tools run on the developer's Mac, never on a device
            floors = {p: (v if p == "macOS" else None) for p, v in floors.items()}
        count = 0
        for source, dump in sorted(dumps[(plan[0], name)].items()):
            with open(dump, encoding="utf-8") as handle:
                tree = json.load(handle)
            with open(source, "rb") as handle:
                checker = FileChecker(relative(source, base), handle.read(), table, floors)
            checker.walk(tree.get("items") or [], floors, {}, 0)
            for finding in merge_findings(checker.findings):
                site = (finding.path, finding.line)
                if site in findings:  # a file compiled in two modules (or two packages) counts once
                    findings[site].merge(finding)
                else:
                    findings[site] = finding
                    count += 1
        counts[f"{relative(plan[0], base)}:{name}"] = count
    for site in sorted(findings):
        print(findings[site], file=out)
    total = sum(counts.values())
    per_module = ", ".join(f"{m.split(':', 1)[1]} {c}" for m, c in counts.items() if c)
    print(f"availability: {total} finding(s) in {sum(1 for c in counts.values() if c)} of {len(counts)} modules"
          + (f" ({per_module})" if per_module else "") + f"; {time.time() - start:.0f}s", file=out)
    return 1 if total else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", help="package folders (default: . Examples Fixtures/Consumer "
                        "Fixtures/DocumentationTests)")
    parser.add_argument("--build-dir", action="append", default=[], metavar="PACKAGE=DIR",
                        help="the scratch path a package was built in (default: PACKAGE/.build)")
    parser.add_argument("--floors-from", action="append", default=[], metavar="PACKAGE=OTHER",
                        help="check PACKAGE at the floors OTHER's manifest declares")
    parser.add_argument("--cache", default=None, help="work folder (default: the first package's .build/availability)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--reuse-ast", action="store_true",
                        help="reuse the typed ASTs of the last run (when working on the gate itself)")
    options = parser.parse_args(argv)
    packages = options.packages or [".", "Examples", "Fixtures/Consumer", "Fixtures/DocumentationTests"]
    norm = lambda p: os.path.normpath(p)  # noqa: E731
    packages = [norm(p) for p in packages]
    build_dirs = {norm(k): v for k, v in (s.split("=", 1) for s in options.build_dir)}
    floors_from = {norm(k): norm(v) for k, v in (s.split("=", 1) for s in options.floors_from)}
    cache = options.cache or os.path.join(build_dirs.get(packages[0]) or os.path.join(packages[0], ".build"),
                                          "availability")
    return run(packages, build_dirs, floors_from, cache, options.jobs, sys.stdout, options.reuse_ast)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except GateError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
