#!/bin/sh
# The results module installs as a package: `pip install ./analysis/python` into a fresh venv
# (with Debian's pandas from the system site packages; no network: --no-index), after which a
# python3 started anywhere, without PYTHONPATH, imports it from the venv, at the project's version.
#   pip_install_test.sh SOURCE_DIR VERSION
set -eu
source_dir=$1
version=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A copy: pip builds in the tree it is given (build/, *.egg-info), and the source stays clean.
cp -r "$source_dir/analysis/python" "$work/package"
rm -rf "$work/package/__pycache__"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-build-isolation "$work/package"
cd "$work"
unset PYTHONPATH
"$work/venv/bin/python" - "$work/venv" "$version" <<'PY'
import importlib.metadata, pathlib, sys
import gbesim_results
venv, version = pathlib.Path(sys.argv[1]), sys.argv[2]
where = pathlib.Path(gbesim_results.__file__).resolve()
assert venv.resolve() in where.parents, f"imported from {where}, not the venv"
assert importlib.metadata.version("gbesim-results") == version, importlib.metadata.version("gbesim-results")
assert callable(gbesim_results.load_sweep)
print(f"gbesim_results {version} from {where}")
PY
