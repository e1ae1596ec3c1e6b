"""What the TPU rules are told about the chip the user compiles for (issue 37): the `tpu-generation`
setting, and what pallas-ls knows of each generation.

A rule that depends on the generation (PAL102's scoped VMEM limit) reads `RuleOptions.tpu_generation`
(ModuleAnalysis.options).  Without one, a finding must hold on every generation in the table: the
rule then uses the largest limit of them all, and its message says which generation and limit it used.
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class Generation:
    name: str
    # The compiler's default scoped VMEM limit (what `vmem_limit_bytes` replaces), in bytes.
    scoped_vmem: int
    # VMEM per TensorCore (jax/_src/pallas/mosaic/tpu_info.py `vmem_capacity_bytes`).
    physical_vmem: int
    evidence: str  # where the scoped limit comes from, for the rule's docs


GENERATIONS = {
    "v5e": Generation("v5e", 16 * MIB, 128 * MIB, "measured on a TPU v5e, JAX 0.10.2 (tests/tpu_cases/pal102)"),
    "v6e": Generation("v6e", 32 * MIB, 128 * MIB, "reported by users and kernel libraries (not measured here)"),
}


# Device kinds as JAX names them (`jax.devices()[0].device_kind`), for users who copy one.
_DEVICE_KINDS = {"tpu v5 lite": "v5e", "tpu v5e": "v5e", "tpu v6 lite": "v6e", "tpu v6e": "v6e"}


def generation_named(text: str) -> str | None:
    """The key of GENERATIONS a setting names: "v5e", "V5E", "tpu-v5e", "TPU v5 lite"; else None."""
    name = " ".join(text.lower().replace("-", " ").replace("_", " ").split())
    if name in _DEVICE_KINDS:
        return _DEVICE_KINDS[name]
    name = name.removeprefix("tpu").strip()
    return name if name in GENERATIONS else None


@dataclass(frozen=True)
class RuleOptions:
    """Settings the rules read (besides which rules run, which the front ends filter)."""

    tpu_generation: str | None = None  # a key of GENERATIONS; None: every generation in the table

    @property
    def cache_key(self) -> str:
        """What a cached finding depends on among these options ("" for the defaults)."""
        return f"tpu-generation={self.tpu_generation}" if self.tpu_generation else ""


DEFAULT_OPTIONS = RuleOptions()


def scoped_vmem_limit(options: RuleOptions) -> tuple[int, str]:
    """The default scoped VMEM limit a finding may assume, and how a message names it: the
    configured generation's, else the largest of the table (a finding then holds on all of them)."""
    generation = GENERATIONS.get(options.tpu_generation or "")
    if generation is not None:
        return generation.scoped_vmem, f"the default scoped VMEM limit of a TPU {generation.name}"
    largest = max(GENERATIONS.values(), key=lambda g: g.scoped_vmem)
    return largest.scoped_vmem, (
        f"the largest default scoped VMEM limit of the TPU generations pallas-ls knows ({largest.name}; "
        "set `tpu-generation` for yours)"
    )


def format_bytes(size: int) -> str:
    """1.5 MiB, 32 MiB, 640 KiB, 96 B: as a person reads a VMEM budget."""
    for unit, scale in (("MiB", MIB), ("KiB", 1024)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.2f} {unit}".replace(".00 ", " ")
    return f"{size} B"
