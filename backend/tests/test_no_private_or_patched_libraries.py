"""The app uses its libraries as their documentation says (issue #23): no private (underscore) module or name of
another package, and nothing of a third-party module replaced at run time. Ruff's PLC2701 refuses
`from package._private import name` and `from package import _private` in `make lint`; this test covers the forms
it does not see (`import package._private`) and monkey-patching: assigning to, or `setattr` on, anything
imported from outside the app."""

import ast
import sys
from pathlib import Path

import tradeideas

SOURCES = sorted(Path(tradeideas.__file__).parent.rglob("*.py"))


def _third_party(module: str) -> bool:
    top = module.split(".")[0]
    return top != "tradeideas" and top not in sys.stdlib_module_names


def _findings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    imported: set[str] = set()  # local names bound to a third-party module or something imported from one
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _third_party(alias.name):
                    imported.add((alias.asname or alias.name).split(".")[0])
                    if any(part.startswith("_") for part in alias.name.split(".")):
                        found.append(f"line {node.lineno}: imports private module {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and _third_party(node.module):
            imported |= {alias.asname or alias.name for alias in node.names}
            if any(part.startswith("_") for part in node.module.split(".")):
                found.append(f"line {node.lineno}: imports from private module {node.module}")
            found += [f"line {node.lineno}: imports private {a.name}" for a in node.names if a.name.startswith("_")]
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt | ast.expr):
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            targets = [ast.Attribute(value=node.args[0], attr="?")] if node.args else []
        for target in targets:
            base = target
            while isinstance(base, ast.Attribute):
                base = base.value
            if target is not base and isinstance(base, ast.Name) and base.id in imported:
                found.append(f"line {node.lineno}: changes {ast.unparse(target)}, which belongs to a library")
    return found


def test_no_module_imports_private_names_or_patches_a_library() -> None:
    findings = {str(path.relative_to(Path(tradeideas.__file__).parent)): _findings(path) for path in SOURCES}
    assert {path: lines for path, lines in findings.items() if lines} == {}


def test_the_check_sees_what_it_forbids(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import uvicorn.server\n"
        "import starlette._utils\n"
        "from uvicorn.server import Server\n"
        "from fastapi.routing import _iter_included_route_candidates\n"
        "Server.handle_exit = print\n"
        "setattr(uvicorn.server, 'x', 1)\n"
        "local = object()\n"
        "local.attribute = 1\n"
    )
    assert _findings(probe) == [
        "line 2: imports private module starlette._utils",
        "line 4: imports private _iter_included_route_candidates",
        "line 5: changes Server.handle_exit, which belongs to a library",
        "line 6: changes uvicorn.server.?, which belongs to a library",
    ]
