"""gbesim results as pandas DataFrames (the standard library and Debian's python3-pandas only).

    import gbesim_results as g
    summary = g.load_sweep("results/carrier-extension-waste")            # per point and scalar
    runs = g.load_sweep("results/carrier-extension-waste", per_run=True)  # per run, wide
    scalars = g.load_run("results/default")                               # one run's scalars
    series = g.load_series("results/default")                             # series.csv, typed
    flows = g.load_flows("results/default")                               # flows.csv, typed
    df = g.read_sql("results/pci-ceiling", "SELECT * FROM summary WHERE name = 'sent_throughput'")

Results are read as untrusted input, as gbesim reads them (docs/results.md): only regular files
(a FIFO, device, directory or link raises ValueError instead of blocking), at most 64 MiB, each
checked against the size and CRC-32 its sealed record (run.json, sweep.json) lists; a damaged
file raises ValueError naming it.

Typed sweep columns: a swept axis whose values are all numbers is a numeric column; an axis of
labels ("1000 Mb/s", "half duplex + extension") stays text, ordered as the sweep lists it
(categorical), and every number, boolean or string a point's label sets (sweep.json `points`)
gets its own column named by its path ("rate_mbps", "mac.frame_bursting"), so the numbers behind
a label are numbers. Empty fields (a value that does not exist) are NaN, never the text "nan".
The file formats are docs/results.md's.
"""

import io
import json
import os
import pathlib
import sqlite3
import stat
import zlib

import pandas as pd

__all__ = ["axes", "load_sweep", "load_run", "load_series", "load_flows", "connect", "read_sql"]


MAX_BYTES = 64 << 20  # as gbesim's own readers (analysis/result_files.hpp)
_SEAL = b',\n  "record_crc32": "'


def _dir(path):
    d = pathlib.Path(path)
    if not d.is_dir():
        raise FileNotFoundError(f"{path}: no such results directory")
    return d


def _bytes(file):
    """A regular file's bytes: opened without following a link or blocking, at most MAX_BYTES."""
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError as e:
        raise ValueError(f"{file}: cannot be read ({e.strerror}; gbesim writes regular files)")
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{file}: is not a regular file; expected a file gbesim wrote")
        if info.st_size > MAX_BYTES:
            raise ValueError(f"{file}: has {info.st_size} bytes; results files are read up to 64 MiB")
        return f.read(MAX_BYTES + 1)


def _record(file):
    """A record gbesim wrote (run.json, sweep.json): a JSON object whose seal, when it has one,
    is intact (record_crc32: the CRC-32 of every byte before it)."""
    data = _bytes(file)
    at = data.rfind(_SEAL)
    if at >= 0 or b'"record_crc32"' in data:
        tail = data[at + len(_SEAL):] if at >= 0 else b""
        intact = (at >= 0 and len(tail) == 12 and tail[8:] == b'"\n}\n'
                  and all(c in b"0123456789abcdef" for c in tail[:8])
                  and int(tail[:8], 16) == zlib.crc32(data[:at]))
        if not intact:
            raise ValueError(f"{file}: damaged: its record_crc32 does not match its text")
    try:
        record = json.loads(data.decode("utf-8"))
    except ValueError:
        raise ValueError(f"{file}: not valid JSON")
    if not isinstance(record, dict):
        raise ValueError(f"{file}: expected a JSON object")
    return record


def _text(directory, name, record):
    """directory/name as text, checked against the record's "files" when it has them."""
    file = directory / name
    data = _bytes(file)
    files = record.get("files") if isinstance(record, dict) else None
    if isinstance(files, dict) and files:
        check = files.get(name)
        if not isinstance(check, dict) or check.get("bytes") != len(data) or \
                check.get("crc32") != f"{zlib.crc32(data):08x}":
            raise ValueError(f"{file}: damaged: not the size and CRC-32 its record lists")
    return data.decode("utf-8")


def _csv(directory, name, record, **options):
    return pd.read_csv(io.StringIO(_text(directory, name, record)), keep_default_na=False,
                       **options)


def axes(path):
    """The swept axes of a sweep directory, in order (summary.csv's columns between `point` and
    `component`)."""
    d = _dir(path)
    header = _text(d, "summary.csv", _record(d / "sweep.json")).split("\n", 1)[0]
    columns = pd.read_csv(pd.io.common.StringIO(header + "\n")).columns.tolist()
    return columns[columns.index("point") + 1 : columns.index("component")]


def _typed_axes(df, sweep_dir, names):
    """Axis columns typed: numbers numeric, labels categorical in sweep order; the values each
    point's label sets added as columns of their own."""
    description = _record(sweep_dir / "sweep.json")
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
        if len(df) and df["point"].astype(int).max() >= len(values):
            raise ValueError(f"{sweep_dir / 'summary.csv'}: a point that sweep.json does not list")
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
    record = _record(d / "sweep.json")
    if per_run:
        df = _csv(d, "points.csv", record, dtype={n: str for n in names})
        fixed = {"run", "point", "replication", "seed", "status", *names}
        for column in df.columns:
            if column not in fixed:
                df[column] = pd.to_numeric(df[column].replace("", float("nan")), errors="coerce")
    else:
        df = _csv(d, "summary.csv", record,
                  dtype={**{n: str for n in names}, "component": str, "name": str, "unit": str})
        for column in ("n", "mean", "ci95_half_width"):
            df[column] = pd.to_numeric(df[column].replace("", float("nan")))
    return _typed_axes(df, d, names)


def load_run(path):
    """One run's scalars.csv: component, name, unit (text) and value (a number; NaN where the
    statistic has no value)."""
    d = _dir(path)
    df = _csv(d, "scalars.csv", _record(d / "run.json"),
              dtype={"component": str, "name": str, "unit": str})
    df["value"] = pd.to_numeric(df["value"].replace("", float("nan")))
    return df


def load_flows(path):
    """flows.csv of a run directory: one row per flow (flow, from, to as text; every count,
    ratio, throughput, delay and jitter numeric, NaN where the flow has no value)."""
    d = _dir(path)
    df = _csv(d, "flows.csv", _record(d / "run.json"), dtype={"flow": str, "from": str, "to": str})
    for column in df.columns[3:]:
        df[column] = pd.to_numeric(df[column].replace("", float("nan")))
    return df


def load_series(path):
    """series.csv of a run directory, or of every run of a sweep (with a `run` column):
    time_s and value numeric."""
    d = _dir(path)
    frames = []
    if (d / "series.csv").exists():
        frames.append(_csv(d, "series.csv", _record(d / "run.json")))
    else:
        runs = [r for r in (d / "runs").glob("*") if r.name.isdigit()]
        for run_dir in sorted(runs, key=lambda p: int(p.name)):
            if (run_dir / "series.csv").exists():
                f = _csv(run_dir, "series.csv", _record(run_dir / "run.json"))
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
