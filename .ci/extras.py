"""Print the requirements of every optional extra in pyproject.toml, one per line
(``.ci/run`` installs them all so that no test of an extra is skipped in CI)."""
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
for requirement in sorted({r for extra in project["optional-dependencies"].values() for r in extra}):
    print(requirement)
