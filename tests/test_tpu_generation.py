"""The `tpu-generation` setting (issue 37): pyproject, `--tpu-generation`, the findings cache.

A 20 MiB kernel fails on a TPU v5e (16 MiB scoped limit) and not on a v6e (32 MiB): it is reported
with `tpu-generation = "v5e"` only; without the setting, PAL102 reports what fails everywhere.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from pallas_ls.config import ConfigError, Settings

CASES = pathlib.Path(__file__).with_name("tpu_cases") / "pal102"
TWENTY_MIB = (CASES / "block_sizes_from_a_wrapper.py").read_text()


def codes(out: str) -> list[str]:
    return [f["code"] for f in json.loads(out)]


@pytest.mark.parametrize(
    "written, name",
    [("v5e", "v5e"), ("V6E", "v6e"), ("tpu-v5e", "v5e"), ("TPU v5 lite", "v5e"), ("TPU v6 lite", "v6e")],
)
def test_generation_names(written, name):
    settings, warnings = Settings.from_mapping({"tpu-generation": written})
    assert (settings.tpu_generation, warnings) == (name, [])


@pytest.mark.parametrize("written", ["v9", "", 5, ["v5e"]])
def test_unknown_generation_is_a_warning_naming_the_key(written):
    settings, warnings = Settings.from_mapping({"tpuGeneration": written})
    assert settings.tpu_generation is None
    assert len(warnings) == 1 and "tpuGeneration" in warnings[0] and "v5e, v6e" in warnings[0]


def test_pyproject_flag_and_cache(run, tmp_path):
    (tmp_path / "kernel.py").write_text(TWENTY_MIB)
    # No setting: 20 MiB fits a v6e, so it is not a finding on every generation.
    assert codes(run("check", "--output-format", "json", "kernel.py")[1]) == []
    # The flag; the cache (used by both runs) keeps the two settings' findings apart.
    status, out, _ = run("check", "--output-format", "json", "--tpu-generation", "v5e", "kernel.py")
    assert (status, codes(out)) == (1, ["PAL102"])
    assert "16 MiB, the default scoped VMEM limit of a TPU v5e" in json.loads(out)[0]["message"]
    assert codes(run("check", "--output-format", "json", "--tpu-generation", "v6e", "kernel.py")[1]) == []
    assert codes(run("check", "--output-format", "json", "kernel.py")[1]) == []
    # The configuration file; the flag wins over it.
    (tmp_path / "pyproject.toml").write_text('[tool.pallas-ls]\ntpu-generation = "v5e"\n')
    assert codes(run("check", "--output-format", "json", "kernel.py")[1]) == ["PAL102"]
    assert codes(run("check", "--output-format", "json", "--tpu-generation", "v6e", "kernel.py")[1]) == []
    # Standard input reads the same settings.
    status, out, _ = run(
        "check", "--output-format", "json", "--stdin-filename", "kernel.py", "-", stdin=TWENTY_MIB.encode()
    )
    assert codes(out) == ["PAL102"]


def test_bad_generation_flag_is_a_usage_error(run, tmp_path):
    (tmp_path / "kernel.py").write_text(TWENTY_MIB)
    status, _, err = run("check", "--tpu-generation", "v99", "kernel.py")
    assert status == 2 and "--tpu-generation" in err and "v5e, v6e" in err


def test_bad_generation_in_pyproject_names_the_file(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pallas-ls]\ntpu-generation = "v99"\n')
    with pytest.raises(ConfigError, match="tpu-generation"):
        Settings.from_pyproject(str(tmp_path / "pyproject.toml"))


GENERIC_PALLAS = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


x = jnp.ones((8, 256), jnp.float32)
out = pl.pallas_call(
    add_one,
    grid=(4,),
    in_specs=[pl.BlockSpec((8, 64), lambda j: (0, j))],
    out_specs=pl.BlockSpec((8, 64), lambda j: (0, j)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
"""


@pytest.mark.parametrize(
    "imports, reported", [("", True), ("from jax.experimental.pallas import triton as plgpu\n", False)]
)
def test_a_configured_generation_names_the_target(run, tmp_path, imports, reported):
    """A module that imports neither Pallas's TPU nor its GPU API is a TPU module when the
    configuration names a TPU generation (issue 37's target awareness); one importing a GPU API
    never is."""
    (tmp_path / "kernel.py").write_text(imports + GENERIC_PALLAS)
    assert codes(run("check", "--output-format", "json", "kernel.py")[1]) == []
    configured = sorted(set(codes(run("check", "--output-format", "json", "--tpu-generation", "v5e", "kernel.py")[1])))
    assert configured == (["PAL101"] if reported else [])
