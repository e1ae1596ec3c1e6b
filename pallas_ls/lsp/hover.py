"""Hover over a kernel's def line or an entry-point call: the kernel's parameters and their roles
(scalar prefetch / input / output / scratch / bound by partial) and where it is launched; over a
pallas_call compiled for a TPU, its VMEM estimate block by block against the scoped limit (issue 37)."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, replace

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import compiled_for_tpu
from ..engine.kernels import KernelSite, Launch, kernel_name
from ..engine.layout import BOUND, SCRATCH, launch_layout, parameter_roles
from ..engine.model import positional_args
from ..engine.source import Position, Range
from ..engine.target import format_bytes
from ..engine.values.domain import UNREAD_SPLAT
from ..engine.vmem import VmemEstimate, assumed_limit, vmem_estimate


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
    vmem: VmemInfo | None = None  # over a TPU pallas_call: its VMEM estimate


@dataclass(frozen=True)
class VmemInfo:
    estimate: VmemEstimate
    limit: int | None  # None: the compiler params may set one not read here
    limit_named: str


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
    bound_kw = set(site.target.bound_keywords) - {UNREAD_SPLAT}
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
                info = _info(analysis, [site] + [s for s in sites if s is not site], call_range)
                return replace(info, vmem=_vmem(analysis, site.launch))
    return None


def _vmem(analysis: ModuleAnalysis, launch: Launch) -> VmemInfo | None:
    """The VMEM estimate of a launch compiled for a TPU, with the limit PAL102 compares it to."""
    try:
        configured = analysis.options.tpu_generation is not None
        if not compiled_for_tpu(launch, analysis.model, analysis.source.text, configured):
            return None
        estimate = vmem_estimate(launch)
    except Exception:  # noqa: BLE001 - a hover without VMEM is better than none
        return None
    if estimate is None or not (estimate.shares or estimate.scratch):
        return None
    assumed = assumed_limit(estimate, analysis.options)
    if assumed is None:
        return VmemInfo(estimate, None, "its compiler params may set one not read here")
    return VmemInfo(estimate, *assumed)


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
        if info.vmem is not None:
            lines += ["", *_vmem_markdown(info.vmem)]
        return "\n".join(lines)
    lines = [f"Pallas kernel {info.name}"]
    lines += [f"  {name}: {role or 'unknown'}" for name, role in info.roles]
    lines += [f"Launched by {place(launch)}" for launch in info.launches]
    if info.vmem is not None:
        lines += _vmem_text(info.vmem)
    return "\n".join(lines)


def _verdict(vmem: VmemInfo) -> str:
    total = format_bytes(vmem.estimate.total)
    if vmem.limit is None:
        return f"at least {total}"
    over = " — over the limit" if vmem.estimate.total > vmem.limit else ""
    return f"at least {total} of {format_bytes(vmem.limit)}{over}"


def _footnote(vmem: VmemInfo) -> list[str]:
    estimate = vmem.estimate
    notes = [f"Limit: {vmem.limit_named}."]
    left_out = ["padding to (8, 128) tiles", "the compiler's own buffers"]
    if estimate.unknown:
        left_out.insert(0, f"{estimate.unknown} block{'s' * (estimate.unknown != 1)} of unknown size")
    notes.append("A lower bound: it leaves out " + ", ".join(left_out[:-1]) + " and " + left_out[-1] + ".")
    if estimate.scratch:
        scratch = ", ".join(f"{s.shape} {s.dtype} = {format_bytes(s.bytes)}" for s in estimate.scratch)
        notes.append(f"Scratch, not counted against the limit: {scratch}.")
    return notes


def _vmem_markdown(vmem: VmemInfo) -> list[str]:
    lines = [f"**VMEM on a TPU**: {_verdict(vmem)}", ""]
    if vmem.estimate.shares:
        lines += ["| block | shape | dtype | buffers | bytes |", "|---|---|---|---|---|"]
        for share in vmem.estimate.shares:
            lines.append(
                f"| {share.role} | {share.block} | {share.dtype} | {share.buffers} ({share.why}) | "
                f"{format_bytes(share.bytes)} |"
            )
        lines += [f"| **total** | | | | **{format_bytes(vmem.estimate.total)}** |", ""]
    return lines + _footnote(vmem)


def _vmem_text(vmem: VmemInfo) -> list[str]:
    lines = [f"VMEM on a TPU: {_verdict(vmem)}"]
    for share in vmem.estimate.shares:
        lines.append(
            f"  {share.role}: {share.block} {share.dtype} x {share.buffers} ({share.why}) = {format_bytes(share.bytes)}"
        )
    return lines + _footnote(vmem)
