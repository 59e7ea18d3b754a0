"""C, C++, Go, Python and Java snippets of the docs, compiled and run (make test-docs)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile

from docblocks import Block, DocError, ROOT
from toolenv import Env, run


def c_program(text: str, cxx: bool) -> str:
    if re.search(r"\bmain\s*\(", text):
        return text
    incs = [ln for ln in text.split("\n") if ln.lstrip().startswith("#include")]
    body = [ln for ln in text.split("\n") if not ln.lstrip().startswith("#include")]
    given = (["#include <cstdint>", "#include <cstdio>", "#include <cstdlib>", "#include <cstring>"] if cxx else
             ["#include <stdint.h>", "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>"])
    return "\n".join(given + incs + ["int main(void) {"] + ["    " + ln if ln else ln for ln in body]
                     + ["    return 0;", "}", ""])


def compile_c(src: str, cxx: bool, d: str, env: Env, name: str = "prog") -> tuple[str | None, str]:
    path = os.path.join(d, name + (".cpp" if cxx else ".c"))
    with open(path, "w", encoding="utf-8") as f:
        f.write(src)
    exe = os.path.join(d, name)
    cc = ["g++", "-std=c++17"] if cxx else [os.environ.get("CC", "cc"), "-std=c11"]
    cmd = cc + ["-Wall", "-Wextra", "-Werror", "-Wno-unused-variable", "-Wno-unused-but-set-variable",
                "-I", os.path.join(ROOT, "include"), path, "-L", env.build, "-l:libidgen.so",
                f"-Wl,-rpath,{env.build}", "-pthread", "-o", exe]
    r = run(cmd, env, d)
    if r.returncode != 0:
        return None, r.stdout
    return exe, ""


def numbered(src: str) -> str:
    return "".join(f"    {n:3} {ln}\n" for n, ln in enumerate(src.split("\n"), 1)).rstrip("\n")


def check_c(b: Block, env: Env) -> tuple[int, list[str]]:
    cxx = b.lang in ("cpp", "c++")
    d = tempfile.mkdtemp(dir=env.work, prefix="c-")
    if "c-header" in b.directives:
        src = c_header_program(b)
    else:
        src = c_program(b.text, cxx)
    exe, err = compile_c(src, cxx, d, env)
    if exe is None:
        return 1, [f"{b.where}: ```{b.lang} block does not compile:\n{indent(err)}\n  as compiled:\n{numbered(src)}"]
    if "c-header" in b.directives or "compile-only" in b.directives:
        return 1, []
    r = run([exe], env, d)
    if r.returncode != 0:
        return 1, [f"{b.where}: ```{b.lang} program exits with status {r.returncode}:\n{indent(r.stdout)}"]
    if env.verbose:
        print(f"  ok {b.where}: {b.lang} ({r.stdout.strip()[:80]!r})")
    return 1, []


def check_go(b: Block, env: Env) -> tuple[int, list[str]]:
    """A whole Go program (package main), built in a module of its own that
    imports github.com/idgen/idgen from this checkout, as tests/goapp does,
    and run (exit status 0)."""
    d = tempfile.mkdtemp(dir=env.work, prefix="go-")
    with open(os.path.join(d, "go.mod"), "w", encoding="utf-8") as f:
        f.write(f"module docsnippet\n\ngo 1.25.0\n\nrequire github.com/idgen/idgen v0.0.0\n\n"
                f"replace github.com/idgen/idgen => {ROOT}\n")
    shutil.copy(os.path.join(ROOT, "tests", "goapp", "go.sum"), os.path.join(d, "go.sum"))
    with open(os.path.join(d, "main.go"), "w", encoding="utf-8") as f:
        f.write(b.text + "\n")
    r = run(["go", "mod", "tidy"], env, d)
    if r.returncode == 0:
        r = run(["go", "run", "."], env, d)
    if r.returncode != 0:
        return 1, [f"{b.where}: ```go program fails (status {r.returncode}):\n{indent(r.stdout)}\n  as built:\n{numbered(b.text)}"]
    if env.verbose:
        print(f"  ok {b.where}: go ({r.stdout.strip()[:80]!r})")
    return 1, []


def c_header_program(b: Block) -> str:
    """The block's declarations beside include/idgen.h's, renamed, and asserted to agree."""
    text = b.text
    structs = {}
    for m in re.finditer(r"typedef\s+struct\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        body = re.sub(r"/\*.*?\*/|//[^\n]*", "", m.group(1), flags=re.S)
        fields = re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*;", body)
        structs[m.group(2)] = fields
    macros = re.findall(r"^\s*#define\s+(\w+)\s+([^/\n]+?)\s*(?:/\*.*)?$", text, re.M)
    out = ["#include <stddef.h>", "#include <stdint.h>"]
    out += [f"#define {n} doc_{n}" for n in structs]
    out += [f'#line {b.line + 1} "{b.path}"', text]
    out += [f"#undef {n}" for n in structs]
    out += [f"enum {{ doc_{n} = ({n}) }};\n#undef {n}" for n, _ in macros]
    out += ['#line 1 "c-header: the block beside include/idgen.h"']
    out += ['#include "idgen.h"']
    for n, fields in structs.items():
        out.append(f'_Static_assert(sizeof(doc_{n}) == sizeof({n}), "{n}: size differs from idgen.h");')
        for fl in fields:
            out.append(f'_Static_assert(offsetof(doc_{n}, {fl}) == offsetof({n}, {fl}), '
                       f'"{n}.{fl}: offset differs from idgen.h");')
    for n, _ in macros:
        out.append(f'_Static_assert((doc_{n}) == ({n}), "{n}: value differs from idgen.h");')
    out.append("int main(void) { return 0; }")
    return "\n".join(out) + "\n"


def check_python(b: Block, env: Env) -> tuple[int, list[str]]:
    d = tempfile.mkdtemp(dir=env.work, prefix="py-")
    if b.lang == "pycon":
        path = os.path.join(d, "doc.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(b.text + "\n")
        cmd = [env.vpy, "-m", "doctest", "-o", "ELLIPSIS", path]
    else:
        # Run exactly as written: a reader copies one block, so each block
        # imports what it uses (a missing `import idgen` fails here).
        path = os.path.join(d, "doc.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(b.text + "\n")
        cmd = [env.vpy, path]
    r = run(cmd, env, d)
    if r.returncode != 0:
        return 1, [f"{b.where}: ```{b.lang} block fails (exit status {r.returncode}):\n{indent(r.stdout)}"]
    if env.verbose:
        print(f"  ok {b.where}: python ({r.stdout.strip()[:80]!r})")
    return 1, []


def java_program(text: str, cls: str) -> tuple[str, str]:
    m = re.search(r"\bpublic\s+(?:final\s+)?class\s+(\w+)", text)
    if m:
        return m.group(1), text
    lines = text.split("\n")
    imports = [ln for ln in lines if re.match(r"\s*import\s", ln)]
    body = [ln for ln in lines if not re.match(r"\s*import\s", ln)]
    src = "\n".join(["import org.idgen.*;"] + imports + [
        f"public class {cls} {{", "    public static void main(String[] args) throws Exception {"]
        + ["        " + ln if ln else ln for ln in body] + ["    }", "}", ""])
    return cls, src


def check_java(b: Block, env: Env) -> tuple[int, list[str]]:
    if not env.javas:
        raise DocError(f"{b.where}: no java/javac on PATH for a ```java block")
    if not env.jar or not env.jna:
        raise DocError(f"{b.where}: no packaged jar ({env.jar}) or JNA jar ({env.jna}) for a ```java block: "
                       "run make test-java (or set IDGEN_DOCS_JAR, IDGEN_DOCS_JNA)")
    d = tempfile.mkdtemp(dir=env.work, prefix="java-")
    cls, src = java_program(b.text, f"DocExample{b.line}")
    with open(os.path.join(d, cls + ".java"), "w", encoding="utf-8") as f:
        f.write(src)
    cp = os.pathsep.join([d, env.jar, env.jna])
    r = run(["javac", "-Xlint:all", "-Werror", "-cp", cp, "-d", d, cls + ".java"], env, d)
    if r.returncode != 0:
        return 1, [f"{b.where}: ```java block does not compile:\n{indent(r.stdout)}\n  as compiled:\n{numbered(src)}"]
    if "compile-only" in b.directives:
        return 1, []
    fails = []
    for java, flags in env.javas:
        r = run([java, *flags, f"-Didgen.library={os.path.join(env.build, 'libidgen.so')}", "-cp", cp, cls],
                env, d)
        if r.returncode != 0:
            fails.append(f"{b.where}: ```java program fails on {java} (exit status {r.returncode}):\n{indent(r.stdout)}")
        elif re.search(r"^WARNING", r.stdout, re.M):
            fails.append(f"{b.where}: ```java program warns on {java}:\n{indent(r.stdout)}")
        elif env.verbose:
            print(f"  ok {b.where}: java on {java}")
    return 1, fails


def check_js(b: Block, env: Env) -> tuple[int, list[str]]:
    """A Node.js block, run as written with node in a scratch directory
    whose node_modules/idgen is bindings/node (koffi installed there by
    make test-docs) and IDGEN_LIBRARY the built library; an ES module
    (a .mjs file) when it has an import statement or the fence says mjs."""
    pkg = os.path.join(ROOT, "bindings", "node")
    if not os.path.isdir(os.path.join(pkg, "node_modules", "koffi")):
        raise DocError(f"{b.where}: no koffi in {pkg}/node_modules for a ```{b.lang} block: run make node-package")
    d = tempfile.mkdtemp(dir=env.work, prefix="js-")
    os.makedirs(os.path.join(d, "node_modules"))
    os.symlink(pkg, os.path.join(d, "node_modules", "idgen"))
    esm = b.lang == "mjs" or re.search(r"^\s*import\s", b.text, re.M) is not None
    path = os.path.join(d, "doc.mjs" if esm else "doc.js")
    with open(path, "w", encoding="utf-8") as f:
        f.write(b.text + "\n")
    r = run(["env", f"IDGEN_LIBRARY={os.path.join(env.build, 'libidgen.so')}", "node", path], env, d)
    if r.returncode != 0:
        return 1, [f"{b.where}: ```{b.lang} block fails (exit status {r.returncode}):\n{indent(r.stdout)}"]
    if env.verbose:
        print(f"  ok {b.where}: js ({r.stdout.strip()[:80]!r})")
    return 1, []


def indent(s: str) -> str:
    return "\n".join("    " + ln for ln in s.rstrip("\n").split("\n"))
