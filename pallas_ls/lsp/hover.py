"""Hover over a kernel's def line or an entry-point call: the kernel's parameters and their roles
(scalar prefetch / input / output / scratch / bound by partial) and where it is launched."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass

from ..engine.analysis import ModuleAnalysis
from ..engine.kernels import KernelSite, kernel_name
from ..engine.layout import BOUND, SCRATCH, launch_layout, parameter_roles
from ..engine.model import positional_args
from ..engine.source import Position, Range


@dataclass(frozen=True)
class LaunchInfo:
    label: str
    path: str | None  # None: this file
    line: int  # 1-based


@dataclass(frozen=True)
class KernelInfo:
    name: str
    roles: tuple[tuple[str, str | None], ...]  # (parameter, role or None when not known)
    launches: tuple[LaunchInfo, ...]
    range: Range  # what the hover is attached to


def _header_range(analysis: ModuleAnalysis, function) -> Range:
    """The def line(s) of a function, up to its body; the whole lambda for a lambda."""
    source = analysis.source
    if isinstance(function, ast.Lambda):
        return source.node_range(function)
    first = function.lineno - 1
    last = max(first, (function.body[0].lineno - 2) if function.body else first)
    last = min(last, function.end_lineno - 1 if function.end_lineno else last)
    return Range(Position(first, 0), Position(last, len(source.line_text(last))))


def _name_range(analysis: ModuleAnalysis, function, header: Range) -> Range:
    if isinstance(function, ast.Lambda):
        return header
    line = function.lineno - 1
    text = analysis.source.line_text(line)
    marker = f"def {function.name}"
    at = text.find(marker)
    if at < 0:
        return header
    start = at + 4
    return Range(Position(line, start), Position(line, start + len(function.name)))


def _contains(rng: Range, pos: Position) -> bool:
    return rng.start <= pos <= rng.end


def _roles(site: KernelSite) -> tuple[tuple[str, str | None], ...]:
    function = site.function
    args = function.args
    positional = [a.arg for a in positional_args(function)]
    bound_pos = set(positional[: site.target.bound_positional])
    bound_kw = set(site.target.bound_keywords)
    roles: dict[str, str | None] = {}
    try:
        layout = launch_layout(site.launch)
        for item in parameter_roles(site, layout):
            roles[item.name] = item.role
        for name in layout.scratch_keywords:  # scratch passed by keyword
            roles.setdefault(name, SCRATCH)
    except Exception:  # noqa: BLE001 - a hover without roles is better than none
        roles = {}
    result: list[tuple[str, str | None]] = []
    for name in positional + [a.arg for a in args.kwonlyargs]:
        if name in bound_pos or name in bound_kw:
            result.append((name, BOUND))
        else:
            result.append((name, roles.get(name)))
    if args.vararg is not None:
        result.append(("*" + args.vararg.arg, roles.get(args.vararg.arg)))
    return tuple(result)


def describe_at(analysis: ModuleAnalysis, position: Position) -> KernelInfo | None:
    """The kernel whose def header or launch call contains `position`, if any."""
    by_function: dict[int, list[KernelSite]] = {}
    for site in analysis.all_sites:
        by_function.setdefault(id(site.function), []).append(site)
    for sites in by_function.values():
        function = sites[0].function
        header = _header_range(analysis, function)
        if _contains(header, position):
            return _info(analysis, sites, _name_range(analysis, function, header))
    for sites in by_function.values():
        for site in sites:
            if site.launch_path and site.launch_path != analysis.path:
                continue
            call_range = analysis.source.node_range(site.launch.node)
            if _contains(call_range, position):
                return _info(analysis, [site] + [s for s in sites if s is not site], call_range)
    return None


def _info(analysis: ModuleAnalysis, sites: list[KernelSite], rng: Range) -> KernelInfo:
    launches = []
    seen = set()
    for site in sites:
        path = site.launch_path if site.launch_path and site.launch_path != analysis.path else None
        key = (site.launch.label, path, site.launch.line)
        if key not in seen:
            seen.add(key)
            launches.append(LaunchInfo(site.launch.label, path, site.launch.line))
    return KernelInfo(kernel_name(sites[0].function), _roles(sites[0]), tuple(launches), rng)


def render(info: KernelInfo, markdown: bool) -> str:
    def place(launch: LaunchInfo) -> str:
        where = f"{os.path.basename(launch.path)}:{launch.line}" if launch.path else f"line {launch.line}"
        return f"{launch.label} at {where}"

    if markdown:
        lines = [f"**Pallas kernel** `{info.name}`", ""]
        if info.roles:
            lines += ["| parameter | role |", "|---|---|"]
            lines += [f"| `{name}` | {role or 'unknown'} |" for name, role in info.roles]
            lines.append("")
        lines.append("Launched by " + ("" if len(info.launches) == 1 else f"{len(info.launches)} calls:"))
        if len(info.launches) == 1:
            lines[-1] += place(info.launches[0])
        else:
            lines += [f"- {place(launch)}" for launch in info.launches]
        return "\n".join(lines)
    lines = [f"Pallas kernel {info.name}"]
    lines += [f"  {name}: {role or 'unknown'}" for name, role in info.roles]
    lines += [f"Launched by {place(launch)}" for launch in info.launches]
    return "\n".join(lines)
