"""One module's analysis: the model, its launches and kernel sites, and what running rules over it means.

The engine knows no rule: `apply_rules` takes them, and `pallas_ls.lint` (above the engine and the
rules) hands it the registry.  `project.Project` adds the kernels that other files launch.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from .callbacks import CallbackBody, callback_bodies
from .cancel import StopCheck, stop_if
from .edits import fix_keeps_code_valid, noqa_fix
from .findings import SYNTAX_ERROR_CODE, Finding, Related, Severity
from .gcpause import paused_gc
from .is_none import ValueEvaluator
from .kernels import ForeignKernel, KernelSite, Launch, kernel_sites
from .launch_contexts import names_calling
from .launches import LaunchFinder
from .model import Loc, ModelParts, ModuleModel, positional_args
from .names import mentions_pallas
from .no_launches import NoLaunches, no_launches_after, no_launches_found
from .noqa import is_suppressed_at
from .source import SourceFile
from .target import DEFAULT_OPTIONS, RuleOptions
from .values.interpreter import NO_LOADER, Interpreter, Loader

log = logging.getLogger(__name__)


@dataclass(eq=False)
class ModuleAnalysis:
    """Everything the rules may ask about one module."""

    source: SourceFile
    model: ModuleModel
    launches: list[Launch]
    sites: list[KernelSite]  # kernels defined in this module, wherever they are launched
    imported: list[ForeignKernel]  # launches here of kernels defined elsewhere
    values: ValueEvaluator
    foreign_sites: list[KernelSite] = field(default_factory=list)
    # Names of this module's functions that may launch (wrappers another file can call).
    launching: frozenset[str] = frozenset()
    # When the module launches nothing: what showed it, for the next version (no_launches.NoLaunches).
    no_launches: NoLaunches | None = None
    # The options of the rules running on it (the TPU generation): apply_rules sets them.
    options: RuleOptions = DEFAULT_OPTIONS

    @property
    def path(self) -> str | None:
        return self.source.path

    @functools.cached_property
    def callbacks(self) -> list[CallbackBody]:
        """Functions handed to pl.when, pipelines and loops (computed once, shared by the rules)."""
        return callback_bodies(self.model)

    @property
    def all_sites(self) -> list[KernelSite]:
        return self.sites + self.foreign_sites

    @property
    def kernel_functions(self) -> dict[int, int]:
        """id(kernel function) -> how many leading positional parameters partial binds."""
        return {id(site.function): site.target.bound_positional for site in self.all_sites}

    def launch_related(self, site: KernelSite) -> Related:
        path = site.launch_path or self.path
        source_range = (
            site.launch_source.node_range(site.launch.node)
            if site.launch_source
            else self.source.node_range(site.launch.node)
        )
        return Related(path, source_range, f"launched by {site.launch.label} here")


def analyze(source: SourceFile, loader: Loader = NO_LOADER) -> ModuleAnalysis:
    """Build the model and find the kernels of one module (cheap when it never mentions Pallas).

    `loader` finds the project modules its imports name (none: the module is analysed alone)."""
    with paused_gc():
        return analyze_model(source, ModuleModel(source.tree), loader)


def analyze_model(
    source: SourceFile,
    model: ModuleModel,
    loader: Loader = NO_LOADER,
    should_stop: StopCheck = None,
    previous: NoLaunches | None = None,
    changed: list[ModelParts] | None = None,
    dropped: list[ModelParts] | None = None,
) -> ModuleAnalysis:
    """Find the launches and kernels of a module whose model is built (Cancelled when
    `should_stop` says so while launches are looked for: only this analysis' objects are left
    half made).

    `previous`: the last version launched nothing, and `changed` / `dropped` are the model parts
    the edit made and removed; when the edit cannot have made anything launch, only its blocks
    are searched (no_launches.no_launches_after)."""
    interp = Interpreter(model, loader)
    model._interpreter = interp  # type: ignore[attr-defined]  # for questions asked with a bare model
    launches: list[Launch] = []
    sites: list[KernelSite] = []
    imported: list[ForeignKernel] = []
    launching: frozenset[str] = frozenset()
    evidence = None
    # A project analysis (with a loader) may launch through an imported wrapper without ever
    # saying "pallas"; the project decides which files are worth it.
    if mentions_pallas(source.text) or loader is not NO_LOADER:
        if previous is not None and changed is not None and dropped is not None:
            evidence = no_launches_after(previous, LaunchFinder(interp, should_stop), model, changed, dropped)
        if evidence is None:
            interp = Interpreter(model, loader)  # afresh: the attempt may have left a partial search
            model._interpreter = interp  # type: ignore[attr-defined]  # the model's interpreter, for questions asked with a bare model
            finder = LaunchFinder(interp, should_stop)
            found = finder.run(model)
            stop_if(should_stop)
            sites, imported = kernel_sites(model, found)
            launches = [launch for launch in found if launch.model is model]
            launching = _wrappers(model, found, finder)
            evidence = no_launches_found(finder, model, found)
    return ModuleAnalysis(
        source,
        model,
        launches,
        sites,
        imported,
        ValueEvaluator(model, interp),
        launching=launching,
        no_launches=evidence,
    )


def _wrappers(model: ModuleModel, found: list[Launch], finder: LaunchFinder) -> frozenset[str]:
    """Names of the module's functions that hand a parameter to an entry point as its kernel
    (`def run(kernel, x): return pl.pallas_call(kernel, ...)(x)`, `launch(*args, **kwargs)`):
    a file calling one of them launches a kernel it may define itself.  And those whose calls
    here decided what they launch (`run("copy")` of `def run(name)`): another file's call may
    launch what no call here does."""
    from .values.domain import Func, Param, Partial

    names: set[str] = set()
    for launch in found:
        if launch.model is not model or launch.env.items:
            continue
        for value in launch.kernel_values:
            while isinstance(value, Partial):
                value = value.target
            params = [value] if isinstance(value, Param) else []
            if isinstance(value, Func):  # a closure made from the function's parameters (a factory)
                params = [v for _, values in value.env.items for v in values if isinstance(v, Param)]
            for value in params:
                scope = value.binding.scope
                name = getattr(scope.node, "name", "")
                if name == "__init__" and scope.parent is not None:  # `Op(kernel)`: the class is called
                    name = getattr(scope.parent.node, "name", "")
                names.add(name)
    for launch in found:
        if launch.model is model and not launch.env.items:
            for expr, loc in launch.kernel_exprs:
                if _undecided_by_a_parameter(launch, expr, loc):
                    # `getattr(kernels, name)` of a parameter `name`: another file's call decides it
                    names.add(getattr(loc.scope.node, "name", ""))
                if _read_from_the_receiver(expr, loc):
                    # `pl.pallas_call(self.kernel, ...)`: a subclass elsewhere may override it
                    names |= names_calling(model, loc.scope.node)  # type: ignore[arg-type]  # a method
    for function in finder._launching_in(model).values():
        for call in finder._calls_in_node(model, function):
            if call.args and isinstance(call.args[0], ast.Starred):
                names.add(getattr(function, "name", ""))
    names |= finder.decided_by_calls
    names.discard("")
    return frozenset(names)


def _undecided_by_a_parameter(launch: Launch, expr: ast.AST, loc: Loc) -> bool:
    """The kernel is not known in the launching function's generic context, and its expression
    reads one of the function's parameters: a caller's argument may decide it."""
    from .values.domain import Unknown

    if not any(isinstance(v, Unknown) for v in launch.kernel_values):
        return False
    return any(
        isinstance(node, ast.Name) and any(b.kind == "param" for b in loc.scope.bindings.get(node.id, []))
        for node in ast.walk(expr)
    )


def _read_from_the_receiver(expr: ast.AST, loc: Loc) -> bool:
    """`self.kernel` (`self._kernel`, `type(self).kernel`) in a method of a class."""
    method = loc.scope.node
    owner = loc.scope.parent
    if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or owner is None or owner.kind != "class":
        return False
    params = positional_args(method)
    if not params or not isinstance(expr, ast.Attribute):
        return False
    receiver = expr.value
    if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "type":
        receiver = receiver.args[0] if len(receiver.args) == 1 else receiver
    return isinstance(receiver, ast.Name) and receiver.id == params[0].arg


class RuleCheck(Protocol):
    """What the engine needs of a rule (pallas_ls.rules.base.Rule is one)."""

    @property
    def code(self) -> str: ...

    @property
    def check(self) -> Callable[[ModuleAnalysis], Iterable[Finding]]: ...


# analysis -> its findings: a rule set bound to `apply_rules` (pallas_ls.lint.run_rules is the product's).
Linter = Callable[[ModuleAnalysis], list[Finding]]


def apply_rules(
    analysis: ModuleAnalysis,
    rules: Iterable[RuleCheck],
    codes: Collection[str] | None = None,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> list[Finding]:
    """Run `rules` (those in `codes`, when given) with `options` and drop findings silenced by `# noqa`.

    A rule that fails is logged and skipped: the other rules' findings are still reported.
    """
    analysis.options = options
    with paused_gc():
        return _run_rules(analysis, rules, codes)


def _run_rules(analysis: ModuleAnalysis, rules: Iterable[RuleCheck], codes: Collection[str] | None) -> list[Finding]:
    findings: list[Finding] = []
    for rule in rules:
        if codes is not None and rule.code not in codes:
            continue
        try:
            # All of a rule's findings or none: what a rule yielded before failing may be
            # inconsistent with what it would have reported.
            produced = list(rule.check(analysis))
        except Exception:  # noqa: BLE001 - one broken rule must not hide the others
            log.exception("rule %s failed on %s", rule.code, analysis.path)
            continue
        for finding in produced:
            finding.path = finding.path or analysis.path
            _finish_fixes(analysis.source, finding)
            findings.append(finding)
    findings.extend(syntax_findings(analysis.source))
    kept = [f for f in findings if not is_suppressed_at(f.code, analysis.source, f.range.start.line)]
    return sorted(_distinct(kept), key=lambda f: f.sort_key)


def _distinct(findings: list[Finding]) -> list[Finding]:
    """One finding per (place, code, message): a kernel launched in two calling contexts (a method
    reached through an instance and on its own) can make a rule say the same thing twice."""
    seen: dict[tuple[object, ...], Finding] = {}
    for finding in findings:
        seen.setdefault(finding.sort_key, finding)
    return list(seen.values())


def _finish_fixes(source: SourceFile, finding: Finding) -> None:
    """Drop fixes whose result would not parse, and add "Disable CODE for this line" to every finding.

    A file that does not parse gets no fixes at all: whether a fixed text parses cannot be told,
    and `--fix` leaves such files alone.
    """
    if source.syntax_problems:
        finding.fixes = []
    finding.fixes = [fix for fix in finding.fixes if fix_keeps_code_valid(source, fix)]
    if finding.fixes and not any(fix.preferred for fix in finding.fixes):
        first = finding.fixes[0]
        finding.fixes[0] = dataclasses.replace(first, preferred=True)
    suppression = noqa_fix(source, finding)
    if suppression is not None:
        finding.fixes.append(suppression)


def syntax_findings(source: SourceFile) -> list[Finding]:
    return [
        Finding(SYNTAX_ERROR_CODE, problem.message, problem.range, source.path, Severity.ERROR)
        for problem in source.syntax_problems
    ]
