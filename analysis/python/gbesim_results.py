"""gbesim results as pandas DataFrames (the standard library and Debian's python3-pandas only).

    import gbesim_results as g
    summary = g.load_sweep("results/carrier-extension-waste")            # per point and scalar
    runs = g.load_sweep("results/carrier-extension-waste", per_run=True)  # per run, wide
    scalars = g.load_run("results/default")                               # one run's scalars
    series = g.load_series("results/default")                             # series.csv, typed
    flows = g.load_flows("results/default")                               # flows.csv, typed
    df = g.read_sql("results/pci-ceiling", "SELECT * FROM summary WHERE name = 'sent_throughput'")

Typed sweep columns: a swept axis whose values are all numbers is a numeric column; an axis of
labels ("1000 Mb/s", "half duplex + extension") stays text, ordered as the sweep lists it
(categorical), and every number, boolean or string a point's label sets (sweep.json `points`)
gets its own column named by its path ("rate_mbps", "mac.frame_bursting"), so the numbers behind
a label are numbers. Empty fields (a value that does not exist) are NaN, never the text "nan".
The file formats are docs/results.md's.
"""

import json
import pathlib
import sqlite3

import pandas as pd

__all__ = ["axes", "load_sweep", "load_run", "load_series", "load_flows", "connect", "read_sql"]


def _dir(path):
    d = pathlib.Path(path)
    if not d.is_dir():
        raise FileNotFoundError(f"{path}: no such results directory")
    return d


def axes(path):
    """The swept axes of a sweep directory, in order (summary.csv's columns between `point` and
    `component`)."""
    header = (_dir(path) / "summary.csv").read_text().split("\n", 1)[0]
    columns = pd.read_csv(pd.io.common.StringIO(header + "\n")).columns.tolist()
    return columns[columns.index("point") + 1 : columns.index("component")]


def _typed_axes(df, sweep_dir, names):
    """Axis columns typed: numbers numeric, labels categorical in sweep order; the values each
    point's label sets added as columns of their own."""
    description = json.loads((sweep_dir / "sweep.json").read_text())
    for name in names:
        as_numbers = pd.to_numeric(df[name], errors="coerce")
        if as_numbers.notna().all():
            df[name] = as_numbers
        else:
            order = list(dict.fromkeys(df[name].astype(str)))
            df[name] = pd.Categorical(df[name].astype(str), categories=order, ordered=True)
    sets = description.get("points", [])
    scalar_paths = []
    for point_set in sets:
        for path, value in point_set.items():
            if path in names or path in scalar_paths:
                continue
            if isinstance(value, (bool, int, float, str)):
                scalar_paths.append(path)
    added = {}
    for path in scalar_paths:
        values = [s.get(path) for s in sets]
        kinds = {type(v) for v in values if v is not None}
        column = df["point"].map(lambda p, values=values: values[int(p)])
        if kinds <= {int, float}:
            column = pd.to_numeric(column)
        elif kinds == {bool}:
            column = column.astype("boolean")
        added[path] = column
    return pd.concat([df, pd.DataFrame(added, index=df.index)], axis=1) if added else df


def load_sweep(path, per_run=False):
    """A sweep directory as a DataFrame.

    per_run=False: summary.csv, one row per point and scalar: the axes (typed), component, name,
    unit, n, mean, ci95_half_width (numbers), status.
    per_run=True: points.csv, one row per run: run, point, replication, seed, status, the axes
    (typed), then one numeric column per scalar (`component.name`)."""
    d = _dir(path)
    names = axes(d)
    if per_run:
        df = pd.read_csv(d / "points.csv", dtype={n: str for n in names}, keep_default_na=False)
        fixed = {"run", "point", "replication", "seed", "status", *names}
        for column in df.columns:
            if column not in fixed:
                df[column] = pd.to_numeric(df[column].replace("", float("nan")), errors="coerce")
    else:
        df = pd.read_csv(
            d / "summary.csv",
            dtype={**{n: str for n in names}, "component": str, "name": str, "unit": str},
            keep_default_na=False,
        )
        for column in ("n", "mean", "ci95_half_width"):
            df[column] = pd.to_numeric(df[column].replace("", float("nan")))
    return _typed_axes(df, d, names)


def load_run(path):
    """One run's scalars.csv: component, name, unit (text) and value (a number; NaN where the
    statistic has no value)."""
    d = _dir(path)
    df = pd.read_csv(d / "scalars.csv", dtype={"component": str, "name": str, "unit": str},
                     keep_default_na=False)
    df["value"] = pd.to_numeric(df["value"].replace("", float("nan")))
    return df


def load_flows(path):
    """flows.csv of a run directory: one row per flow (flow, from, to as text; every count,
    ratio, throughput, delay and jitter numeric, NaN where the flow has no value)."""
    d = _dir(path)
    df = pd.read_csv(d / "flows.csv", dtype={"flow": str, "from": str, "to": str},
                     keep_default_na=False)
    for column in df.columns[3:]:
        df[column] = pd.to_numeric(df[column].replace("", float("nan")))
    return df


def load_series(path):
    """series.csv of a run directory, or of every run of a sweep (with a `run` column):
    time_s and value numeric."""
    d = _dir(path)
    frames = []
    if (d / "series.csv").exists():
        frames.append(pd.read_csv(d / "series.csv", keep_default_na=False))
    else:
        for run_dir in sorted((d / "runs").glob("*"), key=lambda p: int(p.name)):
            if (run_dir / "series.csv").exists():
                f = pd.read_csv(run_dir / "series.csv", keep_default_na=False)
                f.insert(0, "run", int(run_dir.name))
                frames.append(f)
    if not frames:
        raise FileNotFoundError(f"{path}: no series.csv (record one with --series 1ms)")
    df = pd.concat(frames, ignore_index=True)
    for column in ("time_s", "value"):
        df[column] = pd.to_numeric(df[column].replace("", float("nan")))
    return df


def connect(path):
    """The sweep's results.sqlite (tables axes, points, parameters, runs, scalars, summary,
    series: docs/results.md), read-only."""
    file = _dir(path) / "results.sqlite"
    if not file.exists():
        raise FileNotFoundError(f"{file}: not written (a sweep writes it when it ends)")
    return sqlite3.connect(f"file:{file}?mode=ro", uri=True)


def read_sql(path, query, params=()):
    """A query on the sweep's results.sqlite as a DataFrame."""
    with connect(path) as db:
        return pd.read_sql_query(query, db, params=params)
